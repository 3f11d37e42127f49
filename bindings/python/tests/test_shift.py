"""shift= fuses numpy's fftshift/ifftshift into the transform, along the transform axes
(the halved last axis of the complex side of real transforms excepted)."""

import numpy as np
import pytest
from conftest import assert_close, random

import fftmux

fs, ifs = np.fft.fftshift, np.fft.ifftshift


def shifted(func, x, shift, shift_axes, shift_in_axes=None, shift_out_axes=None, **kw):
    """numpy's transform with the explicit shifts shift= stands for."""
    in_axes = shift_axes if shift_in_axes is None else shift_in_axes
    out_axes = shift_axes if shift_out_axes is None else shift_out_axes
    if shift in ("input", "both"):
        x = ifs(x, axes=in_axes)
    y = func(x, **kw)
    return fs(y, axes=out_axes) if shift in ("output", "both") else y


SHIFTS = ["input", "output", "both"]


@pytest.mark.parametrize("shift", SHIFTS)
@pytest.mark.parametrize("n", [1, 2, 5, 8, 9, 16, 31])
def test_fft_ifft(rng, shift, n):
    x = random(rng, (3, n), np.complex128)
    for f in ("fft", "ifft"):
        ours = getattr(fftmux, f)(x, shift=shift)
        assert_close(ours, shifted(getattr(np.fft, f), x, shift, (-1,)))


@pytest.mark.parametrize("shift", SHIFTS)
@pytest.mark.parametrize("shape", [(8, 8), (7, 9), (6, 5), (1, 4)])
@pytest.mark.parametrize("dtype", [np.complex64, np.complex128])
def test_fft2_ifft2(rng, shift, shape, dtype):
    x = random(rng, shape, dtype)
    for f in ("fft2", "ifft2"):
        ours = getattr(fftmux, f)(x, shift=shift)
        assert_close(ours, shifted(getattr(np.fft, f), x, shift, (0, 1)), dtype)


@pytest.mark.parametrize("shift", SHIFTS)
@pytest.mark.parametrize("shape", [(8, 10), (7, 9), (5, 6, 7)])
def test_rfftn_leaves_the_halved_axis_unshifted(rng, shift, shape):
    x = random(rng, shape, np.float64)
    axes = tuple(range(len(shape)))
    want = shifted(np.fft.rfftn, x, shift, axes, shift_out_axes=axes[:-1])
    assert_close(fftmux.rfftn(x, shift=shift), want)


@pytest.mark.parametrize("shift", SHIFTS)
@pytest.mark.parametrize("shape,s", [((8, 6), (8, 10)), ((7, 5), (7, 9)), ((4, 5, 4), None)])
def test_irfftn_leaves_the_halved_axis_unshifted(rng, shift, shape, s):
    x = np.fft.rfftn(random(rng, s or shape, np.float64)) if s else random(rng, shape,
                                                                           np.complex128)
    axes = tuple(range(x.ndim))
    want = shifted(np.fft.irfftn, x, shift, axes, shift_in_axes=axes[:-1], s=s)
    assert_close(fftmux.irfftn(x, s=s, shift=shift), want)


@pytest.mark.parametrize("shift", SHIFTS)
def test_shift_only_touches_transform_axes(rng, shift):
    x = random(rng, (5, 6, 7), np.complex128)
    ours = fftmux.fftn(x, axes=(0, 2), shift=shift)
    assert_close(ours, shifted(np.fft.fftn, x, shift, (0, 2), axes=(0, 2)))


@pytest.mark.parametrize("shift", SHIFTS)
def test_shift_over_more_than_three_axes(rng, shift):
    x = random(rng, (3, 4, 5, 6), np.complex128)
    assert_close(fftmux.fftn(x, shift=shift), shifted(np.fft.fftn, x, shift, (0, 1, 2, 3)))
    r = x.real.copy()
    want = shifted(np.fft.rfftn, r, shift, (0, 1, 2, 3), shift_out_axes=(0, 1, 2))
    assert_close(fftmux.rfftn(r, shift=shift), want)
    want = shifted(np.fft.irfftn, x, shift, (0, 1, 2, 3), shift_in_axes=(0, 1, 2))
    assert_close(fftmux.irfftn(x, shift=shift), want)


def test_centred_round_trip(rng):
    x = random(rng, (9, 12), np.complex128)
    spectrum = fftmux.fft2(x, shift="both")
    assert_close(fftmux.ifft2(spectrum, shift="both"), x)


def test_shift_with_padding_applies_to_the_padded_signal(rng):
    x = random(rng, 6, np.complex128)
    want = np.fft.fftshift(np.fft.fft(np.fft.ifftshift(np.pad(x, (0, 5)))))
    assert_close(fftmux.fft(x, n=11, shift="both"), want)


@pytest.mark.parametrize("bad", [True, 1.5, "centre", "out"])
def test_bad_shift_values_are_refused(bad):
    with pytest.raises(ValueError, match="shift"):
        fftmux.fft(np.ones(4), shift=bad)
