"""Distributed transforms over an mpi4py communicator: each rank holds numpy arrays of its box.

    from mpi4py import MPI
    import fftmux.mpi
    p = fftmux.mpi.DistributedPlan((256, 256, 256), "c2c", "f64", MPI.COMM_WORLD)
    x = global_field[p.in_slices]            # this rank's part, shape p.local_in_shape
    X = p.forward(x)                         # this rank's part of the spectrum, p.out_slices

Every call is collective: all ranks of the communicator make it, and a failure on any rank
(a descriptor unlike the others', boxes, a wrong array) raises the same error on every rank.
The batch is the last axis of a local array (FFTW-MPI interleaves it). docs/distributed.md.
"""

import ctypes
import weakref
from ctypes import POINTER, c_int64, c_uint32, c_uint64, c_void_p

import numpy as np

from . import _capi as C
from . import _desc
from ._context import default_context
from .errors import error_for

DECOMPOSITIONS = {"slabs": 0, "transposed_out": 1, "transposed_in": 2, "given": 3}
COMM_WORLD = 2**64 - 1  # FFTMUX_COMM_WORLD: the backend's own MPI_COMM_WORLD

_Dims = c_int64 * C.MAX_RANK


class Box(ctypes.Structure):
    _fields_ = [("lower", _Dims), ("upper", _Dims), ("strides", _Dims)]


class Distribution(ctypes.Structure):
    _fields_ = [
        ("struct_size", c_uint32),
        ("decomposition", c_uint32),
        ("comm", c_uint64),
        ("in_box", Box),
        ("out_box", Box),
    ]


_PROTOTYPES = {
    "fftmux_distribution_init": (None, [POINTER(Distribution)]),
    "fftmux_plan_create_distributed": (
        c_uint32, [c_void_p, POINTER(C.Desc), POINTER(C.PlanOptions), POINTER(Distribution),
                   POINTER(c_void_p)]),
    "fftmux_plan_local": (
        c_uint32, [c_void_p, POINTER(Box), POINTER(Box), POINTER(c_uint64), POINTER(c_uint64)]),
}


def _lib():
    lib = C.lib()
    for name, (restype, argtypes) in _PROTOTYPES.items():
        fn = getattr(lib, name)
        fn.restype, fn.argtypes = restype, argtypes
    return lib


def _comm_handle(comm):
    """A communicator's Fortran handle: mpi4py's py2f(), an int as is, None: the world."""
    if comm is None:
        return COMM_WORLD
    if isinstance(comm, int):
        return comm
    if hasattr(comm, "py2f"):
        return comm.py2f()
    raise TypeError(f"comm = {comm!r}: pass an mpi4py communicator or its Fortran handle")


def _box(ranges, rank):
    """((lower, upper), ...) per axis, C order within the box, into a Box."""
    b = Box()
    if len(ranges) != rank:
        raise ValueError(f"a box has {len(ranges)} ranges, the transform has rank {rank}")
    for i, (lo, hi) in enumerate(ranges):
        b.lower[i], b.upper[i] = int(lo), int(hi)
    return b


def _aligned(nbytes):
    """A zeroed byte array at a 64-byte boundary (FFTW's SIMD alignment)."""
    raw = np.zeros(nbytes + 64, np.uint8)
    start = -raw.ctypes.data % 64
    return raw[start:start + nbytes]


