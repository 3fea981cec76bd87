"""S4D: a diagonal structured state-space model (Gu, Gupta, Goel, Re 2022, "On the Parameterization and
Initialization of Diagonal State Space Models", arXiv:2206.11893), in the style of the reference
``s4d.py`` of the state-spaces repository.

One S4D channel is the continuous linear system ``x'(t) = A x(t) + B u(t), y(t) = Re(C x(t)) + D u(t)``
with diagonal complex ``A`` (N/2 modes; their complex conjugates are implicit, so the real state size is
N). Discretised with step ``dt`` by zero-order hold (ZOH),

    Abar = exp(dt A),    Bbar = (exp(dt A) - 1) / A * B,

its output is a causal convolution ``y = K * u + D u`` with the kernel (B = 1 absorbed into C)

    K[l] = 2 Re sum_n C_n (exp(dt A_n) - 1) / A_n * exp(dt A_n l),     l = 0 .. L-1,

computed in closed form (a Vandermonde product) and applied by FFT in O(L log L).

Initialisations (the paper's section 4):

- S4D-Lin: ``A_n = -1/2 + i pi n``, n = 0 .. N/2-1 (the default).
- S4D-Inv: ``A_n = -1/2 + i (N / pi) (N / (2 n + 1) - 1)``.
- ``log dt ~ Uniform[log dt_min, log dt_max]`` per channel; ``C ~ CN(0, 1)`` (real and imaginary parts
  N(0, 1/2)), ``D ~ N(0, 1)``.

Time-step range (:func:`dt_bounds`). The reference ``s4d.py`` draws ``dt`` in ``[1e-3, 1e-1]``
(``dt_range="reference"``), tuned for sequences of L ~ 1e3-1e4. Mode n of S4D-Lin decays as
``exp(-dt l / 2)`` (time scale ``2 / dt`` samples) and rotates by ``pi n dt`` per sample, so at T = 64 that
range starts with decay times of 20-2000 samples and phase steps below ``pi n / 10``: the kernel cannot pick
out a single short lag. The toolkit's default ``dt_range="task"`` scales the range to the task's sequence
length, ``[1 / T, 1]``: decay times from 2 samples to 2T (every lag 0..T-1 is reachable) and phase steps up
to ``pi n`` (the Nyquist rate at n = 1). Explicit ``dt_min``/``dt_max`` override either.

Training parameters: ``log dt``, ``log(-Re A)`` (keeps Re A < 0, i.e. a stable system), ``Im A``, ``C``,
``D``. Every channel's kernel is an exponential sum, exported by :meth:`S4DKernel.exp_sum` as
(poles ``lambda_i``, coefficients ``c_i``) with ``K[l] = sum_i c_i lambda_i**l``: that plugs the trained
model straight into the Prony analysis of ``theory.prony``.
"""

from __future__ import annotations

import math

import numpy as np
import torch
from torch import nn

from theory._args import as_bool, as_choice, as_instance, as_int, as_real, check_ordered

from numerics._torch import check_parameters

from ._common import SeqModel, as_layers


DT_RANGES = ("task", "reference")
REFERENCE_DT = (1e-3, 1e-1)          # state-spaces s4d.py defaults (L ~ 1e3-1e4)
SSM_PARAMETERS = ("log_dt", "log_A_real", "A_imag")   # the reference's "SSM parameters" (own lr, no decay)


def dt_bounds(dt_range: str = "task", seq_len: int | None = None) -> tuple[float, float]:
    """``(dt_min, dt_max)`` of a named range: ``"task"`` = ``[1/seq_len, 1]``, ``"reference"`` = ``[1e-3, 1e-1]``.

    >>> dt_bounds("task", 64)
    (0.015625, 1.0)
    >>> dt_bounds("reference")
    (0.001, 0.1)
    """
    dt_range = as_choice("dt_range", dt_range, DT_RANGES)
    if dt_range == "reference":
        return REFERENCE_DT
    if seq_len is None:
        raise ValueError("dt_range='task' needs seq_len (the task's sequence length T); pass seq_len=T, "
                         "dt_range='reference', or explicit dt_min/dt_max")
    return 1.0 / as_int("seq_len", seq_len, minimum=1), 1.0


