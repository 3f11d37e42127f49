"""fftmux's dct, idct, dst, idst and their n-D forms against scipy.fft's, on every type, norm
and orthogonalize setting, sizes odd, even and prime, ranks 1 to 4, float32, float64 and
complex input, n/s cropping and padding; and the R2R Plan."""

import numpy as np
import pytest
from conftest import random, ready_backends

import fftmux

scipy_fft = pytest.importorskip("scipy.fft", reason="compared against scipy.fft")

NORMS = [None, "backward", "ortho", "forward"]
TYPES = [1, 2, 3, 4]


def scipy_weighs_the_first_dst_term():
    """scipy 1.10 (and up to its fix) orthogonalizes DST-II/III on their first term, which
    leaves them not orthogonal; fftmux weighs the last, as scipy documents."""
    m = scipy_fft.dst(np.eye(4), type=2, norm="ortho", axis=0)
    return not np.allclose(m @ m.T, np.eye(4))


def reference(name, x, type, norm, orthogonalize, **kwargs):
    """scipy's result, or where scipy's DST-II/III orthogonalization is the one in error, the
    documented one: scipy's plain transform with the last term weighed per axis."""
    function = getattr(scipy_fft, name)
    buggy = name.lstrip("i").startswith("dst") and type in (2, 3)
    orthogonal = orthogonalize if orthogonalize is not None else norm == "ortho"
    if not (buggy and orthogonal and scipy_weighs_the_first_dst_term()):
        return function(x, type=type, norm=norm, orthogonalize=orthogonalize, **kwargs)
    axes = kwargs.get("axes", [kwargs.get("axis", -1)])
    axes = range(x.ndim) if axes is None else axes
    # DST-III (the forward of type 3, the inverse of type 2) weighs x[-1] by sqrt 2 first;
    # DST-II divides y[-1] by sqrt 2 after.
    weighs_input = (type == 3) != name.startswith("i")
    y = x.copy()
    if weighs_input:
        for ax in axes:
            np.moveaxis(y, ax, 0)[-1] *= np.sqrt(2)
    y = function(y, type=type, norm=norm, orthogonalize=False, **kwargs)
    if not weighs_input:
        for ax in axes:
            np.moveaxis(y, ax, 0)[-1] /= np.sqrt(2)
    return y


def assert_matches(ours, theirs):
    assert ours.shape == theirs.shape and ours.dtype == theirs.dtype, (ours.dtype, theirs.dtype)
    tolerance = 2e-5 if ours.dtype in (np.float32, np.complex64) else 1e-12
    scale = max(float(np.max(np.abs(theirs))), 1e-300)
    assert float(np.max(np.abs(ours - theirs))) / scale <= tolerance


@pytest.mark.parametrize("orthogonalize", [None, True, False])
@pytest.mark.parametrize("norm", NORMS)
@pytest.mark.parametrize("type", TYPES)
@pytest.mark.parametrize("name", ["dct", "idct", "dst", "idst"])
def test_one_axis_every_type_and_norm(rng, name, type, norm, orthogonalize):
    x = random(rng, (3, 13), np.float64)
    ours = getattr(fftmux, name)(x, type=type, norm=norm, orthogonalize=orthogonalize)
    assert_matches(ours, reference(name, x, type, norm, orthogonalize))


@pytest.mark.parametrize("norm", NORMS)
@pytest.mark.parametrize("type", TYPES)
@pytest.mark.parametrize("name", ["dctn", "idctn", "dstn", "idstn"])
def test_n_axes_every_type_and_norm(rng, name, type, norm):
    x = random(rng, (4, 6, 5), np.float32)
    ours = getattr(fftmux, name)(x, type=type, norm=norm, axes=(0, 2))
    assert_matches(ours, reference(name, x, type, norm, None, axes=(0, 2)))


