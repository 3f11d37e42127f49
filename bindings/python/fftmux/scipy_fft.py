"""A scipy.fft backend: scipy.fft's transforms, and the scipy.signal and scipy.ndimage code
built on them, computed by fftmux.

    import scipy.fft, scipy.signal, fftmux
    with scipy.fft.set_backend(fftmux.scipy_fft):
        y = scipy.signal.fftconvolve(a, b)
    scipy.fft.set_global_backend(fftmux.scipy_fft)    # for the whole process

fftmux computes fft, ifft, fft2, ifft2, fftn, ifftn, rfft, irfft, rfft2, irfft2, rfftn, irfftn,
hfft, ihfft, hfft2, ihfft2, hfftn and ihfftn (the Hermitian ones exactly as irfftn of the
conjugate and the conjugate of rfftn, with the norm's directions swapped), and dct, idct, dst,
idst, dctn, idctn, dstn and idstn on its real-to-real plans (fftmux._realtransforms; DST-II
and DST-III with orthogonalize weigh the last term as scipy documents, where scipy 1.10 weighs
the first). It answers NotImplemented, so that scipy computes the call itself, for every
other function (fht, ifht), for input it has no engine for (longdouble, clongdouble, what
numpy cannot convert) and for a plan that is not an fftmux.Plan.

Keywords are scipy's, with scipy's rules for s and axes (an int for either, unique axes,
-1 in s for the input's size). dtypes are scipy's too: single precision stays single.
- overwrite_x is accepted and ignored: fftmux never writes the input of a transform.
- workers: n > 0 threads, n < 0 counts back from the CPUs; None takes the count of an
  enclosing scipy.fft.set_workers, except scipy's default of 1, which leaves the engine's own
  default (FFTW: the CPU affinity, one thread for small problems).
- plan: an fftmux.Plan that computes exactly the call (sizes, batch = the other axes, kind,
  precision, norm; out of place, no shift, the default layout) runs it, with its own threads;
  another fftmux.Plan raises NotImplementedError, as scipy does for any plan.

Two of scipy 1.10's quirks are not copied: irfft/hfft with n=0 (and irfftn/hfftn of a last
axis of 1 without s), which scipy answers with a length-1 axis, raise ValueError.
"""

import collections
import math

import numpy as np

from . import _numpy, _realtransforms
from ._plan import Plan, threads_of
from ._realtransforms import scipy_shape_axes as _cook
from ._transforms import as_input, precision_of, resize

__ua_domain__ = "numpy.scipy.fft"

# function: the numpy-style function computing it; kind and direction: what a plan for it
# is; hermitian: conjugate (input of c2r, output of r2c) and swap the norm's directions.
_Spec = collections.namedtuple("_Spec", "function kind direction hermitian")
_SPECS = {
    "fft": _Spec(_numpy.fftn, "c2c", "forward", False),
    "ifft": _Spec(_numpy.ifftn, "c2c", "inverse", False),
    "rfft": _Spec(_numpy.rfftn, "r2c", "forward", False),
    "irfft": _Spec(_numpy.irfftn, "c2r", "inverse", False),
    "hfft": _Spec(_numpy.irfftn, "c2r", "inverse", True),
    "ihfft": _Spec(_numpy.rfftn, "r2c", "forward", True),
}


class _Declined(Exception):
    """A call fftmux does not compute: scipy, or the next backend, computes it."""


def __ua_function__(method, args, kwargs):
    """uarray's entry point: method is the scipy.fft function called with args and kwargs."""
    function = _FUNCTIONS.get(method.__name__)
    if function is None:
        return NotImplemented
    try:
        return function(*args, **kwargs)
    except _Declined:
        return NotImplemented


def _array(x, plan):
    """x as an array fftmux can transform; _Declined for other input or a foreign plan."""
    if plan is not None and not isinstance(plan, Plan):
        raise _Declined
    try:
        a = np.asarray(x)
        precision_of(a.dtype)
    except TypeError:  # longdouble, strings, arrays numpy does not convert implicitly
        raise _Declined from None
    return a


def _workers(workers):
    """workers for the numpy-style functions: None takes scipy.fft.set_workers' count unless
    it is scipy's default of 1, which leaves the engine's default."""
    if workers is not None:
        return workers
    from scipy.fft import get_workers  # only scipy calls this module
    return None if get_workers() == 1 else get_workers()


