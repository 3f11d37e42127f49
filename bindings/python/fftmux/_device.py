"""Transforms of CUDA arrays of other libraries (CuPy, PyTorch, numba, JAX, ...) where they
live, on the cuda backend, in the producer's stream, and host arrays exported through DLPack.

A CUDA array becomes a DeviceArray: its view (address, shape, strides, dtype) and a
library adapter. The adapter allocates results with the producer's allocator, so they come
back as arrays of the producer's kind; a library without one gets fftmux Buffers exported
through DLPack and __cuda_array_interface__. Only the adapter copies (on the device): a
dtype conversion, zero padding, or a layout the engine cannot address. Nothing crosses
between host and device.
"""

import sys

import numpy as np

from . import _capi as C
from . import _desc, _dlpack, _storage16
from . import _transforms
from .errors import UnsupportedError

_TORCH_TYPES = ("float16", "float32", "float64", "complex64", "complex128")


class _Cupy:
    """CuPy: its memory pool, its current stream."""

    def __init__(self, cupy):
        self.xp = cupy

    def stream(self, obj):
        return self.xp.cuda.get_current_stream().ptr or _dlpack.LEGACY_STREAM

    def address(self, obj):
        return obj.data.ptr

    def empty(self, like, shape, dtype):
        with like.device:
            return self.xp.empty(shape, dtype)

    def zeros(self, like, shape, dtype):
        with like.device:
            return self.xp.zeros(shape, dtype)

    def astype(self, obj, dtype):
        return obj.astype(dtype)

    def transpose(self, obj, perm):
        return obj.transpose(perm)

    def compact(self, obj):
        return self.xp.ascontiguousarray(obj)

    def conj(self, obj):
        return self.xp.conj(obj)

    def to16(self, obj, storage, complex_values):
        """obj as contiguous 16-bit patterns (uint16), a complex value as a trailing pair."""
        x = obj.astype(self.xp.complex64 if complex_values else self.xp.float32)
        if complex_values:
            x = self.xp.stack([x.real, x.imag], -1)
        return self.xp.ascontiguousarray(_storage16.encode(x, storage, self.xp))

    def from16(self, obj, storage, complex_values):
        y = _storage16.decode(obj, storage, self.xp)
        return y.view(self.xp.complex64)[..., 0] if complex_values else y

    def empty16(self, like, shape, storage):
        return self.empty(like, shape, np.uint16)


class _Torch:
    """PyTorch: its caching allocator, the current stream of the tensor's device."""

    def __init__(self, torch):
        self.torch = torch
        self.types = {np.dtype(n): getattr(torch, n) for n in _TORCH_TYPES}

    def stream(self, obj):
        return self.torch.cuda.current_stream(obj.device).cuda_stream or _dlpack.LEGACY_STREAM

    def address(self, obj):
        return obj.data_ptr()

    def empty(self, like, shape, dtype):
        return self.torch.empty(shape, dtype=self.types[dtype], device=like.device)

    def zeros(self, like, shape, dtype):
        return self.torch.zeros(shape, dtype=self.types[dtype], device=like.device)

    def astype(self, obj, dtype):
        return obj.to(self.types[dtype])

    def transpose(self, obj, perm):
        return obj.permute(perm)

    def compact(self, obj):
        return obj.contiguous()

    def conj(self, obj):
        return self.torch.conj_physical(obj)

    def _half(self, storage):
        return self.torch.float16 if storage == C.F16 else self.torch.bfloat16

    def to16(self, obj, storage, complex_values):
        """obj as a contiguous float16/bfloat16 tensor, a complex value as a trailing pair."""
        x = obj.to(self.torch.complex64 if complex_values else self.torch.float32)
        if complex_values:
            x = self.torch.view_as_real(x)
        return x.to(self._half(storage)).contiguous()

    def from16(self, obj, storage, complex_values):
        y = obj.to(self.torch.float32)
        return self.torch.view_as_complex(y) if complex_values else y

    def empty16(self, like, shape, storage):
        return self.torch.empty(shape, dtype=self._half(storage), device=like.device)


class _Buffers:
    """Any other producer: results in fftmux Buffers; no copies, so the input must already
    have the plan's dtype and an addressable layout."""

    def __init__(self, library):
        self.library = library

    def stream(self, obj):
        return _dlpack.LEGACY_STREAM

    def address(self, obj):
        return obj.__cuda_array_interface__["data"][0]

    def empty(self, like, shape, dtype):
        return None  # the plan allocates a Buffer of its backend

    def refuse(self, what):
        raise TypeError(f"{what} of a {self.library} array needs a copy on the device, which "
                        "fftmux makes only for CuPy and PyTorch arrays; pass an array of the "
                        "transform's dtype and layout")

    def zeros(self, like, shape, dtype):
        self.refuse("zero padding")

    def astype(self, obj, dtype):
        self.refuse(f"conversion to {dtype}")

    def transpose(self, obj, perm):
        return obj.transpose(perm)

    def compact(self, obj):
        self.refuse("a contiguous copy")

    def conj(self, obj):
        self.refuse("the conjugate")

    def to16(self, obj, storage, complex_values):
        self.refuse("conversion to 16-bit storage")


