"""Exact and symbolic results (sympy, mpmath, numpy, scipy; python-flint optional). Never imports numba or torch.

Importing ``theory`` is cheap: it loads no submodule. Import what you need:

``theory.signal_energy``  exact finite-width signal energies of linear recurrences with Ginibre weights
                          (Seleznova 2026, Theorem 2.1): ``Q(n, k)``, ``S(n, t)`` with methods
                          "exact" / "float" / "mp" / "ball", ``Q_all``, ``log_Q``, ``log_S``,
                          ``hultman_row``, the 1/n^2 series and sympy forms.
``theory.regimes``        the sub-, critical and supercritical regimes: ``critical_profile``
                          (``(2/c^2) sinh(c^2/2)``), ``critical_S_profile``, the O(n^-1/2) correction,
                          supercritical and uniform forms, ``regime(n, t)``, ``breakdown_depth(n, tol)``,
                          and the feedforward contrast.
``theory.memory``, ``theory.prony``, ``theory.complexity``
                          controllable memory functions, Prony fits, tail-energy complexity.

Command line: ``python -m theory energy --n 1024 --t 64 --dps 50`` prints Q, S, c = t/sqrt(n) and the regime.

Conventions: precision is always an argument (local mpmath contexts), bad input raises ``TypeError`` /
``ValueError`` naming the parameter, and every closed form's docstring names its source and domain.
"""
