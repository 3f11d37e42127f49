"""scipy.fft's real-to-real transforms (dct, idct, dst, idst and their n-D forms) computed by
fftmux's R2R plans, with scipy's signatures, rules for n, s and axes, norms and orthogonalize.

Each DCT/DST type is FFTW's definition (docs/api.md); the inverse functions run the plan's
inverse direction, which is each axis's inverse type (II <-> III, I and IV their own). A plan
holds at most 3 axes, so more run as several passes. Complex input is transformed as its real
and imaginary parts, as scipy does. DST-II and DST-III with orthogonalize weigh the last
term, as scipy documents it and as its releases since its fix do (scipy 1.10 weighs the
first, which is not orthogonal).
"""

import math
import numbers
import operator

import numpy as np

from . import _capi as C
from ._numpy import _engine
from ._transforms import as_input, precision_of, resize, run_pass

_NORMS = {None: C.NORM_BACKWARD, "backward": C.NORM_BACKWARD, "ortho": C.NORM_ORTHO,
          "forward": C.NORM_FORWARD}


def ints(values, name):
    """scipy's reading of s and axes: an int or a sequence of ints."""
    values = (values,) if isinstance(values, numbers.Number) else values
    try:
        return [operator.index(v) for v in values]
    except TypeError:
        raise ValueError(f"{name} must be a scalar or iterable of integers") from None


def scipy_shape_axes(a, s, axes):
    """(s, axes) by scipy's rules, which differ from numpy's: s or axes may be an int, axes
    are unique and in range, s without axes needs that many axes, -1 in s is the input's
    size (also for the halved axis of irfftn). s stays None when not given."""
    if axes is not None:
        axes = [ax + a.ndim if ax < 0 else ax for ax in ints(axes, "axes")]
        if any(not 0 <= ax < a.ndim for ax in axes):
            raise ValueError("axes exceeds dimensionality of input")
        if len(set(axes)) != len(axes):
            raise ValueError("all axes must be unique")
    if s is None:
        return None, list(range(a.ndim)) if axes is None else axes
    s = ints(s, "shape")
    if axes is None:
        if len(s) > a.ndim:
            raise ValueError("shape requires more axes than are present")
        axes = list(range(a.ndim - len(s), a.ndim))
    elif axes and len(axes) != len(s):  # scipy lets s pass with axes=[]
        raise ValueError("when given, axes and shape arguments have to be of the same length")
    return [a.shape[ax] if n == -1 else n for n, ax in zip(s, axes)], axes


def _kind(family, type):
    """The fftmux_r2r_kind of scipy's type 1..4 of 'dct' or 'dst'."""
    if type not in (1, 2, 3, 4):
        raise ValueError(f"invalid {family.upper()} type")
    return C.R2R_NAMES.index(f"{family}{type}")


def _logical(kind, n):
    """FFTW's logical size N' of an axis: what the norms divide by."""
    return 2 * (n - 1) if kind == C.R2R_NAMES.index("dct1") else (
        2 * (n + 1) if kind == C.R2R_NAMES.index("dst1") else 2 * n)


def _norms(norm, orthogonalize, direction):
    """(the plan's norm, a function of N' giving the factor left to apply): the plan weighs
    the first and last terms only under ORTHO, so a call that separates orthogonalize from
    norm='ortho' runs ORTHO (or NONE) and rescales to its norm."""
    try:
        code = _NORMS[norm]
    except (KeyError, TypeError):
        raise ValueError(f'Invalid norm value {norm!r}, should be "backward", "ortho" or '
                         '"forward"') from None
    ortho = code == C.NORM_ORTHO
    if orthogonalize is None or bool(orthogonalize) == ortho:
        return code, None
    scaled = {C.NORM_BACKWARD: direction == C.INVERSE, C.NORM_FORWARD: direction == C.FORWARD}
    def factor(logical):
        plain = 1 / math.sqrt(logical) if ortho else (1 / logical if scaled[code] else 1)
        return plain * math.sqrt(logical) if orthogonalize else plain
    return (C.NORM_ORTHO if orthogonalize else C.NORM_NONE), factor


def _real_pass(a, kind, axes, sizes, direction, norm, orthogonalize, engine):
    """One R2R plan over at most 3 axes of the real array a."""
    code, factor = _norms(norm, orthogonalize, direction)
    for n in sizes:
        if n < 1:
            raise ValueError(f"invalid number of data points ({n}) specified")
    a = resize(a, axes, sizes)
    y = run_pass(a, (kind,) * len(axes), axes, sizes, direction, code, 0, engine)
    if factor is not None:
        y *= factor(math.prod(_logical(kind, n) for n in sizes))
    return y


def transform(x, family, type, s, axes, norm, workers, orthogonalize, direction, backend=None):
    """scipy's dctn/idctn/dstn/idstn of x (s: sizes or None, axes by scipy's rules)."""
    kind = _kind(family, type)
    a = np.asarray(x)
    precision_of(a.dtype)  # TypeError for what fftmux has no engine for
    engine = _engine(backend, workers)
    if a.dtype.kind == "c":  # scipy transforms the real and imaginary parts alike
        args = (family, type, s, axes, norm, workers, orthogonalize, direction, backend)
        return transform(a.real, *args) + 1j * transform(a.imag, *args)
    a = as_input(a, complex_input=False)
    s, axes = scipy_shape_axes(a, s, axes)
    s = [a.shape[ax] for ax in axes] if s is None else s
    if not axes:
        return a.copy()
    for i in range(0, len(axes), C.MAX_RANK):
        chunk = slice(i, i + C.MAX_RANK)
        a = _real_pass(a, kind, axes[chunk], s[chunk], direction, norm, orthogonalize, engine)
    return a


def _function(family, direction, name, many):
    """scipy.fft's function `name`: n-D (s, axes) where many, else along one axis (n, axis)."""
    if many:
        def function(x, type=2, s=None, axes=None, norm=None, overwrite_x=False, workers=None,
                     orthogonalize=None, *, backend=None):
            return transform(x, family, type, s, axes, norm, workers, orthogonalize, direction,
                             backend)
    else:
        def function(x, type=2, n=None, axis=-1, norm=None, overwrite_x=False, workers=None,
                     orthogonalize=None, *, backend=None):
            return transform(x, family, type, None if n is None else [n], [axis], norm,
                             workers, orthogonalize, direction, backend)
    function.__name__ = name
    function.__doc__ = (f"scipy.fft.{name}: {_DOCS[name]} overwrite_x is accepted and ignored "
                        "(the input is never written); backend= picks an engine.")
    return function


_DOCS = {
    "dct": "the discrete cosine transform of type 1-4 along one axis.",
    "idct": "the inverse of dct (type 2's inverse is a DCT-III, and so on).",
    "dst": "the discrete sine transform of type 1-4 along one axis.",
    "idst": "the inverse of dst.",
    "dctn": "the N-D discrete cosine transform.",
    "idctn": "the inverse of dctn.",
    "dstn": "the N-D discrete sine transform.",
    "idstn": "the inverse of dstn.",
}

dct = _function("dct", C.FORWARD, "dct", False)
idct = _function("dct", C.INVERSE, "idct", False)
dst = _function("dst", C.FORWARD, "dst", False)
idst = _function("dst", C.INVERSE, "idst", False)
dctn = _function("dct", C.FORWARD, "dctn", True)
idctn = _function("dct", C.INVERSE, "idctn", True)
dstn = _function("dst", C.FORWARD, "dstn", True)
idstn = _function("dst", C.INVERSE, "idstn", True)
