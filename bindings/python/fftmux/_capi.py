"""ctypes mirror of include/fftmux/fftmux.h and the status check every call goes through."""

import ctypes
import threading
from ctypes import POINTER, c_char, c_char_p, c_double, c_int, c_int64, c_size_t, c_uint32
from ctypes import c_uint64, c_void_p

from . import _loader, _log
from .errors import error_for

MAX_RANK = 3
MAX_THREADS = 1024  # FFTMUX_MAX_THREADS

# enum values, fixed forever by the C API
C2C, R2C, C2R, R2R = 0, 1, 2, 3
# fftmux_r2r_kind: NONE, then DCT-I..IV and DST-I..IV.
R2R_NAMES = ("none", "dct1", "dct2", "dct3", "dct4", "dst1", "dst2", "dst3", "dst4")
F32, F64, F16, BF16 = 0, 1, 2, 3
NORM_NONE, NORM_BACKWARD, NORM_ORTHO, NORM_FORWARD = 0, 1, 2, 3
HOST, DEVICE = 0, 1
FORWARD, INVERSE = -1, 1
SHIFT_INPUT, SHIFT_OUTPUT, IN_PLACE = 0x1, 0x2, 0x4
PROBE = 0x1

_Dims = c_int64 * MAX_RANK


class Desc(ctypes.Structure):
    _fields_ = [
        ("struct_size", c_uint32),
        ("rank", c_uint32),
        ("n", _Dims),
        ("batch", c_int64),
        ("kind", c_uint32),
        ("precision", c_uint32),
        ("norm", c_uint32),
        ("placement", c_uint32),
        ("flags", c_uint32),
        ("reserved", c_uint32),
        ("in_strides", _Dims),
        ("in_distance", c_int64),
        ("out_strides", _Dims),
        ("out_distance", c_int64),
        ("r2r", c_uint32 * MAX_RANK),
        ("reserved2", c_uint32),
        ("in_extent", _Dims),
        ("out_extent", _Dims),
    ]


class Layout(ctypes.Structure):
    _fields_ = [
        ("struct_size", c_uint32),
        ("reserved", c_uint32),
        ("in_strides", _Dims),
        ("in_distance", c_int64),
        ("out_strides", _Dims),
        ("out_distance", c_int64),
        ("in_bytes", c_uint64),
        ("out_bytes", c_uint64),
    ]


class NativeDevice(ctypes.Structure):
    _fields_ = [
        ("backend", c_char_p),
        ("handles", c_uint64 * 8),
    ]


class ContextOptions(ctypes.Structure):
    _fields_ = [
        ("struct_size", c_uint32),
        ("reserved", c_uint32),
        ("config_path", c_char_p),
        ("plugin_path", c_char_p),
        ("devices", POINTER(NativeDevice)),
        ("device_count", c_uint32),
        ("reserved2", c_uint32),
    ]


class BackendInfo(ctypes.Structure):
    _fields_ = [
        ("struct_size", c_uint32),
        ("state", c_uint32),
        ("name", c_char * 64),
        ("version", c_char * 64),
        ("library", c_char * 1024),
        ("reason", c_char * 512),
        ("devices", c_char * 512),
        ("variants", c_char * 256),
        ("hardware_key", c_char * 512),
        ("max_devices", c_uint32),
    ]


class Support(ctypes.Structure):
    _fields_ = [
        ("struct_size", c_uint32),
        ("supported", c_uint32),
        ("backend", c_char * 64),
        ("variants", c_char * 256),
        ("reason", c_char * 512),
        ("estimate_seconds", c_double),
    ]


class PlanOptions(ctypes.Structure):
    _fields_ = [
        ("struct_size", c_uint32),
        ("reserved", c_uint32),
        ("backend", c_char_p),
        ("variant", c_char_p),
        ("threads", c_uint32),
        ("reserved2", c_uint32),
        ("device_list", POINTER(c_uint32)),
        ("device_list_length", c_uint32),
        ("device_count", c_uint32),
        ("order", c_uint32),
        ("reserved3", c_uint32),
    ]


