"""Convolution and correlation with scipy.signal's semantics, run by fftmux_convolution_*:
the padded transforms on whichever backend routing picks, the product on the host.

    y = fftmux.fftconvolve(signal, kernel, mode="same")
    z = fftmux.correlate(a, v, mode="valid")
    c = fftmux.Convolution((4096,), (64,), kernel)   # the kernel transformed once
    y = c(signals)                                   # (batch, 4096) -> (batch, 1, 4159)
"""

import ctypes
import threading
import weakref
from ctypes import POINTER, c_char_p, c_int64, c_size_t, c_uint32, c_void_p

import numpy as np

from . import _capi as C
from ._context import _destroy, default_context
from ._transforms import COMPLEX, REAL, precision_of

MODES = {"full": 0, "same": 1, "valid": 2, "circular": 3}
_PRECISIONS = {"f32": C.F32, "f64": C.F64}
FILTER_SIGNAL, FILTER_SPECTRUM = 0, 1
_Dims = c_int64 * C.MAX_RANK


class ConvDesc(ctypes.Structure):
    _fields_ = [
        ("struct_size", c_uint32),
        ("rank", c_uint32),
        ("n", _Dims),
        ("m", _Dims),
        ("batch", c_int64),
        ("filters", c_int64),
        ("kind", c_uint32),
        ("precision", c_uint32),
        ("mode", c_uint32),
        ("correlate", c_uint32),
        ("placement", c_uint32),
        ("reserved", c_uint32),
    ]


class ConvolutionOptions(ctypes.Structure):
    _fields_ = [
        ("struct_size", c_uint32),
        ("threads", c_uint32),
        ("backend", c_char_p),
        ("variant", c_char_p),
    ]


_H, _S = c_void_p, ctypes.c_int
# Declared here rather than in _capi's table: this module is their only caller.
_PROTOTYPES = {
    "fftmux_conv_desc_init": (None, [POINTER(ConvDesc)]),
    "fftmux_convolution_options_init": (None, [POINTER(ConvolutionOptions)]),
    "fftmux_convolution_sizes": (_S, [POINTER(ConvDesc), POINTER(c_int64), POINTER(c_int64)]),
    "fftmux_convolution_create": (_S, [_H, POINTER(ConvDesc), c_void_p, c_uint32,
                                       POINTER(ConvolutionOptions), POINTER(_H)]),
    "fftmux_convolution_destroy": (_S, [_H]),
    "fftmux_convolution_execute": (_S, [_H, c_void_p, c_void_p]),
    "fftmux_convolution_explain": (_S, [_H, c_char_p, c_size_t, POINTER(c_size_t)]),
}
_declared = False
_lock = threading.Lock()


def _lib():
    global _declared
    with _lock:
        lib = C.lib()
        if not _declared:
            for name, (restype, argtypes) in _PROTOTYPES.items():
                fn = getattr(lib, name)
                fn.restype, fn.argtypes = restype, argtypes
            _declared = True
        return lib


def _desc(n, m, batch, filters, real, precision, mode, correlate):
    _lib()
    d = C.new(ConvDesc, "fftmux_conv_desc_init")
    if not 1 <= len(n) <= C.MAX_RANK or len(m) != len(n):
        raise ValueError(f"convolution over {len(n)} axes: fftmux convolves over 1 to "
                         f"{C.MAX_RANK} axes, the signal and filter over as many")
    if mode not in MODES:
        raise ValueError(f"mode = {mode!r}: must be one of {', '.join(MODES)}")
    d.rank = len(n)
    d.n[:len(n)], d.m[:len(m)] = n, m
    d.batch, d.filters = batch, filters
    d.kind, d.precision = (C.R2C if real else C.C2C), precision
    d.mode, d.correlate = MODES[mode], int(bool(correlate))
    return d


def sizes(d):
    """(output sizes, FFT sizes) of a descriptor, over its rank's axes."""
    out, fft = _Dims(), _Dims()
    C.check(_lib().fftmux_convolution_sizes(ctypes.byref(d), out, fft))
    return tuple(out[:d.rank]), tuple(fft[:d.rank])


