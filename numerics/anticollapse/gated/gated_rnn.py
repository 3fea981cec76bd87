"""The gated RNNs of the anti-collapse experiments: ConstGate, SharedGate and DiagGate.

Source: L. Livi, "Anti-Collapse Dynamics and the Emergence of Multi-Time-Scale Learning in Recurrent Neural
Networks", arXiv:2606.29519 (2026), experiments section, as restated in ``docs/papers/anti-collapse.md``. All
three share the leaky-integrator update (elementwise)::

    h_t = (1 - s_t) * h_{t-1} + s_t * tanh(W_x x_t + W_h h_{t-1} + b),        h_{-1} = 0,

followed by a linear readout ``y_t = W_o h_t + b_o``. They differ only in the gate ``s_t``:

- ``ConstGate``  (``arch="const"``): ``s_t = s``, a fixed constant (default 0.005), *not* a parameter.
  The structural negative control: no route by which training can move a unit's time scale except through
  the small first-order term ``[W_h]_qq``.
- ``SharedGate`` (``arch="shared"``): ``s_t = sigmoid(w_s . x_t + u_s . h_{t-1} + b_s)``, one scalar per
  time step broadcast to every unit.
- ``DiagGate``   (``arch="diag"``):   ``s_t = sigmoid(W_s x_t + U_s h_{t-1} + b_s)``, one gate per unit
  (the "access route" to a broad time-scale spectrum).

Initialisation: gate weights (``W_s``, ``U_s``) are exactly zero and ``b_s = logit(init_s)`` so every unit
starts with ``s = init_s``, time scale ``~ 1 / init_s`` (200 for the default 0.005). ``W_x``, ``b``,
``W_h`` and the readout weight are orthogonal (``torch.nn.init.orthogonal_``, gain 1; ``init="orthogonal"``,
the default, as the author's public code does); ``init="uniform"`` keeps PyTorch's default ``nn.Linear``
initialisation (uniform on ``+-1/sqrt(fan_in)``). ``b`` and ``b_o`` start at zero either way.

Parameter names (used by the forcing and by the optimiser's rate ``Lambda``): ``W_x.weight``,
``W_x.bias`` (= b), ``W_h.weight``, ``W_s.weight``, ``W_s.bias`` (= b_s), ``U_s.weight``,
``readout.weight``, ``readout.bias``. Shapes: ``W_s`` is (1, d_in) / (H, d_in) and ``U_s`` is (1, H) /
(H, H) for SharedGate / DiagGate.
"""

from __future__ import annotations

import dataclasses
import math

import torch
from torch import nn

from theory._args import as_choice, as_int, as_real

from numerics._torch import MAX_FEATURES, check_parameters

ARCHITECTURES = ("const", "shared", "diag")
INITS = ("orthogonal", "uniform")
_CLASS_NAMES = {"const": "ConstGate", "shared": "SharedGate", "diag": "DiagGate"}
# units of one layer: the experiments use 512; the orthogonal initialisation is a QR decomposition of an
# (H, H) matrix, O(H^3): 4096 units take about 6 s on two cores, 9500 over a minute
MAX_HIDDEN = 4096


@dataclasses.dataclass
class Trace:
    """Per-step quantities of one forward pass, each of shape (B, T, H), indexed by the step p.

    ``s[:, p]`` is the gate ``s_p`` (broadcast to H units for ConstGate/SharedGate), ``tanh[:, p]`` the
    candidate ``tanh(W_x x_p + W_h h_{p-1} + b)``, ``h_prev[:, p]`` the state ``h_{p-1}`` entering step p
    (zero for p = 0) and ``h[:, p]`` the state after it. These are exactly the quantities in the leak
    ``a_p = 1 - s_p`` and the first-order term ``r_p`` of ``numerics.anticollapse.gated.diagnostics``.
    """

    s: torch.Tensor
    tanh: torch.Tensor
    h_prev: torch.Tensor
    h: torch.Tensor


def logit(p: float) -> float:
    """``log(p / (1 - p))``, the gate bias that makes ``sigmoid(b_s) = p``.

    >>> round(logit(0.5), 12)
    0.0
    >>> round(1 / (1 + math.exp(-logit(0.005))), 12)
    0.005
    """
    p = as_real("p", p, minimum=0.0, maximum=1.0, open_min=True, open_max=True)
    return math.log(p / (1.0 - p))


