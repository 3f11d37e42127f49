"""`pip install` from the source tree works offline with Debian's python3, and the installed
package finds libfftmux: through FFTMUX_LIBRARY, or bundled in its own lib/ folder by the wheel
scripts/wheel.sh builds, which is tagged for the platform."""

import os
import pathlib
import shutil
import subprocess
import sys
import sysconfig
import zipfile

import pytest

import fftmux

SOURCE = pathlib.Path(fftmux.__file__).resolve().parents[1]
NAME = f"fftmux-{fftmux.__version__}"
WHEEL_SCRIPT = SOURCE.parents[1] / "scripts" / "wheel.sh"
CHECK = ("import fftmux, numpy as np; x = np.random.rand(6, 10);"
         "assert np.allclose(fftmux.rfft2(x), np.fft.rfft2(x));"
         "print(fftmux.__file__); print(fftmux.library_path());"
         "print(','.join(b.name for b in fftmux.backends() if b.ready));"
         "print(','.join(sorted(b.name for b in fftmux.backends())))")


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
    unset = ("FFTMUX_LIBRARY", "PYTHONPATH", "LD_LIBRARY_PATH")
    base = {k: v for k, v in os.environ.items() if k not in unset}
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


def wheel_tags(wheel):
    """The WHEEL metadata of a wheel file, as a dict."""
    with zipfile.ZipFile(wheel) as z:
        text = z.read(f"{NAME}.dist-info/WHEEL").decode()
    return dict(line.split(": ", 1) for line in text.splitlines() if line)


@pytest.fixture(scope="module")
def bundled_wheel(tmp_path_factory):
    """The wheel scripts/wheel.sh builds from the build tree of the library under test."""
    build = pathlib.Path(fftmux.library_path()).resolve().parents[1]
    if not (build / "cmake_install.cmake").exists():
        pytest.skip(f"{fftmux.library_path()} is not in a CMake build tree, "
                    "which scripts/wheel.sh bundles from")
    out = run([str(WHEEL_SCRIPT), str(build), str(tmp_path_factory.mktemp("dist"))])
    return pathlib.Path(out[-2])  # the script prints the wheel's path last


def test_wheel_bundling_the_library_is_tagged_for_the_platform(bundled_wheel):
    platform = sysconfig.get_platform().replace("-", "_").replace(".", "_")
    assert bundled_wheel.name == f"{NAME}-py3-none-{platform}.whl"
    tags = wheel_tags(bundled_wheel)
    assert tags["Root-Is-Purelib"] == "false" and tags["Tag"] == f"py3-none-{platform}"


def test_wheel_runs_from_a_venv_with_no_library_path_set(bundled_wheel, tmp_path):
    venv = tmp_path / "venv"
    run([sys.executable, "-m", "venv", "--system-site-packages", str(venv)])
    python = str(venv / "bin" / "python")
    run([python, "-m", "pip", "install", "--no-index", "--no-deps", "--quiet",
         str(bundled_wheel)])
    out = run([python, "-c", CHECK], cwd=tmp_path)
    assert out[1].startswith(str(venv)), out  # the bundled library, not the build tree's
    assert "fftw" in out[2].split(",")
    # Every backend of the build came along (each plugin found through its manifest).
    assert out[3] == ",".join(sorted(b.name for b in fftmux.backends(probe=False)))


def test_wheel_without_the_library_is_pure(tmp_path):
    src = copy_sources(tmp_path / "src")
    run([sys.executable, "-m", "pip", "wheel", "--no-build-isolation", "--no-index", "--no-deps",
         "--quiet", "-w", str(tmp_path / "dist"), str(src)])
    wheel, = (tmp_path / "dist").glob("*.whl")
    assert wheel.name == f"{NAME}-py3-none-any.whl"
    assert wheel_tags(wheel)["Root-Is-Purelib"] == "true"
