"""fftmux.fftconvolve, convolve, correlate, oaconvolve against scipy.signal's (modes, axes,
broadcasting, the 'valid' swap, result types), the Convolution object (several filters, a
batch, a filter spectrum), and the refusals of bad filters."""

import ctypes

import numpy as np
import pytest
from conftest import assert_close, random

import fftmux
from fftmux import _capi, _convolve

signal = pytest.importorskip("scipy.signal", reason="compared against scipy.signal")

MODES = ["full", "same", "valid"]
# (in1 shape, in2 shape): odd, prime and even sizes, ranks 1 to 3, in2 larger in 'valid'.
SHAPES = [((17,), (5,)), ((64,), (64,)), ((8,), (19,)), ((13, 17), (5, 4)),
          ((6, 5, 7), (3, 2, 2)), ((1009,), (31,))]


@pytest.mark.parametrize("shapes", SHAPES)
@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("dtype", ["float32", "float64", "complex64", "complex128"])
def test_fftconvolve_and_correlate_match_scipy(rng, shapes, mode, dtype):
    a, v = random(rng, shapes[0], dtype), random(rng, shapes[1], dtype)
    assert_close(fftmux.fftconvolve(a, v, mode), signal.fftconvolve(a, v, mode), dtype)
    assert_close(fftmux.correlate(a, v, mode), signal.correlate(a, v, mode), dtype)


@pytest.mark.parametrize("mode", MODES)
def test_oaconvolve_matches_scipy_on_a_long_signal(rng, mode):
    a, v = random(rng, (20011,), "float64"), random(rng, (101,), "float64")
    assert_close(fftmux.oaconvolve(a, v, mode), signal.oaconvolve(a, v, mode), "float64")
    a, v = random(rng, (2, 150, 121), "complex64"), random(rng, (1, 7, 9), "complex64")
    assert_close(fftmux.oaconvolve(a, v, mode, axes=(1, 2)),
                 signal.oaconvolve(a, v, mode, axes=(1, 2)), "complex64")


@pytest.mark.parametrize("shapes, axes", [
    (((4, 50), (1, 9)), [1]),          # one filter, a batch
    (((1, 50), (3, 9)), [1]),          # several filters, one signal
    (((4, 50), (4, 9)), [1]),          # pairs
    (((3, 1, 30), (1, 2, 5)), [2]),    # every filter against every signal
    (((5, 6, 7), (5, 1, 3)), [0, 2]),  # a length-1 axis broadcast, as scipy does
    (((1, 6), (3, 1)), None),
])
@pytest.mark.parametrize("mode", MODES)
def test_axes_and_broadcasting_follow_scipy(rng, shapes, axes, mode):
    a, v = random(rng, shapes[0], "float64"), random(rng, shapes[1], "complex128")
    try:
        expected = signal.fftconvolve(a, v, mode, axes=axes)
    except ValueError:
        with pytest.raises(ValueError):
            fftmux.fftconvolve(a, v, mode, axes=axes)
        return
    assert_close(fftmux.fftconvolve(a, v, mode, axes=axes), expected, "complex128")


def test_a_direct_sum_in_double_agrees():
    x, h = np.arange(1.0, 8.0), np.array([0.5, -1.0, 2.0])
    assert_close(fftmux.fftconvolve(x, h), np.convolve(x, h), "float64")
    assert_close(fftmux.correlate(x, h, "same"), np.correlate(x, h, "same"), "float64")


def test_integer_inputs_give_rounded_integers():
    got = fftmux.convolve([1, 2, 3], [1, 1])
    assert got.dtype == np.result_type(int, int) and got.tolist() == [1, 3, 5, 3]
    assert fftmux.correlate(np.int32([1, 2]), np.int32([3, 4])).tolist() == [4, 11, 6]


def test_edge_cases_follow_scipy():
    assert fftmux.fftconvolve(np.float64(2), np.float64(3)) == 6
    assert fftmux.fftconvolve(np.zeros(0), np.ones(3)).size == 0
    with pytest.raises(ValueError, match="same dimensionality"):
        fftmux.fftconvolve(np.ones(3), np.ones((3, 3)))
    with pytest.raises(ValueError, match="mode"):
        fftmux.fftconvolve(np.ones(3), np.ones(3), "circular")
    with pytest.raises(ValueError, match="at least as large"):
        fftmux.fftconvolve(np.ones((5, 2)), np.ones((2, 5)), "valid")
    with pytest.raises(ValueError, match="by FFT"):
        fftmux.convolve(np.ones(3), np.ones(3), method="direct")


def test_a_convolution_object_runs_several_filters_over_a_batch(rng):
    x, h = random(rng, (3, 40), "float32"), random(rng, (2, 6), "float32")
    c = fftmux.Convolution((40,), (6,), h, mode="same", batch=3, precision="f32")
    y = c(x)
    assert y.shape == (3, 2, 40) and y.dtype == np.float32
    for b in range(3):
        for f in range(2):
            assert_close(y[b, f], signal.fftconvolve(x[b], h[f], "same"), "float32")
    assert "FFT size {45}" in c.explain()


def test_circular_mode_and_a_filter_spectrum(rng):
    x, h = random(rng, (12,), "complex128"), random(rng, (4,), "complex128")
    spectrum = np.fft.fft(np.pad(h, (0, 8)))
    for layout, filt in (("signal", h), ("spectrum", spectrum)):
        c = fftmux.Convolution((12,), (4,), filt, mode="circular", filter_layout=layout)
        assert_close(c(x), np.fft.ifft(np.fft.fft(x) * spectrum), "complex128")


def test_bad_filters_are_refused_with_the_rule():
    with pytest.raises(fftmux.InvalidArgumentError, match=r"filter\[2\].*must be finite"):
        fftmux.fftconvolve(np.ones(8), np.array([1.0, 2.0, np.nan]))
    with pytest.raises(ValueError, match="filters have shape"):
        fftmux.Convolution((8,), (3,), np.ones(4))
    with pytest.raises(fftmux.InvalidArgumentError, match="exceeds n"):
        fftmux.Convolution((8,), (9,), np.ones(9), mode="valid")
    with pytest.raises(ValueError, match="precision"):
        fftmux.Convolution((8,), (3,), np.ones(3), precision="f16")
    with pytest.raises(ValueError, match="signals have shape"):
        fftmux.Convolution((8,), (3,), np.ones(3))(np.ones(9))


def test_the_mirrored_structs_have_the_library_s_sizes():
    _convolve._lib()  # declares the init functions
    for struct, init in ((_convolve.ConvDesc, "fftmux_conv_desc_init"),
                         (_convolve.ConvolutionOptions, "fftmux_convolution_options_init")):
        assert _capi.library_struct_size(struct, init) == ctypes.sizeof(struct)