class GatedRNN(nn.Module):
    """A single-layer gated leaky RNN, (B, T, d_in) -> (B, T, d_out); see the module docstring.

    The forward pass precomputes the input projections for all steps and does one (H + G) x H matrix
    product per step (``W_h`` stacked on ``U_s``), which is what makes a Python-level time loop affordable
    on a CPU.

    Parameters
    ----------
    arch : {"const", "shared", "diag"}
        ConstGate, SharedGate or DiagGate.
    d_in : int, default 16
        Input width (16 in the experiments).
    hidden : int, default 64
        Number of units H, ``1 <= H <= MAX_HIDDEN``.
    d_out : int, default 1
        Output width.
    init_s : float, default 0.005
        The constant gate of ConstGate, and the initial gate ``sigmoid(b_s)`` of the trained gates; in (0, 1).
    init : {"orthogonal", "uniform"}, default "orthogonal"
        Input, recurrent and readout weights orthogonal, or ``nn.Linear``'s default initialisation.

    Returns
    -------
    GatedRNN
        A ``torch.nn.Module``; calling it on a float tensor (B, T, d_in) returns (B, T, d_out).

    Raises
    ------
    TypeError, ValueError
        An unknown ``arch`` or ``init``, a size that is not a positive integer, ``init_s`` outside (0, 1), or a
        model above ``theory._args.MAX_PARAMETERS`` parameters.

    Examples
    --------
    >>> m = GatedRNN("diag", d_in=3, hidden=8)
    >>> m(torch.zeros(2, 5, 3)).shape
    torch.Size([2, 5, 1])
    >>> s = torch.sigmoid(m.W_s.bias)                     # every unit starts at the gate init_s
    >>> bool(torch.allclose(s, torch.full((8,), 0.005)))
    True
    """

    def __init__(self, arch: str, d_in: int = 16, hidden: int = 64, d_out: int = 1, *, init_s: float = 0.005,
                 init: str = "orthogonal"):
        super().__init__()
        self.init = as_choice("init", init, INITS)
        self.arch = as_choice("arch", arch, ARCHITECTURES)
        self.d_in = as_int("d_in", d_in, minimum=1, maximum=MAX_FEATURES)
        self.hidden = as_int("hidden", hidden, minimum=1, maximum=MAX_HIDDEN)
        self.d_out = as_int("d_out", d_out, minimum=1, maximum=MAX_FEATURES)
        self.init_s = as_real("init_s", init_s, minimum=0.0, maximum=1.0, open_min=True, open_max=True)
        H = self.hidden
        check_parameters({"hidden": hidden, "d_in": d_in, "d_out": d_out},
                         3 * H * (H + self.d_in + self.d_out + 1))
        self.W_x = nn.Linear(self.d_in, H)
        nn.init.zeros_(self.W_x.bias)
        self.W_h = nn.Linear(H, H, bias=False)
        if self.arch == "const":
            self.register_buffer("s_const", torch.tensor(self.init_s))
        else:
            G = 1 if self.arch == "shared" else H
            self.W_s = nn.Linear(self.d_in, G)
            self.U_s = nn.Linear(H, G, bias=False)
            with torch.no_grad():
                self.W_s.weight.zero_()
                self.U_s.weight.zero_()
                self.W_s.bias.fill_(logit(self.init_s))
        self.readout = nn.Linear(H, self.d_out)
        nn.init.zeros_(self.readout.bias)
        if self.init == "orthogonal":
            for w in (self.W_x.weight, self.W_h.weight, self.readout.weight):
                nn.init.orthogonal_(w)

    # ------------------------------------------------------------------ structure used by the diagnostics
    @property
    def gated(self) -> bool:
        return self.arch != "const"

    def recurrent_diagonals(self) -> tuple[torch.Tensor, torch.Tensor]:
        """``([W_h]_qq, [U_s]_qq)`` for q = 1..H (detached). For SharedGate ``[U_s]_qq`` is ``u_s[q]``,
        the weight of unit q in the shared gate (the diagonal of the rank-one gate Jacobian); for
        ConstGate it is zero."""
        wh = torch.diagonal(self.W_h.weight.detach()).clone()
        if self.arch == "const":
            us = torch.zeros_like(wh)
        elif self.arch == "shared":
            us = self.U_s.weight.detach()[0].clone()
        else:
            us = torch.diagonal(self.U_s.weight.detach()).clone()
        return wh, us

    def unit_row_parameters(self) -> dict[str, nn.Parameter]:
        """The trainable tensors whose leading index is a hidden unit q: row q belongs to unit q.

        ``W_x.weight``, ``W_x.bias``, ``W_h.weight`` always; DiagGate adds ``W_s.weight``, ``W_s.bias``,
        ``U_s.weight``. The shared gate (leading size 1) and the readout (leading index = output) are
        not per-unit and are excluded.
        """
        out = {}
        for name, p in self.named_parameters():
            if p.requires_grad and p.ndim >= 1 and p.shape[0] == self.hidden and not name.startswith("readout."):
                out[name] = p
        return out

    # ------------------------------------------------------------------ dynamics
    def _stacked_recurrent(self) -> torch.Tensor:
        if self.arch == "const":
            return self.W_h.weight
        return torch.cat([self.W_h.weight, self.U_s.weight], dim=0)

    def step(self, x_t: torch.Tensor, h_prev: torch.Tensor) -> torch.Tensor:
        """One step of the recurrence, ``(B, d_in), (B, H) -> (B, H)`` (the reference for Jacobian tests)."""
        pre = self.W_x(x_t) + h_prev @ self.W_h.weight.T
        c = torch.tanh(pre)
        s = self._gate(x_t, h_prev)
        return h_prev + s * (c - h_prev)

    def _gate(self, x_t: torch.Tensor, h_prev: torch.Tensor) -> torch.Tensor:
        if self.arch == "const":
            return self.s_const
        return torch.sigmoid(self.W_s(x_t) + h_prev @ self.U_s.weight.T)

    def run(self, x: torch.Tensor, *, trace: bool = False) -> tuple[torch.Tensor, Trace | None]:
        """Forward pass; returns ``(y, trace)`` with y of shape (B, T, d_out) and a :class:`Trace` if asked.

        The time loop runs inside :class:`_GatedScan`, whose backward pass is hand-written BPTT (checked
        against autograd through :meth:`step` in ``tests/test_gated_rnn.py``); this avoids the per-op
        overhead of the autograd engine, which dominates at the small widths of the cpu sweep.
        """
        if not isinstance(x, torch.Tensor) or x.ndim != 3 or x.shape[-1] != self.d_in:
            shape = tuple(x.shape) if isinstance(x, torch.Tensor) else type(x).__name__
            raise ValueError(f"x must be a tensor of shape (B, T, {self.d_in}), got {shape}")
        x_proj = self.W_x(x).transpose(0, 1)                                  # (T, B, H)
        g_proj = self.W_s(x).transpose(0, 1) if self.gated else x_proj[..., :0]  # (T, B, G)
        s_const = self.s_const if not self.gated else None
        R = self._stacked_recurrent().T                                       # (H, H + G)
        if trace:
            with torch.no_grad():
                states, S, C, Hp = _scan_forward(x_proj, g_proj, R, s_const, self.arch)
            T, B, H = states.shape
            tr = Trace(s=S.expand(T, B, H).transpose(0, 1), tanh=C.transpose(0, 1), h_prev=Hp.transpose(0, 1), h=states.transpose(0, 1))
            return self.readout(states.transpose(0, 1)), tr
        states = _GatedScan.apply(x_proj, g_proj, R, s_const, self.arch)
        return self.readout(states.transpose(0, 1)), None

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.run(x)[0]

    def extra_repr(self) -> str:
        return f"arch={self.arch!r} ({_CLASS_NAMES[self.arch]}), d_in={self.d_in}, hidden={self.hidden}, init_s={self.init_s}, init={self.init!r}"


