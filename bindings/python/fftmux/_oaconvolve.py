"""scipy.signal.oaconvolve: overlap-add convolution for a long signal and a short filter.

The signal is cut into blocks whose padded transform is a few times the filter's length;
every block is one signal of a single batched fftmux_convolution call, and the blocks' full
results are added where they overlap.
"""


import math

import numpy as np

from ._convolve import Convolution
from ._signal import _apply_mode, _prepare, _result_type, _settled, fftconvolve


def _next_fast_len(n):
    """The smallest 2,3,5,7-smooth integer >= n."""
    while True:
        r = n
        for p in (2, 3, 5, 7):
            while r % p == 0:
                r //= p
        if r == 1:
            return n
        n += 1


def _block(n, m, rank):
    """Block length along one axis: its padded transform at least 8 times the filter's,
    where the blocks' transforms cost less than one of the whole axis (n log n each)."""
    fft = _next_fast_len(max(8 * m, 1024 if rank == 1 else 64))
    whole = _next_fast_len(n + m - 1)
    blocks = -(-n // (fft - m + 1))
    return fft - m + 1 if blocks * fft * math.log2(fft) < whole * math.log2(whole) else n


def _overlap_add(y, axis, hop, tail):
    """y with blocks hop apart on axis and their points on axis + 1 (hop + tail of them,
    tail <= hop): the blocks summed where they overlap, on one axis."""
    k, before, after = y.shape[axis], y.shape[:axis], y.shape[axis + 2:]
    out = np.empty(before + (k + 1, hop) + after, y.dtype)
    lead = (slice(None),) * axis
    out[lead + (slice(0, k),)] = y[lead + (slice(None), slice(0, hop))]
    out[lead + (k,)] = 0
    out[lead + (slice(1, k + 1), slice(0, tail))] += y[lead + (slice(None), slice(hop, None))]
    return out.reshape(before + ((k + 1) * hop,) + after)[lead + (slice(0, k * hop + tail),)]


def _blocked(x, h, backend):
    """The full convolution of x (*batch, *n) with one filter h (*m), block by block."""
    rank = h.ndim
    nb, n, m = x.ndim - rank, x.shape[-rank:], h.shape
    precision, real = _result_type(x, h)
    hop = [_block(a, b, rank) for a, b in zip(n, m)]
    k = [-(-a // b) for a, b in zip(n, hop)]
    padded = np.zeros(x.shape[:nb] + tuple(a * b for a, b in zip(k, hop)), x.dtype)
    padded[(Ellipsis,) + tuple(slice(0, a) for a in n)] = x
    split = padded.reshape(x.shape[:nb] + tuple(v for pair in zip(k, hop) for v in pair))
    order = list(range(nb)) + [nb + 2 * i for i in range(rank)] + \
        [nb + 2 * i + 1 for i in range(rank)]
    blocks = split.transpose(order).reshape((-1,) + tuple(hop))
    conv = Convolution(tuple(hop), m, h, real=real, precision=precision,
                       batch=blocks.shape[0], backend=backend)
    y = conv(blocks).reshape(x.shape[:nb] + tuple(k) + conv.out_shape)
    # Each axis's block index beside its points (k0, P0, k1, P1, ...), contiguous.
    pairs = [nb + i for a in range(rank) for i in (a, rank + a)]
    y = np.ascontiguousarray(y.transpose(list(range(nb)) + pairs))
    for a in range(rank):  # the axes before a are summed already, one axis each
        y = _overlap_add(y, nb + a, hop[a], m[a] - 1)
    full = tuple(a + b - 1 for a, b in zip(n, m))
    return y[(Ellipsis,) + tuple(slice(0, f) for f in full)]


def _window(y, n, m, mode, rank):
    """The mode's part of a full result along its last rank axes."""
    if mode == "full":
        return y
    start = [(b - 1) // 2 if mode == "same" else b - 1 for b in m]
    size = n if mode == "same" else [a - b + 1 for a, b in zip(n, m)]
    return y[(Ellipsis,) + tuple(slice(s, s + z) for s, z in zip(start, size))]


def oaconvolve(in1, in2, mode="full", axes=None, *, backend=None):
    """scipy.signal.oaconvolve. Blocks are cut from in1 along the convolved axes where in2 is
    the shorter; where in2 has batch axes of its own or is the longer on an axis, the result
    is fftconvolve's."""
    in1, in2 = np.asarray(in1), np.asarray(in2)
    settled = _settled(in1, in2, mode)
    if settled is not None:
        return settled
    a1, a2, conv_axes = _prepare(in1, in2, mode, axes)
    batch = [a for a in range(a1.ndim) if a not in conv_axes]
    if not conv_axes or any(a2.shape[a] != 1 for a in batch) or \
            any(a2.shape[a] > a1.shape[a] for a in conv_axes):
        return fftconvolve(in1, in2, mode, axes, backend=backend)
    order = batch + conv_axes
    h = a2.transpose(order).reshape(tuple(a2.shape[a] for a in conv_axes))
    x = a1.transpose(order)
    rank = len(conv_axes)
    y = _window(_blocked(x, h, backend), x.shape[-rank:], h.shape, mode, rank)
    return _apply_mode(y.transpose(np.argsort(order)), a1.shape, a2.shape, mode, conv_axes)
