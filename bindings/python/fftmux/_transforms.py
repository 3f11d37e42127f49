"""One transform pass (rank <= 3) over chosen axes of a numpy array, without copies when the
array's layout is expressible as fftmux strides, plus the plan cache behind it.

The array is viewed in a canonical order: the batch axes first, sorted by decreasing stride,
then the transform axes. When the batch axes then collapse into one (count, distance) pair and
every stride is a positive multiple of the element size, the descriptor addresses the
caller's memory directly; otherwise the input is copied once into that canonical order.
"""

import collections
import math
import threading

import numpy as np

from . import _capi as C
from . import _desc
from ._plan import Plan
from .errors import UnsupportedError

REAL = {C.F32: np.dtype(np.float32), C.F64: np.dtype(np.float64)}
COMPLEX = {C.F32: np.dtype(np.complex64), C.F64: np.dtype(np.complex128)}


def precision_of(dtype):
    """F32 or F64 for an input dtype, as numpy >= 2 does it; never a silent narrowing."""
    if dtype.kind in "biuO":
        return C.F64
    if dtype.kind in "fc":
        real_size = dtype.itemsize // (2 if dtype.kind == "c" else 1)
        if real_size <= 4:
            return C.F32  # float16 is computed exactly in single precision
        if real_size == 8:
            return C.F64
        raise TypeError(f"fftmux has no engine for {dtype} (more than double precision); "
                        "convert to float64/complex128 explicitly if that loss is acceptable")
    raise TypeError(f"cannot transform an array of dtype {dtype}")


def as_input(a, complex_input):
    """a converted to complex (or real) float of its precision; complex data to a real
    transform is refused rather than dropping its imaginary part."""
    if getattr(a, "on_device", False):
        return a.as_input(complex_input)
    a = np.asarray(a)
    precision = precision_of(a.dtype)
    if not complex_input and a.dtype.kind == "c":
        raise TypeError(f"a real-input transform got {a.dtype} data; pass a.real explicitly "
                        "if the imaginary part is to be dropped")
    target = (COMPLEX if complex_input else REAL)[precision]
    return a if a.dtype == target else a.astype(target)


def crop(a, axes, sizes):
    """a cropped to at most sizes along axes (a view)."""
    cut = [slice(None)] * a.ndim
    for ax, n in zip(axes, sizes):
        cut[ax] = slice(0, min(n, a.shape[ax]))
    return a[tuple(cut)]


def fit(a, axes, sizes, flags, engine):
    """a cropped to sizes along axes, as numpy's n/s do; where an axis is shorter, the plan
    reads it zero-padded (the descriptor's in_extent, no copy), except for device arrays,
    16-bit storage and shifts, which get a zero-padded copy."""
    if flags or getattr(a, "on_device", False) or (len(engine) > 2 and engine[2] is not None):
        return resize(a, axes, sizes)
    return crop(a, axes, sizes)


def resize(a, axes, sizes):
    """a cropped (a view) or zero-padded (a copy) to sizes along axes, as numpy's n/s do."""
    if getattr(a, "on_device", False):
        return a.resize(axes, sizes)
    a = crop(a, axes, sizes)
    shape = list(a.shape)
    for ax, n in zip(axes, sizes):
        shape[ax] = n
    if tuple(shape) == a.shape:
        return a
    padded = np.zeros(shape, a.dtype)
    padded[tuple(slice(0, m) for m in a.shape)] = a
    return padded


