"""Exact and symbolic results (sympy, mpmath, numpy, scipy; python-flint optional). Never imports numba or torch.

Importing ``theory`` is cheap: it loads no submodule. Import what you need:

``theory.signal_energy``
    exact finite-width signal energies of linear recurrences with Ginibre weights
    (Seleznova 2026, Theorem 2.1): ``Q(n, k)``, ``S(n, t)`` with methods
    "exact" / "float" / "mp" / "ball" (one dispatch), ``Q_all``, ``log_Q``, ``log_S``,
    ``hultman_row``, the 1/n^2 series and sympy forms. A package of private modules, one per
    arithmetic: ``theory.signal_energy._exact`` (Fractions), ``theory.signal_energy._float`` (float64;
    ``theory.signal_energy._vector`` over integer arrays), ``theory.signal_energy._mp`` (mpmath),
    ``theory.signal_energy._ball`` (certified arb balls, with ``theory.signal_energy._ball_super`` and
    ``theory.signal_energy._ball_em``), the log-factorial pieces they share
    (``theory.signal_energy._factorial_logs``), the combinatorial rows (``theory.signal_energy._rows``:
    Stirling, Hultman), the sympy forms (``theory.signal_energy._symbolic``) and the argument checks
    (``theory.signal_energy._checks``).

``theory.regimes``
    the sub-, critical and supercritical regimes: ``critical_curve``
    (``(2/c^2) sinh(c^2/2)``), ``critical_S_curve``, the O(n^-1/2) correction,
    supercritical and uniform forms, ``regime(n, t)``, ``breakdown_depth(n, tol)``,
    and the feedforward contrast.

``theory.memory``
    the four controllable memory-function families (Jiang et al. 2025) and their
    scaling mu(alpha); ``expected_linear_relmse``.

``theory.prony``
    Prony / matrix-pencil fits, best m-term exponential-sum fits, order selection.

``theory.complexity``
    tail-energy complexity C(rho, s), effective rank of the coupling matrix.

``theory.levy``
    the anti-collapse Levy SDE (Livi 2026): ``LevyParams``, the jump symbol, ``Phi``,
    the tail exponent ``characteristic_root``, ``threshold_eta_J``, phases.

``theory.tauberian``
    envelopes of time-scale spectra, the Tauberian asymptote, learnability horizons.

``theory.horizon``
    initialisation for a horizon: the scale ``sigma`` of ``W = sigma G / sqrt(n)`` that
    keeps the energies within tol of 1 up to depth t, the depth reachable at a scale,
    the comparison with Glorot.

``theory.structured_init``
    structured initialisations (the toolkit's own results): Haar orthogonal/unitary (``Q = 1``,
    ``S = t + 1`` exactly), the LRU ring and real rotation blocks (exact means and the exact ``1/n``
    variance over draws), identity plus Gaussian noise (closed form for complex noise; the ``1/n``
    expansion for real noise): ``Q_structured``, ``S_structured``, ``structured_variance``, the laws
    ``OrthogonalInit``, ``RingInit``, ``RotationBlocksInit``, ``IdentityNoiseInit``. Private modules: the laws
    (``theory.structured_init._inits``), the ring's moments (``theory.structured_init._ring``), identity plus
    noise (``theory.structured_init._identity``), Haar moments and the expansion
    (``theory.structured_init._exact_facts``).

``theory.real_rows``
    exact real-weight energies ``real_Q(n, k)`` (k <= 60) read from the committed rows.

``theory.real_expansion``
    real-weight energies at any depth: ``QR(n, k)``, ``SR(n, t)`` (exact rows, the large-n expansion
    beyond, with an error estimate and a stated domain), the exact coefficients ``a_m(k)``, the real
    scaling functions ``F_0..F_3``, the real breakdown depth and its law.

``theory.init_laws``
    iid weights of any symmetric law (the toolkit's extension; ``docs/results/init-laws.md``):
    ``theory.init_laws.laws`` (the ``Law`` object: exact moments and cumulants, the named laws ``gaussian``,
    ``uniform``, ``rademacher``, ``sparse(p)``, ``student_t(nu)``, ``from_moments`` with the moment problem's
    refusals, the parser ``as_law``), ``theory.init_laws.rows`` (the exact rows ``law_row(k, law)`` from the
    committed law-independent shape table, k <= 12; symbolic in the moments or cumulants),
    ``theory.init_laws.structure`` (the cumulant structure of the large-n coefficients: committed
    quasi-polynomials, their orders at fixed c, the kappa_4 function), ``theory.init_laws.energy`` (``Q_law``,
    ``S_law`` at any depth with an error estimate and a stated domain, ``law_max_depth``).

``theory.results``
    the result of an approximate energy: ``Energy`` (value, error, source; prints the value to the digits its
    error supports), returned by ``QR`` and ``SR``.

``theory.nonlinear``
    nonlinear recurrences ``h_t = phi(W h_{t-1} (+ x_t))`` with tied Gaussian weights (tanh, relu, identity): the
    infinite-width energy ``mean_field_energy`` / ``mean_field_profile`` (one-dimensional Gaussian integrals to
    any precision), the first finite-width correction, the identity's exact finite-width energies;
    ``theory.relu_tying``: weight tying's whole ``1/n`` term of a relu recurrence in closed form where it has one
    (``relu_tying_b``: driven depth 2, free depth 3).

``theory._args``
    (private) argument checks and the one precision convention (``ambient_dps``,
    ``as_dps``, ``as_method_dps``); ``theory._summation`` (private) compensated sums.

``theory._types``
    (private) the static types of the public numbers (``mpf``, ``arb``, the integer and array aliases) that
    ``typing.overload`` on ``method`` uses.

``theory._data``, ``theory._extras``
    (private) the packaged run-time data found with ``importlib.resources`` (``package_path``); the optional
    extras and the modules they provide (``missing_extra``, ``needs_extra``).

Conventions: precision is always an argument, ``method="float"`` (default) or ``method="mp"`` with
``dps`` digits (default: the ambient ``mpmath.mp.dps``, mpmath's convention) in a local mpmath context; bad input raises
``TypeError`` / ``ValueError`` naming the parameter; every closed form's docstring names its source and domain.
See ARCHITECTURE.md for the layout (theory <- numerics <- validation).
"""
