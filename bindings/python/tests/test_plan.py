"""The Plan class: explicit backend, explain, layouts, in-place, device buffers, threads."""

import threading

import numpy as np
import pytest
from conftest import assert_close, random, ready_backends

import fftmux


def test_explicit_backend_and_explain(rng):
    p = fftmux.Plan((16,), backend="fftw")
    assert p.backend == "fftw" and p.variant == "default"
    text = p.explain()
    assert "fftw" in text and text.strip()
    x = random(rng, 16, np.complex128)
    assert_close(p.forward(x), np.fft.fft(x), np.complex128)
    assert_close(p.inverse(x), np.fft.ifft(x), np.complex128)


def test_routed_plan_says_why(rng):
    p = fftmux.Plan((8, 8), precision="f32")
    assert p.backend in ready_backends()
    assert p.backend in p.explain()


def test_batched_2d_shapes_and_desc(rng):
    p = fftmux.Plan((6, 10), precision=np.complex64, batch=3)
    assert p.in_shape == (3, 6, 10) and p.out_shape == (3, 6, 10)
    assert p.in_dtype == np.complex64 and p.out_dtype == np.complex64
    d = p.desc
    assert d["shape"] == (6, 10) and d["batch"] == 3 and d["kind"] == "c2c"
    assert d["in_strides"] == (10, 1) and d["in_distance"] == 60
    assert p.in_bytes == 3 * 60 * 8
    x = random(rng, (3, 6, 10), np.complex64)
    assert_close(p.forward(x), np.fft.fft2(x), np.complex64)