class TuneRecord(ctypes.Structure):
    _fields_ = [
        ("struct_size", c_uint32),
        ("ok", c_uint32),
        ("problem_index", c_uint32),
        ("problem_count", c_uint32),
        ("desc", Desc),
        ("backend", c_char * 64),
        ("variant", c_char * 64),
        ("reason", c_char * 512),
        ("plan_seconds", c_double),
        ("upload_seconds", c_double),
        ("execute_seconds", c_double),
        ("download_seconds", c_double),
        ("median_seconds", c_double),
        ("spread_seconds", c_double),
        ("round_trip_error", c_double),
        ("gbytes_per_second", c_double),
        ("elapsed_seconds", c_double),
        ("eta_seconds", c_double),
        ("same_as", c_char * 64),
        ("runs", c_uint32),
        ("reserved", c_uint32),
    ]


TuneProgress = ctypes.CFUNCTYPE(None, c_void_p, POINTER(TuneRecord))


class TuneOptions(ctypes.Structure):
    _fields_ = [
        ("struct_size", c_uint32),
        ("repeats", c_uint32),
        ("warmup", c_uint32),
        ("write_cache", c_uint32),
        ("budget_seconds", c_double),
        ("backends", c_char_p),
        ("cache_path", c_char_p),
        ("seed", c_uint64),
        ("progress", TuneProgress),
        ("user", c_void_p),
        ("exhaustive", c_uint32),
        ("reserved", c_uint32),
        ("skip_factor", c_double),
    ]


TUNE_DEFAULT, TUNE_QUICK = 0, 1

_H = c_void_p  # every opaque handle
_S = c_int  # fftmux_status
_PROTOTYPES = {
    "fftmux_desc_init": (None, [POINTER(Desc)]),
    "fftmux_desc_layout": (_S, [POINTER(Desc), POINTER(Layout)]),
    "fftmux_context_options_init": (None, [POINTER(ContextOptions)]),
    "fftmux_context_create": (_S, [POINTER(ContextOptions), POINTER(_H)]),
    "fftmux_context_destroy": (_S, [_H]),
    "fftmux_context_notes": (_S, [_H, c_char_p, c_size_t, POINTER(c_size_t)]),
    "fftmux_backend_variants": (_S, [_H, c_uint32, c_char_p, c_size_t, POINTER(c_size_t)]),
    "fftmux_backend_info_init": (None, [POINTER(BackendInfo)]),
    "fftmux_backend_count": (_S, [_H, POINTER(c_uint32)]),
    "fftmux_backend_get": (_S, [_H, c_uint32, c_uint32, POINTER(BackendInfo)]),
    "fftmux_support_init": (None, [POINTER(Support)]),
    "fftmux_query": (_S, [_H, POINTER(Desc), c_char_p, POINTER(Support)]),
    "fftmux_plan_options_init": (None, [POINTER(PlanOptions)]),
    "fftmux_plan_create": (_S, [_H, POINTER(Desc), POINTER(PlanOptions), POINTER(_H)]),
    "fftmux_plan_destroy": (_S, [_H]),
    "fftmux_plan_explain": (_S, [_H, c_char_p, c_size_t, POINTER(c_size_t)]),
    "fftmux_plan_backend": (_S, [_H, POINTER(c_char_p), POINTER(c_char_p)]),
    "fftmux_plan_desc": (_S, [_H, POINTER(Desc)]),
    "fftmux_execute": (_S, [_H, c_int, c_void_p, c_void_p]),
    "fftmux_execute_buffers": (_S, [_H, c_int, _H, _H]),
    "fftmux_plan_synchronize": (_S, [_H]),
    "fftmux_plan_set_stream": (_S, [_H, c_uint64]),
    "fftmux_buffer_create": (_S, [_H, c_char_p, c_uint64, POINTER(_H)]),
    "fftmux_buffer_create_for_plan": (_S, [_H, c_uint64, POINTER(_H)]),
    "fftmux_buffer_wrap": (_S, [_H, c_char_p, c_uint64, c_uint64, POINTER(_H)]),
    "fftmux_buffer_destroy": (_S, [_H]),
    "fftmux_buffer_write": (_S, [_H, c_uint64, c_void_p, c_uint64]),
    "fftmux_buffer_read": (_S, [_H, c_uint64, c_void_p, c_uint64]),
    "fftmux_buffer_native": (_S, [_H, POINTER(c_uint64)]),
    "fftmux_buffer_size": (_S, [_H, POINTER(c_uint64)]),
    "fftmux_tune_options_init": (None, [POINTER(TuneOptions)]),
    "fftmux_autotune": (_S, [_H, POINTER(Desc), c_size_t, POINTER(TuneOptions)]),
    "fftmux_autotune_problems": (_S, [c_uint32, POINTER(Desc), c_size_t, POINTER(c_size_t)]),
    "fftmux_tuning_cache_path": (_S, [_H, c_char_p, c_size_t, POINTER(c_size_t)]),
    "fftmux_tuning_show": (_S, [_H, c_char_p, c_size_t, POINTER(c_size_t)]),
    "fftmux_tuning_export": (_S, [_H, c_char_p]),
    "fftmux_tuning_import": (_S, [_H, c_char_p, POINTER(c_size_t)]),
    "fftmux_tuning_clear": (_S, [_H, c_char_p, POINTER(c_size_t)]),
    "fftmux_system_tuning_path": (_S, [_H, c_char_p, c_size_t, POINTER(c_size_t)]),
    "fftmux_last_error": (c_char_p, []),
    "fftmux_status_name": (c_char_p, [c_int]),
    "fftmux_backend_state_name": (c_char_p, [c_uint32]),
    "fftmux_set_log_callback": (_S, [_log.Callback, c_void_p, c_uint32]),
    "fftmux_version": (c_char_p, [POINTER(c_int), POINTER(c_int), POINTER(c_int)]),
}

