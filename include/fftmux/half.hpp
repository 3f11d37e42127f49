// The 16-bit storage formats on the host: IEEE half (F16) and bfloat16
// (BF16) to and from float, rounding to nearest even, as the GPU kernels
// convert them. Header-only, for the reference, the tools and the tuner.
#pragma once

#include <cstdint>
#include <cstring>

namespace fftmux::half {

inline float from_bits(uint32_t u) {
  float f;
  std::memcpy(&f, &u, sizeof f);
  return f;
}

inline uint32_t to_bits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, sizeof u);
  return u;
}

// F16: the exponent rebiased by a multiply by 2^112 (subnormals exact).
inline float f16_to_float(uint16_t h) {
  uint32_t mag = uint32_t(h & 0x7fffu) << 13;
  float f = from_bits(mag) * 0x1p112f;
  if ((h & 0x7c00u) == 0x7c00u) // infinity, NaN
    f = from_bits(mag | 0x7f800000u);
  return from_bits(to_bits(f) | uint32_t(h & 0x8000u) << 16);
}

// F. Giesen's float_to_half_fast3_rtne: overflow to infinity, subnormals
// by adding 0.5, normals rounded by adding half an ulp and the odd bit.
inline uint16_t float_to_f16(float x) {
  uint32_t f = to_bits(x) & 0x7fffffffu, sign = (to_bits(x) >> 16) & 0x8000u;
  if (f >= 0x47800000u)
    return uint16_t(sign | (f > 0x7f800000u ? 0x7e00u : 0x7c00u));
  if (f < 0x38800000u)
    return uint16_t(sign | (to_bits(from_bits(f) + 0.5f) - 0x3f000000u));
  return uint16_t(sign | ((f + 0xc8000fffu + ((f >> 13) & 1u)) >> 13));
}

// BF16 is the upper half of a float.
inline float bf16_to_float(uint16_t b) {
  return from_bits(uint32_t(b) << 16);
}

inline uint16_t float_to_bf16(float x) {
  uint32_t u = to_bits(x);
  if (x != x)
    return 0x7fc0u;
  return uint16_t((u + 0x7fffu + ((u >> 16) & 1u)) >> 16);
}

// A value of either format as a scalar type the reference and tools
// template on: constructed from a wider value, converted back to float.
template <uint16_t (*Encode)(float), float (*Decode)(uint16_t)> struct Scalar {
  uint16_t bits = 0;
  Scalar() = default;
  template <class T> explicit Scalar(T v) : bits(Encode(float(v))) {}
  operator float() const { return Decode(bits); }
};
using F16 = Scalar<float_to_f16, f16_to_float>;
using BF16 = Scalar<float_to_bf16, bf16_to_float>;

} // namespace fftmux::half
