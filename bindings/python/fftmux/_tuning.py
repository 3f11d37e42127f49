"""Tuning that travels: show, export, import and clear the tuning cache.

Each function acts on context, or on the default context when it is None.
"""

import ctypes
import os

from . import _capi as C


def _handle(context):
    from ._context import default_context

    return (context if context is not None else default_context()).handle


def _path(path, what="path"):
    if not isinstance(path, (str, bytes, os.PathLike)):
        raise TypeError(f"{what} must be a str or path-like, not {type(path).__name__}")
    return os.fsencode(path)


def tuning_show(context=None):
    """The measurements routing uses, as tuning-cache TOML (the system's beneath the user's)."""
    return C.text("fftmux_tuning_show", _handle(context))


def tuning_export(path, context=None):
    """Writes a copy of the user's tuning cache to path, atomically."""
    C.call("fftmux_tuning_export", _handle(context), _path(path))


def tuning_import(path, context=None):
    """Merges the tuning file at path into the user's cache; returns how many entries it held.

    An entry in both keeps the later measurement; a foreign or damaged file raises
    InvalidArgumentError and changes nothing.
    """
    count = ctypes.c_size_t()
    C.call("fftmux_tuning_import", _handle(context), _path(path), ctypes.byref(count))
    return count.value


def tuning_clear(backend=None, context=None):
    """Removes the user's measurements of backend (None: all); returns how many went."""
    if backend is not None and not isinstance(backend, str):
        raise TypeError(f"backend must be a str or None, not {type(backend).__name__}")
    count = ctypes.c_size_t()
    name = backend.encode() if backend is not None else None
    C.call("fftmux_tuning_clear", _handle(context), name, ctypes.byref(count))
    return count.value
