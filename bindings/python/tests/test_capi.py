"""Every C function the binding calls has a prototype: without one, ctypes passes a handle
as a 32-bit int, and a plan at a high address crashes the call."""

import importlib
import pathlib
import re

from fftmux import _capi

PACKAGE = pathlib.Path(_capi.__file__).parent


def declared():
    """The prototypes of every module of the package that declares some (_capi, mpi)."""
    names = set()
    for source in PACKAGE.glob("*.py"):
        module = importlib.import_module(f"fftmux.{source.stem}")
        names |= set(getattr(module, "_PROTOTYPES", ()))
    return names


def test_every_called_c_function_is_declared():
    called = set()
    for source in PACKAGE.glob("*.py"):
        called |= set(re.findall(r'"(fftmux_[a-z0-9_]+)"', source.read_text()))
    assert called, "no C function named in the package's sources"
    assert called <= declared(), sorted(called - declared())


def test_every_prototype_exists_in_the_library():
    lib = _capi.lib()
    missing = [name for name in declared() if not hasattr(lib, name)]
    assert not missing, missing
