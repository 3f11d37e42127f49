"""scipy.signal's fftconvolve, convolve, correlate and oaconvolve on fftmux_convolution_*.

Shapes, modes, axes, broadcasting and the swap of inputs in 'valid' mode follow scipy.signal;
so do the result types: real when both inputs are real, single precision when both are.
"""

import math

import numpy as np

from . import _capi as C
from ._convolve import Convolution
from ._transforms import precision_of

_FFT_MODES = ("full", "same", "valid")


def _result_type(in1, in2):
    single = precision_of(in1.dtype) == precision_of(in2.dtype) == C.F32
    real = in1.dtype.kind != "c" and in2.dtype.kind != "c"
    precision = "f32" if single else "f64"
    return precision, real


def _centered(a, shape):
    """The centred part of a, of shape (scipy.signal's _centered)."""
    start = [(have - want) // 2 for have, want in zip(a.shape, shape)]
    return a[tuple(slice(s, s + n) for s, n in zip(start, shape))]


def _check_mode(mode):
    if mode not in _FFT_MODES:
        raise ValueError(f"acceptable mode flags are 'valid', 'same', or 'full'; got {mode!r}")


def _settled(in1, in2, mode):
    """scipy.signal's first checks of two arrays, and the result where they decide it (two
    scalars, an empty input); None where the transforms decide it."""
    if in1.ndim == in2.ndim == 0:
        return in1 * in2
    if in1.ndim != in2.ndim:
        raise ValueError("in1 and in2 should have the same dimensionality")
    _check_mode(mode)
    if in1.size == 0 or in2.size == 0:
        return np.array([])
    return None


def _prepare(in1, in2, mode, axes):
    """scipy.signal's _init_freq_conv_axes: the convolved axes (length-1 axes broadcast
    instead), the broadcast check and, in 'valid' mode, the inputs swapped where in2 is the
    larger."""
    s1, s2 = in1.shape, in2.shape
    given = axes is not None
    axes = list(range(in1.ndim)) if axes is None else [a % in1.ndim for a in np.atleast_1d(axes)]
    if given and not axes:
        raise ValueError("when provided, axes cannot be empty")
    if len(set(axes)) != len(axes):
        raise ValueError(f"axes = {axes}: every axis at most once")
    axes = [a for a in axes if s1[a] != 1 and s2[a] != 1]
    if not all(s1[a] == s2[a] or 1 in (s1[a], s2[a]) for a in range(in1.ndim) if a not in axes):
        raise ValueError(f"incompatible shapes for in1 and in2: {s1} and {s2}")
    if mode == "valid":
        ok1 = all(s1[a] >= s2[a] for a in axes)
        ok2 = all(s2[a] >= s1[a] for a in axes)
        if not (ok1 or ok2):
            raise ValueError("For 'valid' mode, one must be at least as large as the other in "
                             "every dimension")
        if not ok1:
            in1, in2 = in2, in1
    return in1, in2, axes


def _outer(x, h, rank, mode, real, precision, backend):
    """x (*A, *n) with h (*B, *m), where each batch axis is 1 in A or in B: every filter
    against every signal, one call, then the batch axes broadcast."""
    A, n = x.shape[:-rank], x.shape[-rank:]
    B, m = h.shape[:-rank], h.shape[-rank:]
    conv = Convolution(n, m, h.reshape((-1,) + m), mode=mode, real=real, precision=precision,
                       batch=math.prod(A), backend=backend)
    y = conv(x.reshape((-1,) + n)).reshape(A + B + conv.out_shape)
    k = len(A)
    order = [i for pair in zip(range(k), range(k, 2 * k)) for i in pair]
    y = y.transpose(order + list(range(2 * k, y.ndim)))
    return y.reshape(tuple(max(a, b) for a, b in zip(A, B)) + conv.out_shape)


def _convolve_axes(in1, in2, mode, axes, backend):
    """in1 with in2 along axes (conv axes moved last, batch axes paired or broadcast)."""
    precision, real = _result_type(in1, in2)
    rank, nd = len(axes), in1.ndim
    if rank > C.MAX_RANK:
        raise ValueError(f"convolution over {rank} axes: fftmux convolves over at most "
                         f"{C.MAX_RANK}")
    batch = [a for a in range(nd) if a not in axes]
    # Batch axes where both sides are longer than 1 pair element by element: a loop.
    paired = [a for a in batch if in1.shape[a] > 1 and in2.shape[a] > 1]
    rest = [a for a in batch if a not in paired]
    order = paired + rest + list(axes)
    x, h = in1.transpose(order), in2.transpose(order)
    p = len(paired)
    parts = [_outer(x[i], h[i], rank, mode, real, precision, backend)
             for i in np.ndindex(x.shape[:p])]
    y = np.stack(parts).reshape(x.shape[:p] + parts[0].shape) if p else parts[0]
    return y.transpose(np.argsort(order))


def _apply_mode(ret, s1, s2, mode, axes):
    """The batch axes of a 'same' result centred on in1's, as scipy.signal does."""
    if mode != "same":
        return ret
    shape = [s1[a] if a not in axes else ret.shape[a] for a in range(ret.ndim)]
    return _centered(ret, shape).copy()


def fftconvolve(in1, in2, mode="full", axes=None, *, backend=None):
    """scipy.signal.fftconvolve: in1 convolved with in2 along axes (default all), the
    padded transforms on fftmux. backend: None routes, or a backend name."""
    in1, in2 = np.asarray(in1), np.asarray(in2)
    settled = _settled(in1, in2, mode)
    if settled is not None:
        return settled
    in1, in2, axes = _prepare(in1, in2, mode, axes)
    if not axes:  # every convolved axis has length 1: a broadcast product
        return _apply_mode(in1 * in2, in1.shape, in2.shape, mode, axes)
    ret = _convolve_axes(in1, in2, mode, axes, backend)
    return _apply_mode(ret, in1.shape, in2.shape, mode, axes)


def _rounded(out, in1, in2):
    """Integer inputs give integer results, rounded, as scipy.signal.convolve's FFT path."""
    kind = np.result_type(in1, in2)
    if kind.kind in "ui":
        return np.around(out).astype(kind)
    if kind.kind == "b":
        return np.around(out).astype(bool)
    return out


def _check_method(method):
    if method not in ("auto", "fft"):
        raise ValueError(f"method = {method!r}: fftmux computes by FFT ('auto' or 'fft')")


def convolve(in1, in2, mode="full", method="auto", *, backend=None):
    """scipy.signal.convolve, always by FFT."""
    _check_method(method)
    in1, in2 = np.asarray(in1), np.asarray(in2)
    return _rounded(fftconvolve(in1, in2, mode, backend=backend), in1, in2)


def correlate(in1, in2, mode="full", method="auto", *, backend=None):
    """scipy.signal.correlate: z[k] = sum_l in1[l] conj(in2[l - k + len(in2) - 1]) in 'full'
    mode, that is in1 convolved with in2 reversed and conjugated."""
    _check_method(method)
    in1, in2 = np.asarray(in1), np.asarray(in2)
    if in1.ndim == in2.ndim == 0:
        return in1 * in2.conj()
    if in1.ndim != in2.ndim:
        raise ValueError("in1 and in2 should have the same dimensionality")
    flipped = in2[(slice(None, None, -1),) * in2.ndim].conj()
    return _rounded(fftconvolve(in1, flipped, mode, backend=backend), in1, in2)