class ConstGate(GatedRNN):
    """Fixed gate ``s`` (default 0.005, a buffer, never trained): the structural negative control."""

    def __init__(self, d_in: int = 16, hidden: int = 64, d_out: int = 1, *, init_s: float = 0.005,
                 init: str = "orthogonal"):
        super().__init__("const", d_in, hidden, d_out, init_s=init_s, init=init)


class SharedGate(GatedRNN):
    """One scalar gate ``sigmoid(w_s.x_t + u_s.h_{t-1} + b_s)`` broadcast to all units."""

    def __init__(self, d_in: int = 16, hidden: int = 64, d_out: int = 1, *, init_s: float = 0.005,
                 init: str = "orthogonal"):
        super().__init__("shared", d_in, hidden, d_out, init_s=init_s, init=init)


class DiagGate(GatedRNN):
    """One gate per unit, ``sigmoid(W_s x_t + U_s h_{t-1} + b_s)``: the access route to broad spectra."""

    def __init__(self, d_in: int = 16, hidden: int = 64, d_out: int = 1, *, init_s: float = 0.005,
                 init: str = "orthogonal"):
        super().__init__("diag", d_in, hidden, d_out, init_s=init_s, init=init)


def build_gated_rnn(arch: str, d_in: int = 16, hidden: int = 64, d_out: int = 1, *, init_s: float = 0.005,
                    init: str = "orthogonal") -> GatedRNN:
    """The model class for ``arch`` ("const", "shared", "diag"), built with the given sizes."""
    arch = as_choice("arch", arch, ARCHITECTURES)
    cls = {"const": ConstGate, "shared": SharedGate, "diag": DiagGate}[arch]
    return cls(d_in, hidden, d_out, init_s=init_s, init=init)


