#!/usr/bin/python3
"""Writes the binary seed inputs of corpus/ (descriptor, index, npy): a few
valid inputs the fuzzers mutate from. The text seeds (TOML) are plain files.
Run from anywhere; the files are committed, so this only runs again when
a format changes."""
import io
import os
import struct

import numpy as np

here = os.path.join(os.path.dirname(os.path.abspath(__file__)), "corpus")


def write(folder, name, data):
    os.makedirs(os.path.join(here, folder), exist_ok=True)
    with open(os.path.join(here, folder, name), "wb") as f:
        f.write(data)


# descriptor_fuzz.cpp: an options byte, then about a byte per field
# (compact: strides stored plus 128, distances plus 32768 in two bytes) ...
def compact(options, rank, n, batch, kind, precision, norm, placement, flags,
            in_strides=(0, 0, 0), out_strides=(0, 0, 0), in_distance=0, out_distance=0):
    b = bytes([options, rank, *n, batch, kind, precision, norm, placement, flags])
    b += bytes(v + 128 for v in (*in_strides, *out_strides))
    return b + struct.pack(">HH", in_distance + 32768, out_distance + 32768)


# ... or (options bit 7) the raw fftmux_desc.
def raw(options, rank, n, batch, kind=0, precision=0, norm=1, placement=0, flags=0,
        in_strides=(0, 0, 0), in_distance=0, out_strides=(0, 0, 0), out_distance=0):
    desc = struct.pack("<II3qq6I3qq3qq", 128, rank, *n, batch, kind, precision, norm,
                       placement, flags, 0, *in_strides, in_distance, *out_strides,
                       out_distance)
    return bytes([options | 0x80]) + desc


seeds = {
    "c2c_1d": compact(0, 1, (16, 1, 1), 1, 0, 0, 1, 0, 0),
    "c2c_inverse_buffers": compact(0x30, 1, (12, 1, 1), 2, 0, 1, 1, 1, 0),
    "r2c_2d_shift": compact(2, 2, (6, 9, 1), 1, 1, 1, 2, 0, 3),
    "c2r_3d_in_place": compact(0, 3, (4, 5, 6), 1, 2, 0, 3, 0, 4),
    "c2c_strided": compact(0, 1, (8, 1, 1), 3, 0, 1, 0, 0, 0, (2, 0, 0), (3, 0, 0), 17, 25),
    "r2c_in_place_batch": compact(1, 2, (4, 6, 1), 2, 1, 0, 1, 0, 4),
    "raw_c2c": raw(2, 1, (64, 1, 1), 4),
    "raw_strided_2d": raw(0, 2, (5, 7, 1), 2, kind=1, precision=1,
                          in_strides=(7, 1, 0), in_distance=40, out_strides=(1, 5, 0),
                          out_distance=20),
    "raw_huge": raw(0, 3, (1 << 40, 1 << 30, 3), 1 << 20),
}
for name, data in seeds.items():
    write("descriptor", name, data)

# npy_fuzz.cpp: arrays as numpy writes them.
for name, array in {
    "f32_1d": np.arange(8, dtype=np.float32),
    "c64_2d": (np.arange(12) * (1 + 2j)).astype(np.complex64).reshape(3, 4),
    "f64_scalar": np.array(2.5),
    "c128_empty": np.zeros((0, 3), dtype=np.complex128),
}.items():
    out = io.BytesIO()
    np.save(out, array)
    write("npy", name + ".npy", out.getvalue())


# index_fuzz.cpp: the binary index of core/tuning.cpp (encode_index).
def text(s):
    b = s.encode()
    return struct.pack("<I", len(b)) + b


def measurement(problem, backend, variant, median, failed=False):
    b = b"".join(text(s) for s in (problem, "c2c f32 rank 1 host", backend, "cpu x",
                                   variant, "", "2024-01-01T00:00:00Z",
                                   "failed" if failed else ""))
    b += struct.pack("<8d", median, 0.1 * median, 0, 1.5, 1e-4, -1, median, -1)
    b += struct.pack("<qqB", 1024, 4, failed)
    return b + struct.pack("<I", 1) + text(variant) + struct.pack("<d", median)


index = b"FMXIDX1\0" + struct.pack("<QQQ", 4242, 1, 2) + struct.pack("<Q", 2)
index += measurement("c2c f32 1024 batch 4 host out-of-place default", "fftw", "default", 2e-5)
index += measurement("c2c f32 1024 batch 4 host out-of-place default", "vulkan", "r8", 0, True)
write("index", "two_entries.idx", index)