def _run(spec, a, s, axes, norm, workers, plan):
    """spec's transform of a over axes (s: sizes or None, numpy's rules from here on)."""
    if spec.hermitian:
        norm = _numpy._swap(norm)
        if spec.kind == "c2r":
            a = np.conjugate(as_input(a, complex_input=True))
    if plan is None:
        result = spec.function(a, s, axes, norm, workers=_workers(workers))
    else:
        result = _planned(plan, spec, a, s, axes, norm)
    if spec.hermitian and spec.kind == "r2c":
        np.conjugate(result, out=result)
    return result


def _planned(plan, spec, a, s, axes, norm):
    """spec's transform of a run by the caller's plan: the transform axes moved last, the
    others flattened into the batch. The plan must compute exactly that."""
    a = as_input(a, complex_input=spec.kind != "r2c")
    _numpy._norm(norm)  # a bad norm is a ValueError, as without a plan
    n, axes = _numpy._cook(a, s, axes, inverse_real=spec.kind == "c2r")
    stored = n[:-1] + [n[-1] // 2 + 1] if spec.kind == "c2r" else n
    last = list(range(a.ndim - len(axes), a.ndim))
    moved = np.moveaxis(resize(a, axes, stored), axes, last)
    lead = moved.shape[:last[0]]
    single = a.dtype in (np.float32, np.complex64)
    need = {"shape": tuple(n), "batch": math.prod(lead), "kind": spec.kind,
            "precision": "f32" if single else "f64", "norm": norm or "backward",
            "shift": None, "in_place": False}
    have = {key: plan.desc[key] for key in need}
    if have != need or plan.in_shape is None:
        layout = "" if plan.in_shape is not None else ", in a layout of its own"
        raise NotImplementedError(f"the fftmux.Plan computes {have}{layout}; this call needs "
                                  f"{need} in the default layout")
    y = plan.execute(spec.direction, moved.reshape(plan.in_shape))
    return np.moveaxis(y.reshape(lead + y.shape[y.ndim - len(axes):]), last, axes)


def _one_axis(spec):
    """scipy's 1-D function computed as spec."""
    def transform(x, n=None, axis=-1, norm=None, overwrite_x=False, workers=None, *,
                  plan=None):
        a = _array(x, plan)
        return _run(spec, a, None if n is None else [n], [axis], norm, workers, plan)
    return transform


def _many_axes(spec, default_axes):
    """scipy's 2-D or n-D function computed as spec."""
    def transform(x, s=None, axes=default_axes, norm=None, overwrite_x=False, workers=None, *,
                  plan=None):
        a = _array(x, plan)
        s, axes = _cook(a, s, axes)
        if axes:
            return _run(spec, a, s, axes, norm, workers, plan)
        if spec.kind != "c2c":
            raise ValueError("at least 1 axis must be transformed")
        threads_of(workers)  # scipy checks workers, then returns x itself
        return x
    return transform


def _real_to_real(name, many):
    """scipy's dct/dst function `name` (n-D where many), on fftmux's R2R plans."""
    function = getattr(_realtransforms, name)
    if many:
        def transform(x, type=2, s=None, axes=None, norm=None, overwrite_x=False,
                      workers=None, orthogonalize=None):
            return function(_array(x, None), type, s, axes, norm, overwrite_x,
                            _workers(workers), orthogonalize)
    else:
        def transform(x, type=2, n=None, axis=-1, norm=None, overwrite_x=False, workers=None,
                      orthogonalize=None):
            return function(_array(x, None), type, n, axis, norm, overwrite_x,
                            _workers(workers), orthogonalize)
    return transform


_FUNCTIONS = {
    **{name + suffix: _real_to_real(name + suffix, bool(suffix))
       for name in ("dct", "idct", "dst", "idst") for suffix in ("", "n")},
    **{name: _one_axis(spec) for name, spec in _SPECS.items()},
    **{name + "2": _many_axes(spec, (-2, -1)) for name, spec in _SPECS.items()},
    **{name + "n": _many_axes(spec, None) for name, spec in _SPECS.items()},
}