def _element_strides(view):
    """Strides in elements, or None where fftmux cannot express one (<= 0, not whole)."""
    size = view.dtype.itemsize
    if any(stride % size for n, stride in zip(view.shape, view.strides) if n != 1):
        return None
    return [stride // size for stride in view.strides]


def side_layout(shape, strides, batch_rank):
    """(transform strides, batch count, distance) of a canonical view given its strides in
    elements, or None where the descriptor cannot address it."""
    strides = [1 if n == 1 else s for n, s in zip(shape, strides)]  # never stepped over
    if any(s <= 0 for s in strides):
        return None
    batch = [(n, s) for n, s in zip(shape[:batch_rank], strides[:batch_rank]) if n != 1]
    for (_, outer), (n, inner) in zip(batch, batch[1:]):
        if outer != inner * n:
            return None  # needs a second batch stride, which the descriptor lacks
    count = math.prod(n for n, _ in batch)
    distance = batch[-1][1] if batch else 0
    return strides[batch_rank:], count, distance


def _side(view, batch_rank):
    """side_layout of a canonical numpy view, or None."""
    if not view.flags.aligned or not view.dtype.isnative:
        return None
    strides = _element_strides(view)
    return None if strides is None else side_layout(view.shape, strides, batch_rank)


def canonical_order(strides, axes):
    """The batch axes by decreasing stride, then the transform axes."""
    batch = sorted((ax for ax in range(len(strides)) if ax not in axes),
                   key=lambda ax: -abs(strides[ax]))
    return batch + list(axes)


def result_of(shape, kind, axes, n, precision):
    """(shape, dtype) of the output of kind (a code, or R2R's per-axis codes as a tuple)
    over axes with logical sizes n."""
    out_shape = list(shape)
    for ax, size in zip(axes, n):
        out_shape[ax] = size
    if kind == C.R2C:
        out_shape[axes[-1]] = n[-1] // 2 + 1
    real = kind == C.C2R or isinstance(kind, tuple)
    return out_shape, (REAL if real else COMPLEX)[precision]


def inverse(perm):
    inv = [0] * len(perm)
    for i, p in enumerate(perm):
        inv[p] = i
    return inv


def _check_out(out, shape, dtype):
    if not isinstance(out, np.ndarray):
        raise TypeError(f"out must be a numpy array, got {type(out).__name__}")
    if out.shape != tuple(shape) or out.dtype != dtype:
        raise ValueError(f"out has shape {out.shape} and dtype {out.dtype}; the result has "
                         f"shape {tuple(shape)} and dtype {dtype}")
    if not out.flags.writeable:
        raise ValueError("out is read-only")


def run_pass(a, kind, axes, n, direction, norm, flags, engine, out=None):
    """One fftmux transform of kind over axes (unique, at most 3) of a, on engine =
    (backend, workers[, 16-bit storage or None]).

    a holds the input side already resized; n are the logical sizes. Returns the result,
    written into out when given.
    """
    if getattr(a, "on_device", False):
        return a.transform(kind, axes, n, direction, norm, flags, engine, out)
    if len(engine) > 2 and engine[2] is not None:  # dtype='f16' or 'bf16'
        from . import _storage16
        return _storage16.run(a, kind, axes, n, direction, norm, flags, engine, out, engine[2])
    precision = C.F32 if a.dtype in (REAL[C.F32], COMPLEX[C.F32]) else C.F64
    out_shape, out_dtype = result_of(a.shape, kind, axes, n, precision)
    if out is not None:
        _check_out(out, out_shape, out_dtype)
    if a.size == 0 or 0 in out_shape:  # nothing to transform: the descriptor needs batch >= 1
        result = np.zeros(out_shape, out_dtype)
        return result if out is None else _copy_into(out, result)

    perm = canonical_order(a.strides, axes)
    batch_rank = a.ndim - len(axes)
    src = a.transpose(perm)
    src_side = _side(src, batch_rank)
    if src_side is None:
        src = np.array(src, order="C")  # a fresh, aligned copy in canonical order
        src_side = _side(src, batch_rank)
    dst, dst_side, result = _destination(out, perm, out_shape, out_dtype, batch_rank, src)
    whole = list(n[:-1]) + [n[-1] // 2 + 1 if kind == C.C2R else n[-1]]
    held = src.shape[batch_rank:]  # the transform axes in the order of axes
    in_extent = tuple(h if h < w else 0 for h, w in zip(held, whole))
    problem = (tuple(n), kind, precision, src_side[1], norm, flags, tuple(src_side[0]),
               src_side[2], tuple(dst_side[0]), dst_side[2], in_extent)
    try:
        plan = plan_cache.get(problem, engine[:2])
    except UnsupportedError:
        if not any(in_extent):
            raise
        padded = resize(a, axes, whole)  # the backend reads no padded input: a padded copy
        return run_pass(padded, kind, axes, n, direction, norm, flags, engine, out)
    plan.run(direction, src.ctypes.data, dst.ctypes.data)
    return result if out is None or result is out else _copy_into(out, result)


def _destination(out, perm, out_shape, dtype, batch_rank, src):
    """(canonical view written by the plan, its side layout, the result in caller order)."""
    if out is not None and not np.may_share_memory(out, src):
        view = out.transpose(perm)
        side = _side(view, batch_rank)
        if side is not None:
            return view, side, out
    canonical = np.empty([out_shape[ax] for ax in perm], dtype)
    return canonical, _side(canonical, batch_rank), canonical.transpose(inverse(perm))


def _copy_into(out, result):
    np.copyto(out, result)
    return out


def _make_desc(n, kind, precision, batch, norm, flags, in_strides, in_distance, out_strides,
               out_distance, in_extent=None):
    desc = _desc.make(n, kind, precision, batch=batch, norm=norm, in_strides=in_strides,
                      in_distance=in_distance, out_strides=out_strides,
                      out_distance=out_distance, in_extent=in_extent)
    desc.flags |= flags
    return desc


class PlanCache:
    """The plans the numpy-style functions reuse, least recently used dropped first.

    A plan costs more than a small transform (routing, FFTW's planner, a GPU's
    kernels), so repeating a transform must not plan it again.
    """

    def __init__(self, maxsize=32):
        self._plans = collections.OrderedDict()
        self._lock = threading.Lock()
        self.maxsize = maxsize

    def __len__(self):
        return len(self._plans)

    def clear(self):
        with self._lock:
            self._plans.clear()

    def plans(self):
        """The cached plans, most recently used last: plans()[-1].explain() says what ran
        the last transform."""
        with self._lock:
            return list(self._plans.values())

    def get(self, problem, engine, placement=C.HOST):
        """The plan for problem = (n, kind, precision, batch, norm, flags, in_strides,
        in_distance, out_strides, out_distance, in_extent) on engine = (backend, workers) for memory at
        placement, made on a miss."""
        key = (problem, engine, placement)
        with self._lock:
            plan = self._plans.pop(key, None)
            if plan is not None and not plan.closed:  # a caller may have closed it
                self._plans[key] = plan
                return plan
        backend, workers = engine
        desc = _make_desc(*problem)
        desc.placement = placement
        plan = Plan.from_desc(desc, backend or "auto", workers=workers)  # slow: not locked
        with self._lock:
            self._plans[key] = plan
            while len(self._plans) > max(0, self.maxsize):
                self._plans.popitem(last=False)
        return plan


plan_cache = PlanCache()
