"""fftmux: numpy.fft-compatible transforms on the fastest FFT engine of the machine.

    import fftmux
    X = fftmux.fft2(image, shift="output")     # centred spectrum, one fused transform
    C = fftmux.dctn(image, norm="ortho")        # scipy.fft's DCTs and DSTs
    y = fftmux.fftconvolve(x, kernel, "same")   # scipy.signal's convolutions
    p = fftmux.Plan((1024,), precision="f32", backend="fftw")
    Y = p.forward(x)

The library (libfftmux) is found through $FFTMUX_LIBRARY, the package's own lib/ folder,
the build tree next to these sources, then the system's loader path.
"""

from numpy.fft import fftfreq, fftshift, ifftshift, rfftfreq

from . import _capi, scipy_fft
from ._desc import COMPLEX32 as complex32, COMPLEX_BF16 as complex_bf16
from ._context import (BackendInfo, Context, Support, autotune, backends, default_context,
                       query)
from ._convolve import Convolution
from ._loader import LibraryNotFoundError
from ._numpy import (fft, fft2, fftn, hfft, ifft, ifft2, ifftn, ihfft, irfft, irfft2, irfftn,
                     rfft, rfft2, rfftn)
from ._plan import Buffer, BufferArray, Plan
from ._oaconvolve import oaconvolve
from ._realtransforms import dct, dctn, dst, dstn, idct, idctn, idst, idstn
from ._signal import convolve, correlate, fftconvolve
from ._transforms import plan_cache
from ._tune import TuneRecord, problem_set
from ._tuning import tuning_clear, tuning_export, tuning_import, tuning_show
from .errors import (BackendError, Error, FileError, InternalError, InvalidArgumentError,
                     NotFoundError, OutOfMemoryError, UnavailableError, UnsupportedError)

__version__ = "0.1.0"


def library_path():
    """Path of the libfftmux this process loaded."""
    return _capi.library_path()


def library_version():
    """The C library's version string."""
    return _capi.lib().fftmux_version(None, None, None).decode()


__all__ = [
    "fft", "ifft", "fft2", "ifft2", "fftn", "ifftn", "rfft", "irfft", "rfft2", "irfft2",
    "rfftn", "irfftn", "hfft", "ihfft", "fftshift", "ifftshift", "fftfreq", "rfftfreq",
    "dct", "idct", "dst", "idst", "dctn", "idctn", "dstn", "idstn",
    "convolve", "correlate", "fftconvolve", "oaconvolve", "Convolution",
    "scipy_fft", "complex32", "complex_bf16",
    "Plan", "Buffer", "BufferArray", "Context", "BackendInfo", "Support", "backends", "query",
    "default_context", "plan_cache", "library_path", "library_version",
    "autotune", "TuneRecord", "problem_set",
    "tuning_show", "tuning_export", "tuning_import", "tuning_clear",
    "Error", "InvalidArgumentError", "UnsupportedError", "NotFoundError", "UnavailableError",
    "BackendError", "OutOfMemoryError", "FileError", "InternalError", "LibraryNotFoundError",
]
