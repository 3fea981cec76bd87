r"""Monte Carlo signal energies of linear recurrences with Ginibre weights (seeded, chunked, exact-se).

Source of the quantities: M. Seleznova, "How Long Does Infinite Width Last? Signal Propagation in
Long-Range Linear Recurrences", arXiv:2605.05113 (2026), Sec. 2 (free and driven recurrence) and the
feedforward contrast; conventions as in ``docs/papers/signal-propagation.md`` and
``theory.signal_energy``. These estimators are the Monte Carlo side of the closed forms: they never call
them.

Weights: ``W = G / sqrt(n)``; ``field="complex"``: ``G`` iid proper complex Gaussians (``E|G_ij|^2 = 1``,
``E G_ij^2 = 0``); ``field="real"``: iid ``N(0, 1)``.

Estimators (one weight draw = one sample; every sample is independent)
------------------------------------------------------------------------
* :func:`estimate_Q`, ``estimator="trace"`` (default): ``X_k = ||W^k||_F^2 / n = (1/n) tr((W^k)^* W^k)``,
  k = 0..K, by repeated products ``W^k = W^{k-1} W`` batched with ``numpy.matmul`` over a stack of
  matrices. ``E X_k = Q_{n,k}``. ``X_0 = 1`` exactly, so its standard error is 0.
* :func:`estimate_Q`, ``estimator="probe"``: ``X_k = ||W^k u||^2`` with one unit vector ``u`` uniform on the
  sphere per draw (Haar-invariance of the law of ``W`` makes ``E X_k = Q_{n,k}``); far noisier than the
  trace, which averages ``n`` orthogonal probes.
* :func:`estimate_S`: the driven recurrence ``h(t) = W h(t-1) + x(t)``, ``h(-1) = 0``, with fresh iid
  standard Gaussian inputs each step (``E x x^* = I``), ``X_t = ||h(t)||^2 / n``, t = 0..T, so
  ``E X_t = S_{n,t} = sum_{k<=t} Q_{n,k}``: t + 1 terms, x(0) counted (the toolkit's convention).
* :func:`estimate_feedforward`: independent layers ``W_1..W_L`` of the same law,
  ``R_L = ||W_L...W_1 u||^2`` for a unit ``u``; first moment ``E R_L = 1`` and second moment
  ``E R_L^2 = (1 + 1/n)^L`` (complex) or ``(1 + 2/n)^L`` (real) (each layer multiplies the squared norm by
  an independent ``Gamma(n)/n`` resp. ``chi^2_n/n`` factor).

Reproducibility and memory
--------------------------
Samples are grouped in blocks of :data:`BLOCK` draws; block ``b`` draws from its own
``numpy.random.Generator`` seeded by ``SeedSequence(seed).spawn(...)[b]`` (built directly as
``SeedSequence(seed, spawn_key=(b,))``, which is the same child). ``seed``: an int >= 0, a
``SeedSequence`` (its children are used) or a ``Generator`` (63 bits of entropy are drawn from it once). Each block's mean and sum of squared
deviations are computed on that block alone and combined in block order (Chan et al.), so the results
are bit-identical for any ``chunk`` (the number of draws held in memory at once, a multiple of
:data:`BLOCK`) and any BLAS thread count, and the first blocks of a longer run are the draws of a
shorter one. The standard error is ``sd / sqrt(samples)`` from the same run. ``checkpoints`` holds the
running mean and se at geometrically spaced sample counts (convergence curves).

>>> r = estimate_Q(4, 3, 2000, seed=1)
>>> float(r.mean[0]), float(r.se[0])            # X_0 = ||I||_F^2 / n = 1
(1.0, 0.0)
>>> bool(abs(r.mean[2] - 17 / 16) <= 5 * r.se[2])   # Q_{4,2} = 1 + 1/16
True
"""

from __future__ import annotations

import dataclasses
import math

import numpy as np
from tqdm import tqdm

