"""Plans (reusable transforms on one backend) and Buffers (a backend's own memory)."""

import ctypes
import operator
import os
import threading
import weakref

import numpy as np

from . import _capi as C
from . import _desc, _device, _dlpack
from ._context import _destroy, default_context

_DIRECTIONS = {"forward": C.FORWARD, "inverse": C.INVERSE, C.FORWARD: C.FORWARD,
               C.INVERSE: C.INVERSE}


_ORDERS = {"natural": 0, "permuted": 1}


def _device_options(options, devices, order):
    """Sets the options' devices (a count or a list of indices) and order; returns the list's
    C array, which must outlive the call that reads the options."""
    if order not in _ORDERS:
        raise ValueError(f"order={order!r}: expected 'natural' or 'permuted'")
    options.order = _ORDERS[order]
    if devices is None:
        return None
    if isinstance(devices, int):
        options.device_count = devices
        return None
    listed = (ctypes.c_uint32 * len(devices))(*devices)
    options.device_list = ctypes.cast(listed, ctypes.POINTER(ctypes.c_uint32))
    options.device_list_length = len(devices)
    return listed


def threads_of(workers):
    """scipy.fft's workers as a thread count of the C API: None is 0 (the backend's
    default), n > 0 is n, n < 0 counts back from the CPUs this process may run on
    (-1: all of them)."""
    if workers is None:
        return 0
    workers = operator.index(workers)
    if workers == 0:
        raise ValueError("workers must not be zero")
    if workers > C.MAX_THREADS:
        raise ValueError(f"workers = {workers}: must be at most {C.MAX_THREADS}")
    if workers > 0:
        return workers
    cpus = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    if cpus + 1 + workers <= 0:
        raise ValueError(f"workers value out of range; got {workers}, must not be less than "
                         f"{-cpus}")
    return cpus + 1 + workers


def direction_code(direction):
    try:
        return _DIRECTIONS[direction]
    except (KeyError, TypeError):
        raise ValueError(
            f"direction = {direction!r}: use 'forward' (-1) or 'inverse' (1)") from None


class _Handle:
    """Owns one C handle; the finalizer keeps the context alive until the handle is freed."""

    _destroy_function = None

    def _own(self, handle, context):
        self._handle = handle
        self._context = context
        self._finalizer = weakref.finalize(self, _destroy, self._destroy_function, handle,
                                           context)

    @property
    def handle(self):
        """The C handle as an int."""
        if not self._finalizer.alive:
            raise ValueError(f"this {type(self).__name__} is closed")
        return self._handle

    @property
    def context(self):
        return self._context

    @property
    def closed(self):
        return not self._finalizer.alive

    def close(self):
        """Frees the C object now instead of when garbage-collected."""
        if self._finalizer.alive:
            C.call(self._destroy_function, self._handle)
            self._finalizer.detach()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def _contiguous_bytes(array, what, writable):
    """A C-contiguous, aligned array (no copy allowed when the caller's memory must change)."""
    if not isinstance(array, np.ndarray):
        raise TypeError(f"{what} must be a numpy array, got {type(array).__name__}")
    if not (array.flags.c_contiguous and array.flags.aligned):
        raise ValueError(f"{what} must be C-contiguous and aligned")
    if writable and not array.flags.writeable:
        raise ValueError(f"{what} is read-only")
    return array


