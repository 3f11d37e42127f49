"""fftmux.scipy_fft, the scipy.fft backend: every function it computes against scipy's own
results, scipy.signal and scipy.ndimage on it, scipy's keywords and errors, what falls back."""

import math
import os

import numpy as np
import pytest
from conftest import random

import fftmux

scipy_fft = pytest.importorskip("scipy.fft", reason="the scipy.fft backend needs scipy")
signal = pytest.importorskip("scipy.signal", reason="the scipy.fft backend needs scipy")
ndimage = pytest.importorskip("scipy.ndimage", reason="the scipy.fft backend needs scipy")

CPUS = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
FAMILIES = ["fft", "ifft", "rfft", "irfft", "hfft", "ihfft"]
FALLBACKS = ["fht", "ifht"]
REAL_TO_REAL = ["dct", "idct", "dst", "idst", "dctn", "idctn", "dstn", "idstn"]


def bound(dtype, n):
    """The C++ tests' error bound, eps (5 log2 N + 4) for a transform of N points, as a
    relative L2 error; doubled, since scipy's result carries its own rounding."""
    eps = np.finfo(dtype).eps
    return 2 * eps * (5 * max(1.0, math.log2(n)) + 4)


def assert_near(ours, reference, n, factor=1):
    """ours has scipy's shape and dtype, and is within factor bounds of its values."""
    assert ours.shape == reference.shape, (ours.shape, reference.shape)
    assert ours.dtype == reference.dtype, (ours.dtype, reference.dtype)
    diff = np.linalg.norm((ours.astype(np.complex128) - reference).ravel())
    error = diff / max(np.linalg.norm(reference.ravel()), 1e-300)
    assert error <= factor * bound(ours.dtype, n), f"relative error {error:.3g}, N = {n}"


def on_fftmux(call):
    """call() with fftmux as the only backend, so a call fftmux declines raises; fftmux must
    have planned a transform for it."""
    fftmux.plan_cache.clear()
    with scipy_fft.set_backend(fftmux.scipy_fft, only=True):
        result = call()
    assert len(fftmux.plan_cache) > 0, "fftmux computed nothing"
    return result


def last_explain():
    return fftmux.plan_cache.plans()[-1].explain()


def raised(call):
    """The exception call() raises."""
    with pytest.raises(Exception) as info:
        call()
    return info.value


def input_for(name, shape, precision, rng):
    """The input scipy's function name takes: real for rfft* and ihfft*, else complex."""
    real = name.startswith(("rfft", "ihfft"))
    dtype = {(True, "f32"): np.float32, (True, "f64"): np.float64,
             (False, "f32"): np.complex64, (False, "f64"): np.complex128}[real, precision]
    return random(rng, shape, dtype)


def compare(name, x, **kwargs):
    """scipy's function name on fftmux against scipy's own result."""
    function = getattr(scipy_fft, name)
    reference = function(x, **kwargs)
    ours = on_fftmux(lambda: function(x, **kwargs))
    assert_near(ours, reference, max(x.size, reference.size))  # at least the points


@pytest.mark.parametrize("precision", ["f32", "f64"])
@pytest.mark.parametrize("name", FAMILIES)
@pytest.mark.parametrize("shape, kwargs", [
    ((5, 12), {}),
    ((1000,), {"norm": "ortho"}),
    ((16,), {"n": 33, "axis": 0, "norm": "forward"}),
    ((4, 6, 9), {"n": 7, "axis": 1, "norm": "backward"}),
    ((97, 3), {"axis": -2}),
])
def test_one_axis_functions(rng, name, precision, shape, kwargs):
    compare(name, input_for(name, shape, precision, rng), **kwargs)


@pytest.mark.parametrize("precision", ["f32", "f64"])
@pytest.mark.parametrize("name", [f + "n" for f in FAMILIES])
@pytest.mark.parametrize("shape, kwargs", [
    ((8, 8), {}),
    ((6, 10), {"s": (5, 12), "norm": "ortho"}),
    ((4, 6, 8), {"s": (-1, 9), "axes": (2, 0)}),  # scipy's -1: the input's size
    ((6, 10), {"s": 8, "axes": 0, "norm": "forward"}),  # scipy takes ints for both
    ((4, 6, 8), {"s": (7,)}),
    ((3, 4, 5, 6), {}),  # 4 axes: two passes
])
def test_n_axes_functions(rng, name, precision, shape, kwargs):
    compare(name, input_for(name, shape, precision, rng), **kwargs)


@pytest.mark.parametrize("name", [f + "2" for f in FAMILIES])
@pytest.mark.parametrize("shape, kwargs", [((3, 8, 10), {}), ((6, 10), {"s": (5, 12)}),
                                           ((6, 7, 5), {"axes": (0, 2), "norm": "ortho"})])
