"""Certified optimisation: a full-batch L-BFGS polish after the Adam stage, and the flat-floor certificate.

The claims of the architecture benchmark are about what a model *can* approximate, so a run's number should
be the best error an optimiser certifiably reaches, not where a fixed Adam budget happened to stop. After the
Adam stage (``numerics.memory_functions.bench.trainer.train``), :func:`polish` minimises the full-data RelMSE
``sum (yhat - y)^2 / sum y^2`` over all parameters with ``torch.optim.LBFGS`` (strong Wolfe line search,
``history`` curvature pairs), one iteration per ``step`` call so that the curve and the early stop see every
iteration:

1. an optional cheaper *float32 stage* (``f32_iters``; it stops early when its own RelMSE has changed by less
   than ``rtol`` over ``f32_window`` iterations, or when a line search makes no progress: float32 resolution);
2. the *float64 stage* (the model is cast to float64): at most ``f64_iters`` iterations, stopped early at
   the certificate;
3. an optional *Levenberg-Marquardt finish* (``lm_iters``, off by default), run only when the float64 stage
   ended uncertified: Gauss-Newton steps on the full-data residual ``r = (yhat - y) / sqrt(sum y^2)``
   (RelMSE ``= |r|^2``) with the exact Jacobian ``J`` (forward mode, :func:`_jacobian`), damped as
   ``(J^T J + lam diag(J^T J)) step = -J^T r`` (Marquardt's scaling; ``lam`` / 10 after an accepted step,
   x 10 after a rejected one), until ``||g|| / ||g_0|| <= gtol`` or ``lm_iters``. Its curve is stage
   ``"lm"``. It is followed by a fresh float64 L-BFGS stage of ``window`` iterations that carries the
   certificate, unchanged: the finish can only move the point, the rule still needs 500 flat float64
   iterations and the gradient test at their end (this window has no stall stop, so a point where L-BFGS
   can no longer lower the RelMSE still gets its 500 iterations). Measured on the cpu profile's LSTM (exp,
   alpha 0.5, seed 0; ``benchmarks/memory_arch/certificate_reach.py``): L-BFGS stands *flat* (< 1% per 500
   iterations) at RelMSE 1.0e-6 after 8000 float64 iterations while its gradient ratio stays at 3e-3; 25 LM
   steps from the 1000-iteration point reach 5.1e-8 and are still falling. A flat L-BFGS curve is not a
   floor, and the gradient half of the rule is what says so.

**Certificate** (:func:`certificate`, rule fixed before any run): a run is *certified* iff its float64 stage
has at least ``window`` iterations and, over the last ``window`` of them, the full-data RelMSE changed by less
than ``rtol`` (``change = (r[-window-1] - r[-1]) / r[-1]``, L-BFGS with a Wolfe line search never increases
it), and the gradient norm fell to ``||g|| / ||g_0|| <= gtol`` (``g_0``: the float64 gradient at the start
of the polish, i.e. at the Adam endpoint). Both numbers are reported for every run; a run that is not
certified is an *upper bound* on its architecture's floor, never a measurement of it. The defaults
(``window`` 500, ``rtol`` 1%, ``gtol`` 1e-3) are the benchmark's rule.

Cost (``benchmarks/bench_polish.py`` measures it side by side): the float32 stage's evaluations are 2-8x
cheaper than float64 ones on one core, and a run stops at its certificate instead of running a fixed
budget. ``torch.compile`` of the closure was measured and is not used: on one CPU thread it was no faster
than eager for these models (TCN, Transformer) and costs 20-30 s of compile per model and process.
"""

from __future__ import annotations

import dataclasses
import math
import time
from typing import Any

import numpy as np
import torch

from numerics._config import dataclass_from_dict, setter
from theory._args import MAX_MEMORY_BYTES, as_instance, as_int, as_real, check_budget

MAX_LM_ITERS = 10_000             # Levenberg-Marquardt steps: each needs a full Jacobian (P forward-mode passes)
_LM_CHUNK = 32                    # Jacobian columns per vmapped forward-mode pass (memory: 32 x one evaluation)


