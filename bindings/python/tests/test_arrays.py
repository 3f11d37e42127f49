"""Arrays of other libraries: host arrays through DLPack are read in place, CUDA arrays never
travel to the host, and backend memory is exported through DLPack. The GPU half is
test_gpu_arrays.py."""

import gc
import sys

import numpy as np
import pytest

import fftmux
from conftest import assert_close, random


class HostProducer:
    """A library's host array that offers only DLPack; its module has a from_dlpack, so
    results come back as this kind."""

    def __init__(self, array):
        self.array = array

    def __dlpack__(self, stream=None):
        assert stream is None, "host memory takes no stream"
        return self.array.__dlpack__()

    def __dlpack_device__(self):
        return self.array.__dlpack_device__()


def from_dlpack(x):
    """This module's from_dlpack, as a library offers it (numpy.from_dlpack, torch's)."""
    return HostProducer(np.from_dlpack(x))


class CudaProducer:
    """A CUDA array (never touched: no GPU is needed to see it refused or routed)."""

    def __init__(self, shape, typestr="<c8", stream=1):
        self.__cuda_array_interface__ = {"version": 3, "shape": shape, "typestr": typestr,
                                         "data": (1 << 40, False), "strides": None,
                                         "stream": stream}


class OtherDevice:
    def __dlpack_device__(self):
        return (10, 0)  # kDLROCM

    def __dlpack__(self, stream=None):
        raise AssertionError("memory of a device fftmux cannot read is never asked for")


def test_host_dlpack_array_comes_back_as_its_own_kind(rng):
    x = random(rng, (8, 48), np.complex128)
    y = fftmux.fft(HostProducer(x))
    assert isinstance(y, HostProducer)
    assert_close(y.array, np.fft.fft(x), np.complex128)
    z = fftmux.irfft2(HostProducer(np.fft.rfft2(x.real)), s=x.shape)
    assert_close(z.array, x.real, np.float64)


@pytest.mark.parametrize("name", ["fft", "ifft", "rfft", "fft2", "rfftn", "hfft", "ihfft"])
def test_every_function_takes_dlpack_input(rng, name):
    x = random(rng, (6, 20), np.complex64 if name in ("fft", "ifft", "fft2", "hfft")
               else np.float32)
    ours = getattr(fftmux, name)(HostProducer(x))
    assert_close(ours.array, getattr(np.fft, name)(x).astype(ours.array.dtype))


def test_dlpack_input_is_read_in_place(rng):
    x = random(rng, (4, 64), np.complex128)
    expected = np.fft.fft(x)
    plan = fftmux.Plan((64,), batch=4, in_place=True, backend="fftw")
    plan.forward(HostProducer(x))  # the transform lands in the producer's memory
    assert_close(x, expected)


def test_strided_dlpack_input(rng):
    x = random(rng, (32, 40), np.complex128)[::2, 3:]
    assert_close(fftmux.fft(HostProducer(x), axis=0).array, np.fft.fft(x, axis=0))


def test_the_deleter_runs_when_the_view_goes(rng):
    x = random(rng, (16,), np.complex128)
    before = sys.getrefcount(x)
    fftmux.fft(HostProducer(x))
    gc.collect()
    assert sys.getrefcount(x) == before, "the consumed capsule still holds the array"


def test_cuda_array_is_never_copied_to_the_host():
    with pytest.raises(fftmux.Error, match="cuda"):
        fftmux.fft(CudaProducer((4, 16)))  # the cuda backend, or why it is not there


def test_cuda_array_on_a_host_plan_is_refused():
    plan = fftmux.Plan((16,), precision="f32", backend="fftw")
    with pytest.raises(TypeError, match="placement='device'"):
        plan.forward(CudaProducer((16,)))


def test_cuda_array_with_another_backend_is_refused():
    with pytest.raises(fftmux.UnsupportedError, match="only the cuda backend"):
        fftmux.fft(CudaProducer((16,)), backend="fftw")


def test_memory_of_other_devices_is_refused():
    with pytest.raises(fftmux.UnsupportedError, match="DLPack device type 10"):
        fftmux.fft(OtherDevice())


def test_host_buffer_exports_through_dlpack(rng):
    x = random(rng, (8, 32), np.complex128)
    plan = fftmux.Plan((32,), batch=8, placement="device", backend="fftw")
    out = plan.buffer("out")
    plan.forward(plan.upload(x), out)
    view = np.from_dlpack(out.array((8, 32), np.complex128))
    assert_close(view, np.fft.fft(x))
    assert np.from_dlpack(out.array((32, 8), np.complex128).transpose((1, 0))).shape == (8, 32)
    del view
    gc.collect()
    with pytest.raises(ValueError, match="needs more than the buffer"):
        out.array((9, 32), np.complex128)


def test_stream_of_a_host_plan_is_unsupported():
    plan = fftmux.Plan((16,), backend="fftw")
    assert plan.stream == 0
    with pytest.raises(fftmux.UnsupportedError, match="no streams"):
        plan.stream = 1