class Buffer(_Handle):
    """Memory owned by a backend: device memory for GPU backends, host memory for fftw."""

    _destroy_function = "fftmux_buffer_destroy"

    def __init__(self):
        raise TypeError("create buffers with Plan.buffer, Plan.upload or Context.buffer")

    @classmethod
    def _create(cls, context, function, *args, backend):
        handle = ctypes.c_void_p()
        C.call(function, *args, ctypes.byref(handle))
        buf = cls.__new__(cls)
        buf._own(handle.value, context)
        buf.backend = backend
        return buf

    @property
    def nbytes(self):
        n = ctypes.c_uint64()
        C.call("fftmux_buffer_size", self.handle, ctypes.byref(n))
        return n.value

    @property
    def native(self):
        """The backend's own handle: a pointer, CUdeviceptr, VkBuffer or GL buffer name."""
        n = ctypes.c_uint64()
        C.call("fftmux_buffer_native", self.handle, ctypes.byref(n))
        return n.value

    def write(self, array, offset=0):
        """Copies a contiguous array's bytes into the buffer at offset."""
        array = np.ascontiguousarray(array)
        C.call("fftmux_buffer_write", self.handle, int(offset), array.ctypes.data, array.nbytes)

    def array(self, shape, dtype, strides=None, writer=None):
        """The buffer's memory as an array of shape and dtype (strides in elements, default
        C order) that other libraries take through DLPack or __cuda_array_interface__;
        writer: the plan that writes it, whose stream consumers wait for."""
        return BufferArray(self, shape, dtype, strides, writer)

    def read(self, dtype=np.uint8, count=None, offset=0, out=None):
        """Copies bytes out: into out, or a new array of count elements of dtype."""
        if out is None:
            dtype = np.dtype(dtype)
            if count is None:
                count = (self.nbytes - int(offset)) // dtype.itemsize
            out = np.empty(int(count), dtype)
        _contiguous_bytes(out, "out", writable=True)
        C.call("fftmux_buffer_read", self.handle, int(offset), out.ctypes.data, out.nbytes)
        return out


class BufferArray:
    """An array in a Buffer of the cuda or fftw backend, exported without a copy:
    cupy.from_dlpack(a), torch.from_dlpack(a), numpy.from_dlpack(a) (fftw), or any reader
    of __cuda_array_interface__ (cuda). The exporter keeps the buffer alive."""

    def __init__(self, buffer, shape, dtype, strides=None, writer=None):
        self.buffer, self.shape, self.dtype = buffer, tuple(shape), np.dtype(dtype)
        self.strides = _dlpack.contiguous(self.shape) if strides is None else tuple(strides)
        self._writer = writer  # the plan whose stream last wrote the memory
        backend = buffer.backend
        if backend not in ("cuda", "fftw"):
            raise TypeError(f"a {backend} buffer is a handle, not an address: only cuda and "
                            "fftw buffers export their memory")
        self.device = (_dlpack.CUDA if backend == "cuda" else _dlpack.CPU, 0)
        if _dlpack.View(0, self.shape, self.strides, self.dtype, None).span_bytes() > \
                buffer.nbytes:
            raise ValueError(f"shape {self.shape} of {self.dtype} with strides "
                             f"{self.strides} needs more than the buffer's {buffer.nbytes} "
                             "bytes")

    def transpose(self, perm):
        return BufferArray(self.buffer, [self.shape[p] for p in perm], self.dtype,
                           [self.strides[p] for p in perm], self._writer)

    def __dlpack_device__(self):
        return self.device

    def __dlpack__(self, stream=None):
        """A DLPack capsule; a consumer's stream other than the writer's first waits for
        the writing plan to finish."""
        if self._writer is not None and stream not in (None, -1, self._writer.stream):
            self._writer.synchronize()
        return _dlpack.capsule(self.buffer.native, self.shape, self.strides, self.dtype,
                               self.device, self)

    @property
    def __cuda_array_interface__(self):
        if self.device[0] != _dlpack.CUDA:
            raise AttributeError("__cuda_array_interface__: the buffer is host memory")
        stream = None if self._writer is None else self._writer.stream
        if stream == 0:  # the plan's own queue, which no consumer can name: done first
            self._writer.synchronize()
            stream = None
        size = self.dtype.itemsize
        return {"version": 3, "shape": self.shape, "typestr": self.dtype.str,
                "data": (self.buffer.native, False),
                "strides": tuple(s * size for s in self.strides), "stream": stream}


