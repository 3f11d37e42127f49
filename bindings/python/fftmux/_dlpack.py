"""Arrays of other libraries as (address, shape, strides, dtype, device) views, through
`__cuda_array_interface__` or DLPack, and backend memory exported through both.

Nothing here copies data: a view reads the producer's memory, and the producer's object (or
its DLPack deleter) stays alive as long as the view does.
"""

import ctypes
import weakref
from ctypes import POINTER, c_char_p, c_int, c_int32, c_int64, c_uint8, c_uint16, c_uint64
from ctypes import c_void_p

import numpy as np

CPU, CUDA, CUDA_HOST, CUDA_MANAGED = 1, 2, 3, 13  # DLPack's device types
LEGACY_STREAM = 1  # cudaStreamLegacy, as DLPack and __cuda_array_interface__ name it


class DLDevice(ctypes.Structure):
    _fields_ = [("device_type", c_int32), ("device_id", c_int32)]


class DLDataType(ctypes.Structure):
    _fields_ = [("code", c_uint8), ("bits", c_uint8), ("lanes", c_uint16)]


class DLTensor(ctypes.Structure):
    _fields_ = [("data", c_void_p), ("device", DLDevice), ("ndim", c_int32),
                ("dtype", DLDataType), ("shape", POINTER(c_int64)),
                ("strides", POINTER(c_int64)), ("byte_offset", c_uint64)]


class DLManagedTensor(ctypes.Structure):
    _fields_ = [("dl_tensor", DLTensor), ("manager_ctx", c_void_p), ("deleter", c_void_p)]


_Deleter = ctypes.CFUNCTYPE(None, c_void_p)
_NAME, _USED = b"dltensor", b"used_dltensor"  # module constants: capsules keep the pointers

_api = ctypes.pythonapi
_new_capsule = _api.PyCapsule_New
_new_capsule.restype, _new_capsule.argtypes = ctypes.py_object, [c_void_p, c_char_p, c_void_p]
_get_pointer = _api.PyCapsule_GetPointer
_get_pointer.restype, _get_pointer.argtypes = c_void_p, [ctypes.py_object, c_char_p]
_set_name = _api.PyCapsule_SetName
_set_name.restype, _set_name.argtypes = c_int, [ctypes.py_object, c_char_p]
# The destructor sees a capsule being freed: raw pointers, never a new reference to it.
_is_valid_raw = ctypes.PYFUNCTYPE(c_int, c_void_p, c_char_p)(("PyCapsule_IsValid", _api))
_pointer_raw = ctypes.PYFUNCTYPE(c_void_p, c_void_p, c_char_p)(("PyCapsule_GetPointer", _api))

# (DLPack type code, bits) of each dtype fftmux reads or writes, and the integers numpy
# promotes.
_CODES = {(0, b): np.dtype(f"i{b // 8}") for b in (8, 16, 32, 64)}
_CODES.update({(1, b): np.dtype(f"u{b // 8}") for b in (8, 16, 32, 64)})
_CODES.update({(2, 16): np.dtype("f2"), (2, 32): np.dtype("f4"), (2, 64): np.dtype("f8"),
               (5, 64): np.dtype("c8"), (5, 128): np.dtype("c16"), (6, 8): np.dtype("?")})
_TYPES = {dtype: code for code, dtype in _CODES.items()}


class View:
    """Where an array's elements are: address, shape, strides in elements (None:
    C-contiguous), numpy dtype, (DLPack device type, device id), the producer's stream when
    it names one, and what must stay alive while the memory is used."""

    def __init__(self, address, shape, strides, dtype, device, stream=None, owner=None):
        self.address, self.shape, self.dtype = address, tuple(shape), np.dtype(dtype)
        self.strides = contiguous(self.shape) if strides is None else tuple(strides)
        self.device, self.stream, self.owner = device, stream, owner

    @property
    def on_cuda(self):
        return self.device[0] in (CUDA, CUDA_MANAGED)

    def span_bytes(self):
        """Bytes from the first element to the end of the last."""
        if 0 in self.shape:
            return 0
        last = sum((n - 1) * s for n, s in zip(self.shape, self.strides))
        return (last + 1) * self.dtype.itemsize


def contiguous(shape):
    strides, step = [], 1
    for n in reversed(shape):
        strides.append(step)
        step *= n
    return tuple(reversed(strides))


