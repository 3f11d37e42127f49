"""Building fftmux_desc from Python arguments, with the C API's names for each field."""

import ctypes

import numpy as np

from . import _capi as C

KINDS = {"c2c": C.C2C, "r2c": C.R2C, "c2r": C.C2R}
NORMS = {"none": C.NORM_NONE, "backward": C.NORM_BACKWARD, "ortho": C.NORM_ORTHO,
         "forward": C.NORM_FORWARD}
PLACEMENTS = {"host": C.HOST, "device": C.DEVICE}
SHIFTS = {None: 0, "none": 0, "input": C.SHIFT_INPUT, "output": C.SHIFT_OUTPUT,
          "both": C.SHIFT_INPUT | C.SHIFT_OUTPUT}
PRECISIONS = {"f32": C.F32, "f64": C.F64, "f16": C.F16, "bf16": C.BF16}
# numpy has neither complex half nor bfloat16: host arrays of a 16-bit plan hold BF16 values
# as their bit patterns (uint16) and complex values as (real, imag) pairs of the format.
COMPLEX32 = np.dtype([("real", np.float16), ("imag", np.float16)])
COMPLEX_BF16 = np.dtype([("real", np.uint16), ("imag", np.uint16)])
_REAL = {C.F32: np.dtype(np.float32), C.F64: np.dtype(np.float64),
         C.F16: np.dtype(np.float16), C.BF16: np.dtype(np.uint16)}
_COMPLEX = {C.F32: np.dtype(np.complex64), C.F64: np.dtype(np.complex128), C.F16: COMPLEX32,
            C.BF16: COMPLEX_BF16}
# A floating or complex numpy dtype names its precision (float16: F16).
_BY_DTYPE = {dt: p for table in (_REAL, _COMPLEX) for p, dt in table.items() if dt.kind in "fc"}


def _name(value, table, what):
    """The C code of a name; the codes themselves (fixed by the C API) pass through."""
    if isinstance(value, int) and not isinstance(value, bool) and value in table.values():
        return value
    key = value.lower() if isinstance(value, str) else value
    try:
        return table[key]
    except (KeyError, TypeError):
        names = ", ".join(repr(k) for k in table)
        raise ValueError(f"{what} = {value!r}: must be one of {names}") from None


def kind_code(kind):
    return _name(kind, KINDS, "kind")


def kind_fields(kind, rank):
    """(kind code, per-axis r2r codes) of a kind: 'c2c', 'r2c', 'c2r' or their codes; or
    real-to-real kinds, one for every axis or one per axis, as names ('dct2', 'dct2,dst1')
    or a sequence of names or fftmux_r2r_kind codes."""
    if isinstance(kind, str) and kind.lower() in KINDS or isinstance(kind, int):
        return kind_code(kind), [0] * C.MAX_RANK
    names = kind.lower().split(",") if isinstance(kind, str) else list(kind)
    codes = [C.R2R_NAMES.index(k) if k in C.R2R_NAMES[1:] else k for k in names]
    if not codes or any(not isinstance(c, int) or not 1 <= c < len(C.R2R_NAMES) for c in codes):
        raise ValueError(f"kind = {kind!r}: must be one of 'c2c', 'r2c', 'c2r', or real-to-real "
                         "kinds 'dct1'..'dct4', 'dst1'..'dst4' (one for every axis, or one per "
                         "axis joined by ',')")
    if len(codes) not in (1, rank):
        raise ValueError(f"kind = {kind!r}: {len(codes)} kinds for {rank} axes")
    codes = codes * rank if len(codes) == 1 else codes
    return C.R2R, codes + [0] * (C.MAX_RANK - rank)


def kind_name(desc):
    """The kind as the C library writes it: 'c2c', or 'dct2' (every axis), 'dct2,dst1'."""
    if desc.kind != C.R2R:
        return _named(KINDS, desc.kind)
    names = [C.R2R_NAMES[k] for k in desc.r2r[: desc.rank]]
    return names[0] if len(set(names)) == 1 else ",".join(names)


def norm_code(norm):
    return _name("backward" if norm is None else norm, NORMS, "norm")


def placement_code(placement):
    return _name(placement, PLACEMENTS, "placement")


def shift_flags(shift):
    if shift is False:
        shift = None
    return _name(shift, SHIFTS, "shift")