class Convolution:
    """Signals of shape n convolved with `filters` (shape (count, *m) or m) transformed once.

    Calling it on an array of shape (batch, *n) or n gives (batch, count, *out) or
    (count, *out) where the filter had no count axis. real: real data (default: whether the
    filters are); precision: 'f32' or 'f64' (default: the filters'). filter_layout
    "spectrum": the filters' forward transforms on the FFT grid.
    """

    def __init__(self, n, m, filters, *, mode="full", correlate=False, real=None,
                 precision=None, batch=1, filter_layout="signal", backend=None,
                 threads=0, context=None):
        filters = np.asarray(filters)
        spectrum = filter_layout == "spectrum"
        if filter_layout not in ("signal", "spectrum"):
            raise ValueError(f"filter_layout = {filter_layout!r}: use 'signal' or 'spectrum'")
        self._single = filters.ndim == len(m) if not spectrum else filters.ndim == len(n)
        count = 1 if self._single else filters.shape[0]
        precision = precision_of(filters.dtype) if precision is None else _PRECISIONS.get(
            precision, precision)
        if precision not in (C.F32, C.F64):
            raise ValueError(f"precision = {precision!r}: use 'f32' or 'f64'")
        self.real = (filters.dtype.kind != "c") if real is None else bool(real)
        self._d = _desc(tuple(n), tuple(m), batch, count, self.real, precision, mode, correlate)
        self.out_shape, self.fft_shape = sizes(self._d)
        want = self._filter_shape(spectrum, count)
        if filters.shape != want:
            raise ValueError(f"filters have shape {filters.shape}, the descriptor needs {want}")
        kind = COMPLEX if (spectrum or not self.real) else REAL
        self._dtype = (REAL if self.real else COMPLEX)[precision]
        self._filters = np.ascontiguousarray(filters, kind[precision])
        self._context = context or default_context()
        self._lock = threading.Lock()  # one execute at a time (the object's work memory)
        options = C.new(ConvolutionOptions, "fftmux_convolution_options_init")
        self._backend = backend.encode() if backend else None
        options.backend, options.threads = self._backend, threads
        handle = c_void_p()
        C.check(_lib().fftmux_convolution_create(
            self._context.handle, ctypes.byref(self._d), self._filters.ctypes.data,
            FILTER_SPECTRUM if spectrum else FILTER_SIGNAL, ctypes.byref(options),
            ctypes.byref(handle)))
        self._filters = None  # transformed: no longer needed
        self._handle = handle.value
        self._finalizer = weakref.finalize(self, _destroy, "fftmux_convolution_destroy",
                                           self._handle, self._context)

    def _filter_shape(self, spectrum, count):
        shape = tuple(self._d.m[:self._d.rank])
        if spectrum:
            shape = self.fft_shape[:-1] + ((self.fft_shape[-1] // 2 + 1) if self.real
                                           else self.fft_shape[-1],)
        return shape if self._single else (count,) + shape

    def explain(self):
        """The sizes and the plans' routing decisions."""
        needed = c_size_t(0)
        C.check(_lib().fftmux_convolution_explain(self._handle, None, 0, ctypes.byref(needed)))
        buf = ctypes.create_string_buffer(needed.value)
        C.check(_lib().fftmux_convolution_explain(self._handle, buf, len(buf), None))
        return buf.value.decode()

    def __call__(self, signals):
        rank, n = self._d.rank, tuple(self._d.n[:self._d.rank])
        signals = np.asarray(signals)
        if self.real and signals.dtype.kind == "c":
            raise TypeError("a real convolution got complex signals")
        one = signals.shape == n
        if signals.shape[-rank:] != n or signals.ndim > rank + 1 or \
                (not one and signals.shape[0] != self._d.batch):
            raise ValueError(f"signals have shape {signals.shape}, the convolution takes "
                             f"{(self._d.batch,) + n}" + (" or " + str(n)
                                                          if self._d.batch == 1 else ""))
        x = np.ascontiguousarray(signals, self._dtype)
        out = np.empty((self._d.batch, self._d.filters) + self.out_shape, self._dtype)
        with self._lock:
            C.check(_lib().fftmux_convolution_execute(self._handle, x.ctypes.data,
                                                      out.ctypes.data))
        if self._single:
            out = out[:, 0]
        return out[0] if one else out

    def close(self):
        """Destroys the convolution now."""
        self._finalizer()
