"""Linear convolution by FFT, checked against direct convolution.

Zero-padding both signals to len(a) + len(b) - 1 (rfft's n=) turns the FFT's circular
convolution into the linear one. The second part filters a batch of signals with one kernel
through reusable Plans, the way a streaming application would; the third lets a
Convolution object do the same (the padding, the kernel's transform once, the product),
and fftmux.fftconvolve match scipy.signal.fftconvolve's result.

    python3 examples/python/convolution.py
"""

import _path  # noqa: F401
import numpy as np

import fftmux


def fft_convolve(a, b):
    n = len(a) + len(b) - 1
    return fftmux.irfft(fftmux.rfft(a, n) * fftmux.rfft(b, n), n)


def gaussian(length, width):
    t = np.arange(length) - (length - 1) / 2
    g = np.exp(-0.5 * (t / width) ** 2)
    return g / g.sum()


def single(rng):
    signal = np.cumsum(rng.standard_normal(5000))  # a random walk
    kernel = gaussian(301, 40.0)
    ours = fft_convolve(signal, kernel)
    direct = np.convolve(signal, kernel)
    error = np.max(np.abs(ours - direct)) / np.max(np.abs(direct))
    assert ours.shape == direct.shape and error < 1e-12, error
    return error


def batched(rng, count=32, length=2000):
    """One kernel, many signals: plans made once, reused for every block."""
    kernel = gaussian(129, 10.0)
    n = length + len(kernel) - 1
    forward = fftmux.Plan((n,), kind="r2c", batch=count)
    inverse = fftmux.Plan((n,), kind="c2r", batch=count)
    kernel_spectrum = fftmux.rfft(kernel, n)
    signals = np.zeros((count, n))
    signals[:, :length] = rng.standard_normal((count, length))
    spectra = forward.forward(signals)
    spectra *= kernel_spectrum  # broadcast over the batch
    filtered = inverse.inverse(spectra)
    direct = np.array([np.convolve(s[:length], kernel) for s in signals])
    error = np.max(np.abs(filtered - direct)) / np.max(np.abs(direct))
    assert error < 1e-12, error
    return error, forward.backend


def fused(rng, count=32, length=2000):
    """The batch again through one Convolution object, and one signal through fftconvolve."""
    kernel = gaussian(129, 10.0)
    conv = fftmux.Convolution((length,), kernel.shape, kernel, batch=count)
    signals = rng.standard_normal((count, length))
    direct = np.array([np.convolve(s, kernel) for s in signals])
    error = np.max(np.abs(conv(signals) - direct)) / np.max(np.abs(direct))
    same = fftmux.fftconvolve(signals[0], kernel, mode="same")
    centred = direct[0][(len(kernel) - 1) // 2:][:length]
    error = max(error, np.max(np.abs(same - centred)) / np.max(np.abs(centred)))
    assert error < 1e-12, error
    return error


def main():
    rng = np.random.default_rng(1)
    e1 = single(rng)
    e2, backend = batched(rng)
    e3 = fused(rng)
    print(f"FFT convolution matches direct convolution: single {e1:.2g}, "
          f"batch of 32 on {backend} {e2:.2g}, Convolution and fftconvolve {e3:.2g}")


if __name__ == "__main__":
    main()