def test_two_axes_functions(rng, name, shape, kwargs):
    compare(name, input_for(name, shape, "f64", rng), **kwargs)


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.int16, np.bool_, np.float64])
@pytest.mark.parametrize("name", ["fft", "ifftn", "irfft", "hfft2"])
def test_real_and_integer_input_take_scipys_dtypes(rng, name, dtype):
    compare(name, random(rng, (6, 8), dtype))


def test_fftn_over_no_axes_returns_the_input_itself(rng):
    x = random(rng, (3, 4), np.float64)
    with scipy_fft.set_backend(fftmux.scipy_fft, only=True):
        assert scipy_fft.fftn(x, axes=[]) is x


@pytest.mark.parametrize("call", [
    lambda x: signal.fftconvolve(x, x[::-1, :7]),
    lambda x: signal.fftconvolve(x, x[:5, :5], mode="same"),
    lambda x: signal.fftconvolve(x, x[:1, :9], axes=1),
    lambda x: signal.fftconvolve(x + 1j * x[::-1], x[:4, :4] * 1j),  # complex: fftn/ifftn
    lambda x: signal.oaconvolve(x.ravel(), x[0, :31]),
    lambda x: signal.oaconvolve(x, x[:3, :4], mode="valid"),
    lambda x: signal.welch(x.ravel(), nperseg=256)[1],
    lambda x: signal.welch(x, axis=0, nperseg=32, return_onesided=False)[1],
    lambda x: signal.hilbert2(x[:40, :40], N=(64, 50)),  # N: fft2's s
    lambda x: scipy_fft.ifft2(ndimage.fourier_gaussian(scipy_fft.fft2(x), sigma=3)).real,
    lambda x: scipy_fft.irfftn(ndimage.fourier_gaussian(scipy_fft.rfftn(x), 2.5, n=x.shape[1],
                                                        axis=1), x.shape),
])
def test_scipy_signal_and_ndimage(rng, call):
    x = random(rng, (60, 80), np.float64)
    reference = call(x)
    ours = on_fftmux(lambda: call(x))
    assert_near(ours, reference, 2 * x.size, factor=4)  # forward, product, inverse


def test_workers_reach_the_engine(rng, monkeypatch):
    monkeypatch.setenv("FFTMUX_BACKEND", "fftw")  # the one backend with per-plan threads
    x = random(rng, (64, 1024), np.complex128)
    on_fftmux(lambda: scipy_fft.fft(x, workers=2))
    assert "threads: 2 (2 asked)" in last_explain()
    on_fftmux(lambda: scipy_fft.rfftn(x.real, workers=-1))
    assert f"threads: {CPUS} ({CPUS} asked)" in last_explain()
    with scipy_fft.set_workers(2):
        on_fftmux(lambda: signal.fftconvolve(x.real, x.real[:3, :5]))
    assert "threads: 2 (2 asked)" in last_explain()


def test_overwrite_x_is_accepted_and_the_input_kept(rng):
    x = random(rng, (8, 32), np.complex128)
    kept = x.copy()
    for function in (scipy_fft.ifft, scipy_fft.fft2):
        ours = on_fftmux(lambda: function(x, overwrite_x=True))
        assert_near(ours, function(kept), x.size)
    assert np.array_equal(x, kept)


@pytest.mark.parametrize("name", FALLBACKS)
def test_what_fftmux_does_not_compute_falls_back_to_scipy(name):
    method = getattr(scipy_fft, name)
    assert fftmux.scipy_fft.__ua_function__(method, (np.ones(8),), {}) is NotImplemented


# Every type and norm of these against scipy: test_realtransforms.py.
@pytest.mark.parametrize("name", REAL_TO_REAL)
def test_dct_and_dst_run_on_fftmux(rng, name):
    x = random(rng, (6, 16), np.float32)
    function = getattr(scipy_fft, name)
    reference = function(x, type=3, norm="forward", workers=2)
    ours = on_fftmux(lambda: function(x, type=3, norm="forward", workers=2))
    assert "dct3" in last_explain() or "dst3" in last_explain()
    assert_near(ours, reference, x.size)


def test_fht_falls_back_and_its_ffts_run_on_fftmux(rng):
    x = random(rng, (6, 64), np.float64)
    reference = scipy_fft.fht(x, -0.1, 0.5)
    fftmux.plan_cache.clear()
    with scipy_fft.set_backend(fftmux.scipy_fft):
        ours = scipy_fft.fht(x, -0.1, 0.5)
    assert len(fftmux.plan_cache) == 2  # scipy's rfft and irfft inside fht
    assert_near(ours, reference, x.shape[-1], factor=4)


def test_longdouble_falls_back_to_scipy(rng):
    x = random(rng, 16, np.float64).astype(np.longdouble)
    reference = scipy_fft.fft(x)
    fftmux.plan_cache.clear()
    with scipy_fft.set_backend(fftmux.scipy_fft):
        assert np.array_equal(scipy_fft.fft(x), reference)
        assert scipy_fft.rfft(x).dtype == np.clongdouble
    assert len(fftmux.plan_cache) == 0