_adapters = {}


def _adapter(obj):
    """The adapter of obj's library, one per type."""
    kind = type(obj)
    adapter = _adapters.get(kind)
    if adapter is None:
        library = kind.__module__.partition(".")[0]
        known = {"cupy": _Cupy, "torch": _Torch}.get(library)
        adapter = known(sys.modules[library]) if known else _Buffers(library)
        _adapters[kind] = adapter
    return adapter


class DeviceArray:
    """A CUDA array of another library, as the numpy-style functions pass it along; its
    view is read when first needed (results go back to the caller unread)."""

    on_device = True

    def __init__(self, obj, adapter=None, view=None):
        self.obj = obj
        self.adapter = adapter or _adapter(obj)
        self._view, self._stream = view, None

    @property
    def view(self):
        if self._view is None:
            if hasattr(self.obj, "__cuda_array_interface__"):
                self._view = _dlpack.from_cuda_interface(self.obj)
            else:
                self._view = _dlpack.from_dlpack(self.obj, self.stream)
        return self._view

    @property
    def stream(self):
        """The producer's stream: named by its __cuda_array_interface__, else its
        library's current stream (the legacy default stream for unknown libraries)."""
        if self._stream is None:
            named = self._view.stream if self._view is not None else None
            self._stream = named or self.adapter.stream(self.obj)
        return self._stream

    @property
    def shape(self):
        return self.view.shape

    @property
    def ndim(self):
        return len(self.view.shape)

    @property
    def dtype(self):
        return self.view.dtype

    def wrap(self, obj, view=None):
        return DeviceArray(obj, self.adapter, view)

    def as_input(self, complex_input):
        """This array in the dtype the transform reads (converted on the device)."""
        precision = _transforms.precision_of(self.dtype)
        if not complex_input and self.dtype.kind == "c":
            raise TypeError(f"a real-input transform got {self.dtype} data; pass the real "
                            "part explicitly if the imaginary part is to be dropped")
        target = (_transforms.COMPLEX if complex_input else _transforms.REAL)[precision]
        return self if self.dtype == target else self.wrap(self.adapter.astype(self.obj, target))

    def resize(self, axes, sizes):
        """Cropped (a view: a smaller shape) or zero-padded (a copy) to sizes along axes."""
        if all(self.shape[ax] == n for ax, n in zip(axes, sizes)):
            return self
        crop = list(self.shape)
        for ax, n in zip(axes, sizes):
            crop[ax] = min(n, crop[ax])
        view = self.view
        cropped = _dlpack.View(view.address, crop, view.strides, view.dtype, view.device,
                               view.stream, view.owner)
        shape = list(crop)
        for ax, n in zip(axes, sizes):
            shape[ax] = n
        if shape == crop:
            return self.wrap(self.obj, cropped)
        padded = self.adapter.zeros(self.obj, shape, self.dtype)
        padded[tuple(slice(0, m) for m in crop)] = self.obj[tuple(slice(0, m) for m in crop)]
        return self.wrap(padded)

    def conj(self):
        return self.wrap(self.adapter.conj(self.obj))

    def transform(self, kind, axes, n, direction, norm, flags, engine, out):
        """run_pass for device arrays: one plan on the cuda backend, no host memory."""
        if len(engine) > 2 and engine[2] is not None:
            return self._transform16(kind, axes, n, direction, norm, flags, engine)
        precision = _transforms.precision_of(self.dtype)
        out_shape, out_dtype = _transforms.result_of(self.shape, kind, axes, n, precision)
        if out is not None:
            raise TypeError("out= takes numpy arrays; a transform of a device array returns "
                            "a new device array")
        if 0 in self.shape or 0 in out_shape:
            return self.wrap(self.adapter.zeros(self.obj, out_shape, out_dtype))
        perm = _transforms.canonical_order(self.view.strides, axes)
        batch_rank = len(perm) - len(axes)
        src = self
        side = _transforms.side_layout(*_permuted(self.view, perm), batch_rank)
        if side is None:  # a layout no descriptor addresses: copied in canonical order
            src = self.wrap(self.adapter.compact(self.adapter.transpose(self.obj, perm)))
            perm = list(range(len(perm)))
            side = _transforms.side_layout(src.shape, src.view.strides, batch_rank)
        shape = [out_shape[ax] for ax in perm]
        dst_side = _transforms.side_layout(shape, _dlpack.contiguous(shape), batch_rank)
        problem = (tuple(n), kind, precision, side[1], norm, flags, tuple(side[0]), side[2],
                   tuple(dst_side[0]), dst_side[2])
        backend, workers = engine[:2]
        plan = _transforms.plan_cache.get(problem, (_cuda(backend), workers), C.DEVICE)
        dst = self.adapter.empty(self.obj, shape, out_dtype)
        if dst is None:
            dst = plan.buffer("out").array(shape, out_dtype, writer=plan)
        dst_view = _dlpack.View(self.adapter.address(dst), shape, None, out_dtype,
                                self.view.device)
        plan.execute_views(direction, src.view, dst_view, self.stream)
        return self.wrap(self.adapter.transpose(dst, _transforms.inverse(perm)))


    def _transform16(self, kind, axes, n, direction, norm, flags, engine):
        """transform in 16-bit storage (dtype=): the input converted on the device, the
        result widened to float32/complex64, as on the host (_storage16)."""
        storage = engine[2]
        out_shape, out_dtype = _transforms.result_of(self.shape, kind, axes, n, C.F32)
        if 0 in self.shape or 0 in out_shape:
            return self.wrap(self.adapter.zeros(self.obj, out_shape, out_dtype))
        perm = _transforms.canonical_order(self.view.strides, axes)
        batch_rank = len(perm) - len(axes)
        complex_in, complex_out = kind != C.R2C, kind != C.C2R
        src = self.adapter.to16(self.adapter.transpose(self.obj, perm), storage, complex_in)
        shape, out = [self.shape[p] for p in perm], [out_shape[ax] for ax in perm]
        side = _transforms.side_layout(shape, _dlpack.contiguous(shape), batch_rank)
        dst_side = _transforms.side_layout(out, _dlpack.contiguous(out), batch_rank)
        problem = (tuple(n), kind, storage, side[1], norm, flags, tuple(side[0]), side[2],
                   tuple(dst_side[0]), dst_side[2])
        plan = _transforms.plan_cache.get(problem, (_cuda(engine[0]), engine[1]), C.DEVICE)
        dst = self.adapter.empty16(self.obj, out + ([2] if complex_out else []), storage)
        item = {True: _desc._COMPLEX[storage], False: _desc._REAL[storage]}
        device = self.view.device
        plan.execute_views(direction,
                           _dlpack.View(self.adapter.address(src), shape, None,
                                        item[complex_in], device),
                           _dlpack.View(self.adapter.address(dst), out, None,
                                        item[complex_out], device), self.stream)
        result = self.adapter.from16(dst, storage, complex_out)
        return self.wrap(self.adapter.transpose(result, _transforms.inverse(perm)))