@dataclasses.dataclass(frozen=True)
class PolishSpec:
    """Settings of the L-BFGS polish (see the module docstring); part of a run's config and id."""

    f32_iters: int = 0          # float32 stage: at most this many iterations (0: none)
    f64_iters: int = 1000       # float64 stage: at most this many iterations (early stop at the certificate)
    history: int = 50
    max_eval: int = 25          # function evaluations per line search
    window: int = 500           # certificate: iterations over which the RelMSE must be flat
    rtol: float = 0.01          # certificate: relative change over the window
    gtol: float = 1e-3          # certificate: ||g|| / ||g_0||
    f32_window: int = 200       # float32 stage: flat over this many iterations ends it
    check_every: int = 25       # iterations between certificate checks (the early stop)
    curve_every: int = 2        # keep every k-th iteration of the curve in the result (size of the store)
    lm_iters: int = 0           # Levenberg-Marquardt finish: at most this many steps (0: none; module docstring)

    def __post_init__(self) -> None:
        f = setter(self)
        f("f32_iters", as_int("polish.f32_iters", self.f32_iters, minimum=0))
        f("f64_iters", as_int("polish.f64_iters", self.f64_iters, minimum=1))
        f("history", as_int("polish.history", self.history, minimum=1))
        f("max_eval", as_int("polish.max_eval", self.max_eval, minimum=2))
        f("window", as_int("polish.window", self.window, minimum=1))
        f("rtol", as_real("polish.rtol", self.rtol, minimum=0.0, open_min=True))
        f("gtol", as_real("polish.gtol", self.gtol, minimum=0.0, open_min=True))
        f("f32_window", as_int("polish.f32_window", self.f32_window, minimum=1))
        f("check_every", as_int("polish.check_every", self.check_every, minimum=1))
        f("curve_every", as_int("polish.curve_every", self.curve_every, minimum=1))
        f("lm_iters", as_int("polish.lm_iters", self.lm_iters, minimum=0, maximum=MAX_LM_ITERS))

    def to_dict(self) -> dict:
        """These settings as stored in a run config; ``lm_iters`` only when used, so that configs written before the
        finish existed keep their content-addressed run ids."""
        d = dataclasses.asdict(self)
        if not d["lm_iters"]:
            del d["lm_iters"]
        return d

    @classmethod
    def from_dict(cls, d: Any) -> "PolishSpec":
        return dataclass_from_dict(cls, d, "polish")


def _as_curve(name: str, value) -> list[float]:
    """A curve as a list of floats (NaN and infinity allowed: a diverged stage is recorded as it was)."""
    if isinstance(value, (str, bytes)) or not hasattr(value, "__len__"):
        raise TypeError(f"{name} must be a sequence of real numbers (one per iteration), got {value!r:.60}")
    try:
        arr = np.asarray(value)
        if arr.dtype.kind in "bc":            # True is not a gradient norm; a complex one is not either
            raise TypeError
        arr = arr.astype(np.float64)
    except (TypeError, ValueError):
        raise TypeError(f"{name} must be a sequence of real numbers (one per iteration), got {value!r:.60}") from None
    if arr.ndim != 1:
        raise ValueError(f"{name} must be one-dimensional, got shape {arr.shape}")
    return arr.tolist()


def certificate(relmse: list[float], grad: list[float], g0: float, *, window: int = 500, rtol: float = 0.01,
                gtol: float = 1e-3) -> dict:
    """The flat-floor certificate of a float64 curve (RelMSE and gradient norm per iteration, the last entry
    the final point): ``{"certified", "change", "grad_ratio", "iters", "reason"}`` (module docstring).
    ``gtol = inf`` leaves the gradient test out (the float32 stage's flatness stop uses it so).

    >>> flat = [1e-4 * (1 + 1e-4 * 0.99 ** i) for i in range(601)]
    >>> certificate(flat, [1e-6] * 601, 1.0)["certified"]
    True
    >>> certificate([1e-4 * (1 + 0.5 * 0.999 ** i) for i in range(601)], [1e-6] * 601, 1.0)["certified"]
    False
    """
    window = as_int("window", window, minimum=1)
    rtol = as_real("rtol", rtol, minimum=0.0, open_min=True)
    gtol = as_real("gtol", gtol, minimum=0.0, open_min=True, allow_inf=True)   # +inf: no gradient test (float32)
    relmse, grad = _as_curve("relmse", relmse), _as_curve("grad", grad)   # NaN allowed: a diverged start
    g0 = as_real("g0", g0, minimum=0.0)
    iters = len(relmse) - 1
    if len(grad) != len(relmse):
        raise ValueError(f"relmse and grad must have equal lengths, got {len(relmse)} and {len(grad)}")
    final = relmse[-1] if relmse else math.nan
    ratio = grad[-1] / g0 if grad and g0 > 0 else (0.0 if grad and grad[-1] == 0 else math.inf)
    if iters < window:
        change = math.inf
    else:
        ref = relmse[-window - 1]
        change = (ref - final) / final if final > 0 else (0.0 if ref == final else math.inf)
    finite = math.isfinite(final)
    ok = finite and iters >= window and abs(change) < rtol and ratio <= gtol
    why = ("" if ok else "not finite" if not finite else f"only {iters} float64 iterations (< {window})"
           if iters < window else f"RelMSE changed {change:.3g} over the last {window} iterations (>= {rtol:g})"
           if abs(change) >= rtol else f"||g||/||g0|| = {ratio:.3g} > {gtol:g}")
    return {"certified": bool(ok), "change": float(change), "grad_ratio": float(ratio), "iters": iters,
            "reason": why}


