"""fftmux.mpi under mpirun (tests/distributed: 2 ranks): every rank cuts its boxes from global
arrays, which a deterministic function of the global indices fills, and compares its part of
the result with numpy.fft's whole one. Not a test_* file: plain pytest runs have no mpirun."""

import ctypes
import os
import sys

import numpy as np
import pytest

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

from mpi4py import MPI  # noqa: E402

import fftmux  # noqa: E402
import fftmux.mpi  # noqa: E402

COMM = MPI.COMM_WORLD


def field(shape, dtype):
    """The same global array on every rank: a function of the global indices."""
    x = np.fromfunction(lambda *i: np.sin(sum((k + 1) * v for k, v in enumerate(i)) * 0.37),
                        shape)
    if np.dtype(dtype).kind == "c":
        x = x + 1j * np.cos(np.fromfunction(lambda *i: sum(i) * 0.11, shape))
    return x.astype(dtype)


def close(got, want, tol):
    scale = max(np.abs(want).max(initial=0), 1)
    assert got.shape == want.shape
    assert np.abs(got - want).max(initial=0) <= tol * scale


@pytest.mark.parametrize("decomposition", ["slabs", "transposed_out"])
def test_c2c_3d(decomposition):
    shape = (7, 6, 5)
    x = field(shape, np.complex128)
    p = fftmux.mpi.DistributedPlan(shape, "c2c", "f64", COMM, decomposition=decomposition)
    got = p.forward(x[p.in_slices])
    want = np.fft.fftn(x)[p.out_slices]
    if decomposition == "transposed_out":  # stored with the first two axes swapped
        assert p.out_box[0] == (0, 7)
    close(got, want, 1e-12)


def test_round_trip_and_shifts():
    shape = (12, 10)
    x = field(shape, np.complex64)
    p = fftmux.mpi.DistributedPlan(shape, "c2c", "f32", COMM, shift="both", norm="ortho")
    X = p.forward(x[p.in_slices])
    want = np.fft.fftshift(np.fft.fftn(np.fft.ifftshift(x), norm="ortho"))
    close(X, want[p.out_slices], 2e-5)
    close(p.inverse(X), x[p.in_slices], 2e-5)


def test_r2c_and_back():
    shape = (9, 8, 6)
    x = field(shape, np.float64)
    f = fftmux.mpi.DistributedPlan(shape, "r2c", "f64", COMM, in_place=True)
    X = f.forward(x[f.in_slices])
    close(X, np.fft.rfftn(x)[f.out_slices], 1e-12)
    b = fftmux.mpi.DistributedPlan(shape, "c2r", "f64", COMM)
    assert b.in_box == f.out_box
    close(b.inverse(X), x[f.in_slices], 1e-12)


def test_given_boxes_and_batch():
    shape = (10, 4)
    slabs = fftmux.mpi.DistributedPlan(shape, "c2c", "f64", COMM, batch=3)
    p = fftmux.mpi.DistributedPlan(shape, "c2c", "f64", COMM, batch=3, decomposition="given",
                                   in_box=slabs.in_box, out_box=slabs.out_box)
    x = np.stack([field(shape, np.complex128) * (b + 1) for b in range(3)], axis=-1)
    assert p.local_in_shape == x[p.in_slices].shape
    got = p.forward(x[p.in_slices])
    close(got, np.fft.fftn(x, axes=(0, 1))[p.out_slices], 1e-12)


def test_a_descriptor_unlike_the_others_fails_every_rank():
    if COMM.size == 1:  # no other rank to differ from: the plan is made
        fftmux.mpi.DistributedPlan((8, 6), "c2c", "f64", COMM).close()
        return
    shape = (8, 6) if COMM.rank == 0 else (8, 7)
    with pytest.raises(fftmux.InvalidArgumentError) as e:
        fftmux.mpi.DistributedPlan(shape, "c2c", "f64", COMM)
    messages = COMM.allgather(str(e.value))
    assert len(set(messages)) == 1 and "differs from rank 0's" in messages[0]


def test_the_distribution_struct_matches_the_library():
    size = fftmux._capi.library_struct_size(fftmux.mpi.Distribution, "fftmux_distribution_init")
    assert size == ctypes.sizeof(fftmux.mpi.Distribution)


def test_a_wrong_array_on_one_rank_fails_every_rank():
    p = fftmux.mpi.DistributedPlan((8, 6), "c2c", "f64", COMM)
    x = np.zeros(p.local_in_shape, np.complex128)
    last = COMM.size - 1
    with pytest.raises(Exception) as e:
        p.forward(x[:0] if COMM.rank == last else x)
    assert f"rank {last}: in is NULL" in str(e.value) + str(e.value.__cause__)

