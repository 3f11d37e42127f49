"""workers= as scipy.fft has it: the threads of a transform, checked before any work."""

import os

import numpy as np
import pytest
from conftest import assert_close, random

import fftmux

CPUS = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()


def last_explain():
    return fftmux.plan_cache.plans()[-1].explain()


@pytest.mark.parametrize("workers", [None, 1, 2, -1])
def test_results_equal_numpys(rng, workers):
    x = random(rng, (64, 1024), np.complex128)
    r = random(rng, (64, 1024), np.float64)
    assert_close(fftmux.fft(x, workers=workers), np.fft.fft(x), np.complex128)
    assert_close(fftmux.ifft(x, workers=workers), np.fft.ifft(x), np.complex128)
    assert_close(fftmux.fftn(x, workers=workers), np.fft.fftn(x), np.complex128)
    assert_close(fftmux.ifft2(x, workers=workers), np.fft.ifft2(x), np.complex128)
    R = fftmux.rfft(r, workers=workers)
    assert_close(R, np.fft.rfft(r), np.complex128)
    assert_close(fftmux.irfft(R, workers=workers), np.fft.irfft(np.fft.rfft(r)), np.float64)
    assert_close(fftmux.rfftn(r, workers=workers), np.fft.rfftn(r), np.complex128)
    assert_close(fftmux.hfft(x, workers=workers), np.fft.hfft(x), np.float64)


def test_a_count_reaches_fftw(rng):
    x = random(rng, (64, 1024), np.complex128)
    fftmux.fft(x, backend="fftw", workers=2)
    assert "threads: 2 (2 asked)" in last_explain()


def test_minus_one_is_every_cpu_of_the_affinity(rng):
    x = random(rng, (64, 1024), np.complex128)
    assert_close(fftmux.fft(x, backend="fftw", workers=-1), np.fft.fft(x), np.complex128)
    assert f"threads: {CPUS} ({CPUS} asked)" in last_explain()


def test_the_plan_takes_workers_too(rng):
    p = fftmux.Plan((1024,), batch=64, backend="fftw", workers=3)
    assert "threads: 3 (3 asked)" in p.explain()
    p.close()


@pytest.mark.parametrize("workers, message", [
    (0, "workers must not be zero"),
    (-(CPUS + 1), f"workers value out of range; got {-(CPUS + 1)}, must not be less than "
                  f"{-CPUS}"),
    (1025, "workers = 1025: must be at most 1024"),
])
def test_bad_counts_raise_value_error(workers, message):
    with pytest.raises(ValueError, match=message):
        fftmux.fft(np.ones(8, np.complex128), workers=workers)
    with pytest.raises(ValueError, match=message):
        fftmux.Plan((8,), workers=workers)


@pytest.mark.parametrize("workers", [1.5, "2"])
def test_counts_are_integers(workers):
    with pytest.raises(TypeError):
        fftmux.rfft(np.ones(8), workers=workers)
