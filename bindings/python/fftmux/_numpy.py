"""numpy.fft-compatible functions computed by fftmux.

Semantics follow numpy.fft (n, s, axis/axes, norm, zero-padding and cropping, odd sizes);
dtypes follow numpy >= 2: single precision stays single, double stays double. Two keywords
are added: shift=None|'input'|'output'|'both' fuses numpy.fft.ifftshift of the input and/or
fftshift of the result into the transform (along the transform axes, except the halved last
axis of the complex side of rfft*/irfft*), and backend= picks an engine instead of routing.
workers= is scipy.fft's: the threads of the transform (None: the backend's default; -1: one
a CPU this process may run on).
dtype='f16' (or numpy.float16) or 'bf16' runs the transform in 16-bit storage on a GPU
backend: the input is rounded to that format, the arithmetic is F32, and the result comes back
as float32/complex64 holding the 16-bit values (numpy has no complex half).

A plan has at most 3 axes, so transforms over more axes run as several passes.
"""

import functools
import operator

import numpy as np

from . import _capi as C
from . import _device
from ._desc import shift_flags as _shift
from ._plan import threads_of
from ._storage16 import storage_code
from ._transforms import as_input, fit, run_pass

try:
    from numpy.exceptions import AxisError
except ImportError:  # numpy < 1.25
    from numpy import AxisError

_NUMPY_NORMS = {None: C.NORM_BACKWARD, "backward": C.NORM_BACKWARD, "ortho": C.NORM_ORTHO,
                "forward": C.NORM_FORWARD}
_SWAPPED = {None: "forward", "backward": "forward", "ortho": "ortho", "forward": "backward"}


def _norm(norm):
    try:
        return _NUMPY_NORMS[norm]
    except (KeyError, TypeError):
        raise ValueError(f'Invalid norm value {norm}; should be "backward", "ortho" or '
                         '"forward".') from None


def _axis(axis, ndim):
    axis = operator.index(axis)
    if not -ndim <= axis < ndim:
        raise AxisError(axis, ndim)
    return axis % ndim


def _points(n):
    n = operator.index(n)
    if n < 1:
        raise ValueError(f"Invalid number of FFT data points ({n}) specified.")
    return n


def _cook(a, s, axes, inverse_real):
    """numpy's (s, axes) rules: defaults from a's shape; None in s means 'as the input'
    (for the last axis of an inverse real transform: 2*(m-1))."""
    if axes is None:
        axes = range(-(a.ndim if s is None else len(s)), 0)
    axes = [_axis(ax, a.ndim) for ax in axes]
    s = [None] * len(axes) if s is None else list(s)
    if len(s) != len(axes):
        raise ValueError("Shape and axes have different lengths.")
    if inverse_real and s and s[-1] is None:
        s[-1] = 2 * (a.shape[axes[-1]] - 1)
    s = [a.shape[ax] if v is None else v for ax, v in zip(axes, s)]
    return [_points(v) for v in s], axes


def _chunks(items, unique):
    """Passes of at most 3 distinct axes; a repeated axis forces numpy's one-by-one order."""
    if not unique:
        return [[item] for item in items]
    return [items[i:i + C.MAX_RANK] for i in range(0, len(items), C.MAX_RANK)]


def _c2c_passes(a, items, direction, norm, flags, engine, out):
    passes = _chunks(items, len({ax for ax, _ in items}) == len(items))
    for i, chunk in enumerate(passes):
        chunk = sorted(chunk)  # axis order is free for c2c; C order suits the engines best
        axes, sizes = [ax for ax, _ in chunk], [n for _, n in chunk]
        a = fit(a, axes, sizes, flags, engine)
        last = i == len(passes) - 1
        a = run_pass(a, C.C2C, axes, sizes, direction, norm, flags, engine,
                     out if last else None)
    return a


