"""One LSTM layer as elementary tensor operations with a hand-written backward pass and a ``vmap`` rule.

``torch.func.vmap`` has no batching rule for the fused ``aten::lstm``, and an LSTM written as a Python loop
of autograd operations under ``vmap`` is ~5x slower than the fused kernel. :func:`lstm_layer` computes the
same map as one layer of ``torch.nn.LSTM`` (batch first, zero initial state, gate order i, f, g, o)::

    a_t = W_ih x_t + b_ih + W_hh h_{t-1} + b_hh,     (i, f, g, o) = (sig, sig, tanh, sig)(a_t in 4 blocks)
    c_t = f * c_{t-1} + i * g,                       h_t = o * tanh(c_t),        h_{-1} = c_{-1} = 0

with the input projection of all t in one matmul, and backpropagates through time by hand (no autograd
graph per step)::

    dh_t = dL/dh_t + W_hh^T da_{t+1},                dc_t = dc_{t+1} * f_{t+1} + dh_t * o_t (1 - tanh^2 c_t)
    da_t = (dc_t g_t i_t(1-i_t), dc_t c_{t-1} f_t(1-f_t), dc_t i_t (1-g_t^2), dh_t tanh(c_t) o_t(1-o_t))
    dW_ih = sum_t da_t^T x_t,  dW_hh = sum_t da_t^T h_{t-1},  db_ih = db_hh = sum_t da_t,  dx_t = W_ih^T da_t

Its ``vmap`` rule moves the vmapped axis of every argument to the front and calls the same code with a
leading member axis (G): a group of G LSTMs costs about one LSTM's per-step overhead. Equal to
``nn.LSTM`` up to float reassociation (``tests/test_models.py`` compares values and gradients).
"""

from __future__ import annotations

import torch


def lstm_layer(x: torch.Tensor, w_ih: torch.Tensor, w_hh: torch.Tensor, b_ih: torch.Tensor,
               b_hh: torch.Tensor) -> torch.Tensor:
    """Hidden states (B, T, H) of one ``nn.LSTM`` layer on x (B, T, d) with that layer's parameters
    (``weight_ih_l{k}`` (4H, d), ``weight_hh_l{k}`` (4H, H), ``bias_ih_l{k}``, ``bias_hh_l{k}`` (4H,))."""
    return _LSTMLayer.apply(x, w_ih, w_hh, b_ih, b_hh)[0]


class _LSTMLayer(torch.autograd.Function):
    """Arguments with an optional leading member axis G: x (G?, B, T, d), weights (G?, 4H, .), biases (G?, 4H)."""

    @staticmethod
    def forward(x, w_ih, w_hh, b_ih, b_hh):
        single = x.dim() == 3
        if single:
            x, w_ih, w_hh, b_ih, b_hh = (a.unsqueeze(0) for a in (x, w_ih, w_hh, b_ih, b_hh))
        h, *saved = _forward(x, w_ih, w_hh, b_ih, b_hh)
        return (h[0] if single else h), *saved

    @staticmethod
    def setup_context(ctx, inputs, output):
        x, w_ih, w_hh, _, _ = inputs
        ctx.save_for_backward(x, w_ih, w_hh, *output[1:])
        ctx.mark_non_differentiable(*output[1:])

    @staticmethod
    def backward(ctx, dh, *_):
        x, w_ih, w_hh, *saved = ctx.saved_tensors
        single = x.dim() == 3
        if single:
            x, w_ih, w_hh, dh = (a.unsqueeze(0) for a in (x, w_ih, w_hh, dh))     # saved: always with G
        grads = _backward(dh, x, w_ih, w_hh, *saved)
        return tuple(g[0] for g in grads) if single else grads

    @staticmethod
    def vmap(info, in_dims, *args):
        args = [a.movedim(d, 0) if d is not None else a.expand(info.batch_size, *a.shape)
                for a, d in zip(args, in_dims)]
        out = _LSTMLayer.apply(*args)
        return out, (0,) * len(out)