def _cuda(backend):
    if backend not in (None, "auto", "cuda"):
        raise UnsupportedError(f"backend = {backend!r}: the array is CUDA memory, which only "
                               "the cuda backend reads without a copy to the host")
    return "cuda"


def _permuted(view, perm):
    return [view.shape[p] for p in perm], [view.strides[p] for p in perm]


def adopt(obj):
    """What the transforms take: numpy arrays and other array-likes as they are, a host
    array exported through DLPack as a numpy view of its memory, a CUDA array as a
    DeviceArray."""
    device = _dlpack.device_of(obj)
    if device is None:
        return obj
    if device[0] in (_dlpack.CUDA, _dlpack.CUDA_MANAGED):
        return DeviceArray(obj)
    if device[0] in (_dlpack.CPU, _dlpack.CUDA_HOST):
        return _dlpack.host_array(_dlpack.from_dlpack(obj, None))
    raise UnsupportedError(f"the array is memory of DLPack device type {device[0]}, which no "
                           "fftmux backend reads")


# Where a library that is not its arrays' root module keeps from_dlpack.
_IMPORTERS = {"jaxlib": "jax.dlpack", "jax": "jax.dlpack"}


def _importer(like):
    root = type(like).__module__.partition(".")[0]
    module = sys.modules.get(_IMPORTERS.get(root, root))
    return None if module is np else getattr(module, "from_dlpack", None)


def give_back(result, like):
    """A result as the kind of array the caller passed: CuPy and PyTorch results are
    theirs already; others go through their library's from_dlpack where it has one (a
    BufferArray stays as it is where none)."""
    if getattr(result, "on_device", False):
        if not isinstance(result.adapter, _Buffers):
            return result.obj
        result = result.obj
    elif isinstance(like, np.ndarray) or _dlpack.device_of(like) is None:
        return result
    convert = _importer(like)
    return result if convert is None else convert(result)


def check_input(x, dtype, nbytes, what="x"):
    """A device array a plan reads (or writes, as out) in its default layout."""
    if not getattr(x, "on_device", False):
        raise TypeError(f"{what} must be a CUDA array like the input, got "
                        f"{type(x).__name__}")
    if x.dtype != dtype:
        raise TypeError(f"{what} must be {dtype}, got {x.dtype}")
    if x.view.strides != _dlpack.contiguous(x.shape):
        raise ValueError(f"{what} must be C-contiguous: a plan reads its own layout "
                         "(the numpy-style functions take any strides)")
    if x.view.span_bytes() < nbytes:
        raise ValueError(f"{what} holds {x.view.span_bytes()} bytes, the plan needs {nbytes}")
