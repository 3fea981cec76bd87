r"""Real Ginibre word moments by the Schwinger-Dyson (loop) equations: an independent exact route.

``G`` is ``n x n`` with iid ``N(0, 1)`` entries. Gaussian integration by parts, ``E[G_ij F(G)] =
E[dF / dG_ij]``, applied to the first letter of the first trace of ``E prod_r tr(W_r)`` (words in ``G``
and ``G^T``) removes two letters and gives a finite recursion with integer coefficients. Write the first
word as ``tr(G X)`` (a cyclic word can always be rotated, or transposed, ``tr W = tr W^T``, to start with
``G``); summing ``d/dG_ij`` of ``X_ji prod_r tr(W_r)`` over ``i, j``:

* a letter ``G`` in ``X = A G B`` gives ``tr(A^T B)`` (one trace);
* a letter ``G^T`` in ``X = A G^T B`` gives ``tr(A) tr(B)`` (two traces; ``tr(I) = n``);
* a letter ``G`` of another trace, rotated to ``tr(G D)``, merges it: ``tr(X^T D)``;
* a letter ``G^T`` of another trace, rotated to ``tr(G^T D)``, merges it: ``tr(X D)``.

The states are multisets of cyclic words up to rotation and transposition (a canonical form), memoised;
the values are polynomials in n with integer coefficients (entry j: coefficient of ``n**j``). The cost is
exponential (the number of states), but it shares nothing with the Pfaffian route of
:mod:`numerics.signal_propagation.real_wick_pfaffian` nor with the matching enumeration of :mod:`numerics.signal_propagation.real_wick`.

>>> loop_equation_polynomial(3)          # E tr((G^3)^T G^3) = n^4 + 10 n^2 + 4 n
[0, 4, 10, 0, 1]
>>> word_moment("0011")                  # E tr(G G G^T G^T) = E tr(G^2 (G^2)^T) again, k = 2
[0, 2, 0, 1]
"""

from __future__ import annotations

from theory._args import as_int

__all__ = ["loop_equation_polynomial", "word_moment", "word_moments", "K_MAX_LOOP"]

K_MAX_LOOP = 18            # k = 16 takes seconds to a minute; beyond that the state count explodes
_FLIP = str.maketrans("01", "10")


def _transpose(word: str) -> str:
    """The word of ``W^T``: reversed, each ``G`` ("0") swapped with ``G^T`` ("1")."""
    return word[::-1].translate(_FLIP)


def _canonical(word: str) -> str:
    """The least rotation of the word or of its transpose (``tr W = tr W^T``); it starts with "0" (= G)."""
    best = word
    for w in (word, _transpose(word)):
        for r in range(len(w)):
            cand = w[r:] + w[:r]
            if cand < best:
                best = cand
    return best


def _add(acc: list[int], poly: list[int], shift: int) -> None:
    """``acc += n^shift * poly`` in place."""
    need = len(poly) + shift
    if len(acc) < need:
        acc.extend([0] * (need - len(acc)))
    for j, c in enumerate(poly):
        acc[j + shift] += c


def _state(words) -> tuple[tuple[str, ...], int]:
    """Canonical multiset of the non-empty words and the number of empty ones (each a factor ``tr I = n``)."""
    empty = sum(1 for w in words if not w)
    return tuple(sorted(_canonical(w) for w in words if w)), empty


def _moment(state: tuple[str, ...], memo: dict) -> list[int]:
    if not state:
        return [1]
    if state in memo:
        return memo[state]
    first, rest = state[0], list(state[1:])
    X = first[1:]                                             # state[0] is tr(G X): canonical words start with G
    terms = []
    for pos, letter in enumerate(X):
        A, B = X[:pos], X[pos + 1:]
        terms.append(rest + ([_transpose(A) + B] if letter == "0" else [A, B]))
    Xt = _transpose(X)
    for idx, Y in enumerate(rest):
        others = rest[:idx] + rest[idx + 1:]
        for q, letter in enumerate(Y):
            D = Y[q + 1:] + Y[:q]
            terms.append(others + [(Xt if letter == "0" else X) + D])
    acc: list[int] = [0]
    for words in terms:
        sub, empty = _state(words)
        _add(acc, _moment(sub, memo), empty)
    memo[state] = acc
    return acc


def word_moment(words) -> list[int]:
    """``E prod_r tr(W_r)`` for ``words``: one word or a sequence of words, each a string over "0" (``G``)
    and "1" (``G^T``) read left to right; an empty word is ``tr(I) = n``. Total length must be even (odd
    moments vanish); at most 40 letters (the recursion is exponential)."""
    return _word_moment(words, {})


def word_moments(words_list) -> list[list[int]]:
    """:func:`word_moment` of each entry of ``words_list`` (a list of its arguments), sharing one table of
    intermediate states: tables of related words (all ``E tr((G^T)^j G^l)``, ``j, l <= k``) cost about what
    the largest one costs alone.

    >>> word_moments(["00", "0011", "1000"])      # E tr G^2 = n, E tr(G^2 (G^2)^T), E tr(G^T G^3) = 2 n^2 + n
    [[0, 1], [0, 2, 0, 1], [0, 1, 2]]
    """
    if isinstance(words_list, (str, bytes, dict)) or not hasattr(words_list, "__iter__"):
        raise TypeError(f"words_list must be a list of words (strings over '0' and '1') or of word sequences, "
                        f"got {words_list!r:.80}")
    memo: dict = {}
    out = []
    for i, w in enumerate(words_list):
        try:
            out.append(_word_moment(w, memo))
        except (TypeError, ValueError) as exc:
            raise type(exc)(f"words_list[{i}]: {exc}") from None
    return out


def _word_moment(words, memo: dict) -> list[int]:
    words = (words,) if isinstance(words, str) else words
    if (isinstance(words, (bytes, dict)) or not hasattr(words, "__iter__")
            or not all(isinstance(w, str) and set(w) <= {"0", "1"} for w in words)):
        raise TypeError(f"words must be a string over '0' (G) and '1' (G^T), or a sequence of such strings, "
                        f"got {words!r:.80}")
    words = tuple(words)
    if not words:
        raise ValueError("words must hold at least one word (an empty word is tr I = n)")
    total = sum(len(w) for w in words)
    if total > 40:
        raise ValueError(f"words must have at most 40 letters in total (the recursion is exponential), got {total}")
    if total % 2:
        return [0]
    sub, empty = _state(words)
    acc: list[int] = [0]
    _add(acc, _moment(sub, memo), empty)
    return acc


def loop_equation_polynomial(k: int) -> list[int]:
    """Integer coefficients of ``E tr((G^k)^T G^k)`` by the loop equations (entry j: ``n**j``), k <= 18."""
    k = as_int("k", k, minimum=0, maximum=K_MAX_LOOP)
    row = word_moment("1" * k + "0" * k)
    return row + [0] * (k + 2 - len(row))
