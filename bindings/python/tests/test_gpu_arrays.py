"""CuPy and PyTorch arrays transformed where they live, on the cuda backend, against
cupy.fft and torch.fft: strides, dtype conversion, padding, the producer's stream, results
of the producer's kind, and DLPack both ways. Needs a CUDA GPU, CuPy and PyTorch."""

import os

import numpy as np
import pytest

import fftmux
from conftest import assert_close, random

cupy = pytest.importorskip("cupy", reason="CuPy is not installed: no CUDA arrays to test")
torch = pytest.importorskip("torch", reason="PyTorch is not installed: no CUDA tensors to test")


def _cuda_ready():
    info = {b.name: b for b in fftmux.backends()}.get("cuda")
    return (info is not None and info.ready), (info.reason if info else "no cuda plugin")


_ready, _why = _cuda_ready()
pytestmark = pytest.mark.skipif(not _ready, reason=f"the cuda backend is not ready: {_why}")

CASES = [  # (function, shape, keywords)
    ("fft", (8, 1000), {}),
    ("ifft", (8, 4096), {"norm": "ortho"}),
    ("fft", (64, 48), {"axis": 0}),
    ("fft", (16, 100), {"n": 128}),
    ("fft2", (3, 64, 96), {}),
    ("fftn", (16, 20, 24), {"axes": (0, 2)}),
    ("rfft", (32, 1024), {}),
    ("irfft", (32, 513), {}),
    ("rfft2", (128, 96), {"norm": "forward"}),
    ("irfftn", (8, 16, 9), {}),
    ("hfft", (4, 33), {}),
    ("ihfft", (4, 64), {}),
]


def _input(rng, name, shape, dtype):
    real = name in ("rfft", "rfft2", "rfftn", "ihfft")
    return random(rng, shape, dtype if not real else np.dtype(dtype).char.lower())


@pytest.mark.parametrize("name,shape,kw", CASES)
@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
def test_cupy_matches_cupy_fft(rng, name, shape, kw, dtype):
    x = cupy.asarray(_input(rng, name, shape, dtype))
    ours = getattr(fftmux, name)(x, **kw)
    assert isinstance(ours, cupy.ndarray)
    assert_close(cupy.asnumpy(ours), cupy.asnumpy(getattr(cupy.fft, name)(x, **kw)),
                 ours.dtype)


@pytest.mark.parametrize("name,shape,kw", CASES)
def test_torch_matches_torch_fft(rng, name, shape, kw):
    x = torch.from_numpy(_input(rng, name, shape, "complex64")).cuda()
    ours = getattr(fftmux, name)(x, **kw)
    theirs = getattr(torch.fft, name)(x, **{"dim" if k in ("axis", "axes") else k: v
                                            for k, v in kw.items()})
    assert isinstance(ours, torch.Tensor) and ours.is_cuda
    assert_close(ours.cpu().numpy(), theirs.cpu().numpy(), theirs.cpu().numpy().dtype)


def test_strided_views_are_read_in_place(rng):
    base = cupy.asarray(random(rng, (64, 256), np.complex64))
    for view in (base.T, base[:, ::2], base[::4], base[3:40, 10:200]):
        assert_close(cupy.asnumpy(fftmux.fft(view, axis=0)),
                     cupy.asnumpy(cupy.fft.fft(view, axis=0)))


def test_real_input_to_fft_is_converted_on_the_device(rng):
    x = cupy.asarray(random(rng, (4, 300), np.float32))
    ours = fftmux.fft(x)
    assert ours.dtype == cupy.complex64
    assert_close(cupy.asnumpy(ours), cupy.asnumpy(cupy.fft.fft(x)))


def test_the_producers_stream_runs_the_transform(rng):
    x = cupy.asarray(random(rng, (16, 8192), np.complex64))
    stream = cupy.cuda.Stream(non_blocking=True)
    with stream:
        ours = fftmux.fft(x)
        plan = fftmux.plan_cache.plans()[-1]
        assert plan.stream == stream.ptr
        stream.synchronize()
    assert_close(cupy.asnumpy(ours), cupy.asnumpy(cupy.fft.fft(x)))


def test_torch_stream_runs_the_transform(rng):
    x = torch.from_numpy(random(rng, (16, 4096), np.complex64)).cuda()
    stream = torch.cuda.Stream()
    with torch.cuda.stream(stream):
        ours = fftmux.fft(x)
        assert fftmux.plan_cache.plans()[-1].stream == stream.cuda_stream
    stream.synchronize()
    assert_close(ours.cpu().numpy(), torch.fft.fft(x).cpu().numpy())


def test_device_plan_takes_and_returns_cupy_arrays(rng):
    x = cupy.asarray(random(rng, (32, 2048), np.complex64))
    plan = fftmux.Plan((2048,), precision="f32", batch=32, placement="device",
                       backend="cuda")
    y = plan.forward(x)
    assert isinstance(y, cupy.ndarray) and y.shape == (32, 2048)
    assert_close(cupy.asnumpy(y), cupy.asnumpy(cupy.fft.fft(x)))
    out = cupy.empty_like(x)
    assert plan.inverse(y, out=out) is out
    assert_close(cupy.asnumpy(out), cupy.asnumpy(x))


