"""Contexts, backend listing, the ABI the ctypes mirror assumes, and library discovery."""

import ctypes
import os
import pathlib
import subprocess
import sys

import numpy as np
import pytest

import fftmux
from fftmux import _capi, _loader

PACKAGE_ROOT = pathlib.Path(fftmux.__file__).resolve().parents[1]


def test_backends_lists_fftw_ready():
    infos = {b.name: b for b in fftmux.backends()}
    assert "fftw" in infos
    fftw = infos["fftw"]
    assert fftw.ready and fftw.state == "ready" and fftw.reason == ""
    assert fftw.devices and fftw.devices[0].startswith("CPU")
    assert "default" in fftw.variants and fftw.library.endswith(".so")
    assert fftw.hardware_key


def test_listing_without_probe_does_not_fail():
    ctx = fftmux.Context()
    states = {b.name: b.state for b in ctx.backends(probe=False)}
    assert states["fftw"] in ("listed", "ready")
    ctx.close()


def test_empty_plugin_path_means_no_backend(tmp_path):
    with fftmux.Context(plugin_path=str(tmp_path)) as ctx:
        assert ctx.backends() == []
        with pytest.raises(fftmux.UnsupportedError, match="no backend is installed"):
            fftmux.Plan((8,), context=ctx)


def test_broken_plugin_is_skipped_with_a_reason(tmp_path):
    (tmp_path / "broken.toml").write_text(
        'file_format_version = 1\n[backend]\nname = "broken"\nlibrary = "missing.so"\n'
        "abi_version = 1\n")
    with fftmux.Context(plugin_path=str(tmp_path)) as ctx:
        (info,) = ctx.backends()
        assert info.name == "broken" and info.state == "skipped" and info.reason


def test_missing_config_file_raises_file_error(tmp_path):
    with pytest.raises(fftmux.FileError, match="cannot read the config file"):
        fftmux.Context(config=str(tmp_path / "absent.toml"))


def test_context_notes_are_text():
    assert isinstance(fftmux.default_context().notes(), str)


@pytest.mark.parametrize("struct,init", [
    (_capi.Desc, "fftmux_desc_init"),
    (_capi.ContextOptions, "fftmux_context_options_init"),
    (_capi.BackendInfo, "fftmux_backend_info_init"),
    (_capi.Support, "fftmux_support_init"),
    (_capi.PlanOptions, "fftmux_plan_options_init"),
])
def test_struct_sizes_match_the_library(struct, init):
    assert _capi.library_struct_size(struct, init) == ctypes.sizeof(struct)


def test_desc_defaults_come_from_the_library():
    d = _capi.new(_capi.Desc, "fftmux_desc_init")
    assert (d.rank, d.batch, d.norm, d.kind, d.precision) == (1, 1, _capi.NORM_BACKWARD,
                                                              _capi.C2C, _capi.F32)


def test_versions():
    assert fftmux.library_version() == fftmux.__version__
    assert os.path.exists(fftmux.library_path())


def run_python(code, env_update, cwd):
    env = {k: v for k, v in os.environ.items() if k != "FFTMUX_LIBRARY"}
    env.update(env_update)
    return subprocess.run([sys.executable, "-c", code], env=env, cwd=cwd, capture_output=True,
                          text=True, timeout=120)


def test_fftmux_library_override_is_used(tmp_path):
    lib = fftmux.library_path()
    r = run_python("import fftmux, numpy as np; print(fftmux.library_path());"
                   "print(np.allclose(fftmux.fft(np.arange(8.)), np.fft.fft(np.arange(8.))))",
                   {"FFTMUX_LIBRARY": lib, "PYTHONPATH": str(PACKAGE_ROOT)}, tmp_path)
    assert r.returncode == 0, r.stderr
    assert r.stdout.split() == [lib, "True"]


def test_bad_override_fails_clearly_without_falling_back(tmp_path):
    bogus = str(tmp_path / "libnothing.so")
    r = run_python("import fftmux, numpy as np; fftmux.fft(np.ones(4))",
                   {"FFTMUX_LIBRARY": bogus, "PYTHONPATH": str(PACKAGE_ROOT)}, tmp_path)
    assert r.returncode != 0
    assert "LibraryNotFoundError" in r.stderr and bogus in r.stderr
    assert "$FFTMUX_LIBRARY" in r.stderr


def test_search_order_without_override(monkeypatch):
    monkeypatch.delenv("FFTMUX_LIBRARY", raising=False)
    origins = [origin for _, origin in _loader.candidates()]
    first = {o: origins.index(o) for o in reversed(origins)}
    assert (first["the package's own folder"] < first["the build tree next to the sources"]
            < first["the system's loader path"])


def test_import_works_without_a_library(tmp_path):
    # numpy helpers and the error classes need no library; transforms say what is missing.
    r = run_python("import fftmux; print(fftmux.fftshift([0, 1, 2, 3]).tolist())",
                   {"FFTMUX_LIBRARY": str(tmp_path / "none.so"), "PYTHONPATH": str(PACKAGE_ROOT)},
                   tmp_path)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "[2, 3, 0, 1]"
    assert np.array_equal(fftmux.fftfreq(4), np.fft.fftfreq(4))
