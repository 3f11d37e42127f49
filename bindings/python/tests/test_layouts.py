"""Arrays of any strides: expressible layouts go to the engine as strides (no copy),
the rest are copied once; the results are numpy's either way."""

import numpy as np
import pytest
from conftest import assert_close, random

import fftmux


def last_desc():
    """Descriptor of the plan that ran the latest transform."""
    return fftmux.plan_cache.plans()[-1].desc


def test_strided_1d_uses_strides(rng):
    x = random(rng, 64, np.complex128)[::4]
    assert_close(fftmux.fft(x), np.fft.fft(x))
    d = last_desc()
    assert d["in_strides"] == (4,) and d["shape"] == (16,)


def test_column_slices_use_strides(rng):
    x = random(rng, (6, 30), np.complex64)[:, ::3]
    assert_close(fftmux.fft(x), np.fft.fft(x))
    d = last_desc()
    assert d["in_strides"] == (3,) and d["in_distance"] == 30 and d["batch"] == 6


def test_transposed_2d_uses_strides(rng):
    x = random(rng, (12, 10), np.complex128).T  # Fortran order
    assert_close(fftmux.fft2(x), np.fft.fft2(x))
    assert last_desc()["in_strides"] == (1, 10)


def test_fortran_order_batch_merges_without_copy(rng):
    x = np.asfortranarray(random(rng, (3, 4, 16), np.complex128))
    assert_close(fftmux.fft(x), np.fft.fft(x))
    d = last_desc()
    assert d["batch"] == 12 and d["in_distance"] == 1 and d["in_strides"] == (12,)


def test_real_part_of_complex_array_uses_strides(rng):
    c = random(rng, (5, 32), np.complex128)
    assert_close(fftmux.rfft(c.real), np.fft.rfft(c.real))
    assert last_desc()["in_strides"] == (2,)
    assert_close(fftmux.rfft(c.imag, axis=0), np.fft.rfft(c.imag, axis=0))


def test_middle_axis_of_c_array_copies_and_is_right(rng):
    x = random(rng, (4, 9, 5), np.complex128)
    assert_close(fftmux.fft(x, axis=1), np.fft.fft(x, axis=1))
    assert_close(fftmux.rfft(x.real, axis=1), np.fft.rfft(x.real, axis=1))
    assert_close(fftmux.irfft(x, axis=1), np.fft.irfft(x, axis=1))


@pytest.mark.parametrize("make", [
    lambda x: x[::-1],
    lambda x: x[:, ::-2],
    lambda x: np.broadcast_to(x[:1], x.shape),
    lambda x: np.lib.stride_tricks.as_strided(x, (4, 8), (0, 16)),
])
def test_inexpressible_strides_are_copied(rng, make):
    x = make(random(rng, (6, 8), np.complex128))
    for func in ("fft", "ifft", "fft2", "irfft"):
        assert_close(getattr(fftmux, func)(x), getattr(np.fft, func)(x))
    assert_close(fftmux.rfft2(x.real), np.fft.rfft2(x.real))


def test_unaligned_data_is_copied(rng):
    x = random(rng, 33, np.complex128)
    raw = np.zeros(x.nbytes + 1, np.uint8)
    unaligned = raw[1:].view(np.complex128)
    unaligned[:] = x
    assert not unaligned.flags.aligned
    assert_close(fftmux.fft(unaligned), np.fft.fft(x))


@pytest.mark.parametrize("dtype", [">c16", ">f8", ">f4", ">c8"])
def test_byte_swapped_input(rng, dtype):
    x = random(rng, (4, 10), np.dtype(dtype).newbyteorder("="))
    swapped = x.astype(dtype)
    func = "rfft" if np.dtype(dtype).kind == "f" else "fft"
    assert_close(getattr(fftmux, func)(swapped), getattr(np.fft, func)(x))


def test_read_only_input(rng):
    x = random(rng, (8, 8), np.complex128)
    x.setflags(write=False)
    assert_close(fftmux.fft2(x), np.fft.fft2(x))
    assert_close(fftmux.irfft2(x), np.fft.irfft2(x))


def test_input_is_never_modified(rng):
    x = random(rng, (6, 10), np.complex128)
    keep = x.copy()
    fftmux.irfft2(x)  # FFTW's c2r destroys its input; fftmux must not let it
    fftmux.fft2(x, shift="both")
    assert np.array_equal(x, keep)


def random_view(rng, dtype):
    """A random slicing and transposition of a random array."""
    ndim = int(rng.integers(1, 5))
    base = random(rng, tuple(int(v) for v in rng.integers(1, 9, ndim) * 2), dtype)
    steps = tuple(slice(None, None, int(s)) for s in rng.choice([1, 1, 2, 3, -1], ndim))
    return base[steps].transpose(rng.permutation(ndim))


@pytest.mark.parametrize("seed", range(60))
def test_random_views(seed):
    rng = np.random.default_rng(seed)
    c = random_view(rng, rng.choice([np.complex64, np.complex128]))
    axes = sorted(rng.choice(c.ndim, int(rng.integers(1, c.ndim + 1)), replace=False).tolist())
    for func in ("fftn", "ifftn", "irfftn"):
        if func == "irfftn" and c.shape[axes[-1]] < 2:
            continue  # no default output length: numpy raises as well
        assert_close(getattr(fftmux, func)(c, axes=axes), getattr(np.fft, func)(c, axes=axes))
    assert_close(fftmux.rfftn(c.real, axes=axes), np.fft.rfftn(c.real, axes=axes))