class Plan(_Handle):
    """A transform planned once and executed many times on one backend.

    shape: the logical sizes (1 to 3 axes; real sizes for r2c/c2r). kind: 'c2c', 'r2c'
    (forward only), 'c2r' (inverse only), or a real-to-real DCT/DST ('dct1'..'dst4', one for
    every axis or one per axis: 'dct2,dst1'; the inverse runs each axis's inverse kind). precision: 'f32', 'f64' or a numpy dtype.
    batch: transforms per call. norm: 'backward' (1/N on the inverse, numpy's default),
    'ortho', 'forward' or 'none'. shift: None, 'input' (transform ifftshift(x)), 'output'
    (return fftshift(X)) or 'both'. in_place: output overwrites input (r2c/c2r use FFTW's
    padded real rows). placement: 'host' or 'device' (routing by time on backend buffers).
    in_strides/out_strides/in_distance/out_distance: in elements of each side's type; default
    contiguous. backend: 'auto' (routed by the tuning cache) or a name; variant: the
    backend's algorithm, default its best. context: default_context() unless given.
    workers: the plan's threads as scipy.fft counts them (threads_of); None: the backend's.
    devices: the devices of the backend the plan spans, a count (2) or a list of indices
    ([0, 1]); None: one. order: 'natural' or 'permuted', a device plan's output order across
    them (docs/api.md, "Several devices").
    """

    _destroy_function = "fftmux_plan_destroy"

    def __init__(self, shape, kind="c2c", precision="f64", *, batch=1, norm="backward",
                 shift=None, in_place=False, placement="host", in_strides=None, in_distance=0,
                 out_strides=None, out_distance=0, backend="auto", variant=None, context=None,
                 workers=None, devices=None, order="natural"):
        desc = _desc.make(shape, kind, precision, batch=batch, norm=norm, shift=shift,
                          in_place=in_place, placement=placement, in_strides=in_strides,
                          in_distance=in_distance, out_strides=out_strides,
                          out_distance=out_distance)
        self._create(desc, backend, variant, context, workers, devices, order)

    @classmethod
    def from_desc(cls, desc, backend="auto", variant=None, context=None, workers=None):
        """A plan for a ready fftmux_desc (used by the numpy-style functions)."""
        plan = cls.__new__(cls)
        plan._create(desc, backend, variant, context, workers)
        return plan

    def _create(self, desc, backend, variant, context, workers, devices=None, order="natural"):
        context = context or default_context()
        options = C.new(C.PlanOptions, "fftmux_plan_options_init")
        options.backend = None if backend in (None, "auto") else backend.encode()
        options.variant = None if variant is None else variant.encode()
        options.threads = threads_of(workers)
        listed = _device_options(options, devices, order)  # kept alive through the call
        handle = ctypes.c_void_p()
        C.call("fftmux_plan_create", context.handle, ctypes.byref(desc), ctypes.byref(options),
               ctypes.byref(handle))
        del listed  # read by the call above, not after
        self._own(handle.value, context)
        self._lock = threading.Lock()  # the C API runs one call at a time per plan
        self._stream = 0
        self._wraps = {}  # (address, bytes) -> Buffer: the memory execute_views last saw
        name = ctypes.c_char_p()
        C.call("fftmux_plan_backend", self.handle, ctypes.byref(name), None)
        self._backend = C.decode(name.value)
        self._given_layout = any(desc.in_strides) or any(desc.out_strides) or bool(
            desc.in_distance or desc.out_distance)
        resolved = C.new(C.Desc, "fftmux_desc_init")
        C.call("fftmux_plan_desc", self.handle, ctypes.byref(resolved))
        self._desc = resolved
        self._layout = _desc.layout(resolved)
        self.in_dtype, self.out_dtype = _desc.side_dtypes(resolved.kind, resolved.precision)

    # ---- what was planned ----

    @property
    def desc(self):
        """The resolved descriptor (default strides filled in) as a dict."""
        return _desc.describe(self._desc)

    @property
    def in_bytes(self):
        return self._layout.in_bytes

    @property
    def out_bytes(self):
        return self._layout.out_bytes

    @property
    def backend(self):
        return self._backend

    @property
    def variant(self):
        name = ctypes.c_char_p()
        C.call("fftmux_plan_backend", self.handle, None, ctypes.byref(name))
        return C.decode(name.value)

    def explain(self):
        """Why this backend and variant were chosen (cache hit, heuristic, forced, fallback)."""
        return C.text("fftmux_plan_explain", self.handle)

    def _natural_shape(self, side):
        """(batch, *extents) of a side in the default layout; None for given strides."""
        if self._given_layout:
            return None
        d = self._desc
        n = list(d.n[: d.rank])
        if d.kind in (C.R2C, C.C2R):  # the halved axis; C2C and R2R keep n
            complex_side = (d.kind == C.R2C) == (side == "out")
            half = n[-1] // 2 + 1
            in_place_real = not complex_side and d.flags & C.IN_PLACE
            n[-1] = half if complex_side else (2 * half if in_place_real else n[-1])
        return ((d.batch,) if d.batch > 1 else ()) + tuple(n)

    @property
    def in_shape(self):
        """Shape of an input array in the default layout (None when strides were given)."""
        return self._natural_shape("in")

    @property
    def out_shape(self):
        return self._natural_shape("out")

    # ---- host execution ----

    def forward(self, x, out=None):
        return self.execute("forward", x, out)

    def inverse(self, x, out=None):
        return self.execute("inverse", x, out)

    def execute(self, direction, x, out=None):
        """Runs the plan on numpy arrays (host) or Buffers of the plan's backend.

        Arrays are read as C-ordered memory holding the plan's layout (in_shape for the
        default one). out defaults to a new array (or to x for in-place plans).
        """
        direction = direction_code(direction)
        if isinstance(x, Buffer):
            return self._execute_buffers(direction, x, out)
        foreign = _device.adopt(x)
        if getattr(foreign, "on_device", False):
            return self._execute_device(direction, foreign, out)
        if foreign is not x:
            return _device.give_back(self.execute(direction, foreign, out), x)
        in_place = bool(self._desc.flags & C.IN_PLACE)
        x = self._host_input(x, in_place)
        target = x if in_place else self._host_output(out)
        if in_place and out is not None and out is not x:
            raise ValueError("the plan is in-place: pass out=None or the input array")
        self.run(direction, x.ctypes.data, target.ctypes.data)
        return self._shaped_output(target) if (in_place or out is None) else target

    def run(self, direction, in_address, out_address):
        """fftmux_execute on raw addresses; the caller guarantees the memory is right."""
        direction = direction_code(direction)
        with self._lock:
            C.call("fftmux_execute", self.handle, direction, in_address, out_address)

    def _host_input(self, x, in_place):
        x = np.asarray(x)
        if in_place:
            if x.dtype != self.in_dtype:
                raise TypeError(f"in-place input must be {self.in_dtype}, got {x.dtype}")
            _contiguous_bytes(x, "in-place input", writable=True)
            need = max(self.in_bytes, self.out_bytes)
        else:
            if x.dtype != self.in_dtype and not np.can_cast(x.dtype, self.in_dtype, "safe"):
                raise TypeError(f"input of dtype {x.dtype} would lose precision as "
                                f"{self.in_dtype}; convert it explicitly")
            x = np.require(x, self.in_dtype, ["C_CONTIGUOUS", "ALIGNED"])
            need = self.in_bytes
        if x.nbytes < need:
            raise ValueError(f"input holds {x.nbytes} bytes, the plan reads {need} "
                             f"(in_shape {self.in_shape}, dtype {self.in_dtype})")
        return x

    def _host_output(self, out):
        if out is None:
            shape = self.out_shape
            if shape is None:  # given strides: zeros, so gaps between elements are defined
                return np.zeros(-(-self.out_bytes // self.out_dtype.itemsize), self.out_dtype)
            return np.empty(shape, self.out_dtype)
        _contiguous_bytes(out, "out", writable=True)
        if out.dtype != self.out_dtype:
            raise TypeError(f"out must be {self.out_dtype}, got {out.dtype}")
        if out.nbytes < self.out_bytes:
            raise ValueError(f"out holds {out.nbytes} bytes, the plan writes {self.out_bytes}")
        return out

    def _shaped_output(self, target):
        view = target.reshape(-1).view(self.out_dtype)
        shape = self.out_shape
        if shape is not None and view.size == int(np.prod(shape)):
            return view.reshape(shape)
        return view

    # ---- backend buffers ----

    def buffer(self, side="in"):
        """A buffer of the plan's backend sized for side 'in' or 'out' (or a byte count)."""
        nbytes = {"in": self.in_bytes, "out": self.out_bytes}.get(side, side)
        if not isinstance(nbytes, (int, np.integer)):
            raise ValueError(f"side = {side!r}: use 'in', 'out' or a byte count")
        return Buffer._create(self._context, "fftmux_buffer_create_for_plan", self.handle,
                              int(nbytes), backend=self.backend)

    def upload(self, x):
        """A new 'in' buffer holding x (validated as for execute)."""
        x = self._host_input(x, in_place=False)
        in_place = self._desc.flags & C.IN_PLACE
        buf = self.buffer(max(self.in_bytes, self.out_bytes) if in_place else self.in_bytes)
        buf.write(x.reshape(-1).view(np.uint8)[: self.in_bytes])
        return buf

    def download(self, buf, out=None):
        """The output side of buf as an array (out_shape in the default layout)."""
        target = self._host_output(out)
        buf.read(out=target.reshape(-1).view(np.uint8)[: self.out_bytes])
        return target

    def _execute_buffers(self, direction, x, out):
        if out is not None and not isinstance(out, Buffer):
            raise TypeError("with a Buffer input, out must be a Buffer too (or None in place)")
        with self._lock:
            C.call("fftmux_execute_buffers", self.handle, direction, x.handle,
                   None if out is None else out.handle)
        return x if out is None else out

    def synchronize(self):
        """Waits until work submitted through the plan has finished."""
        C.call("fftmux_plan_synchronize", self.handle)

    # ---- arrays of other libraries ----

    @property
    def stream(self):
        """The native queue the plan's work goes to: a cudaStream_t as an int on cuda
        (1: the legacy default stream), 0 for the plan's own."""
        return self._stream

    @stream.setter
    def stream(self, native):
        with self._lock:
            self._set_stream(int(native))

    def _set_stream(self, native):
        if native != self._stream:
            C.call("fftmux_plan_set_stream", self.handle, native)
            self._stream = native

    def execute_views(self, direction, src, dst, stream):
        """Runs the plan from one device view to another (_dlpack.View) in stream: no
        copy, nothing waits."""
        direction = direction_code(direction)
        with self._lock:
            buffers = self._wrapped(src), self._wrapped(dst)
            self._set_stream(stream)
            C.call("fftmux_execute_buffers", self.handle, direction, buffers[0].handle,
                   buffers[1].handle)

    _MAX_WRAPS = 8

    def _wrapped(self, view):
        """A Buffer over a view's memory, remembered so that a loop over the same arrays
        (or a memory pool's reused blocks) wraps each address once."""
        key = (view.address, view.span_bytes())
        buf = self._wraps.pop(key, None)
        if buf is None:
            if len(self._wraps) >= self._MAX_WRAPS:
                self._wraps.pop(next(iter(self._wraps))).close()
            buf = Buffer._create(self._context, "fftmux_buffer_wrap", self._context.handle,
                                 self._backend.encode(), view.address, key[1],
                                 backend=self._backend)
        self._wraps[key] = buf  # most recent last
        return buf

    def _execute_device(self, direction, x, out):
        """execute for a CUDA array: read where it lives, result in the producer's kind."""
        if self._desc.placement != C.DEVICE or self.backend != "cuda":
            raise TypeError(f"the input is CUDA memory and this plan runs on {self.backend} "
                            f"with placement={self.desc['placement']!r}: make the plan with "
                            "placement='device' and backend 'cuda' (or 'auto')")
        if self._desc.flags & C.IN_PLACE:
            raise TypeError("in-place plans take Buffers; pass device arrays to an "
                            "out-of-place plan")
        shape = self.out_shape
        _device.check_input(x, self.in_dtype, self.in_bytes)
        if out is None:
            target = x.adapter.empty(x.obj, shape, self.out_dtype)
            out = self.buffer("out").array(shape or (self.out_bytes //
                                                      self.out_dtype.itemsize,),
                                           self.out_dtype, writer=self) \
                if target is None else target
        y = _device.adopt(out)
        _device.check_input(y, self.out_dtype, self.out_bytes, "out")
        self.execute_views(direction, x.view, y.view, x.stream)
        return out