from theory._args import MAX_LENGTH, as_bool, as_choice, as_executor, as_int, as_seed_sequence
from theory.init_laws.laws import as_law
from numerics.signal_propagation.law_sampling import has_sampler, sample_entries

__all__ = ["MCEstimate", "Checkpoints", "FeedforwardEstimate", "sample_ginibre", "estimate_Q", "estimate_S",
           "estimate_feedforward", "block_rng", "FIELDS", "ESTIMATORS", "BLOCK",
           "MAX_N", "MAX_DEPTH", "MAX_SAMPLES"]

FIELDS = ("complex", "real")
ESTIMATORS = ("trace", "probe")
# Documented bounds (the cost grows with each): n x n matrices, BLOCK of them per stream; k (or t) matrix
# products per draw; samples draws.
MAX_N = 256              # each product costs 8 n^3 flops per draw: n = 512 is seconds per 16 draws
MAX_DEPTH = 10**4         # the largest depth k (Q) or t (S): a Python loop of that many matrix products per chunk
MAX_SAMPLES = 10**6         # ~4 s at n = 3; more: several seeds, combined (validation uses <= 20,000)
BLOCK = 32                       #: draws per random stream, the unit of reproducibility
_CHUNK_BYTES = 48 << 20          # default memory budget for the matrices of one chunk
_PROGRESS_FLOPS = 2e10           # progress=None (auto) shows a bar beyond this much matmul work


# --------------------------------------------------------------------------------------------------
# results
# --------------------------------------------------------------------------------------------------
@dataclasses.dataclass(frozen=True)
class Checkpoints:
    """Running estimates: row i is the mean and se over the first ``samples[i]`` draws."""

    samples: np.ndarray          # (m,) int64, increasing, last = total samples
    mean: np.ndarray             # (m, K)
    se: np.ndarray               # (m, K)


@dataclasses.dataclass(frozen=True)
class MCEstimate:
    """A Monte Carlo estimate of a vector of expectations, with its standard error from the same run.

    Returned by :func:`estimate_Q` and :func:`estimate_S` (and :func:`estimate_feedforward`'s two moments).
    Compare with exact values by :func:`numerics.stats.agreement` (``mean``, ``se``, exact): an element with
    ``se = 0`` (``Q_{n,0} = 1`` in every draw) is exact.

    Parameters
    ----------
    mean : numpy.ndarray
        ``mean[i]`` estimates the i-th expectation (``Q_{n,i}``, ``S_{n,i}``, ...).
    se : numpy.ndarray
        The sample standard deviation over ``sqrt(samples)``, from the same draws.
    samples : int
        Draws (one weight matrix each).
    seed : int or numpy.random.SeedSequence
        The random stream (an int when given one).
    method : str
        The estimator ("trace", "probe", "driven", ...).
    field : {"complex", "real"}
        The Gaussian field of the weights.
    n : int
        Width.
    quantity : str
        What is estimated ("Q", "S", ...).
    checkpoints : Checkpoints
        Running means and standard errors after growing numbers of draws.
    init : str or None
        The entries' law when not Gaussian (its name, :mod:`theory.init_laws`); None: the Gaussian ``field``.

    Returns
    -------
    MCEstimate
        A frozen record; ``zscores(exact)`` gives ``(mean - exact) / se``.

    Examples
    --------
    >>> r = estimate_Q(4, 2, 64, seed=0)
    >>> r.quantity, r.field, float(r.mean[0]), float(r.se[0])      # Q_{n,0} = 1 in every draw
    ('Q', 'complex', 1.0, 0.0)
    """

    mean: np.ndarray
    se: np.ndarray
    samples: int
    seed: int | np.random.SeedSequence
    method: str
    field: str
    n: int
    quantity: str
    checkpoints: Checkpoints
    init: str | None = None

    def zscores(self, exact) -> np.ndarray:
        """``(mean - exact) / se`` elementwise (``nan`` where se = 0)."""
        from theory._args import as_real_array
        exact = as_real_array("exact", exact)
        with np.errstate(divide="ignore", invalid="ignore"):
            return (self.mean - exact) / self.se