@pytest.mark.parametrize("name, x_shape, kwargs", [
    ("dct", (17,), {"n": 20}),                       # zero-padded, a prime before
    ("idst", (2, 16), {"n": 9, "axis": 0}),          # cropped... along the first axis
    ("dctn", (3, 4, 5, 6), {}),                      # four axes: two passes
    ("idctn", (6, 7), {"s": (-1, 4), "type": 1}),    # -1 keeps the input's size
    ("dstn", (5, 8, 3), {"s": 6, "axes": 1}),        # an int for s and axes
    ("dctn", (4, 9), {"axes": (-1, 0), "type": 4}),  # axes in any order
])
def test_sizes_and_axes(rng, name, x_shape, kwargs):
    x = random(rng, x_shape, np.float64)
    ours = getattr(fftmux, name)(x, **kwargs)
    assert_matches(ours, getattr(scipy_fft, name)(x, **kwargs))


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.complex64, np.int32, np.float16])
def test_dtypes_are_scipys(rng, dtype):
    source = np.complex128 if np.dtype(dtype).kind == "c" else np.float64
    x = (random(rng, (4, 10), source) * 10).astype(dtype)
    assert_matches(fftmux.dst(x, type=4), scipy_fft.dst(x, type=4))


def test_inverse_undoes_the_transform_and_input_is_kept(rng):
    x = random(rng, (5, 12), np.float64)
    kept = x.copy()
    for type in TYPES:
        y = fftmux.dctn(x, type=type, norm="ortho", overwrite_x=True)
        assert_matches(fftmux.idctn(y, type=type, norm="ortho"), x)
    assert np.array_equal(x, kept)


@pytest.mark.parametrize("call, error", [
    (lambda x: fftmux.dct(x, type=5), "invalid DCT type"),
    (lambda x: fftmux.dst(x, n=0), "invalid number of data points"),
    (lambda x: fftmux.dctn(x, norm="loud"), "Invalid norm value"),
    (lambda x: fftmux.dctn(x, axes=(0, 0)), "all axes must be unique"),
    (lambda x: fftmux.dct(x[:, :1], type=1), "DCT-I needs at least 2 points"),
])
def test_bad_arguments_say_what_is_wrong(call, error):
    with pytest.raises(ValueError, match=error):
        call(np.ones((3, 4)))


def test_a_real_to_real_plan(rng):
    p = fftmux.Plan((8, 6), "dct2,dst1", "f32", batch=2, norm="ortho", backend="fftw")
    assert p.desc["kind"] == "dct2,dst1"
    assert p.in_shape == p.out_shape == (2, 8, 6)
    assert p.in_dtype == p.out_dtype == np.float32
    x = random(rng, (2, 8, 6), np.float32)
    y = p.forward(x)
    assert_matches(y, scipy_fft.dst(scipy_fft.dct(x, norm="ortho", axis=1), type=1,
                                    norm="ortho", axis=2))
    assert_matches(p.inverse(y), x)
    with pytest.raises(ValueError, match="3 kinds for 2 axes"):
        fftmux.Plan((8, 6), ("dct2", "dst1", "dct4"))


@pytest.mark.parametrize("backend", ready_backends())
def test_every_backend_that_runs_them(rng, backend):
    """Each ready backend's R2R plans (the GPU kernels on the GPU backends) against scipy, every
    type, odd and prime sizes, 1D and 2D, float32 and float64; one that declines says why."""
    answer = fftmux.query(backend, (13,), kind="dct2", precision="f32")
    if not answer.supported:
        assert answer.reason
        return
    for type in TYPES:
        for name, shape, axes, dtype in [("dct", (3, 97), None, np.float64),
                                         ("idst", (5, 12), None, np.float32),
                                         ("dctn", (6, 9), (0, 1), np.float32),
                                         ("idctn", (4, 10), (0, 1), np.float64)]:
            x = random(rng, shape, dtype)
            kwargs = {"axes": axes} if axes else {}
            ours = getattr(fftmux, name)(x, type=type, norm="ortho", backend=backend, **kwargs)
            assert_matches(ours, reference(name, x, type, "ortho", None, **kwargs))
