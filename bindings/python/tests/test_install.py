"""`pip install` from the source tree works offline with Debian's python3, and the installed
package finds libfftmux: through FFTMUX_LIBRARY, or bundled in its own lib/ folder."""

import os
import pathlib
import shutil
import subprocess
import sys

import pytest

import fftmux

SOURCE = pathlib.Path(fftmux.__file__).resolve().parents[1]
CHECK = ("import fftmux, numpy as np; x = np.random.rand(6, 10);"
         "assert np.allclose(fftmux.rfft2(x), np.fft.rfft2(x));"
         "print(fftmux.__file__); print(fftmux.library_path());"
         "print(','.join(b.name for b in fftmux.backends() if b.ready))")


def have_pip():
    return subprocess.run([sys.executable, "-m", "pip", "--version"],
                          capture_output=True).returncode == 0


pytestmark = pytest.mark.skipif(not have_pip(), reason="python3 -m pip is missing "
                                "(Debian package python3-pip): the install cannot be tested")


def copy_sources(dest):
    """The package sources alone: pip's in-tree build must not litter the checkout."""
    shutil.copytree(SOURCE, dest, ignore=shutil.ignore_patterns(
        "tests", "build", "*.egg-info", "__pycache__", "lib"))
    return dest


def run(args, env=None, cwd=None):
    base = {k: v for k, v in os.environ.items() if k not in ("FFTMUX_LIBRARY", "PYTHONPATH")}
    r = subprocess.run(args, env={**base, **(env or {})}, cwd=cwd, capture_output=True,
                       text=True, timeout=300)
    assert r.returncode == 0, f"{args} failed:\n{r.stdout}\n{r.stderr}"
    return r.stdout.split("\n")


def test_pip_install_into_a_venv(tmp_path):
    src = copy_sources(tmp_path / "src")
    run([sys.executable, "-m", "venv", "--system-site-packages", str(tmp_path / "venv")])
    python = str(tmp_path / "venv" / "bin" / "python")
    run([python, "-m", "pip", "install", "--no-build-isolation", "--no-index", "--quiet",
         str(src)])
    lib = fftmux.library_path()
    out = run([python, "-c", CHECK], env={"FFTMUX_LIBRARY": lib}, cwd=tmp_path)
    assert out[0].startswith(str(tmp_path / "venv")), out  # the installed copy ran
    assert out[1] == lib and "fftw" in out[2].split(",")


def test_library_bundled_in_the_package_is_found_first(tmp_path):
    src = copy_sources(tmp_path / "src")
    built = pathlib.Path(fftmux.library_path()).resolve().parent
    lib = src / "fftmux" / "lib"
    (lib / "fftmux").mkdir(parents=True)
    shutil.copy(built / "libfftmux.so", lib / "libfftmux.so")  # follows the symlinks
    shutil.copytree(built / "fftmux" / "plugins", lib / "fftmux" / "plugins")
    target = tmp_path / "site"
    run([sys.executable, "-m", "pip", "install", "--no-build-isolation", "--no-index", "--no-deps",
         "--quiet", "--target", str(target), str(src)])
    out = run([sys.executable, "-c", CHECK], env={"PYTHONPATH": str(target)}, cwd=tmp_path)
    assert out[1] == str(target / "fftmux" / "lib" / "libfftmux.so"), out
    assert "fftw" in out[2].split(",")