def precision_code(precision):
    """'f32', 'f64', 'f16', 'bf16', or a numpy floating or complex dtype of that precision."""
    if isinstance(precision, str) and precision.lower() in PRECISIONS:
        return PRECISIONS[precision.lower()]
    if isinstance(precision, int) and precision in PRECISIONS.values():
        return precision
    try:
        dt = np.dtype(precision)
    except TypeError:
        dt = None
    if dt is not None and dt in _BY_DTYPE:
        return _BY_DTYPE[dt]
    raise ValueError(f"precision = {precision!r}: use 'f32', 'f64', 'f16', 'bf16' or one of "
                     "float16, float32, float64, complex64, complex128")


def side_dtypes(kind, precision):
    """(input dtype, output dtype) of a transform."""
    real, cplx = _REAL[precision], _COMPLEX[precision]
    if kind == C.R2R:
        return real, real
    return (real if kind == C.R2C else cplx), (real if kind == C.C2R else cplx)


_I64 = (-(2**63), 2**63 - 1)


def _i64(value, what):
    """value as a Python int that fits int64_t (ctypes would wrap it silently)."""
    v = int(value)
    if not _I64[0] <= v <= _I64[1]:
        raise ValueError(f"{what} = {v}: does not fit a 64-bit integer")
    return v


def _dims(values, rank, what):
    if values is None:
        return [0] * C.MAX_RANK
    values = [_i64(v, what) for v in np.atleast_1d(values)]
    if len(values) != rank:
        raise ValueError(f"{what} has {len(values)} entries, the transform has rank {rank}")
    return values + [0] * (C.MAX_RANK - rank)


def make(shape, kind="c2c", precision="f64", *, batch=1, norm="backward", shift=None,
         in_place=False, placement="host", in_strides=None, in_distance=0, out_strides=None,
         out_distance=0, in_extent=None, out_extent=None):
    """A C descriptor; the library validates the values and says what is wrong.
    in_extent, out_extent: the held extents of padded sides (docs/api.md)."""
    shape = [_i64(v, "shape") for v in np.atleast_1d(shape)]
    if not 1 <= len(shape) <= C.MAX_RANK:
        raise ValueError(f"shape {tuple(shape)}: a plan has rank 1 to {C.MAX_RANK}")
    d = C.new(C.Desc, "fftmux_desc_init")
    d.rank = len(shape)
    d.n[:] = shape + [1] * (C.MAX_RANK - len(shape))
    d.batch = _i64(batch, "batch")
    d.kind, d.r2r[:] = kind_fields(kind, len(shape))
    d.precision = precision_code(precision)
    d.norm = norm_code(norm)
    d.placement = placement_code(placement)
    d.flags = shift_flags(shift) | (C.IN_PLACE if in_place else 0)
    d.in_strides[:] = _dims(in_strides, len(shape), "in_strides")
    d.out_strides[:] = _dims(out_strides, len(shape), "out_strides")
    d.in_distance = _i64(in_distance, "in_distance")
    d.out_distance = _i64(out_distance, "out_distance")
    d.in_extent[:] = _dims(in_extent, len(shape), "in_extent")
    d.out_extent[:] = _dims(out_extent, len(shape), "out_extent")
    return d


def layout(desc):
    """The resolved strides and byte spans of a descriptor (raises if it is invalid)."""
    out = C.Layout()
    out.struct_size = ctypes.sizeof(C.Layout)
    C.call("fftmux_desc_layout", ctypes.byref(desc), ctypes.byref(out))
    return out


def _named(table, code):
    return next(name for name, value in table.items() if value == code)


def describe(desc):
    """A descriptor as a dict of Python values (names for enums, tuples for arrays)."""
    rank = desc.rank
    return {
        "shape": tuple(desc.n[:rank]),
        "batch": desc.batch,
        "kind": kind_name(desc),
        "precision": _named(PRECISIONS, desc.precision),
        "norm": _named(NORMS, desc.norm),
        "placement": _named(PLACEMENTS, desc.placement),
        "shift": _named(SHIFTS, desc.flags & (C.SHIFT_INPUT | C.SHIFT_OUTPUT)),
        "in_place": bool(desc.flags & C.IN_PLACE),
        "in_strides": tuple(desc.in_strides[:rank]),
        "in_distance": desc.in_distance,
        "out_strides": tuple(desc.out_strides[:rank]),
        "out_distance": desc.out_distance,
        "in_extent": tuple(desc.in_extent[:rank]),
        "out_extent": tuple(desc.out_extent[:rank]),
    }