def test_unknown_functions_fall_back():
    def hfft7(x):
        """A function fftmux has never heard of."""
    assert fftmux.scipy_fft.__ua_function__(hfft7, (np.ones(4),), {}) is NotImplemented


def test_the_global_backend(rng):
    x = random(rng, (40, 50), np.float64)
    reference = signal.fftconvolve(x, x[:7, :7])
    fftmux.plan_cache.clear()
    scipy_fft.set_global_backend(fftmux.scipy_fft)
    try:
        ours = signal.fftconvolve(x, x[:7, :7])
    finally:
        scipy_fft.set_global_backend("scipy")
    assert len(fftmux.plan_cache) > 0
    assert_near(ours, reference, 2 * x.size, factor=4)


def test_a_matching_fftmux_plan_runs_the_call(rng):
    x = random(rng, (6, 8, 10), np.complex128)
    r = random(rng, (6, 8, 10), np.float32)
    plans = [fftmux.Plan((6, 10), batch=8), fftmux.Plan((18,), kind="c2r", batch=48,
                                                        norm="forward"),
             fftmux.Plan((10,), kind="r2c", precision="f32", batch=48, norm="ortho")]
    calls = [lambda plan: scipy_fft.fft2(x, axes=(0, 2), plan=plan),
             lambda plan: scipy_fft.hfft(x, 18, axis=-1, plan=plan),  # c2r, norm swapped
             lambda plan: scipy_fft.rfft(r, norm="ortho", plan=plan)]
    references = [call(None) for call in calls]
    fftmux.plan_cache.clear()
    with scipy_fft.set_backend(fftmux.scipy_fft, only=True):
        for plan, call, reference in zip(plans, calls, references):
            assert_near(call(plan), reference, x.size)
    assert len(fftmux.plan_cache) == 0  # the plans ran the calls


def test_a_plan_for_another_problem_raises_not_implemented(rng):
    x = random(rng, (6, 8, 10), np.complex128)
    plan = fftmux.Plan((6, 10), batch=8)
    with scipy_fft.set_backend(fftmux.scipy_fft):
        with pytest.raises(NotImplementedError, match="this call needs .'shape': .8, 10."):
            scipy_fft.fft2(x, plan=plan)
        with pytest.raises(NotImplementedError, match="'norm': 'ortho'"):
            scipy_fft.fft2(x, axes=(0, 2), norm="ortho", plan=plan)


def test_a_plan_of_another_library_raises_scipys_not_implemented(rng):
    x = random(rng, 16, np.complex128)
    with scipy_fft.set_backend(fftmux.scipy_fft):
        with pytest.raises(NotImplementedError, match="precomputed plan"):
            scipy_fft.fft(x, plan=object())
    with scipy_fft.set_backend(fftmux.scipy_fft, only=True):
        with pytest.raises(NotImplementedError):
            scipy_fft.fft(x, plan=object())


REAL = np.arange(24.0).reshape(4, 6)


@pytest.mark.parametrize("name, x, kwargs", [
    ("fft", REAL, {"n": 0}),
    ("rfft", REAL, {"n": -3}),
    ("ihfft", REAL, {"n": 0}),
    ("ifft", REAL, {"norm": "bad"}),
    ("irfftn", REAL, {"norm": "Ortho"}),
    ("fft", REAL, {"axis": 2}),
    ("irfft", REAL, {"axis": -3}),
    ("hfft", REAL, {"axis": 1.0}),
    ("fftn", REAL, {"axes": (2,)}),
    ("rfft2", REAL[0], {}),
    ("fftn", REAL, {"axes": (0, 0)}),
    ("ifftn", REAL, {"s": (2, 3, 4)}),
    ("fftn", REAL, {"s": (None, 3)}),
    ("rfftn", REAL, {"s": (0, 3)}),
    ("fft2", REAL, {"s": (3,), "axes": (0, 1)}),
    ("rfftn", REAL, {"axes": []}),
    ("irfftn", REAL, {"axes": []}),
    ("fft", REAL[0, :0], {}),
    ("fft", REAL, {"workers": 0}),
    ("ifft", REAL, {"workers": -(os.cpu_count() + 1)}),
    ("rfft", REAL * 1j, {}),  # complex input to a real transform
    ("ihfftn", REAL * 1j, {}),
    ("dct", REAL, {"type": 5}),
    ("idstn", REAL, {"type": 0}),
    ("dst", REAL, {"n": 0}),
    ("dctn", REAL, {"norm": "bad"}),
    ("idct", REAL, {"norm": "Ortho"}),
    ("dstn", REAL, {"axes": (0, 0)}),
])
def test_bad_arguments_raise_what_scipy_raises(name, x, kwargs):
    function = getattr(scipy_fft, name)
    theirs = raised(lambda: function(x, **kwargs))
    with scipy_fft.set_backend(fftmux.scipy_fft, only=True):
        ours = raised(lambda: function(x, **kwargs))
    assert isinstance(ours, type(theirs)), (ours, theirs)