def dt_limits(dt_range: str = "task", seq_len: int | None = None, dt_min: float | None = None,
              dt_max: float | None = None) -> tuple[float, float]:
    """The one dt rule of :class:`S4DKernel`, :class:`S4DLayer` and :class:`S4D`: explicit ``dt_min`` /
    ``dt_max`` (both or neither), else the named ``dt_range`` (:func:`dt_bounds`; default ``"task"``).

    >>> dt_limits("task", 64), dt_limits(dt_min=0.01, dt_max=0.5)
    ((0.015625, 1.0), (0.01, 0.5))
    """
    if (dt_min is None) != (dt_max is None):
        raise ValueError(f"dt_min and dt_max go together (both None: the named dt_range); got {dt_min}, {dt_max}")
    if dt_min is None or dt_max is None:
        return dt_bounds(dt_range, seq_len)
    return dt_min, dt_max


class S4DKernel(nn.Module):
    """The convolution kernels of ``H`` independent S4D channels with ``N/2`` complex modes each.

    ``dt_range`` / ``seq_len`` / ``dt_min`` / ``dt_max``: the dt range, as for :class:`S4D` (:func:`dt_limits`).
    """

    def __init__(self, H: int, N: int = 64, *, init: str = "lin", dt_range: str = "task", seq_len: int | None = None,
                 dt_min: float | None = None, dt_max: float | None = None):
        super().__init__()
        dt_min, dt_max = dt_limits(dt_range, seq_len, dt_min, dt_max)
        H = as_int("H", H, minimum=1)
        N = as_int("N", N, minimum=2)
        check_parameters({"H": H, "N": N}, 2 * H * N + H)
        if N % 2:
            raise ValueError(f"N (state size) must be even: N/2 complex-conjugate mode pairs; got {N}")
        init = as_choice("init", init, ("lin", "inv"))
        dt_min = as_real("dt_min", dt_min, minimum=0.0, open_min=True)
        dt_max = as_real("dt_max", dt_max, minimum=0.0, open_min=True)
        check_ordered("dt_min", dt_min, "dt_max", dt_max)
        n = torch.arange(N // 2, dtype=torch.float64)
        if init == "lin":
            a_imag = math.pi * n
        else:
            a_imag = (N / math.pi) * (N / (2 * n + 1) - 1)
        log_dt = torch.rand(H, dtype=torch.float64) * (math.log(dt_max) - math.log(dt_min)) + math.log(dt_min)
        C = torch.randn(H, N // 2, dtype=torch.cfloat)  # CN(0, 1)
        self.log_dt = nn.Parameter(log_dt.float())                                 # (H,)
        self.C = nn.Parameter(torch.view_as_real(C))                               # (H, N/2, 2)
        self.log_A_real = nn.Parameter(torch.log(0.5 * torch.ones(H, N // 2)))     # (H, N/2)
        self.A_imag = nn.Parameter(a_imag.float().repeat(H, 1))                    # (H, N/2)

    def _discrete(self):
        """ZOH-discretised poles ``exp(dt A)`` and effective coefficients ``C (exp(dt A) - 1) / A``."""
        dt = torch.exp(self.log_dt)                                   # (H,)
        A = -torch.exp(self.log_A_real) + 1j * self.A_imag            # (H, N/2)
        dtA = A * dt[:, None]                                         # (H, N/2)
        C = torch.view_as_complex(self.C) * (torch.exp(dtA) - 1.0) / A
        return dtA, C

    def forward(self, L: int) -> torch.Tensor:
        """Kernels ``K`` of shape (H, L)."""
        dtA, C = self._discrete()
        vander = torch.exp(dtA[:, :, None] * torch.arange(L, device=dtA.device))   # (H, N/2, L)
        return 2 * torch.einsum("hn,hnl->hl", C, vander).real

    @torch.no_grad()
    def exp_sum(self, channel: int = 0) -> tuple[np.ndarray, np.ndarray]:
        """(poles, coefficients) of one channel: ``K[l] = sum_i coef_i * pole_i**l`` (conjugates included).

        Both arrays are complex128 of length N; the sum is real because they come in conjugate pairs.
        """
        dtA, C = self._discrete()
        lam = torch.exp(dtA[channel]).to(torch.complex128).numpy()
        c = C[channel].to(torch.complex128).numpy()
        return np.concatenate([lam, lam.conj()]), np.concatenate([c, c.conj()])


def fft_causal_conv(u: torch.Tensor, k: torch.Tensor) -> torch.Tensor:
    """Causal convolution ``y[l] = sum_{j<=l} k[j] u[l-j]`` along the last axis via zero-padded FFT.

    u: (B, H, L), k: (H, L) -> (B, H, L).
    """
    as_instance("u", u, torch.Tensor, "torch.Tensor (B, H, L)")
    as_instance("k", k, torch.Tensor, "torch.Tensor (H, L)")
    if u.ndim != 3 or k.ndim != 2:
        raise ValueError(f"u must have shape (B, H, L) and k (H, L); got u {tuple(u.shape)}, k {tuple(k.shape)}")
    L = u.shape[-1]
    k_f = torch.fft.rfft(k, n=2 * L)
    u_f = torch.fft.rfft(u, n=2 * L)
    return torch.fft.irfft(u_f * k_f, n=2 * L)[..., :L]


class S4DLayer(nn.Module):
    """One S4D block: per-channel SSM convolution + D skip, then (unless ``linear``) GELU and a
    GLU position-wise mixing, with a residual connection. (B, L, H) -> (B, L, H)."""

    def __init__(self, H: int, N: int = 64, *, init: str = "lin", dt_range: str = "task", seq_len: int | None = None,
                 dt_min: float | None = None, dt_max: float | None = None, linear: bool = False, skip: bool = True):
        super().__init__()
        # the checked ints from here on (a 0-d numpy array passes as_int but not torch's constructors)
        H, N = as_int("H", H, minimum=1), as_int("N", N, minimum=2)
        check_parameters({"H": H, "N": N}, 2 * H * H + 2 * H * N + 2 * H)
        self.kernel = S4DKernel(H, N, init=init, dt_range=dt_range, seq_len=seq_len, dt_min=dt_min, dt_max=dt_max)
        self.D = nn.Parameter(torch.randn(H)) if as_bool("skip", skip) else None
        self.linear = as_bool("linear", linear)
        if not self.linear:
            self.mix = nn.Sequential(nn.GELU(), nn.Linear(H, 2 * H), nn.GLU(dim=-1))
            self.norm = nn.LayerNorm(H)

    def forward(self, u: torch.Tensor) -> torch.Tensor:
        L = u.shape[1]
        v = u.transpose(1, 2)                                    # (B, H, L)
        y = fft_causal_conv(v, self.kernel(L))                   # (B, H, L)
        if self.D is not None:
            y = y + v * self.D[:, None]
        y = y.transpose(1, 2)                                    # (B, L, H)
        if self.linear:
            return y
        return self.norm(u + self.mix(y))


class S4D(SeqModel):
    """S4D, a diagonal state-space sequence model: a causal map (B, T, d_in) -> (B, T, d_out).

    A stack of S4D layers (Gu, Gupta, Goel, Re 2022, arXiv:2206.11893; the module docstring gives the
    kernel, the ZOH discretisation and the initialisations) between a linear encoder and decoder, as in the
    architecture list of ``docs/papers/memory-functions.md``. ``linear=True`` removes GELU/GLU/LayerNorm and
    the residual, so the whole model is a linear time-invariant filter; with ``width=1, layers=1``,
    ``encoder`` and ``decoder`` are scalars and the model is exactly one S4D channel with N real modes (plus
    the D skip unless ``skip=False``): its memory function is an N-term exponential sum (:meth:`exp_sum`),
    the object of the Prony lower bound.

    Parameters
    ----------
    width : int, default 16
        Channels H per layer (>= 1).
    state : int, default 32
        State size N per channel (even, >= 2: N/2 complex-conjugate mode pairs).
    layers : int, default 1
        Stacked S4D layers (>= 1).
    init : {"lin", "inv"}, default "lin"
        S4D-Lin (``A_n = -1/2 + i pi n``) or S4D-Inv initialisation.
    dt_range : {"task", "reference"}, default "task"
        Range of the per-channel time step (:func:`dt_bounds`): ``"task"`` = ``[1/seq_len, 1]`` (``seq_len``
        = the task's T, filled in by ``numerics.memory_functions.bench.zoo.build_model``), ``"reference"`` =
        ``[1e-3, 1e-1]`` (the reference ``s4d.py``).
    dt_min, dt_max : float, optional
        Explicit time-step range (both or neither; ``0 < dt_min <= dt_max``): overrides ``dt_range``.
    linear : bool, default False
        A linear time-invariant model (no nonlinearity, no residual, no encoder/decoder bias).
    skip : bool, default True
        The D skip term ``D u``.
    seq_len : int, optional
        The task's sequence length; required by ``dt_range="task"`` without explicit ``dt_min``/``dt_max``.
    d_in, d_out : int, default 1
        Input and output features per time step.

    Returns
    -------
    S4D
        A ``torch.nn.Module``; calling it on a float tensor (B, T, d_in) returns (B, T, d_out).

    Raises
    ------
    TypeError, ValueError
        A size that is not a positive integer, an odd ``state``, an unknown ``init`` or ``dt_range``,
        ``dt_range="task"`` without ``seq_len``, only one of ``dt_min``/``dt_max``, or a model above
        ``theory._args.MAX_PARAMETERS`` parameters.

    Examples
    --------
    >>> S4D(width=8, seq_len=64)(torch.zeros(2, 5, 1)).shape
    torch.Size([2, 5, 1])

    A linear single-channel S4D is the exponential sum :meth:`exp_sum` returns: its response to a unit
    impulse is ``sum_i coefs_i poles_i**s``, plus ``d0`` at ``s = 0``:

    >>> _ = torch.manual_seed(0)
    >>> m = S4D(width=1, state=8, linear=True, seq_len=16)
    >>> poles, coefs, d0 = m.exp_sum()
    >>> rho = (coefs[:, None] * poles[:, None] ** np.arange(16)).sum(axis=0).real
    >>> rho[0] += d0
    >>> impulse = torch.zeros(1, 16, 1); impulse[0, 0, 0] = 1.0
    >>> y = m(impulse)[0, :, 0].detach().double().numpy()
    >>> bool(np.abs(y - rho).max() <= 1e-4 * np.abs(rho).max())          # float32 model
    True
    """

    def __init__(self, width: int = 16, state: int = 32, layers: int = 1, *, init: str = "lin",
                 dt_range: str = "task", dt_min: float | None = None, dt_max: float | None = None,
                 linear: bool = False, skip: bool = True, seq_len: int | None = None,
                 d_in: int = 1, d_out: int = 1):
        super().__init__(d_in, d_out)
        dt_min, dt_max = dt_limits(dt_range, seq_len, dt_min, dt_max)     # checked once, before any layer
        width = as_int("width", width, minimum=1)
        layers = as_layers("layers", layers)
        state = as_int("state", state, minimum=2)
        check_parameters({"width": width, "state": state, "layers": layers},
                         layers * (2 * width * width + 3 * width * state) + 2 * width)
        self.linear = as_bool("linear", linear)
        as_bool("skip", skip)
        self.encoder = nn.Linear(self.d_in, width, bias=not self.linear)
        self.layers = nn.ModuleList(
            S4DLayer(width, state, init=init, dt_min=dt_min, dt_max=dt_max, linear=linear, skip=skip)
            for _ in range(layers))
        self.decoder = nn.Linear(width, self.d_out, bias=not self.linear)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        h = self.encoder(x)                                      # (B, T, width)
        for layer in self.layers:
            h = layer(h)
        return self.decoder(h)                                   # (B, T, d_out)

    @torch.no_grad()
    def exp_sum(self) -> tuple[np.ndarray, np.ndarray, float]:
        """The memory function of a single-channel linear S4D as ``(poles, coefs, d0)``:
        ``rhohat(s) = sum_i coefs_i poles_i**s + d0 * [s == 0]`` (``d0`` is the D skip, 0 without it).

        Only defined for ``linear=True, width=1, layers=1, d_in=d_out=1`` (then the encoder/decoder
        scalars are folded into the coefficients).
        """
        if not (self.linear and len(self.layers) == 1 and self.encoder.out_features == 1
                and self.d_in == 1 and self.d_out == 1):
            raise ValueError("exp_sum needs a linear single-channel S4D (linear=True, width=1, layers=1)")
        scale = float(self.encoder.weight[0, 0] * self.decoder.weight[0, 0])
        poles, coefs = self.layers[0].kernel.exp_sum(0)
        D = self.layers[0].D
        d0 = scale * float(D[0]) if D is not None else 0.0
        return poles, coefs * scale, d0
