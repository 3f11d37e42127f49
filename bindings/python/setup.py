"""The wheel's tag: py3-none-any for the ctypes code alone, py3-none-<platform> once libfftmux
and its plugins are bundled in fftmux/lib (scripts/wheel.sh); metadata is in pyproject.toml."""

import pathlib

from setuptools import setup
from setuptools.dist import Distribution

try:  # setuptools >= 70.1 carries bdist_wheel; before that the wheel package does
    from setuptools.command.bdist_wheel import bdist_wheel
except ImportError:
    from wheel.bdist_wheel import bdist_wheel

BUNDLE = pathlib.Path(__file__).resolve().parent / "fftmux" / "lib"


class BundleDistribution(Distribution):
    """Platform-specific (installed to platlib, root not pure) when the .so files are bundled."""

    def has_ext_modules(self):
        return any(BUNDLE.glob("libfftmux.so*"))


class PlatformWheel(bdist_wheel):
    """Any Python 3 and ABI even when bundling: ctypes loads the .so files, which are not
    extension modules. Only the platform comes from the build machine."""

    def get_tag(self):
        _, _, platform = super().get_tag()  # "any" when pure, else e.g. linux_x86_64
        return self.python_tag, "none", platform


setup(distclass=BundleDistribution, cmdclass={"bdist_wheel": PlatformWheel})