def _c2cn(a, s, axes, norm, out, shift, engine, direction):
    a = as_input(a, complex_input=True)
    norm, flags = _norm(norm), _shift(shift)
    s, axes = _cook(a, s, axes, inverse_real=False)
    if not axes:
        return _no_axes(a, out)
    items = list(zip(axes, s))[::-1]  # numpy transforms the last axis first
    return _c2c_passes(a, items, direction, norm, flags, engine, out)


def _no_axes(a, out):
    if out is None:
        return a.copy()
    np.copyto(out, a)
    return out


def _split_last(axes, s):
    """(leading (axis, size) items, the real transform's axes and sizes): the real pass takes
    the last axis and as many before it as one plan holds, when no axis repeats."""
    k = C.MAX_RANK if len(set(axes)) == len(axes) else 1
    k = min(k, len(axes))
    return list(zip(axes[:-k], s[:-k])), axes[-k:], s[-k:]


def _rfftn(a, s, axes, norm, out, shift, engine):
    a = as_input(a, complex_input=False)
    norm, flags = _norm(norm), _shift(shift)
    s, axes = _cook(a, s, axes, inverse_real=False)
    if not axes:
        raise ValueError("a real transform needs at least one axis")
    rest, real_axes, real_sizes = _split_last(axes, s)
    a = fit(a, real_axes, real_sizes, flags, engine)
    a = run_pass(a, C.R2C, real_axes, real_sizes, C.FORWARD, norm, flags, engine,
                 None if rest else out)
    return _c2c_passes(a, rest, C.FORWARD, norm, flags, engine, out) if rest else a


