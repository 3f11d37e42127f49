"""16-bit storage (F16, BF16): dtype= of the numpy-style functions and plans of precision
'f16'/'bf16' on a GPU backend (lavapipe and llvmpipe in CI); FFTW declines them.

Errors are bounded as the library's own tests bound them: the F32 bound's form with the
format's epsilon (2^-11 F16, 2^-8 BF16), against numpy in double on the rounded input.
Inputs in [-1, 1) and small sizes keep every value far from F16's largest, 65504.
"""

import numpy as np
import pytest

import fftmux
from conftest import ready_backends
from fftmux import _capi as C
from fftmux import _storage16

GPU = [b for b in ready_backends() if b in ("vulkan", "opengl", "cuda")]
needs_gpu = pytest.mark.skipif(not GPU, reason="no GPU backend (vulkan, opengl, cuda) is ready")
CODE = {"f16": C.F16, "bf16": C.BF16}
EPS = {"f16": 2.0**-11, "bf16": 2.0**-8}


def bound(dtype, points):
    return EPS[dtype] * (5 * max(1.0, np.log2(points)) + 4)


def rounded(x, dtype):
    """x with every real component rounded to the format, as the transform reads it."""
    q = lambda v: _storage16.decode(_storage16.encode(v, CODE[dtype]), CODE[dtype])  # noqa
    return q(x.real) + 1j * q(x.imag) if np.iscomplexobj(x) else q(x)


def error(ours, reference):
    return np.linalg.norm(ours - reference) / np.linalg.norm(reference)


@needs_gpu
@pytest.mark.parametrize("dtype", ["f16", "bf16"])
def test_complex_transforms_odd_and_prime(dtype, rng):
    x = rng.uniform(-1, 1, (3, 5, 7)) + 1j * rng.uniform(-1, 1, (3, 5, 7))
    X = fftmux.fftn(x, dtype=dtype)
    assert X.dtype == np.complex64
    assert error(X, np.fft.fftn(rounded(x, dtype))) < bound(dtype, 105)
    y = fftmux.ifft(x[0], axis=0, dtype=dtype)
    assert error(y, np.fft.ifft(rounded(x[0], dtype), axis=0)) < bound(dtype, 5)


@needs_gpu
@pytest.mark.parametrize("dtype", ["f16", np.float16, "bf16"])
def test_real_transforms_of_float16_input(dtype, rng):
    name = "bf16" if dtype == "bf16" else "f16"
    x = rng.uniform(-1, 1, (2, 30)).astype(np.float16)
    X = fftmux.rfft(x, dtype=dtype)
    assert X.dtype == np.complex64 and X.shape == (2, 16)
    assert error(X, np.fft.rfft(rounded(x.astype(np.float64), name))) < bound(name, 30)
    spectrum = np.fft.rfft2(rng.uniform(-1, 1, (6, 10)))
    y = fftmux.irfft2(spectrum, s=(6, 10), dtype=dtype)
    assert y.dtype == np.float32 and y.shape == (6, 10)
    assert error(y, np.fft.irfft2(rounded(spectrum, name), s=(6, 10))) < bound(name, 60)


@needs_gpu
def test_plan_of_complex32_arrays(rng):
    x = rng.uniform(-1, 1, 16) + 1j * rng.uniform(-1, 1, 16)
    data = np.empty(16, fftmux.complex32)
    data["real"], data["imag"] = x.real, x.imag
    plan = fftmux.Plan((16,), "c2c", "f16", backend=GPU[0])
    assert plan.in_dtype == fftmux.complex32 and plan.desc["precision"] == "f16"
    out = plan.forward(data)
    got = out["real"].astype(np.float64) + 1j * out["imag"]
    assert error(got, np.fft.fft(rounded(x, "f16"))) < bound("f16", 16)


@pytest.mark.skipif("fftw" not in ready_backends(), reason="fftw is not ready")
def test_fftw_declines_with_its_reason(rng):
    with pytest.raises(fftmux.Error, match="FFTW has no 16-bit transforms"):
        fftmux.fft(rng.uniform(-1, 1, 8), dtype="bf16", backend="fftw")


def test_an_unknown_dtype_is_refused():
    with pytest.raises(ValueError, match="dtype = 'f8'"):
        fftmux.fft(np.ones(4), dtype="f8")


def test_bfloat16_rounds_to_nearest_even():
    values = np.array([1.0, 1.0 + 2**-8, 1.0 + 3 * 2**-8, -2.5, np.inf], np.float32)
    bits = _storage16.encode(values, C.BF16)
    assert list(_storage16.decode(bits, C.BF16)) == [1.0, 1.0, 1.0 + 2**-6, -2.5, np.inf]
