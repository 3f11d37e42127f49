"""The centred 2-D spectrum of an image, written as a PNG.

A synthetic image (a tilted grating on a soft disc) is transformed by fftmux.fft2 with
shift="output": the spectrum comes out centred, as numpy.fft.fftshift(numpy.fft.fft2(x))
would give it, without a separate shifting pass. The grating's frequency must appear as two
peaks symmetric about the centre.

    python3 examples/python/spectrum.py [output.png]
"""

import sys

import _path  # noqa: F401
import matplotlib

matplotlib.use("Agg")  # files only: no display needed
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

import fftmux  # noqa: E402

SIZE = 256
GRATING = (12, 20)  # cycles per image along y and x


def synthetic_image():
    y, x = np.mgrid[0:SIZE, 0:SIZE].astype(np.float32) / SIZE
    disc = np.exp(-(((x - 0.5) ** 2 + (y - 0.5) ** 2) / 0.02) ** 2)
    grating = np.cos(2 * np.pi * (GRATING[0] * y + GRATING[1] * x))
    return (disc * (1 + 0.5 * grating)).astype(np.float32)


def check(image, spectrum):
    assert spectrum.dtype == np.complex64, spectrum.dtype  # float32 stays single precision
    reference = np.fft.fftshift(np.fft.fft2(image.astype(np.float64)))
    error = np.max(np.abs(spectrum - reference)) / np.max(np.abs(reference))
    assert error < 1e-5, f"fftmux and numpy differ by {error:.3g}"
    # The strongest components off the centre are the grating's two peaks.
    centre = SIZE // 2
    magnitude = np.abs(spectrum)
    magnitude[centre - 4:centre + 5, centre - 4:centre + 5] = 0  # the disc's own spectrum
    peaks = np.argsort(magnitude, axis=None)[-2:]
    found = sorted(tuple(int(v) - centre for v in np.unravel_index(p, magnitude.shape))
                   for p in peaks)
    want = sorted([(-GRATING[0], -GRATING[1]), GRATING])
    assert found == want, f"peaks at {found}, expected {want}"
    return error


def write_png(image, spectrum, path):
    fig, (left, right) = plt.subplots(1, 2, figsize=(9, 4.5))
    left.imshow(image, cmap="gray")
    left.set_title("image")
    half = SIZE // 2
    extent = (-half - 0.5, half - 0.5, half - 0.5, -half - 0.5)
    right.imshow(np.log1p(np.abs(spectrum)), cmap="magma", extent=extent)
    right.set_title("log |spectrum|, centred by shift='output'")
    right.set_xlabel("kx (cycles per image)")
    right.set_ylabel("ky")
    fig.tight_layout()
    fig.savefig(path, dpi=80)
    plt.close(fig)


def main(path):
    image = synthetic_image()
    spectrum = fftmux.fft2(image, shift="output")
    error = check(image, spectrum)
    write_png(image, spectrum, path)
    with open(path, "rb") as f:
        assert f.read(8) == b"\x89PNG\r\n\x1a\n", "the output is not a PNG"
    plan = fftmux.plan_cache.plans()[-1]
    print(f"{SIZE}x{SIZE} spectrum on {plan.backend}: peaks at +-{GRATING}, "
          f"relative difference to numpy {error:.2g}; wrote {path}")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "spectrum.png")
