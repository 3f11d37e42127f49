"""Finds and loads libfftmux.

The library locates its plugins relative to itself (<libdir>/fftmux/plugins),
so loading the right libfftmux.so is all the binding has to get right.
"""

import ctypes
import ctypes.util
import os
import pathlib
import threading

ENV_VAR = "FFTMUX_LIBRARY"
_NAMES = ("libfftmux.so", "libfftmux.so.0")

_lock = threading.Lock()
_loaded = None  # (CDLL, path) once loaded


class LibraryNotFoundError(OSError):
    """libfftmux could not be found or loaded; the message lists every place tried."""


def candidates():
    """Paths tried in order, each with the reason it is a candidate."""
    found = []
    override = os.environ.get(ENV_VAR)
    if override:
        found.append((override, "$" + ENV_VAR))
        return found  # an explicit choice must not silently fall back elsewhere
    package = pathlib.Path(__file__).resolve().parent
    for name in _NAMES:
        found.append((str(package / "lib" / name), "the package's own folder"))
    # bindings/python/fftmux -> <source>/build/lib when run from a source tree
    source = package.parents[2]
    for name in _NAMES:
        found.append((str(source / "build" / "lib" / name), "the build tree next to the sources"))
    system = ctypes.util.find_library("fftmux")
    for name in ((system,) if system else ()) + _NAMES:
        found.append((name, "the system's loader path"))
    return found


def _try_load(path, origin):
    if os.sep in path and not os.path.exists(path):
        return None, f"{path} ({origin}): no such file"
    try:
        return ctypes.CDLL(path), None
    except OSError as e:
        return None, f"{path} ({origin}): {e}"


def load():
    """Returns (CDLL, path) of libfftmux, loading it on the first call."""
    global _loaded
    with _lock:
        if _loaded is None:
            tried = []
            for path, origin in candidates():
                lib, why = _try_load(path, origin)
                if lib is not None:
                    _loaded = (lib, path)
                    break
                tried.append(why)
            else:
                raise LibraryNotFoundError(
                    "fftmux: libfftmux could not be loaded. Build it (cmake -S . -B build && "
                    "ninja -C build) or install it, or set FFTMUX_LIBRARY to its path. Tried:\n  "
                    + "\n  ".join(tried)
                )
        return _loaded