@pytest.mark.parametrize("n", [8, 9])
def test_real_plans(rng, n):
    r2c = fftmux.Plan((4, n), kind="r2c", precision="f64")
    c2r = fftmux.Plan((4, n), kind="c2r", precision="f64")
    assert r2c.in_shape == (4, n) and r2c.out_shape == (4, n // 2 + 1)
    assert c2r.in_dtype == np.complex128 and c2r.out_dtype == np.float64
    x = random(rng, (4, n), np.float64)
    X = r2c.forward(x)
    assert_close(X, np.fft.rfft2(x))
    assert_close(c2r.inverse(X), x)
    with pytest.raises(fftmux.InvalidArgumentError, match="forward only"):
        r2c.inverse(x)


def test_norm_none_and_shift(rng):
    x = random(rng, 12, np.complex128)
    p = fftmux.Plan((12,), norm="none", shift="output")
    assert_close(p.inverse(x), np.fft.fftshift(np.fft.ifft(x) * 12))
    assert p.desc["norm"] == "none" and p.desc["shift"] == "output"


def test_in_place_c2c(rng):
    x = random(rng, (2, 16), np.complex128)
    want = np.fft.fft(x)
    p = fftmux.Plan((16,), batch=2, in_place=True)
    y = p.forward(x)
    assert np.shares_memory(x, y)
    assert_close(y, want)


def test_in_place_r2c_uses_the_padded_layout(rng):
    n = 10
    p = fftmux.Plan((3, n), kind="r2c", in_place=True)
    assert p.in_shape == (3, 2 * (n // 2 + 1))
    x = np.zeros(p.in_shape)
    signal = random(rng, (3, n), np.float64)
    x[:, :n] = signal
    y = p.forward(x)
    assert np.shares_memory(x, y) and y.shape == (3, n // 2 + 1)
    assert_close(y, np.fft.rfft2(signal))
    with pytest.raises(TypeError, match="in-place input"):
        p.forward(x.astype(np.float32))


def test_given_strides(rng):
    big = random(rng, 32, np.complex128)
    p = fftmux.Plan((8,), batch=2, in_strides=(2,), in_distance=16, out_strides=(1,),
                    out_distance=8)
    assert p.in_shape is None
    y = p.forward(big)
    assert y.shape == (16,)
    assert_close(y.reshape(2, 8), np.fft.fft(big.reshape(2, 16)[:, ::2]))


def test_input_conversion_rules(rng):
    p = fftmux.Plan((8,), precision="f32")
    real = random(rng, 8, np.float32)  # float32 -> complex64 loses nothing: converted
    assert_close(p.forward(real), np.fft.fft(real), np.complex64)
    with pytest.raises(TypeError, match="lose precision"):
        p.forward(random(rng, 8, np.complex128))
    with pytest.raises(ValueError, match="bytes"):
        p.forward(random(rng, 4, np.complex64))
    with pytest.raises(TypeError, match="out must be complex64"):
        p.forward(random(rng, 8, np.complex64), out=np.empty(8, np.complex128))
    with pytest.raises(ValueError, match="direction"):
        p.execute("sideways", random(rng, 8, np.complex64))


def test_out_array_is_filled(rng):
    p = fftmux.Plan((4, 4))
    x = random(rng, (4, 4), np.complex128)
    out = np.empty((4, 4), np.complex128)
    assert p.forward(x, out=out) is out
    assert_close(out, np.fft.fft2(x))


@pytest.mark.parametrize("backend", ready_backends())
def test_device_buffers(rng, backend):
    p = fftmux.Plan((32,), precision="f32", batch=2, placement="device", backend=backend)
    x = random(rng, (2, 32), np.complex64)
    x_dev = p.upload(x)
    y_dev = p.buffer("out")
    assert x_dev.nbytes == p.in_bytes and y_dev.nbytes == p.out_bytes
    assert p.forward(x_dev, y_dev) is y_dev
    p.synchronize()
    assert_close(p.download(y_dev), np.fft.fft(x), np.complex64)
    assert_close(x_dev.read(np.complex64).reshape(2, 32), x, np.complex64)


def test_buffer_too_small_is_refused(rng):
    p = fftmux.Plan((32,), backend="fftw")
    small = p.buffer(16)
    with pytest.raises(fftmux.InvalidArgumentError, match="holds 16 bytes"):
        p.forward(small, p.buffer("out"))


def test_context_buffers_and_wrapping_host_memory():
    ctx = fftmux.default_context()
    buf = ctx.buffer("fftw", 64)
    data = np.arange(8, dtype=np.float64)
    buf.write(data)
    assert np.array_equal(buf.read(np.float64), data)
    assert buf.native != 0
    host = np.zeros(4, np.float64)  # fftw's native handle is a host pointer
    wrapped = ctx.wrap("fftw", host.ctypes.data, host.nbytes)
    wrapped.write(np.array([1.0, 2.0, 3.0, 4.0]))
    assert np.array_equal(host, [1.0, 2.0, 3.0, 4.0])
    with pytest.raises(fftmux.InvalidArgumentError, match="exceeds the buffer size"):
        wrapped.read(np.float64, count=8)
    wrapped.close()
    with pytest.raises(ValueError, match="closed"):
        wrapped.read()


def test_close_and_context_manager(rng):
    with fftmux.Plan((4,)) as p:
        p.forward(np.ones(4))
    with pytest.raises(ValueError, match="closed"):
        p.forward(np.ones(4))
    p.close()  # twice is harmless


def test_private_context_outlives_its_plans(rng):
    ctx = fftmux.Context()
    p = fftmux.Plan((8,), context=ctx)
    del ctx  # the plan keeps its context alive
    x = random(rng, 8, np.complex128)
    assert_close(p.forward(x), np.fft.fft(x))


def test_closing_a_context_with_live_plans_is_refused():
    ctx = fftmux.Context()
    p = fftmux.Plan((8,), context=ctx)
    with pytest.raises(fftmux.InvalidArgumentError, match="still alive"):
        ctx.close()
    p.close()
    ctx.close()


def test_threads_share_plans_safely(rng):
    x = random(rng, (64, 64), np.complex128)
    want = np.fft.fft2(x)
    plan = fftmux.Plan((64, 64))
    errors = []

    def work():
        try:
            for _ in range(20):
                assert_close(plan.forward(x), want)
                assert_close(fftmux.fft2(x), want)
        except Exception as e:  # reported by the main thread
            errors.append(e)

    threads = [threading.Thread(target=work) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors[0]


def test_query():
    s = fftmux.query("fftw", (100,), "r2c", "f32")
    assert s and s.supported and s.backend == "fftw" and "default" in s.variants
    assert s.estimate_seconds is None or s.estimate_seconds >= 0
    with pytest.raises(fftmux.NotFoundError, match="no backend named 'nope'"):
        fftmux.query("nope", (100,))


def test_query_of_padded_sides():
    assert fftmux.query("fftw", (64, 64), in_extent=(8, 20), out_extent=(64, 10))
    with pytest.raises(fftmux.InvalidArgumentError, match=r"in_extent\[1\] = 70 exceeds n\[1\] = 64"):
        fftmux.query("fftw", (64, 64), in_extent=(8, 70))


def test_a_closed_cached_plan_is_replaced(rng):
    x = random(rng, 24, np.complex128)
    fftmux.fft(x)
    fftmux.plan_cache.plans()[-1].close()
    assert_close(fftmux.fft(x), np.fft.fft(x))
    assert not fftmux.plan_cache.plans()[-1].closed


def test_run_on_raw_addresses(rng):
    x = random(rng, 16, np.complex128)
    y = np.empty_like(x)
    p = fftmux.Plan((16,))
    p.run("forward", x.ctypes.data, y.ctypes.data)
    assert_close(y, np.fft.fft(x))


def test_devices_are_a_plan_option_that_fftw_declines():
    # fftw runs on one device: a plan across two is declined with the reason.
    for devices in (2, [0, 1]):
        with pytest.raises(fftmux.UnsupportedError, match="lacks FFTMUX_CAP_DEVICES"):
            fftmux.Plan((16,), backend="fftw", devices=devices)
    with pytest.raises(fftmux.InvalidArgumentError, match="listed twice"):
        fftmux.Plan((16,), backend="fftw", devices=[1, 1])
    with pytest.raises(ValueError, match="order='sideways'"):
        fftmux.Plan((16,), backend="fftw", order="sideways")
    assert fftmux.Plan((16,), backend="fftw", devices=1).backend == "fftw"
    fftw = [b for b in fftmux.backends(probe=True) if b.name == "fftw"]
    assert fftw and fftw[0].max_devices == 1