@dataclasses.dataclass(frozen=True)
class FeedforwardEstimate:
    """First and second moments of ``R_l = ||W_l...W_1 u||^2``, l = 0..L, from one run."""

    first: MCEstimate
    second: MCEstimate


# --------------------------------------------------------------------------------------------------
# samplers
# --------------------------------------------------------------------------------------------------
def block_rng(seed, block: int) -> np.random.Generator:
    """The generator of draw block ``block``: child ``block`` of ``SeedSequence(seed).spawn``.

    ``seed``: int >= 0, ``SeedSequence`` or ``Generator`` (see the module docstring); ``block`` >= 0.

    >>> int(block_rng(3, 1).integers(1000)) == int(np.random.default_rng(np.random.SeedSequence(3).spawn(2)[1]).integers(1000))
    True
    """
    return _block_rng(as_seed_sequence(seed), as_int("block", block, minimum=0))


def _block_rng(ss: np.random.SeedSequence, block: int) -> np.random.Generator:
    return np.random.default_rng(np.random.SeedSequence(ss.entropy, spawn_key=ss.spawn_key + (block,),
                                                        pool_size=ss.pool_size))


def _fill_gaussian(rng: np.random.Generator, out: np.ndarray, field: str, scale: float) -> None:
    """Fill ``out`` in place with iid Gaussians of variance ``scale**2`` (complex: proper, E|z|^2)."""
    if field == "complex":
        rng.standard_normal(out=out.view(np.float64))
        out *= scale / math.sqrt(2.0)
    else:
        rng.standard_normal(out=out)
        out *= scale


def _dtype(field: str):
    return np.complex128 if field == "complex" else np.float64