@dataclasses.dataclass
class PolishResult:
    """Outcome of :func:`polish`: the floor, its certificate and both stages' curves."""

    relmse: float                 # full-data RelMSE (float64) at the end of the polish
    start_relmse: float           # the same at the Adam endpoint
    certified: bool
    change: float                 # relative RelMSE change over the last ``window`` float64 iterations
    grad_ratio: float             # ||g|| / ||g_0|| at the end
    reason: str                   # why not certified ("" if certified)
    f32_iters: int
    f64_iters: int
    curve: dict                   # {"stage", "iter", "relmse", "grad"} lists, every ``curve_every``-th iteration
    seconds: float
    evals: int
    method: str = "L-BFGS (strong Wolfe) on the full-data RelMSE: float32 stage, then float64 to the certificate"
    lm_iters: int = 0             # Levenberg-Marquardt steps taken (0: no finish)


class _Objective:
    """Full-data RelMSE of ``model`` in one dtype, as an L-BFGS closure that records value and gradient norm."""

    def __init__(self, model: torch.nn.Module, x: np.ndarray, y: np.ndarray, dtype: torch.dtype):
        self.model, self.params = model, [p for p in model.parameters() if p.requires_grad]
        self.x = torch.as_tensor(x, dtype=dtype)[..., None]
        self.y = torch.as_tensor(y, dtype=dtype)[..., None]
        self.den = float(np.sum(np.asarray(y, float) ** 2))
        self.evals, self.last = 0, (math.nan, math.nan)

    def __call__(self) -> torch.Tensor:
        self.evals += 1
        for p in self.params:
            p.grad = None
        loss = ((self.model(self.x) - self.y) ** 2).sum() / self.den
        loss.backward()
        with torch.no_grad():
            g = math.sqrt(sum(float((p.grad.double() ** 2).sum()) for p in self.params if p.grad is not None))
        self.last = (float(loss.detach()), g)
        return loss


def polish(model: torch.nn.Module, x: np.ndarray, y: np.ndarray, spec: PolishSpec) -> PolishResult:
    """Polish a trained ``model`` ((B, T, 1) -> (B, T, 1)) on all of ``(x, y)`` (n_seq, T) with L-BFGS; see
    the module docstring. The model is left in float64 at the best point found."""
    as_instance("model", model, torch.nn.Module, "torch.nn.Module")
    if not isinstance(spec, PolishSpec):
        raise TypeError(f"spec must be a PolishSpec, got {type(spec).__name__}")
    from .trainer import _check_data

    x, y = _check_data(x, y)
    t0 = time.perf_counter()
    model.train()
    curve = {"stage": [], "iter": [], "relmse": [], "grad": []}
    model.double()
    obj64 = _Objective(model, x, y, torch.float64)
    obj64()
    start, g0 = obj64.last
    if not math.isfinite(g0):          # a diverged Adam endpoint has no g0: 0 makes every ratio infinite
        g0 = 0.0
    evals, n32 = 1, 0
    if spec.f32_iters:
        model.float()
        obj32 = _Objective(model, x, y, torch.float32)
        r32, _ = _run_stage(obj32, spec, spec.f32_iters, "f32", curve, window=spec.f32_window, gtol=None)
        n32, evals = len(r32) - 1, evals + obj32.evals
        model.double()
    obj64 = _Objective(model, x, y, torch.float64)
    r64, g64 = _run_stage(obj64, spec, spec.f64_iters, "f64", curve, window=spec.window, gtol=spec.gtol, g0=g0)
    evals += obj64.evals
    cert = certificate(r64, g64, g0, window=spec.window, rtol=spec.rtol, gtol=spec.gtol)
    n64, n_lm, method = len(r64) - 1, 0, PolishResult.method
    if spec.lm_iters and not cert["certified"]:
        n_lm, lm_evals = _lm_stage(model, obj64, spec, curve, g0)
        obj64 = _Objective(model, x, y, torch.float64)      # the certificate's window, after the finish
        r64, g64 = _run_stage(obj64, spec, spec.window, "f64", curve, window=spec.window, gtol=spec.gtol, g0=g0,
                              stall=False)
        cert = certificate(r64, g64, g0, window=spec.window, rtol=spec.rtol, gtol=spec.gtol)
        evals, n64 = evals + lm_evals + obj64.evals, n64 + len(r64) - 1
        method = ("L-BFGS (strong Wolfe) on the full-data RelMSE: float32 stage, float64 stage, Levenberg-Marquardt "
                  "finish, then a float64 L-BFGS window that carries the certificate")
    return PolishResult(r64[-1], start, cert["certified"], cert["change"], cert["grad_ratio"], cert["reason"],
                        n32, n64, curve, time.perf_counter() - t0, evals, method, n_lm)