class DistributedPlan:
    """One transform over the ranks of comm; each rank passes and gets its own boxes.

    decomposition: 'slabs' (both sides in slabs of the first axis), 'transposed_out' (the
    output in slabs of the second axis, its first two axes swapped, FFTW_MPI_TRANSPOSED_OUT),
    'transposed_in' (the way back), or 'given' with in_box and out_box, ((lower, upper), ...)
    per axis, accepted where they are one of the others on every rank.
    """

    def __init__(self, shape, kind="c2c", precision="f64", comm=None, *, batch=1,
                 norm="backward", shift=None, in_place=False, decomposition="slabs",
                 in_box=None, out_box=None, backend=None, threads=0, context=None):
        lib = _lib()
        self._context = context or default_context()
        self._desc = _desc.make(shape, kind, precision, batch=batch, norm=norm, shift=shift,
                                in_place=in_place)
        dist = C.new(Distribution, "fftmux_distribution_init")
        dist.decomposition = _desc._name(decomposition, DECOMPOSITIONS, "decomposition")
        dist.comm = _comm_handle(comm)
        rank = self._desc.rank
        if dist.decomposition == DECOMPOSITIONS["given"]:
            if in_box is None or out_box is None:
                raise ValueError("decomposition = 'given' needs in_box and out_box")
            dist.in_box, dist.out_box = _box(in_box, rank), _box(out_box, rank)
        options = C.new(C.PlanOptions, "fftmux_plan_options_init")
        options.backend = backend.encode() if backend else None
        options.threads = int(threads)
        handle = c_void_p()
        C.check(lib.fftmux_plan_create_distributed(
            self._context.handle, ctypes.byref(self._desc), ctypes.byref(options),
            ctypes.byref(dist), ctypes.byref(handle)))
        self._handle = handle.value
        self._finalizer = weakref.finalize(self, lib.fftmux_plan_destroy, self._handle)
        boxes, sizes = (Box(), Box()), (c_uint64(), c_uint64())
        C.check(lib.fftmux_plan_local(self._handle, *map(ctypes.byref, boxes + sizes)))
        self._boxes = boxes
        self.in_bytes, self.out_bytes = sizes[0].value, sizes[1].value
        self.in_dtype, self.out_dtype = _desc.side_dtypes(self._desc.kind, self._desc.precision)
        self._in = _aligned(max(self.in_bytes, self.out_bytes) if in_place else self.in_bytes)
        self._out = self._in if in_place else _aligned(self.out_bytes)

    def _ranges(self, side):
        b = self._boxes[side]
        return tuple((b.lower[i], b.upper[i]) for i in range(self._desc.rank))

    @property
    def in_box(self):
        """This rank's input box: (lower, upper) per axis, in global indices."""
        return self._ranges(0)

    @property
    def out_box(self):
        return self._ranges(1)

    @property
    def in_slices(self):
        """The input box as slices, to cut this rank's part from a global array."""
        return tuple(slice(lo, hi) for lo, hi in self.in_box)

    @property
    def out_slices(self):
        return tuple(slice(lo, hi) for lo, hi in self.out_box)

    def _shape(self, side):
        extents = tuple(hi - lo for lo, hi in self._ranges(side))
        return extents + ((self._desc.batch,) if self._desc.batch > 1 else ())

    @property
    def local_in_shape(self):
        """Shape of this rank's input array; the batch, when above 1, is the last axis."""
        return self._shape(0)

    @property
    def local_out_shape(self):
        return self._shape(1)

    def _view(self, side):
        """This rank's box of one side in the plan's own buffer, as FFTW-MPI lays it out."""
        dtype = self.in_dtype if side == 0 else self.out_dtype
        b = self._boxes[side]
        strides = tuple(b.strides[i] * dtype.itemsize for i in range(self._desc.rank))
        if self._desc.batch > 1:
            strides += (dtype.itemsize,)
        buffer = self._in if side == 0 else self._out
        return np.ndarray(self._shape(side), dtype, buffer=buffer, strides=strides)

    def _run(self, direction, x):
        view = self._view(0)
        x = np.asarray(x)
        if x.shape != view.shape:
            # every rank must learn of it: the ranks agree on a NULL input (rank R: in is NULL)
            status = _lib().fftmux_execute(self._handle, direction, None, self._out.ctypes.data)
            raise ValueError(f"x has the shape {x.shape}, this rank's input box {view.shape}") \
                from error_for(status, C.last_error())
        view[...] = x
        out = self._out.ctypes.data
        C.check(C.lib().fftmux_execute(self._handle, direction, self._in.ctypes.data, out))
        return self._view(1).copy()

    def forward(self, x):
        """This rank's part of the transform of the global input whose part x is."""
        return self._run(C.FORWARD, x)

    def inverse(self, x):
        return self._run(C.INVERSE, x)

    def close(self):
        """Destroys the plan now (collective); otherwise when it is collected."""
        self._finalizer()