def sample_ginibre(n: int, count: int, *, field: str = "complex", seed=0,
                   normalised: bool = True) -> np.ndarray:
    r"""Draw ``count`` independent random Gaussian (Ginibre) n x n weight matrices, seeded.

    ``normalised=True`` returns ``W = G / sqrt(n)`` (the toolkit's weights, Seleznova (2026),
    arXiv:2605.05113, Sec. 2), else ``G`` with unit-variance entries: ``field="complex"``, iid proper complex
    Gaussians (``E|G_ij|^2 = 1``, ``E G_ij^2 = 0``); ``field="real"``, iid ``N(0, 1)``. Draw ``i`` comes from
    the random stream of block ``i // BLOCK`` (:func:`block_rng`), as in the estimators: the first draws of
    a longer call are those of a shorter one.

    Parameters
    ----------
    n : int
        Matrix size, ``1 <= n <= MAX_N`` (256).
    count : int
        Number of matrices, ``>= 0``, with ``count * n * n <= MAX_LENGTH`` (2**24 entries, one array).
    field : {"complex", "real"}, default "complex"
        Complex Ginibre or real Gaussian entries.
    seed : int, numpy.random.SeedSequence or numpy.random.Generator, default 0
        Seed of the block streams (an int >= 0; a Generator contributes 63 bits of entropy, drawn once).
    normalised : bool, default True
        Divide by ``sqrt(n)``.

    Returns
    -------
    numpy.ndarray
        Shape ``(count, n, n)``, complex128 (complex) or float64 (real).

    Raises
    ------
    TypeError
        An argument of the wrong type (named).
    ValueError
        ``n``, ``count`` or ``seed`` out of range, an unknown ``field``.

    Examples
    --------
    >>> W = sample_ginibre(3, 2, seed=5)
    >>> W.shape, W.dtype, sample_ginibre(3, 2, field="real").dtype
    ((2, 3, 3), dtype('complex128'), dtype('float64'))
    >>> bool(np.array_equal(W, sample_ginibre(3, 40, seed=5)[:2]))    # prefixes agree
    True
    >>> bool(np.allclose(W, sample_ginibre(3, 2, seed=5, normalised=False) / np.sqrt(3)))
    True
    >>> from numerics.stats import z_for_false_alarm
    >>> x = np.abs(sample_ginibre(4, 2000, seed=1, normalised=False)).ravel() ** 2
    >>> bool(abs(x.mean() - 1.0) <= z_for_false_alarm() * x.std(ddof=1) / np.sqrt(x.size))   # E|G_ij|^2 = 1
    True
    """
    n = as_int("n", n, minimum=1, maximum=MAX_N)
    count = as_int("count", count, minimum=0, maximum=MAX_LENGTH // (n * n))
    field = as_choice("field", field, FIELDS)
    ss = as_seed_sequence(seed)
    normalised = as_bool("normalised", normalised)
    out = np.empty((count, n, n), dtype=_dtype(field))
    scale = 1.0 / math.sqrt(n) if normalised else 1.0
    for b in range(-(-count // BLOCK)):
        sl = out[b * BLOCK:(b + 1) * BLOCK]
        _fill_gaussian(_block_rng(ss, b), sl, field, scale)
    return out


# --------------------------------------------------------------------------------------------------
# the chunked driver: per-block statistics combined in block order
# --------------------------------------------------------------------------------------------------
class _Accumulator:
    """Chan's pairwise update of (count, mean, M2), applied block by block in a fixed order."""

    def __init__(self, width: int, samples: int):
        self.count = 0
        self.mean = np.zeros(width)
        self.m2 = np.zeros(width)
        self._targets = sorted({min(samples, BLOCK << j) for j in range(64) if (BLOCK << j) < 2 * samples})
        self._cp: list[tuple[int, np.ndarray, np.ndarray]] = []

    def add_block(self, values: np.ndarray) -> None:
        nb = values.shape[0]
        bmean = values.mean(axis=0)
        bm2 = ((values - bmean) ** 2).sum(axis=0)
        tot = self.count + nb
        delta = bmean - self.mean
        self.mean = self.mean + delta * (nb / tot)
        self.m2 = self.m2 + bm2 + delta * delta * (self.count * nb / tot)
        self.count = tot
        if self._targets and self.count >= self._targets[0]:
            while self._targets and self.count >= self._targets[0]:
                self._targets.pop(0)
            self._cp.append((self.count, self.mean.copy(), self.se()))

    def se(self) -> np.ndarray:
        if self.count < 2:
            return np.full_like(self.mean, np.nan)
        return np.sqrt(np.maximum(self.m2, 0.0) / (self.count - 1) / self.count)

    def checkpoints(self) -> Checkpoints:
        width = self.mean.size      # (0, width) when samples < BLOCK / 2 gives no checkpoint
        return Checkpoints(np.array([c[0] for c in self._cp], dtype=np.int64),
                           np.array([c[1] for c in self._cp]).reshape(-1, width),
                           np.array([c[2] for c in self._cp]).reshape(-1, width))


def _chunk_blocks(chunk, per_draw_bytes: int) -> int:
    """Blocks per chunk: from the user's ``chunk`` (draws, rounded up to whole blocks) or the budget."""
    if chunk is None:
        return max(1, _CHUNK_BYTES // max(1, per_draw_bytes * BLOCK))
    chunk = as_int("chunk", chunk, minimum=1)
    return -(-chunk // BLOCK)


def _show_progress(progress, flops: float) -> bool:
    if progress is None:
        return flops > _PROGRESS_FLOPS
    if not isinstance(progress, bool):
        raise TypeError(f"progress must be True, False or None (auto), got {progress!r}")
    return progress


def _chunk_values(task):
    """One chunk of draws: ``(kernel, seed, blocks, sizes) -> values`` (an executor task)."""
    kernel, seed, blocks, sizes = task
    return kernel([_block_rng(seed, b) for b in blocks], sizes)


def _run(kernel, *, width: int, samples: int, seed: np.random.SeedSequence, chunk, per_draw_bytes: int,
         flops_per_draw: float, progress, desc: str, executor=None) -> _Accumulator:
    """Run ``kernel(rngs, sizes) -> (draws, width) values`` over all blocks, chunk by chunk.

    ``executor``: a :class:`concurrent.futures.Executor` that computes the chunks (``executor.map``,
    results consumed in chunk order, so the statistics are the single-machine ones bit for bit). The
    kernels are closures: use an executor that ships them with cloudpickle (Dask's
    ``Client.get_executor()``, or a thread pool), not a plain ``ProcessPoolExecutor``.
    """
    executor = as_executor(executor)
    acc = _Accumulator(width, samples)
    n_blocks = -(-samples // BLOCK)
    per_chunk = _chunk_blocks(chunk, per_draw_bytes)
    show = _show_progress(progress, flops_per_draw * samples)
    tasks = []
    for b0 in range(0, n_blocks, per_chunk):
        blocks = range(b0, min(n_blocks, b0 + per_chunk))
        tasks.append((kernel, seed, list(blocks), [min(BLOCK, samples - b * BLOCK) for b in blocks]))
    results = map(_chunk_values, tasks) if executor is None else executor.map(_chunk_values, tasks)
    with tqdm(total=samples, desc=desc, unit="draw", disable=not show, leave=False) as bar:
        for (_, _, _, sizes), values in zip(tasks, results):
            start = 0
            for s in sizes:
                acc.add_block(values[start:start + s])
                start += s
            bar.update(start)
    return acc


def _check_finite(acc: _Accumulator, depth_name: str) -> None:
    """Energies grow like exp(k^2/2n): past float64 the mean is inf and the se nan, which is no estimate."""
    if not (np.all(np.isfinite(acc.mean)) and np.all(np.isfinite(acc.se()))):
        raise ValueError(f"{depth_name} too large for this n: the sampled energies overflow float64; lower {depth_name}")


def _result(acc: _Accumulator, *, samples, seed, method, field, n, quantity, law=None) -> MCEstimate:
    return MCEstimate(mean=acc.mean, se=acc.se(), samples=samples, seed=_seed_label(seed), method=method, field=field, n=n,
                      quantity=quantity, checkpoints=acc.checkpoints(), init=None if law is None else law.name)


def _draw_weights(rngs, sizes, n: int, field: str, law=None) -> np.ndarray:
    """``W = G / sqrt(n)`` per draw: Gaussian entries of ``field``, or iid entries of ``law`` (real)."""
    W = np.empty((sum(sizes), n, n), dtype=_dtype(field))
    start = 0
    for rng, s in zip(rngs, sizes):
        if law is None:
            _fill_gaussian(rng, W[start:start + s], field, 1.0 / math.sqrt(n))
        else:
            W[start:start + s] = sample_entries(law, (s, n, n), rng) / math.sqrt(n)
        start += s
    return W


def _as_init(init, field: str):
    """The law of ``init=`` (None: Gaussian), which needs ``field="real"`` (its entries are real)."""
    if init is None:
        return None
    law = as_law(init, name="init")
    if not has_sampler(law):
        raise ValueError(f"init={law.name} is given by its moments only: Monte Carlo needs a named law")
    if field != "real":
        raise ValueError(f"init={law.name} draws real entries: pass field='real' (field names the Gaussian field; "
                         f"got field={field!r})")
    return law


def _draw_unit_vectors(rngs, sizes, n: int, field: str) -> np.ndarray:
    u = np.empty((sum(sizes), n, 1), dtype=_dtype(field))
    start = 0
    for rng, s in zip(rngs, sizes):
        _fill_gaussian(rng, u[start:start + s], field, 1.0)
        start += s
    u /= np.sqrt(_sqnorm(u))[:, None, None]
    return u


def _sqnorm(x: np.ndarray) -> np.ndarray:
    """Squared Frobenius norm of each item of a stack (first axis), no temporaries."""
    f = x.reshape(x.shape[0], -1)
    if np.iscomplexobj(f):
        f = f.view(np.float64)
    return np.einsum("ij,ij->i", f, f)


def _common_args(n, depth_name, depth, samples, field, seed):
    n = as_int("n", n, minimum=1, maximum=MAX_N)
    depth = as_int(depth_name, depth, minimum=0, maximum=MAX_DEPTH)
    samples = as_int("samples", samples, minimum=2, maximum=MAX_SAMPLES)
    field = as_choice("field", field, FIELDS)
    return n, depth, samples, field, as_seed_sequence(seed)


def _seed_label(ss: np.random.SeedSequence):
    """What ``MCEstimate.seed`` records: the int seed (its entropy) when the SeedSequence is a root."""
    return int(ss.entropy) if not ss.spawn_key and isinstance(ss.entropy, int) else ss


# --------------------------------------------------------------------------------------------------
# Q: free recurrence
# --------------------------------------------------------------------------------------------------
def estimate_Q(n: int, k: int, samples: int, *, field: str = "complex", seed=0,
               estimator: str = "trace", chunk: int | None = None, progress: bool | None = None,
               executor=None, init=None) -> MCEstimate:
    r"""Monte Carlo ``Q_{n,j} = (1/n) E tr((W^j)^* W^j)``, j = 0..k (arrays of length k + 1).

    ``estimator="trace"``: ``||W^j||_F^2 / n`` per draw, j = 0..k (repeated batched matrix products; ``k`` matmuls
    per draw). ``estimator="probe"``: ``||W^k u||^2`` with a uniform unit ``u`` per draw (matrix-vector
    products). Both are unbiased for ``Q_{n,k}`` of Seleznova (2026), Theorem 2.1 (complex) and for the
    real-weight ``Q^R_{n,k}`` (``numerics.signal_propagation.wick``). The variance grows quickly with ``k / sqrt(n)``; the
    estimates for different k share the draws, so their errors are strongly correlated.

    (``estimator``, not ``method``: in :mod:`theory.signal_energy` ``method`` is the arithmetic; the
    result's ``method`` field records the estimator.) Domain: ``1 <= n <= MAX_N``, ``0 <= k <= MAX_DEPTH``,
    ``2 <= samples <= MAX_SAMPLES`` draws; ``seed``: int >= 0, SeedSequence or Generator; ``chunk``: draws held in memory at once (rounded up to a
    multiple of :data:`BLOCK`; default: about 48 MB of matrices); ``progress``: tqdm bar (``None`` = only
    for long runs); ``executor``: a ``concurrent.futures.Executor`` running the chunks (e.g. Dask's
    ``Client.get_executor()``; see ``_run``). Results do not depend on ``chunk``, thread counts or the
    executor.

    Parameters
    ----------
    n : int
        Width, ``1 <= n <= MAX_N``.
    k : int
        Largest power, ``0 <= k <= MAX_DEPTH``.
    samples : int
        Weight draws, ``2 <= samples <= MAX_SAMPLES``.
    field : {"complex", "real"}
        Complex Ginibre or real Gaussian weights.
    seed : int, numpy.random.SeedSequence or numpy.random.Generator
        The random stream (an int >= 0 or a SeedSequence: reproducible; a Generator advances).
    estimator : {"trace", "probe"}
        Full trace ``||W^k||_F^2 / n`` (lower variance) or a random unit probe.
    chunk : int, optional
        Draws held in memory at once (default about 48 MB of matrices).
    progress : bool, optional
        Show a tqdm bar (None: only for long runs).
    executor : concurrent.futures.Executor, optional
        Runs the chunks (threads, processes, Dask).
    init : Law or str, optional
        iid entries of another law of variance 1 ("uniform", "rademacher", "sparse:p", "student:nu"; with
        ``field="real"``), the Monte Carlo side of :func:`theory.init_laws.energy.Q_law`; None: Gaussian.

    Returns
    -------
    MCEstimate
        ``.mean`` and ``.se`` (length ``k + 1``, the standard error from the same run), ``.samples``,
        ``.seed``, ``.method`` (the estimator), ``.field``, ``.quantity``.

    Raises
    ------
    TypeError
        An argument of the wrong kind (a float ``n``, a bool seed, ...).
    ValueError
        A value out of its range, an unknown ``field`` or ``estimator``.

    Examples
    --------
    >>> r = estimate_Q(3, 2, 64, seed=0)
    >>> r.mean.shape, r.se.shape, r.samples, r.method
    ((3,), (3,), 64, 'trace')
    """
    n, k, samples, field, seed = _common_args(n, "k", k, samples, field, seed)
    law = _as_init(init, field)
    method = as_choice("estimator", estimator, ESTIMATORS)
    itemsize = np.dtype(_dtype(field)).itemsize
    cflop = 4.0 if field == "complex" else 1.0

    if method == "trace":
        def kernel(rngs, sizes):
            W = _draw_weights(rngs, sizes, n, field, law)
            out = np.empty((W.shape[0], k + 1))
            out[:, 0] = 1.0
            if k == 0:
                return out
            P, buf = W.copy(), np.empty_like(W)
            out[:, 1] = _sqnorm(P) / n
            for j in range(2, k + 1):
                np.matmul(P, W, out=buf)
                P, buf = buf, P
                out[:, j] = _sqnorm(P) / n
            return out

        per_draw, flops = 3 * n * n * itemsize, 2.0 * cflop * n ** 3 * max(k - 1, 0)
    else:
        def kernel(rngs, sizes):
            W = _draw_weights(rngs, sizes, n, field, law)
            v = _draw_unit_vectors(rngs, sizes, n, field)
            out = np.empty((W.shape[0], k + 1))
            out[:, 0] = _sqnorm(v)
            for j in range(1, k + 1):
                v = np.matmul(W, v)
                out[:, j] = _sqnorm(v)
            return out

        per_draw, flops = n * n * itemsize, 2.0 * cflop * n * n * k
    acc = _run(kernel, width=k + 1, samples=samples, seed=seed, chunk=chunk, per_draw_bytes=per_draw,
               flops_per_draw=flops, progress=progress, desc=f"Q n={n} {field} {method}", executor=executor)
    _check_finite(acc, "k")
    return _result(acc, samples=samples, seed=seed, method=method, field=field, n=n, quantity="Q", law=law)


# --------------------------------------------------------------------------------------------------
# S: driven recurrence
# --------------------------------------------------------------------------------------------------
def estimate_S(n: int, t: int, samples: int, *, field: str = "complex", seed=0,
               chunk: int | None = None, progress: bool | None = None, executor=None, init=None) -> MCEstimate:
    r"""Monte Carlo ``S_{n,j} = E||h(j)||^2 / n``, j = 0..t, from the driven recurrence itself.

    ``h(t) = W h(t-1) + x(t)``, ``h(-1) = 0``, fresh iid standard Gaussian inputs every step
    (complex: ``E|x_i|^2 = 1``); one weight draw and one input sequence per sample. Its expectation is
    ``sum_{k=0}^{t} Q_{n,k}`` (t + 1 terms: x(0) counts, the toolkit's convention; with inputs from
    t = 1 compare with ``S_{n,t-1}``). Source: Seleznova (2026), Sec. 2. Arguments as
    :func:`estimate_Q`.

    Parameters
    ----------
    n, samples, field, seed, chunk, progress, executor, init
        As for :func:`estimate_Q`.
    t : int
        Last time step, ``0 <= t <= MAX_DEPTH``.

    Returns
    -------
    MCEstimate
        ``.mean[j]`` estimates ``S_{n,j}``, ``j = 0..t``, with ``.se`` from the same run.

    Raises
    ------
    TypeError, ValueError
        As for :func:`estimate_Q`.

    Examples
    --------
    >>> r = estimate_S(4, 2, 64, seed=0)
    >>> r.mean.shape, r.quantity
    ((3,), 'S')
    """
    n, t, samples, field, seed = _common_args(n, "t", t, samples, field, seed)
    law = _as_init(init, field)
    itemsize = np.dtype(_dtype(field)).itemsize

    def kernel(rngs, sizes):
        W = _draw_weights(rngs, sizes, n, field, law)
        x = np.empty((W.shape[0], t + 1, n, 1), dtype=W.dtype)
        start = 0
        for rng, s in zip(rngs, sizes):
            _fill_gaussian(rng, x[start:start + s], field, 1.0)
            start += s
        out = np.empty((W.shape[0], t + 1))
        h = x[:, 0].copy()
        out[:, 0] = _sqnorm(h) / n
        for j in range(1, t + 1):
            h = np.matmul(W, h)
            h += x[:, j]
            out[:, j] = _sqnorm(h) / n
        return out

    cflop = 4.0 if field == "complex" else 1.0
    acc = _run(kernel, width=t + 1, samples=samples, seed=seed, chunk=chunk,
               per_draw_bytes=(n * n + (t + 1) * n) * itemsize, flops_per_draw=2.0 * cflop * n * n * t,
               progress=progress, desc=f"S n={n} {field}", executor=executor)
    _check_finite(acc, "t")
    return _result(acc, samples=samples, seed=seed, method="driven", field=field, n=n, quantity="S", law=law)


# --------------------------------------------------------------------------------------------------
# feedforward contrast
# --------------------------------------------------------------------------------------------------
def estimate_feedforward(n: int, L: int, samples: int, *, field: str = "complex", seed=0,
                         chunk: int | None = None, progress: bool | None = None) -> FeedforwardEstimate:
    r"""Moments of ``R_l = ||W_l...W_1 u||^2`` (independent layers, unit ``u``), l = 0..L.

    Exact values (Seleznova 2026, feedforward contrast; derivation: each layer multiplies the squared norm
    by an independent ``Gamma(n, 1)/n`` (complex) or ``chi^2_n / n`` (real) factor):
    ``E R_l = 1``, ``E R_l^2 = (1 + 1/n)^l`` (complex) or ``(1 + 2/n)^l`` (real). Every layer is a fresh
    n x n matrix (drawn, then applied as a matrix-vector product). Arguments as :func:`estimate_Q`.

    >>> r = estimate_feedforward(8, 3, 64, seed=0)
    >>> r.first.mean.shape, r.second.quantity
    ((4,), 'feedforward second moment')
    """
    n, L, samples, field, seed = _common_args(n, "L", L, samples, field, seed)
    itemsize = np.dtype(_dtype(field)).itemsize

    def kernel(rngs, sizes):
        v = _draw_unit_vectors(rngs, sizes, n, field)
        r = np.empty((v.shape[0], L + 1))
        r[:, 0] = _sqnorm(v)
        for layer in range(1, L + 1):
            W = _draw_weights(rngs, sizes, n, field)
            v = np.matmul(W, v)
            r[:, layer] = _sqnorm(v)
        return np.concatenate([r, r * r], axis=1)

    cflop = 4.0 if field == "complex" else 1.0
    acc = _run(kernel, width=2 * (L + 1), samples=samples, seed=seed, chunk=chunk, per_draw_bytes=n * n * itemsize,
               flops_per_draw=2.0 * cflop * n * n * L, progress=progress, desc=f"feedforward n={n} {field}")
    _check_finite(acc, "L")
    cp = acc.checkpoints()
    se = acc.se()
    parts = []
    for sl, name in ((slice(0, L + 1), "feedforward first moment"), (slice(L + 1, None), "feedforward second moment")):
        parts.append(MCEstimate(mean=acc.mean[sl].copy(), se=se[sl].copy(), samples=samples, seed=_seed_label(seed),
                                method="layers", field=field, n=n, quantity=name,
                                checkpoints=Checkpoints(cp.samples, cp.mean[:, sl], cp.se[:, sl])))
    return FeedforwardEstimate(*parts)