def _jacobian(resid, v: torch.Tensor) -> torch.Tensor:
    """``J^T`` (P, N) of ``resid`` at ``v`` by forward mode: one ``jvp`` per parameter, ``_LM_CHUNK`` of them
    vmapped at a time (forward mode because N, the residuals, exceeds P, the parameters)."""
    eye = torch.eye(v.numel(), dtype=v.dtype)
    return torch.func.vmap(lambda u: torch.func.jvp(resid, (v,), (u,))[1], chunk_size=_LM_CHUNK)(eye)


def _lm_stage(model: torch.nn.Module, obj: _Objective, spec: PolishSpec, curve: dict, g0: float) -> tuple[int, int]:
    """The Levenberg-Marquardt finish (module docstring) on ``obj``'s float64 data, in place on ``model``;
    returns (steps taken, residual evaluations). Each accepted step enters the curve with its RelMSE and the
    norm of the RelMSE's gradient (``2 J^T r``; taken by one backward pass, so the last step needs no extra
    Jacobian)."""
    from torch.func import functional_call

    names = [n for n, p in model.named_parameters() if p.requires_grad]
    params = [p for p in model.parameters() if p.requires_grad]
    sizes = [p.numel() for p in params]
    n_res, n_par = obj.y.numel(), sum(sizes)
    check_budget("model (parameters x residuals of the Levenberg-Marquardt Jacobian)",
                 8.0 * n_par * (n_res + 2 * n_par + _LM_CHUNK * 16), MAX_MEMORY_BYTES, value=n_par)
    scale = 1.0 / math.sqrt(obj.den)

    def resid(v: torch.Tensor) -> torch.Tensor:
        # clone: a vmapped slice of v keeps v's batch stride, which view_as_complex (S4D's C) may refuse
        parts = {n: t.reshape(p.shape).clone() for n, t, p in zip(names, torch.split(v, sizes), params)}
        return ((functional_call(model, parts, (obj.x,)) - obj.y) * scale).reshape(-1)

    grad = torch.func.grad(lambda w: (resid(w) ** 2).sum())
    v = torch.cat([p.detach().reshape(-1) for p in params])
    r = resid(v).detach()
    f, lam, evals, it = float(r @ r), 1e-3, 1, 0
    while it < spec.lm_iters and math.isfinite(f):
        jt = _jacobian(resid, v).detach()
        a, g = jt @ jt.T, jt @ r
        if 2 * float(g.norm()) <= spec.gtol * g0:
            break
        d = torch.diagonal(a).clamp_min(torch.finfo(a.dtype).tiny)
        while lam <= 1e12:                       # damping grows until a step lowers the RelMSE
            step = torch.linalg.solve(a + lam * torch.diag(d), -g)
            r_new = resid(v + step).detach()
            evals += 1
            if float(r_new @ r_new) < f:
                v, r, f, lam = v + step, r_new, float(r_new @ r_new), max(lam / 10, 1e-12)
                break
            lam *= 10
        else:
            break                                # no damping lowers it: float64 resolution, or a kink
        it += 1
        _append(curve, "lm", it, f, float(grad(v).norm()))
    with torch.no_grad():
        for p, t in zip(params, torch.split(v, sizes)):
            p.copy_(t.view_as(p))
    return it, evals


