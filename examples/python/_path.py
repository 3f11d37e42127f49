"""Lets the examples run from a source checkout before the package is installed."""

import pathlib
import sys

try:
    import fftmux  # noqa: F401  (installed, or on PYTHONPATH)
except ImportError:
    sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[2] / "bindings" / "python"))
