"""Every numpy.fft function against numpy itself: shapes, axes, n/s, norms, dtypes."""

import itertools

import numpy as np
import pytest
from conftest import assert_close, random

import fftmux

NORMS = [None, "backward", "ortho", "forward"]
SIZES_1D = [1, 2, 3, 5, 7, 8, 12, 16, 17, 30, 64, 97, 128, 210, 1000, 1024, 4096, 10007]


def expected_complex(dtype):
    """numpy >= 2's rule, which fftmux follows: single stays single, the rest is double."""
    dtype = np.dtype(dtype)
    single = dtype in (np.float16, np.float32, np.complex64)
    return np.dtype(np.complex64 if single else np.complex128)


def expected_real(dtype):
    return np.dtype(np.float32 if expected_complex(dtype) == np.complex64 else np.float64)


@pytest.mark.parametrize("n", SIZES_1D)
@pytest.mark.parametrize("dtype", [np.complex64, np.complex128])
def test_fft_ifft_sizes(rng, n, dtype):
    x = random(rng, n, dtype)
    assert_close(fftmux.fft(x), np.fft.fft(x), dtype)
    assert_close(fftmux.ifft(x), np.fft.ifft(x), dtype)


@pytest.mark.parametrize("n", SIZES_1D)
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_rfft_irfft_sizes(rng, n, dtype):
    x = random(rng, n, dtype)
    X = fftmux.rfft(x)
    assert_close(X, np.fft.rfft(x), expected_complex(dtype))
    if n > 1:  # irfft of one point has no default length (numpy raises too)
        assert_close(fftmux.irfft(X, n), np.fft.irfft(np.fft.rfft(x), n), dtype)
        assert_close(fftmux.irfft(X, n), x.astype(np.float64), dtype)


@pytest.mark.parametrize("func", ["fft", "ifft", "rfft", "irfft", "hfft", "ihfft"])
@pytest.mark.parametrize("norm", NORMS)
@pytest.mark.parametrize("shape,axis", [((16,), -1), ((5, 12), 0), ((5, 12), 1), ((4, 6, 9), 1),
                                        ((3, 4, 5, 6), -2), ((7, 3, 2), 0)])
def test_1d_functions_axis_norm(rng, func, norm, shape, axis):
    real_input = func in ("rfft", "ihfft")
    x = random(rng, shape, np.float64 if real_input else np.complex128)
    ours = getattr(fftmux, func)(x, axis=axis, norm=norm)
    assert_close(ours, getattr(np.fft, func)(x, axis=axis, norm=norm))


@pytest.mark.parametrize("func", ["fft", "ifft", "rfft", "irfft", "hfft", "ihfft"])
@pytest.mark.parametrize("n", [1, 3, 8, 11, 20, 33])
def test_1d_n_pads_and_crops(rng, func, n):
    real_input = func in ("rfft", "ihfft")
    x = random(rng, (4, 12), np.float64 if real_input else np.complex128)
    if func in ("irfft", "hfft") and n == 1:
        n = 2  # numpy's irfft of n=1 is legal; keep one odd case below
    for axis in (0, 1):
        ours = getattr(fftmux, func)(x, n=n, axis=axis)
        assert_close(ours, getattr(np.fft, func)(x, n=n, axis=axis))


def test_irfft_of_one_point_is_legal(rng):
    x = random(rng, 5, np.complex128)
    assert_close(fftmux.irfft(x, 1), np.fft.irfft(x, 1))


ND_CASES = [
    ((8, 8), None, None),
    ((5, 7), None, None),
    ((6, 10), None, (0, 1)),
    ((6, 10), None, (1, 0)),
    ((4, 6, 8), None, None),
    ((4, 6, 8), None, (0, 2)),
    ((4, 6, 8), (3, 9), (0, 2)),
    ((4, 6, 8), (5, 4, 9), None),
    ((3, 5, 7), None, (2, 0, 1)),
    ((2, 3, 4, 5), None, None),  # four axes: two passes
    ((2, 3, 4, 5, 2), None, None),  # five axes
    ((2, 3, 4, 5), (4, 2, 6, 3), None),
    ((6, 5, 4), None, (-1,)),
    ((4, 9, 3), (7,), None),  # s without axes: the last len(s) axes
    ((16, 9), (9, 16), None),
]