def _run_stage(obj: _Objective, spec: PolishSpec, iters: int, stage: str, curve: dict, *, window: int,
               gtol: float | None, g0: float = 1.0, stall: bool = True) -> tuple[list[float], list[float]]:
    """One precision stage: L-BFGS iterations until ``iters``, a non-finite value, the stage's stop rule
    (flat over ``window`` and, for float64, ``gtol``), or a stall (module docstring). Returns the RelMSE and
    gradient-norm curves, entry 0 at the stage's start and the last at its final point.

    One ``LBFGS.step`` runs all iterations (a step call per iteration would re-evaluate the start point
    each time); the accepted point of every iteration is read where torch's LBFGS gets it, from its strong
    Wolfe line search, which :class:`_Recorder` wraps (it also caps each search at ``max_eval``
    evaluations and raises :class:`_Stop` to end the stage)."""
    obj()
    rel, grad = [obj.last[0]], [obj.last[1]]
    _append(curve, stage, 0, *obj.last)
    if not math.isfinite(rel[0]):
        return rel, grad
    opt = torch.optim.LBFGS(obj.params, lr=1.0, max_iter=iters, max_eval=10 ** 9, history_size=spec.history,
                            tolerance_grad=0.0, tolerance_change=0.0, line_search_fn="strong_wolfe")

    def stop(r: float, g: float) -> bool:
        if not math.isfinite(r):
            return True
        rel.append(r)
        grad.append(g)
        it = len(rel) - 1
        if it % spec.curve_every == 0:
            _append(curve, stage, it, r, g)
        return it >= iters or _stop(rel, grad, g0, window, spec, gtol, it, stall)

    with _Recorder(opt, stop, spec.max_eval):
        for _ in range(iters):                   # a step returns early only on a non-descent direction
            n = len(rel)
            try:
                opt.step(obj)
            except _Stop:
                break
            if len(rel) == n:
                break
    if curve["iter"][-1] != len(rel) - 1 or curve["stage"][-1] != stage:
        _append(curve, stage, len(rel) - 1, rel[-1], grad[-1])
    return rel, grad


class _Stop(Exception):
    """Raised from inside ``LBFGS.step`` to end a stage after an iteration's accepted point."""


class _Recorder:
    """Within the ``with`` block, torch's strong Wolfe line search reports every accepted point (value and
    gradient norm) to ``stop(r, g)``; when that returns True the step is applied and :class:`_Stop` raised
    (a non-finite value is not applied: the parameters stay at the last finite point)."""

    def __init__(self, opt, stop, max_ls: int):
        self.opt, self.stop, self.max_ls = opt, stop, max_ls

    def __enter__(self):
        import torch.optim.lbfgs as lb

        self.lb, self.orig = lb, lb._strong_wolfe

        def wolfe(obj_func, x, t, d, f, g, gtd, max_ls=25, **kw):
            f_new, g_new, t_new, evals = self.orig(obj_func, x, t, d, f, g, gtd, max_ls=min(max_ls, self.max_ls), **kw)
            r = float(f_new)
            if self.stop(r, float(g_new.double().norm())):
                if math.isfinite(r):
                    self.opt._add_grad(t_new, d)
                raise _Stop
            return f_new, g_new, t_new, evals

        lb._strong_wolfe = wolfe
        return self

    def __exit__(self, *exc):
        self.lb._strong_wolfe = self.orig


def _append(curve: dict, stage: str, it: int, r: float, g: float) -> None:
    curve["stage"].append(stage)
    curve["iter"].append(it)
    curve["relmse"].append(float(f"{r:.6g}"))
    curve["grad"].append(float(f"{g:.4g}"))


def _stop(rel: list[float], grad: list[float], g0: float, window: int, spec: PolishSpec, gtol: float | None,
          it: int, stall: bool = True) -> bool:
    """The stage's early stop: certified (float64) / flat (float32), checked every ``check_every`` iterations;
    or, with ``stall``, the last 20 iterations did not lower the RelMSE at all (the line search is at
    resolution)."""
    if stall and len(rel) > 20 and rel[-1] >= rel[-21]:
        return True
    if it % spec.check_every or len(rel) <= window:
        return False
    c = certificate(rel, grad, g0, window=window, rtol=spec.rtol, gtol=gtol if gtol is not None else math.inf)
    return c["certified"]
