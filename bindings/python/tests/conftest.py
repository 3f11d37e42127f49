"""Shared set-up: an isolated cache and a fast FFTW planner, random data, tolerances."""

import os
import pathlib
import sys
import tempfile

# Before fftmux creates its context: tests never touch the user's config or tuning cache,
# and FFTW plans with FFTW_ESTIMATE (correctness does not depend on the planner's rigour).
# ctest sets these itself (tests/CMakeLists.txt, FFTMUX_TEST_ENV).
_home = pathlib.Path(tempfile.gettempdir()) / f"fftmux-pytest-{os.getuid()}"
_home.mkdir(exist_ok=True)
if "FFTMUX_CONFIG" not in os.environ:
    (_home / "fftmux.toml").write_text('[backends.fftw]\nplanner = "estimate"\n')
    os.environ["FFTMUX_CONFIG"] = str(_home / "fftmux.toml")
os.environ.setdefault("XDG_CACHE_HOME", str(_home / "cache"))

# The package from this source tree (test_install.py checks an installed copy).
sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))

import numpy as np  # noqa: E402
import pytest  # noqa: E402

import fftmux  # noqa: E402

# Largest error allowed, relative to the largest magnitude of the reference.
TOLERANCE = {np.dtype(np.complex64): 2e-5, np.dtype(np.float32): 2e-5,
             np.dtype(np.complex128): 1e-12, np.dtype(np.float64): 1e-12}


def assert_close(ours, reference, dtype=None):
    """ours matches numpy's result in value, shape and (when given) dtype."""
    reference = np.asarray(reference)
    assert ours.shape == reference.shape, (ours.shape, reference.shape)
    if dtype is not None:
        assert ours.dtype == np.dtype(dtype), (ours.dtype, dtype)
    if reference.size == 0:
        return
    scale = max(float(np.max(np.abs(reference))), 1e-300)
    error = float(np.max(np.abs(ours.astype(np.complex128) - reference))) / scale
    assert error <= TOLERANCE[ours.dtype], f"relative error {error:.3g} for {ours.dtype}"


@pytest.fixture
def rng():
    return np.random.default_rng(20240601)


def random(rng, shape, dtype):
    dtype = np.dtype(dtype)
    if dtype.kind == "c":
        return (rng.standard_normal(shape) + 1j * rng.standard_normal(shape)).astype(dtype)
    if dtype.kind == "f":
        return rng.standard_normal(shape).astype(dtype)
    if dtype.kind == "b":
        return rng.integers(0, 2, shape).astype(dtype)
    return rng.integers(-50, 50, shape).astype(dtype)


def ready_backends():
    return [b.name for b in fftmux.backends() if b.ready]