@pytest.mark.parametrize("shape,s,axes", ND_CASES)
@pytest.mark.parametrize("func", ["fftn", "ifftn", "rfftn", "irfftn"])
@pytest.mark.parametrize("norm", NORMS)
def test_nd_functions(rng, shape, s, axes, func, norm):
    x = random(rng, shape, np.float64 if func == "rfftn" else np.complex128)
    ours = getattr(fftmux, func)(x, s=s, axes=axes, norm=norm)
    assert_close(ours, getattr(np.fft, func)(x, s=s, axes=axes, norm=norm))


@pytest.mark.parametrize("func", ["fft2", "ifft2", "rfft2", "irfft2"])
@pytest.mark.parametrize("shape,s,axes", [((8, 8), None, (-2, -1)), ((3, 9, 10), None, (-2, -1)),
                                          ((9, 10, 3), None, (0, 1)), ((6, 7), (4, 12), (-2, -1)),
                                          ((5, 6, 7), (3, 3), (2, 0)), ((11, 13), None, (1, 0))])
@pytest.mark.parametrize("dtype", [np.float32, np.complex64, np.float64, np.complex128])
def test_2d_functions(rng, func, shape, s, axes, dtype):
    if func == "rfft2" and np.dtype(dtype).kind == "c":
        dtype = np.float32 if dtype == np.complex64 else np.float64
    x = random(rng, shape, dtype)
    ours = getattr(fftmux, func)(x, s=s, axes=axes)
    want = expected_real(dtype) if func == "irfft2" else expected_complex(dtype)
    assert_close(ours, getattr(np.fft, func)(x, s=s, axes=axes), want)


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64, np.int8, np.int32,
                                   np.int64, np.uint16, np.bool_, np.complex64, np.complex128])
@pytest.mark.parametrize("func", ["fft", "ifft", "fft2", "fftn", "irfft", "irfftn"])
def test_output_dtypes(rng, dtype, func):
    x = random(rng, (6, 10), dtype)
    ours = getattr(fftmux, func)(x)
    real_output = func.startswith("irfft")
    want = expected_real(dtype) if real_output else expected_complex(dtype)
    assert_close(ours, getattr(np.fft, func)(x), want)


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64, np.int16, np.uint8,
                                   np.bool_])
@pytest.mark.parametrize("func", ["rfft", "rfft2", "rfftn", "ihfft"])
def test_real_input_dtypes(rng, dtype, func):
    x = random(rng, (6, 10), dtype)
    assert_close(getattr(fftmux, func)(x), getattr(np.fft, func)(x), expected_complex(dtype))


def test_complex128_keeps_double_precision(rng):
    # A signal whose spectrum needs more than float32's 24 bits to resolve.
    x = random(rng, 4096, np.complex128) * 1e-9 + 1.0
    ours = fftmux.fft(x)
    assert ours.dtype == np.complex128
    assert np.max(np.abs(ours[1:] - np.fft.fft(x)[1:])) < 1e-12


def test_lists_and_scalars_convert_like_numpy():
    assert_close(fftmux.fft([1, 2, 3, 4]), np.fft.fft([1, 2, 3, 4]), np.complex128)
    assert_close(fftmux.rfft([1.0, 0.0, -1.0]), np.fft.rfft([1.0, 0.0, -1.0]), np.complex128)
    assert_close(fftmux.fft2([[1j, 2], [3, 4]]), np.fft.fft2([[1j, 2], [3, 4]]), np.complex128)


@pytest.mark.parametrize("func,kw", [("fftn", {"axes": (0, 0)}), ("fftn", {"axes": (1, 0, 1)}),
                                     ("rfftn", {"axes": (1, 1)}), ("irfftn", {"axes": (0, 1, 0)}),
                                     ("ifftn", {"axes": (0, 0), "s": (4, 6)})])
def test_repeated_axes_follow_numpy(rng, func, kw):
    x = random(rng, (6, 8), np.float64 if func == "rfftn" else np.complex128)
    assert_close(getattr(fftmux, func)(x, **kw), getattr(np.fft, func)(x, **kw))