class _Interface:
    """A producer that offers only __cuda_array_interface__ (as numba's arrays do)."""

    def __init__(self, array):
        self.array = array
        self.__cuda_array_interface__ = array.__cuda_array_interface__


class _DLPackOnly:
    """A producer that offers only DLPack (as JAX's arrays do)."""

    def __init__(self, array):
        self.array = array

    def __dlpack__(self, stream=None):
        return self.array.__dlpack__(stream=stream)

    def __dlpack_device__(self):
        return self.array.__dlpack_device__()


@pytest.mark.parametrize("producer", [_Interface, _DLPackOnly])
def test_other_producers_get_fftmux_arrays_that_export_both_ways(rng, producer):
    x = cupy.asarray(random(rng, (8, 512), np.complex64))
    ours = fftmux.fft(producer(x))
    assert isinstance(ours, fftmux.BufferArray)
    expected = cupy.asnumpy(cupy.fft.fft(x))
    assert_close(cupy.asnumpy(cupy.asarray(ours)), expected)  # __cuda_array_interface__
    assert_close(cupy.asnumpy(cupy.from_dlpack(ours)), expected)
    assert_close(torch.from_dlpack(ours).cpu().numpy(), expected)


def test_other_producers_must_not_need_a_copy(rng):
    x = cupy.asarray(random(rng, (8, 512), np.float32))
    with pytest.raises(TypeError, match="copy on the device"):
        fftmux.fft(_Interface(x))  # float32 into a complex transform


def test_device_array_on_a_host_plan_is_refused(rng):
    plan = fftmux.Plan((512,), precision="f32", backend="fftw")
    with pytest.raises(TypeError, match="placement='device'"):
        plan.forward(cupy.zeros(512, cupy.complex64))


def test_plans_dropped_while_their_work_is_queued(rng):
    """A plan leaves the cache (and is destroyed) with its transform still queued on a
    stream that is itself gone by then: the transform completes, nothing faults."""
    x = cupy.asarray(random(rng, (64, 1 << 14), np.complex64))
    size, fftmux.plan_cache.maxsize = fftmux.plan_cache.maxsize, 1
    try:
        results = []
        for n in (1 << 14, 1 << 13, 4099, 1 << 12, 10007):
            stream = cupy.cuda.Stream(non_blocking=True)
            with stream:
                results.append((n, fftmux.fft(x, n=n)))
            del stream
        cupy.cuda.Device().synchronize()
        for n, y in results:
            assert_close(cupy.asnumpy(y), cupy.asnumpy(cupy.fft.fft(x, n=n)))
    finally:
        fftmux.plan_cache.maxsize = size


def test_jax_arrays_come_back_as_jax_arrays(rng):
    os.environ.setdefault("XLA_PYTHON_CLIENT_PREALLOCATE", "false")  # share the GPU
    jax = pytest.importorskip("jax", reason="JAX is not installed")
    import jax.numpy as jnp

    if jax.devices()[0].platform != "gpu":
        pytest.skip(f"JAX runs on {jax.devices()[0].platform}, not on the GPU")
    x = jnp.asarray(random(rng, (8, 1000), np.complex64))
    y = fftmux.fft(x)
    assert isinstance(y, jax.Array)
    assert_close(np.asarray(y), np.asarray(jnp.fft.fft(x)))


@pytest.mark.parametrize("dtype", ["f16", "bf16"])
def test_16_bit_storage_of_cupy_arrays_and_torch_tensors(rng, dtype):
    from test_storage16 import bound, error, rounded

    x = random(rng, (4, 1000), np.complex64)
    for arr in (cupy.asarray(x), torch.from_numpy(x).cuda()):
        ours = fftmux.fft(arr, dtype=dtype)
        got = cupy.asnumpy(ours) if isinstance(ours, cupy.ndarray) else ours.cpu().numpy()
        assert got.dtype == np.complex64 and type(ours) is type(arr)
        assert error(got, np.fft.fft(rounded(x, dtype))) < bound(dtype, 1000)
    half = torch.float16 if dtype == "f16" else torch.bfloat16
    reals = torch.randn(8, 512, dtype=half, device="cuda")
    got = fftmux.rfft(reals, dtype=dtype).cpu().numpy()
    assert error(got, np.fft.rfft(reals.float().cpu().numpy())) < bound(dtype, 512)
    spectrum = cupy.asarray(np.fft.rfft2(rng.uniform(-1, 1, (6, 10))).astype(np.complex64))
    got = cupy.asnumpy(fftmux.irfft2(spectrum, s=(6, 10), dtype=dtype))
    want = np.fft.irfft2(rounded(cupy.asnumpy(spectrum).astype(np.complex128), dtype), s=(6, 10))
    assert got.dtype == np.float32 and error(got, want) < bound(dtype, 60)