def _irfftn(a, s, axes, norm, out, shift, engine):
    a = as_input(a, complex_input=True)
    norm, flags = _norm(norm), _shift(shift)
    s, axes = _cook(a, s, axes, inverse_real=True)
    if not axes:
        raise ValueError("a real transform needs at least one axis")
    rest, real_axes, real_sizes = _split_last(axes, s)
    if rest:
        a = _c2c_passes(a, rest, C.INVERSE, norm, flags, engine, None)
    a = fit(a, real_axes, real_sizes[:-1] + [real_sizes[-1] // 2 + 1], flags, engine)
    return run_pass(a, C.C2R, real_axes, real_sizes, C.INVERSE, norm, flags, engine, out)


def _engine(backend, workers, dtype=None):
    """What runs a transform: (backend, threads or None for the default, 16-bit storage or
    None), workers checked as scipy.fft does here, before any work."""
    return backend, None if workers is None else threads_of(workers), storage_code(dtype)


def _one(n):
    return None if n is None else [n]


def _arrays(function):
    """Takes arrays of other libraries too (DLPack, __cuda_array_interface__): CUDA arrays
    are transformed where they live and come back as the producer's arrays."""

    @functools.wraps(function)
    def wrapper(a, *args, **kwargs):
        result = function(_device.adopt(a), *args, **kwargs)
        out = kwargs.get("out", args[3] if len(args) > 3 else None)  # every function's 5th
        return result if result is out else _device.give_back(result, a)

    return wrapper


def _conj(a):
    return a.conj() if getattr(a, "on_device", False) else np.conjugate(a)


# ---- the numpy.fft interface ----


@_arrays
def fft(a, n=None, axis=-1, norm=None, out=None, *, shift=None, backend=None, workers=None,
        dtype=None):
    """numpy.fft.fft: the 1-D discrete Fourier transform."""
    return _c2cn(a, _one(n), [axis], norm, out, shift, _engine(backend, workers, dtype), C.FORWARD)


@_arrays
def ifft(a, n=None, axis=-1, norm=None, out=None, *, shift=None, backend=None, workers=None,
         dtype=None):
    """numpy.fft.ifft: the 1-D inverse discrete Fourier transform."""
    return _c2cn(a, _one(n), [axis], norm, out, shift, _engine(backend, workers, dtype), C.INVERSE)


@_arrays
def fft2(a, s=None, axes=(-2, -1), norm=None, out=None, *, shift=None, backend=None, workers=None,
         dtype=None):
    """numpy.fft.fft2: the 2-D discrete Fourier transform."""
    return _c2cn(a, s, axes, norm, out, shift, _engine(backend, workers, dtype), C.FORWARD)


@_arrays
def ifft2(a, s=None, axes=(-2, -1), norm=None, out=None, *, shift=None, backend=None, workers=None,
          dtype=None):
    """numpy.fft.ifft2: the 2-D inverse discrete Fourier transform."""
    return _c2cn(a, s, axes, norm, out, shift, _engine(backend, workers, dtype), C.INVERSE)


@_arrays
def fftn(a, s=None, axes=None, norm=None, out=None, *, shift=None, backend=None, workers=None,
         dtype=None):
    """numpy.fft.fftn: the N-D discrete Fourier transform (several passes above 3 axes)."""
    return _c2cn(a, s, axes, norm, out, shift, _engine(backend, workers, dtype), C.FORWARD)


@_arrays
def ifftn(a, s=None, axes=None, norm=None, out=None, *, shift=None, backend=None, workers=None,
          dtype=None):
    """numpy.fft.ifftn: the N-D inverse discrete Fourier transform."""
    return _c2cn(a, s, axes, norm, out, shift, _engine(backend, workers, dtype), C.INVERSE)


@_arrays
def rfft(a, n=None, axis=-1, norm=None, out=None, *, shift=None, backend=None, workers=None,
         dtype=None):
    """numpy.fft.rfft: the 1-D transform of real input, n//2+1 outputs."""
    return _rfftn(a, _one(n), [axis], norm, out, shift, _engine(backend, workers, dtype))


@_arrays
def irfft(a, n=None, axis=-1, norm=None, out=None, *, shift=None, backend=None, workers=None,
          dtype=None):
    """numpy.fft.irfft: the inverse of rfft; n defaults to 2*(m-1)."""
    return _irfftn(a, _one(n), [axis], norm, out, shift, _engine(backend, workers, dtype))


@_arrays
def rfft2(a, s=None, axes=(-2, -1), norm=None, out=None, *, shift=None, backend=None, workers=None,
          dtype=None):
    """numpy.fft.rfft2: the 2-D transform of real input."""
    return _rfftn(a, s, axes, norm, out, shift, _engine(backend, workers, dtype))


@_arrays
def irfft2(a, s=None, axes=(-2, -1), norm=None, out=None, *, shift=None, backend=None, workers=None,
           dtype=None):
    """numpy.fft.irfft2: the inverse of rfft2."""
    return _irfftn(a, s, axes, norm, out, shift, _engine(backend, workers, dtype))


@_arrays
def rfftn(a, s=None, axes=None, norm=None, out=None, *, shift=None, backend=None, workers=None,
          dtype=None):
    """numpy.fft.rfftn: the N-D transform of real input."""
    return _rfftn(a, s, axes, norm, out, shift, _engine(backend, workers, dtype))


@_arrays
def irfftn(a, s=None, axes=None, norm=None, out=None, *, shift=None, backend=None, workers=None,
           dtype=None):
    """numpy.fft.irfftn: the inverse of rfftn."""
    return _irfftn(a, s, axes, norm, out, shift, _engine(backend, workers, dtype))


@_arrays
def hfft(a, n=None, axis=-1, norm=None, out=None, *, backend=None, workers=None,
         dtype=None):
    """numpy.fft.hfft: the transform of a Hermitian-symmetric signal (real output)."""
    a = as_input(a, complex_input=True)
    return _irfftn(_conj(a), _one(n), [axis], _swap(norm), out, None,
                   _engine(backend, workers, dtype))


@_arrays
def ihfft(a, n=None, axis=-1, norm=None, out=None, *, backend=None, workers=None,
          dtype=None):
    """numpy.fft.ihfft: the inverse of hfft."""
    result = _rfftn(a, _one(n), [axis], _swap(norm), out, None, _engine(backend, workers, dtype))
    if getattr(result, "on_device", False):
        return result.conj()
    return np.conjugate(result, out=result)


def _swap(norm):
    _norm(norm)  # the same error as the other functions for a bad value
    return _SWAPPED[norm]
