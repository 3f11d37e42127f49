"""Contexts: the loaded plugins, configuration and tuning cache behind every plan."""

import ctypes
import os
import threading
import weakref
from dataclasses import dataclass

from . import _capi as C
from . import _desc


@dataclass(frozen=True)
class BackendInfo:
    """One backend as fftmux_backend_get describes it."""

    name: str
    state: str  # 'listed', 'ready', 'unavailable' or 'skipped'
    version: str
    library: str
    reason: str  # why unavailable or skipped
    devices: tuple
    variants: tuple
    hardware_key: str
    max_devices: int  # the most devices one plan spans; 0 while not initialized

    @property
    def ready(self):
        return self.state == "ready"


@dataclass(frozen=True)
class Support:
    """fftmux_query's answer: can this backend run the problem, and if not, why."""

    backend: str
    supported: bool
    variants: tuple
    reason: str
    estimate_seconds: float  # None when the backend gives no estimate

    def __bool__(self):
        return self.supported


def _split(text, sep):
    return tuple(part for part in C.decode(text).split(sep) if part)


def _backend_info(raw, variants):
    """variants: the whole list (fftmux_backend_variants); raw's field holds what fits."""
    return BackendInfo(
        name=C.decode(raw.name),
        state=C.backend_state_name(raw.state),
        version=C.decode(raw.version),
        library=C.decode(raw.library),
        reason=C.decode(raw.reason),
        devices=_split(raw.devices, "\n"),
        variants=tuple(v for v in variants.split(",") if v),
        hardware_key=C.decode(raw.hardware_key),
        max_devices=raw.max_devices,
    )


def _path_bytes(path):
    return None if path is None else os.fsencode(path)


def _destroy(function, handle, *keep_alive):
    # Finalizers cannot raise; a failure here only means the process is exiting.
    getattr(C.lib(), function)(handle)


class Context:
    """Plugins, configuration and tuning cache. Most programs use default_context().

    config: path of an fftmux.toml (default: $FFTMUX_CONFIG, then the user's config);
    plugin_path: where plugins are searched instead of the usual discovery.
    """

    def __init__(self, config=None, plugin_path=None):
        options = C.new(C.ContextOptions, "fftmux_context_options_init")
        # The bytes objects must outlive the call; the struct only points at them.
        self._strings = (_path_bytes(config), _path_bytes(plugin_path))
        options.config_path, options.plugin_path = self._strings
        handle = ctypes.c_void_p()
        C.call("fftmux_context_create", ctypes.byref(options), ctypes.byref(handle))
        self._handle = handle.value
        self._finalizer = weakref.finalize(self, _destroy, "fftmux_context_destroy", self._handle)

    @property
    def handle(self):
        """The fftmux_context handle as an int, for other bindings in the same process."""
        if not self._finalizer.alive:
            raise ValueError("the context is closed")
        return self._handle

    def close(self):
        """Destroys the context now; its plans and buffers must be gone first."""
        if self._finalizer.alive:
            C.call("fftmux_context_destroy", self._handle)
            self._finalizer.detach()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def backends(self, probe=True):
        """Every backend found; probe=True loads each to report its devices and state."""
        count = ctypes.c_uint32()
        C.call("fftmux_backend_count", self.handle, ctypes.byref(count))
        out = []
        for i in range(count.value):
            raw = C.new(C.BackendInfo, "fftmux_backend_info_init")
            C.call("fftmux_backend_get", self.handle, i, C.PROBE if probe else 0,
                   ctypes.byref(raw))
            out.append(_backend_info(raw, C.text("fftmux_backend_variants", self.handle, i)))
        return out

    def notes(self):
        """What the context noticed while starting: skipped plugins, an unusable config."""
        return C.text("fftmux_context_notes", self.handle)

    def query(self, backend, shape, kind="c2c", precision="f64", **desc):
        """Whether backend can run this problem (same arguments as Plan), and why not."""
        d = _desc.make(shape, kind, precision, **desc)
        raw = C.new(C.Support, "fftmux_support_init")
        C.call("fftmux_query", self.handle, ctypes.byref(d), backend.encode(), ctypes.byref(raw))
        estimate = raw.estimate_seconds
        return Support(
            backend=C.decode(raw.backend),
            supported=bool(raw.supported),
            variants=_split(raw.variants, ","),
            reason=C.decode(raw.reason),
            estimate_seconds=estimate if estimate >= 0 else None,
        )

    def autotune(self, problems="quick", **options):
        """Measures problems on every backend; "auto" plans then route by it (see fftmux.autotune)."""
        from ._tune import autotune

        return autotune(self, problems, **options)

    def tuning_cache_path(self):
        """The tuning cache this context reads and autotune writes."""
        return C.text("fftmux_tuning_cache_path", self.handle)

    def system_tuning_path(self):
        """The system tuning cache, read beneath the user's (`fftmux autotune --system`)."""
        return C.text("fftmux_system_tuning_path", self.handle)

    def buffer(self, backend, nbytes):
        """Memory of the named backend (e.g. device memory of a GPU backend)."""
        from ._plan import Buffer

        return Buffer._create(self, "fftmux_buffer_create", self.handle, backend.encode(),
                              int(nbytes), backend=backend)

    def wrap(self, backend, native, nbytes):
        """A Buffer over a native handle the caller owns (CUdeviceptr, VkBuffer, GL name)."""
        from ._plan import Buffer

        return Buffer._create(self, "fftmux_buffer_wrap", self.handle, backend.encode(),
                              int(native), int(nbytes), backend=backend)


_default_lock = threading.Lock()
_default = None


def default_context():
    """The process-wide context the numpy-style functions use, created on first use."""
    global _default
    with _default_lock:
        if _default is None:
            _default = Context()
        return _default


def backends(probe=True):
    """Backends of the default context (see Context.backends)."""
    return default_context().backends(probe)


def query(backend, shape, kind="c2c", precision="f64", **desc):
    """Context.query on the default context."""
    return default_context().query(backend, shape, kind, precision, **desc)


def autotune(problems="quick", **options):
    """Context.autotune on the default context: records of every measurement.

    problems: "default", "quick" or dicts of Plan arguments; options: backends, budget,
    repeats, warmup, cache, seed, write_cache, progress (a callable taking each record).
    """
    return default_context().autotune(problems, **options)
