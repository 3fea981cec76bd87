"""``seqtheory timescales MODEL.pt [--inputs X.npy | --T --batch --seed] [--json]``: per-unit time scales, tail
beta, envelope window gate, resolution and phase of a trained ``nn.GRU`` / ``nn.LSTM`` or toolkit gated RNN
(:func:`numerics.anticollapse.gated.rnn_timescales.rnn_timescales`); needs PyTorch.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

from ._json import dumps
from ._parser import OneLineParser, flag_message


def _text(res) -> str:
    from numerics.anticollapse.gated.rnn_timescales import first_order_warning
    from numerics.anticollapse.spectra import author_label_text

    lines = [f"{res.cell} stack: input_size {res.input_size}, hidden {res.hidden}, {res.num_layers} layer(s); "
             f"{res.n_sequences} sequences of T = {res.T}", f"leak: {res.leak}"]
    for k, d in res.layers.items():
        s = d.summary()
        tail = (f"beta_tail = {s['beta_tail']:.3g} [{s['beta_tail_ci'][0]:.3g}, {s['beta_tail_ci'][1]:.3g}] "
                f"(R^2 {s['beta_tail_r2']:.3f})") if d.tail is not None else d.note
        gate = "passed" if s["envelope_gate_passed"] else f"failed ({s['envelope_gate_reason']})"
        res_line = ("yes" if s["resolved"] else "no -- " + s["resolution_reason"])
        cal = s.get("phase_calibrated", "-")
        why = s.get("calibrated_reason", "")
        lines += [f"layer {k}: tau median {s['tau_median']:.4g}, q90 {s['tau_q90']:.4g}, max {s['tau_max']:.4g} "
                  f"({s['n_finite_tau']} finite of {s['n_units']}); leak-only tau median "
                  f"{s.get('tau_leak_median', float('nan')):.4g}",
                  f"  {tail}; envelope gate {gate}, beta_env = {s.get('beta_env', float('nan')):.3g}",
                  f"  envelope lags reach the tau tail (spectrum resolved): {res_line}",
                  f"  author's phase label: {author_label_text(s['phase'])} "
                  f"(mixture rule: {author_label_text(s['phase_mixture'])})",
                  f"  calibrated phase label: {cal} (few-exponential GOF p = {s.get('calibrated_gof_p', float('nan')):.3g}"
                  f"{'; ' + why if why else ''})"]
        warn = first_order_warning(s)
        lines += [warn] if warn else []
    return "\n".join(lines)


def _load_inputs(path: str) -> np.ndarray:
    p = Path(path)
    if not p.is_file():
        raise ValueError(f"--inputs {path}: no such file")
    try:
        return np.load(p, allow_pickle=False)
    except (ValueError, OSError) as exc:
        raise ValueError(f"--inputs {path} is not a .npy array: {exc}") from None


def _linear_lags(name: str, v) -> np.ndarray:
    from theory._args import MAX_LENGTH, as_int
    lo = as_int(f"{name} LO", v[0], minimum=1, maximum=MAX_LENGTH - 1)
    hi = as_int(f"{name} HI", v[1], minimum=lo + 1, maximum=MAX_LENGTH)
    n = as_int(f"{name} N", v[2], minimum=2, maximum=MAX_LENGTH)
    return np.unique(np.round(np.linspace(lo, hi, n)).astype(np.int64))


# the library's parameter names -> this command's flags, in its error messages
FLAGS = {"layer": "--layer", "n_boot": "--n-boot", "level": "--level", "window_stride": "--window-stride",
         "prefix": "--prefix", "rate_lags": "--rate-lags", "envelope_lags": "--envelope-lags"}


def _parser(prog: str) -> OneLineParser:
    ap = OneLineParser(prog=prog, description="Time scales, tail beta, envelope gate and phase of a trained RNN.")
    ap.add_argument("model", help="state dict saved with torch.save(model.state_dict(), path): nn.GRU, nn.LSTM "
                                  "or a toolkit gated RNN")
    ap.add_argument("--prefix", default="", help="entries of a submodule, e.g. 'rnn.' for model.rnn")
    ap.add_argument("--inputs", help="inputs (B, T, input_size), batch first, .npy (default: standard normal)")
    ap.add_argument("--T", type=int, default=None, help="length of generated inputs (default 512)")
    ap.add_argument("--batch", type=int, default=None, help="number of generated sequences (default 32)")
    ap.add_argument("--seed", type=int, default=None, help="seed of generated inputs (default 0)")
    ap.add_argument("--layer", type=int, default=None, help="diagnose one layer (default: every layer)")
    ap.add_argument("--rate-lags", type=int, nargs=3, metavar=("LO", "HI", "N"), help="linspace of rate lags")
    ap.add_argument("--envelope-lags", type=int, nargs=3, metavar=("LO", "HI", "N"), help="linspace of envelope lags")
    ap.add_argument("--n-boot", type=int, default=2000, help="bootstrap resamples of the tail beta (default 2000)")
    ap.add_argument("--level", type=float, default=0.90, help="level of the bootstrap interval, in (0, 1) (default 0.90)")
    ap.add_argument("--window-stride", type=int, default=1, help="stride of the envelope's sliding windows (default 1)")
    ap.add_argument("--no-progress", action="store_true", help="no progress bar on stderr (a layer takes seconds)")
    ap.add_argument("--json", action="store_true", help="print JSON")
    return ap


def main(argv: list[str] | None = None, *, prog: str = "seqtheory timescales") -> int:
    """The command line; a bad value is one line on stderr naming it, exit status 2. Needs PyTorch."""
    ap = _parser(prog)
    args = ap.parse_args(argv)           # --help works without PyTorch: torch is imported below
    from numerics.anticollapse.gated.gated_rnn import GatedRNN
    from numerics.anticollapse.gated.rnn_timescales import MIN_T, as_rnn, rnn_timescales, working_bytes
    from theory._args import MAX_MEMORY_BYTES, as_int, check_budget
    try:
        net = as_rnn(args.model, prefix=args.prefix)
        if args.inputs is not None:
            if any(v is not None for v in (args.T, args.batch, args.seed)):
                raise ValueError("--T, --batch and --seed generate inputs; they do not apply with --inputs")
            x = _load_inputs(args.inputs)
        else:
            T = as_int("--T", 512 if args.T is None else args.T, minimum=MIN_T, maximum=1 << 16)
            B = as_int("--batch", 32 if args.batch is None else args.batch, minimum=1, maximum=1 << 16)
            d_in = net.d_in if isinstance(net, GatedRNN) else net.input_size
            check_budget("--batch x --T", working_bytes(B, T, d_in, net.hidden, 64), MAX_MEMORY_BYTES,
                         value=f"{B} x {T}")
            x = np.random.default_rng(as_int("--seed", args.seed or 0)).standard_normal((B, T, d_in))
        lags = {k: None if v is None else _linear_lags(f"--{k.replace('_', '-')}", v)
                for k, v in (("rate_lags", args.rate_lags), ("envelope_lags", args.envelope_lags))}
        res = rnn_timescales(net, x, layer=args.layer, n_boot=args.n_boot,
                             level=args.level, window_stride=args.window_stride,
                             progress=not args.no_progress, **lags)
    except (ValueError, TypeError) as exc:       # one line, exit 2 (no usage block)
        print(f"{ap.prog}: error: {flag_message(str(exc), FLAGS)}", file=sys.stderr)
        raise SystemExit(2) from None
    print(dumps(res.to_dict(), indent=1) if args.json else _text(res))
    return 0