_lock = threading.Lock()
_lib = None


def lib():
    """The loaded library with every prototype declared."""
    global _lib
    with _lock:
        if _lib is None:
            dll, _ = _loader.load()
            for name, (restype, argtypes) in _PROTOTYPES.items():
                fn = getattr(dll, name)
                fn.restype, fn.argtypes = restype, argtypes
            _log.install(dll)
            _lib = dll
        return _lib


def library_path():
    """Path of the libfftmux this process uses."""
    return _loader.load()[1]


def last_error():
    return (lib().fftmux_last_error() or b"").decode("utf-8", "replace")


def backend_state_name(state):
    """'listed', 'ready', 'unavailable' or 'skipped': the names the command line uses too."""
    return lib().fftmux_backend_state_name(state).decode()


def check(status):
    """Raises the matching fftmux.Error, with the library's message, for a failed call."""
    if status != 0:
        raise error_for(status, last_error())


def call(name, *args):
    """Calls a status-returning C function and raises on failure."""
    check(getattr(lib(), name)(*args))


def text(name, *args):
    """A string returned through the (text, size, needed) convention."""
    needed = c_size_t(0)
    call(name, *args, None, 0, ctypes.byref(needed))
    buf = ctypes.create_string_buffer(max(needed.value, 1))
    call(name, *args, buf, len(buf), ctypes.byref(needed))
    return buf.value.decode("utf-8", "replace")


# A newer library's *_init writes its own, possibly larger, struct: give it room.
_INIT_ROOM = 1 << 14


_templates = {}


def new(struct, init):
    """A struct initialized by its C *_init function, so new fields get their defaults."""
    template = _templates.get(init)
    if template is None:  # the defaults never change: ask the library once
        room = ctypes.create_string_buffer(max(_INIT_ROOM, ctypes.sizeof(struct)))
        getattr(lib(), init)(ctypes.cast(room, POINTER(struct)))
        template = struct.from_buffer_copy(room.raw[: ctypes.sizeof(struct)])
        template.struct_size = ctypes.sizeof(struct)  # what this binding knows, never more
        _templates[init] = template
    return struct.from_buffer_copy(template)


def library_struct_size(struct, init):
    """struct_size the library's *_init writes: its own sizeof, for the ABI test."""
    room = ctypes.create_string_buffer(_INIT_ROOM)
    getattr(lib(), init)(ctypes.cast(room, POINTER(struct)))
    return c_uint32.from_buffer_copy(room.raw[:4]).value


def decode(raw):
    return raw.decode("utf-8", "replace")