# Internally every step works on (G, 4H, B) slices (features by rows, sequences by columns): a gate's block
# of rows is then contiguous, which makes the small elementwise kernels several times faster than (G, B, 4H).

def _forward(x, w_ih, w_hh, b_ih, b_hh):
    """x (G, B, T, d) -> h (G, B, T, H) and what the backward pass needs (layout (T, G, features, B))."""
    G, B, T, _ = x.shape
    H = w_hh.shape[-1]
    xp = w_ih @ x.permute(2, 0, 3, 1) + (b_ih + b_hh)[..., None]        # (T, G, 4H, B): all t at once
    act = torch.empty_like(xp)                # gate activations (i, f, g, o)
    c_all = x.new_zeros(T + 1, G, H, B)       # c_{-1} = 0 at index 0
    h_all = x.new_zeros(T + 1, G, H, B)       # h_{-1} = 0 at index 0
    tc_all = x.new_empty(T, G, H, B)          # tanh(c_t)
    for t in range(T):
        a = torch.baddbmm(xp[t], w_hh, h_all[t])
        s = torch.sigmoid(a, out=act[t])
        i, f, g, o = s.split(H, dim=1)
        torch.tanh(a[:, 2 * H:3 * H], out=g)
        c = torch.addcmul(f * c_all[t], i, g, out=c_all[t + 1])
        torch.mul(o, torch.tanh(c, out=tc_all[t]), out=h_all[t + 1])
    return h_all[1:].permute(1, 3, 0, 2).contiguous(), act, c_all, h_all, tc_all


def _backward(dh_out, x, w_ih, w_hh, act, c_all, h_all, tc_all):
    """Gradients (x, w_ih, w_hh, b_ih, b_hh) from dL/dh (G, B, T, H): the module docstring's recursion."""
    G, B, T, H = dh_out.shape
    dh_out = dh_out.permute(2, 0, 3, 1).contiguous()                     # (T, G, H, B)
    i, f, g, o = act.split(H, dim=2)
    # the per-step factors that do not depend on the recursion, for all t at once (fused kernels:
    # sigmoid_backward(u, y) = u y (1 - y), tanh_backward(u, y) = u (1 - y^2))
    sig_b, tanh_b = torch.ops.aten.sigmoid_backward, torch.ops.aten.tanh_backward
    k_c = tanh_b(o, tc_all)                                               # dc_t += dh_t * k_c
    f_c = torch.stack((sig_b(g, i), sig_b(c_all[:T], f), tanh_b(i, g)), dim=2)     # (T, G, 3, H, B)
    f_o = sig_b(tc_all, o)
    da = torch.empty_like(act)
    da4 = da.view(T, G, 4, H, B)
    w_hhT = w_hh.mT
    dh_rec = dh_out.new_zeros(G, H, B)
    dc = dh_out.new_zeros(G, H, B)
    for t in reversed(range(T)):
        dh = dh_out[t] + dh_rec
        dc = torch.addcmul(dc * f[t + 1] if t + 1 < T else dc, dh, k_c[t])
        torch.mul(dc[:, None], f_c[t], out=da4[t, :, :3])
        torch.mul(dh, f_o[t], out=da4[t, :, 3])
        dh_rec = torch.bmm(w_hhT, da[t])
    da_g = da.permute(1, 2, 0, 3).reshape(G, 4 * H, T * B)                # columns (t, b)
    dw_ih = da_g @ x.permute(0, 2, 1, 3).reshape(G, T * B, -1)          # rows (t, b), as da_g's columns
    dw_hh = da_g @ h_all[:T].permute(1, 0, 3, 2).reshape(G, T * B, H)
    db = da_g.sum(-1)
    dx = (w_ih.mT @ da).permute(1, 3, 0, 2)                               # (T, G, d, B) -> (G, B, T, d)
    return dx, dw_ih, dw_hh, db, db.clone()