def device_of(obj):
    """(DLPack device type, id) of an array-like of another library, or None for one that
    exports neither interface (numpy arrays and buffer-protocol objects among them)."""
    if isinstance(obj, np.ndarray):
        return None
    if hasattr(obj, "__cuda_array_interface__"):
        return CUDA, -1  # the cuda backend checks the device when it wraps the address
    if hasattr(obj, "__dlpack_device__"):
        kind, index = obj.__dlpack_device__()
        return int(kind), int(index)
    return None


def from_cuda_interface(obj):
    """The view of an object's __cuda_array_interface__ (versions 0 to 3)."""
    cai = obj.__cuda_array_interface__
    dtype = np.dtype(cai["typestr"])
    strides = cai.get("strides")
    if strides is not None:
        if any(s % dtype.itemsize for s in strides):
            raise ValueError(f"a stride of {tuple(strides)} bytes is not a whole number of "
                             f"{dtype} elements")
        strides = [s // dtype.itemsize for s in strides]
    if cai.get("mask") is not None:
        raise ValueError("masked CUDA arrays are not supported")
    return View(cai["data"][0], cai["shape"], strides, dtype, (CUDA, -1), cai.get("stream"),
                obj)


def from_dlpack(obj, stream):
    """The view of obj.__dlpack__(stream=stream); the view owns the capsule's tensor and
    calls its deleter when collected."""
    capsule = obj.__dlpack__() if stream is None else obj.__dlpack__(stream=stream)
    managed = DLManagedTensor.from_address(_get_pointer(capsule, _NAME))
    _set_name(capsule, _USED)  # ours now: the capsule no longer frees it
    t = managed.dl_tensor
    owner = _Consumed(ctypes.addressof(managed), managed.deleter)
    dtype = _CODES.get((t.dtype.code, t.dtype.bits)) if t.dtype.lanes == 1 else None
    if dtype is None:
        raise TypeError(f"DLPack type code {t.dtype.code}, {t.dtype.bits} bits, "
                        f"{t.dtype.lanes} lanes has no fftmux transform")
    shape = [t.shape[i] for i in range(t.ndim)]
    strides = [t.strides[i] for i in range(t.ndim)] if t.strides else None
    return View((t.data or 0) + t.byte_offset, shape, strides, dtype,
                (t.device.device_type, t.device.device_id), None, owner)


class _Consumed:
    """Calls a consumed DLPack tensor's deleter once, when the last view of it goes."""

    def __init__(self, address, deleter):
        if deleter:
            weakref.finalize(self, _Deleter(deleter), address)


# ---- export ----

_exports = {}  # address of a DLManagedTensor -> what it points into, until its deleter runs


def _callbacks(exports, is_valid, pointer, name):
    """The deleter and the capsule destructor, holding what they use: they may run while
    the interpreter tears this module down."""

    @_Deleter
    def release(address):
        exports.pop(address, None)

    @ctypes.CFUNCTYPE(None, c_void_p)
    def capsule_freed(capsule):
        if is_valid(capsule, name):  # never consumed: the tensor is still ours
            release(pointer(capsule, name))

    return release, capsule_freed


_release, _capsule_freed = _callbacks(_exports, _is_valid_raw, _pointer_raw, _NAME)


def capsule(address, shape, strides, dtype, device, owner):
    """A DLPack capsule of the memory at address; owner stays alive until the consumer
    calls the deleter (or the capsule dies unconsumed)."""
    dtype = np.dtype(dtype)
    if dtype not in _TYPES:
        raise TypeError(f"{dtype} has no DLPack type")
    code, bits = _TYPES[dtype]
    n = len(shape)
    dims = (c_int64 * max(n, 1))(*shape)
    steps = (c_int64 * max(n, 1))(*strides)
    managed = DLManagedTensor()
    managed.dl_tensor = DLTensor(address, DLDevice(*device), n, DLDataType(code, bits, 1),
                                 dims, steps, 0)
    managed.deleter = ctypes.cast(_release, c_void_p).value
    key = ctypes.addressof(managed)
    _exports[key] = (managed, dims, steps, owner)
    return _new_capsule(key, _NAME, ctypes.cast(_capsule_freed, c_void_p).value)


class _HostMemory:
    """numpy's view of host memory described by a View; keeps the producer alive."""

    def __init__(self, view):
        self.owner = view.owner
        size = view.dtype.itemsize
        self.__array_interface__ = {
            "version": 3, "data": (view.address, False), "shape": view.shape,
            "strides": tuple(s * size for s in view.strides), "typestr": view.dtype.str}


def host_array(view):
    return np.asarray(_HostMemory(view))