def test_empty_batch_gives_empty_result():
    x = np.zeros((0, 8), np.complex64)
    for func in ("fft", "ifft", "rfft", "irfft"):
        arg = x.real if func == "rfft" else x
        ours = getattr(fftmux, func)(arg)
        ref = getattr(np.fft, func)(arg)
        assert ours.shape == ref.shape and ours.size == 0


def test_fftn_without_axes_returns_a_copy(rng):
    x = random(rng, (3, 4), np.complex128)
    y = fftmux.fftn(x, axes=())
    assert np.array_equal(y, x) and not np.shares_memory(x, y)


@pytest.mark.parametrize("func", ["fft", "fft2", "rfftn", "irfft", "ifftn"])
def test_out_argument(rng, func):
    x = random(rng, (4, 6, 8), np.float64 if func == "rfftn" else np.complex128)
    ref = getattr(np.fft, func)(x)
    out = np.full(ref.shape, np.nan, ref.dtype)
    result = getattr(fftmux, func)(x, out=out)
    assert result is out
    assert_close(out, ref)


def test_out_argument_with_strides_and_aliasing(rng):
    x = random(rng, (6, 8), np.complex128)
    big = np.zeros((12, 8), np.complex128)
    view = big[::2]  # expressible: the plan writes into it directly
    assert fftmux.fft(x, out=view) is view
    assert_close(big[::2], np.fft.fft(x))
    assert np.all(big[1::2] == 0)
    y = x.copy()  # out aliasing the input is computed aside, then copied
    assert_close(fftmux.fft(y, out=y), np.fft.fft(x))


@pytest.mark.parametrize("func,s", [("fft", (40,)), ("fft2", (20, 17)), ("rfftn", (9, 16, 10)),
                                    ("irfftn", (12, 15)), ("irfft", (31,))])
def test_n_and_s_beyond_the_input_pad_in_the_plan(rng, func, s):
    """The plan reads the shorter axes zero-padded (in_extent): no padded copy is made."""
    x = random(rng, (5, 7, 6)[:len(s)], np.float64 if func == "rfftn" else np.complex128)
    fftmux.plan_cache.clear()
    if len(s) == 1:
        assert_close(getattr(fftmux, func)(x, n=s[0]), getattr(np.fft, func)(x, n=s[0]))
    else:
        assert_close(getattr(fftmux, func)(x, s=s), getattr(np.fft, func)(x, s=s))
    assert any(fftmux.plan_cache.plans()[-1].desc["in_extent"])


def test_repeated_calls_reuse_cached_plans(rng):
    fftmux.plan_cache.clear()
    x = random(rng, (32, 32), np.complex64)
    for _ in range(5):
        assert_close(fftmux.fft2(x), np.fft.fft2(x))
    assert len(fftmux.plan_cache) == 1
    plan = fftmux.plan_cache.plans()[-1]
    assert plan.desc["shape"] == (32, 32) and plan.desc["precision"] == "f32"
    assert plan.backend in plan.explain()


def test_plan_cache_is_bounded(rng):
    fftmux.plan_cache.clear()
    fftmux.plan_cache.maxsize = 3
    try:
        for n in range(2, 10):
            fftmux.fft(random(rng, n, np.complex128))
        assert len(fftmux.plan_cache) == 3
        assert [p.desc["shape"] for p in fftmux.plan_cache.plans()] == [(7,), (8,), (9,)]
    finally:
        fftmux.plan_cache.maxsize = 32


def test_round_trips_all_norms(rng):
    x = random(rng, (5, 6, 7), np.complex128)
    r = random(rng, (5, 6, 7), np.float64)
    for norm in NORMS:
        assert_close(fftmux.ifftn(fftmux.fftn(x, norm=norm), norm=norm), x)
        assert_close(fftmux.irfftn(fftmux.rfftn(r, norm=norm), r.shape, norm=norm), r)


@pytest.mark.parametrize("shape", list(itertools.product([1, 2, 7], [1, 6], [3, 16])))
def test_small_3d_shapes(rng, shape):
    x = random(rng, shape, np.complex128)
    assert_close(fftmux.fftn(x), np.fft.fftn(x))
    assert_close(fftmux.rfftn(x.real), np.fft.rfftn(x.real))
