"""16-bit storage (F16, BF16) for the numpy-style functions' dtype= keyword.

numpy has no complex half and no bfloat16, so on the host the data cross as 16-bit patterns:
the input is rounded (to nearest even) to the format, the GPU backend transforms it with F32
arithmetic, and the result comes back widened to float32/complex64, holding exactly the
16-bit values the backend wrote.
"""

import numpy as np

from . import _capi as C
from . import _transforms as T

NAMES = {"f16": C.F16, "float16": C.F16, "bf16": C.BF16, "bfloat16": C.BF16}


def storage_code(dtype):
    """None (the input's own precision), or C.F16 / C.BF16 for dtype=."""
    if dtype is None:
        return None
    if isinstance(dtype, str) and dtype.lower() in NAMES:
        return NAMES[dtype.lower()]
    try:
        if np.dtype(dtype) == np.float16:
            return C.F16
    except TypeError:
        pass
    raise ValueError(f"dtype = {dtype!r}: must be None, 'f16' (numpy.float16) or 'bf16'")


def encode(x, storage, xp=np):
    """Real values as the format's 16-bit patterns (uint16), rounded to nearest even; xp is
    numpy or CuPy."""
    if storage == C.F16:
        return xp.asarray(x).astype(xp.float16).view(xp.uint16)
    f = xp.ascontiguousarray(xp.asarray(x, xp.float32))
    u = f.view(xp.uint32)
    bits = ((u + xp.uint32(0x7FFF) + ((u >> xp.uint32(16)) & xp.uint32(1))) >> xp.uint32(16))
    return xp.where(xp.isnan(f), xp.uint16(0x7FC0), bits.astype(xp.uint16))


def decode(bits, storage, xp=np):
    """The format's 16-bit patterns as float32 values (exact)."""
    if storage == C.F16:
        return bits.view(xp.float16).astype(xp.float32)
    return (bits.astype(xp.uint32) << xp.uint32(16)).view(xp.float32)


def _c_strides(shape):
    strides, step = [], 1
    for n in reversed(shape):
        strides.insert(0, step)
        step *= n
    return strides


def run(a, kind, axes, n, direction, norm, flags, engine, out, storage):
    """run_pass in 16-bit storage: a (float or complex, resized) in, float32/complex64 out."""
    out_shape, out_dtype = T.result_of(a.shape, kind, axes, n, C.F32)
    if out is not None:
        T._check_out(out, out_shape, out_dtype)
    if a.size == 0 or 0 in out_shape:
        result = np.zeros(out_shape, out_dtype)
        return result if out is None else T._copy_into(out, result)
    perm = T.canonical_order(a.strides, axes)
    batch_rank = a.ndim - len(axes)
    src = np.ascontiguousarray(a.transpose(perm))
    words = encode(np.stack([src.real, src.imag], -1) if kind != C.R2C else src, storage)
    src_side = T.side_layout(src.shape, _c_strides(src.shape), batch_rank)
    shape = [out_shape[ax] for ax in perm]
    dst_side = T.side_layout(shape, _c_strides(shape), batch_rank)
    result = np.empty(shape + ([2] if kind != C.C2R else []), np.uint16)
    problem = (tuple(n), kind, storage, src_side[1], norm, flags, tuple(src_side[0]),
               src_side[2], tuple(dst_side[0]), dst_side[2])
    T.plan_cache.get(problem, engine[:2]).run(direction, words.ctypes.data, result.ctypes.data)
    values = decode(result, storage)
    if kind != C.C2R:
        values = values.view(np.complex64)[..., 0]
    values = values.transpose(T.inverse(perm))
    return values if out is None else T._copy_into(out, values)