def _scan_forward(x_proj, g_proj, R, s_const, arch):
    """The time loop of the recurrence in (T, B, .) layout; returns ``(states, S, C, H_prev)``.

    ``S`` is (T, B, G) for the trained gates (G = 1 or H) and the 0-d constant for ConstGate.
    """
    T, B, H = x_proj.shape
    states = x_proj.new_empty(T, B, H)
    C = x_proj.new_empty(T, B, H)
    Hp = x_proj.new_empty(T, B, H)
    gated = arch != "const"
    S = x_proj.new_empty(T, B, g_proj.shape[-1]) if gated else s_const
    h = x_proj.new_zeros(B, H)
    for t in range(T):
        Hp[t] = h
        z = h @ R
        c = torch.tanh(x_proj[t] + z[:, :H])
        C[t] = c
        if gated:
            s = torch.sigmoid(g_proj[t] + z[:, H:])
            S[t] = s
        else:
            s = s_const
        h = h + s * (c - h)
        states[t] = h
    return states, S, C, Hp


class _GatedScan(torch.autograd.Function):
    """``states = scan(x_proj, g_proj, R)`` with hand-written backpropagation through time.

    For step t with ``z = h_{t-1} R``, ``c = tanh(x_proj_t + z_h)``, ``s = sigmoid(g_proj_t + z_g)``
    (or the constant) and ``h_t = h_{t-1} + s (c - h_{t-1})``, the adjoint ``g = dL/dh_t`` gives
    ``dpre = g s (1 - c^2)``, ``dgate = [g (c - h_{t-1})] s (1 - s)`` (summed over units for the shared
    gate), ``dz = (dpre, dgate)``, ``dL/dh_{t-1} = g (1 - s) + dz R^T`` and ``dR = sum_t h_{t-1}^T dz_t``.
    """

    @staticmethod
    def forward(ctx, x_proj, g_proj, R, s_const, arch):
        states, S, C, Hp = _scan_forward(x_proj, g_proj, R, s_const, arch)
        ctx.arch = arch
        ctx.save_for_backward(R, S if arch != "const" else s_const, C, Hp)
        return states

    @staticmethod
    def backward(ctx, g_states):
        R, S, C, Hp = ctx.saved_tensors
        arch = ctx.arch
        T, B, H = C.shape
        G = R.shape[1] - H
        DZ = C.new_empty(T, B, H + G)
        RT = R.T
        carry = C.new_zeros(B, H)
        for t in range(T - 1, -1, -1):
            g = g_states[t] + carry
            s = S[t] if arch != "const" else S
            c = C[t]
            torch.mul(g * s, 1.0 - c * c, out=DZ[t, :, :H])
            if arch != "const":
                ds = g * (c - Hp[t])
                if arch == "shared":
                    ds = ds.sum(dim=1, keepdim=True)
                torch.mul(ds, s * (1.0 - s), out=DZ[t, :, H:])
            carry = torch.addmm(g * (1.0 - s), DZ[t], RT)
        dR = Hp.reshape(T * B, H).T @ DZ.reshape(T * B, H + G)
        return DZ[..., :H], DZ[..., H:], dR, None, None
