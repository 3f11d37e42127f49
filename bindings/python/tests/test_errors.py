"""Bad input never crashes: numpy's errors for numpy's arguments, fftmux.Error subclasses
carrying fftmux_last_error() for what the C library refuses."""

import numpy as np
import pytest

import fftmux
from fftmux import _capi

try:
    from numpy.exceptions import AxisError
except ImportError:
    from numpy import AxisError


@pytest.mark.parametrize("call,error,match", [
    (lambda: fftmux.fft(np.ones(4), n=0), ValueError, r"Invalid number of FFT data points \(0\)"),
    (lambda: fftmux.fft(np.ones(0)), ValueError, "Invalid number of FFT data points"),
    (lambda: fftmux.irfft(np.ones(1)), ValueError, r"data points \(0\)"),
    (lambda: fftmux.fftn(np.ones((2, 2)), s=(2, -3)), ValueError, "data points"),
    (lambda: fftmux.fft(np.ones(4), axis=1), AxisError, "axis 1"),
    (lambda: fftmux.fft(np.float64(3.0)), AxisError, "axis -1"),
    (lambda: fftmux.fft2(np.ones(4)), AxisError, "axis -2"),
    (lambda: fftmux.fftn(np.ones((2, 2)), s=(2,), axes=(0, 1)), ValueError, "different lengths"),
    (lambda: fftmux.fft(np.ones(4), norm="bogus"), ValueError, "Invalid norm value"),
    (lambda: fftmux.hfft(np.ones(4), norm="none"), ValueError, "Invalid norm value"),
    (lambda: fftmux.rfft(np.ones(4, complex)), TypeError, "real-input transform"),
    (lambda: fftmux.fft(np.ones(4, np.longdouble)), TypeError, "more than double"),
    (lambda: fftmux.fft(np.array(["a", "b"])), TypeError, "dtype <U1"),
    (lambda: fftmux.fft(np.ones(4), n=2.5), TypeError, ""),
    (lambda: fftmux.rfftn(np.ones(4), axes=()), ValueError, "at least one axis"),
    (lambda: fftmux.fft(np.ones(4), out=np.empty(3, complex)), ValueError, "out has shape"),
    (lambda: fftmux.fft(np.ones(4), out=[0, 0, 0, 0]), TypeError, "numpy array"),
])
def test_numpy_argument_errors(call, error, match):
    with pytest.raises(error, match=match):
        call()


def test_unknown_backend_carries_the_library_message():
    with pytest.raises(fftmux.NotFoundError) as info:
        fftmux.fft(np.ones(8), backend="no-such-engine")
    e = info.value
    assert e.status == 3 and isinstance(e, LookupError) and isinstance(e, fftmux.Error)
    assert "no backend named 'no-such-engine'" in str(e)
    assert str(e).startswith("fftmux_plan_create")


@pytest.mark.parametrize("kwargs,match", [
    ({"shape": (0,)}, r"n\[0\] = 0: every dimension must be at least 1"),
    ({"shape": (4, 0)}, r"n\[1\] = 0"),
    ({"shape": (4,), "batch": 0}, "batch = 0: batch must be at least 1"),
    ({"shape": (4,), "in_strides": (-1,)}, "strides must be positive"),
    ({"shape": (4,), "out_distance": -2}, "distances must be positive"),
    ({"shape": (4,), "batch": 2, "out_distance": 1}, "share memory"),
    ({"shape": (2**40, 2**40)}, "overflows 64 bits"),
    ({"shape": (8,), "kind": "r2c", "in_place": True, "in_strides": (1,), "out_strides": (2,)},
     "needs the real side padded"),
])
def test_descriptor_errors_from_the_library(kwargs, match):
    with pytest.raises(fftmux.InvalidArgumentError, match=match) as info:
        fftmux.Plan(**kwargs)
    assert isinstance(info.value, ValueError) and info.value.status == 1
    assert info.value.message == str(info.value)


@pytest.mark.parametrize("kwargs,match", [
    ({"shape": (2, 2, 2, 2)}, "rank 1 to 3"),
    ({"shape": ()}, "rank 1 to 3"),
    ({"shape": (2**64,)}, "does not fit a 64-bit integer"),
    ({"shape": (4,), "kind": "r2r"}, "kind = 'r2r'"),
    ({"shape": (4,), "precision": "f7"}, "precision = 'f7'"),
    ({"shape": (4,), "precision": np.int32}, "precision"),
    ({"shape": (4,), "norm": "sometimes"}, "norm = 'sometimes'"),
    ({"shape": (4,), "placement": "cloud"}, "placement = 'cloud'"),
    ({"shape": (4,), "shift": True}, "shift = True"),
    ({"shape": (4, 4), "in_strides": (1,)}, "in_strides has 1 entries"),
])
def test_plan_argument_errors_in_python(kwargs, match):
    with pytest.raises(ValueError, match=match):
        fftmux.Plan(**kwargs)


def test_unknown_variant_is_reported():
    with pytest.raises(fftmux.Error, match="no-such-variant"):
        fftmux.Plan((8,), backend="fftw", variant="no-such-variant")


def test_last_error_is_cleared_by_success():
    with pytest.raises(fftmux.Error):
        fftmux.Plan((0,))
    fftmux.Plan((4,))
    assert _capi.last_error() == ""


def test_every_status_has_its_class():
    for status in range(1, 9):
        e = fftmux.errors.error_for(status, "m")
        assert e.status == status and isinstance(e, fftmux.Error)
    assert type(fftmux.errors.error_for(99, "m")) is fftmux.Error
