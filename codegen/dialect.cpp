// The dialect tables: Vulkan GLSL 4.30, OpenGL GLSL 4.30, CUDA C++ (NVRTC).
#include "dialect.hpp"

#include <cmath>
#include <cstdio>

namespace fftmux::codegen {

namespace {

// What the GLSL dialects share: the type macros after their #version, the
// linear workgroup index.
#define GLSL_TYPES                                                                                 \
  "#define real_t %s\n#define cplx_t %s\n#define CPLX(a, b) cplx_t(a, b)\n"                        \
  "#define FN\n#define INOUT(T) inout T\n"
#define GLSL_GROUP(offset) "(gl_WorkGroupID.x + gl_WorkGroupID.y * gl_NumWorkGroups.x + " offset ")"
// The types of both precisions and their literal suffixes.
// clang-format off
#define GLSL_SCALARS {"float", "double"}, {"vec2", "dvec2"}, {"", "LF"}
// clang-format on
// 16-bit storage: F16 through GLSL's packHalf2x16 (core since 4.20, no
// extension); BF16 is the upper half of an F32, rounded to nearest even.
// clang-format off
#define GLSL_HALF                                                                                  \
  {"cplx_t ld16(uint w) { return unpackHalf2x16(w); }\n"                                           \
   "real_t ld16r(uint w, uint i) { return unpackHalf2x16(w)[i]; }\n"                               \
   "uint st16(cplx_t v) { return packHalf2x16(v); }\n"                                             \
   "uint st16r(real_t v) { return packHalf2x16(cplx_t(v, 0.0)); }\n",                              \
   "cplx_t ld16(uint w) { return cplx_t(uintBitsToFloat(w << 16), uintBitsToFloat(w & 0xffff0000u)); }\n" \
   "real_t ld16r(uint w, uint i) { return uintBitsToFloat(i == 0u ? w << 16 : w & 0xffff0000u); }\n" \
   "uint bf16(real_t f) { uint u = floatBitsToUint(f); "                                            \
   "return isnan(f) ? 0x7fc0u : (u + 0x7fffu + ((u >> 16) & 1u)) >> 16; }\n"                       \
   "uint st16(cplx_t v) { return bf16(v.x) | (bf16(v.y) << 16); }\n"                              \
   "uint st16r(real_t v) { return bf16(v); }\n"}
// A 16-bit real into its half of a word that another thread may write too.
#define GLSL_STORE16 "atomicAnd(%1$s, %2$s); atomicOr(%1$s, %3$s);"
// clang-format on
// From shared memory to the barrier: the entry, the invocation and workgroup
// indices. barrier() alone orders shared memory in a compute shader (glslang
// gives it workgroup-memory semantics; GL makes shared writes visible to the
// group at it), where memoryBarrierShared() added a memory barrier of device
// scope to every exchange.
#define GLSL_BODY(offset)                                                                          \
  "shared real_t sh[%u];\n", "void %s() {\n", "}\n", "gl_LocalInvocationID.x", GLSL_GROUP(offset), \
      "barrier();"

// Vulkan GLSL at 4.30, not 4.50: the SPIR-V is the same (only OpSource
// differs), and glslang builds smaller built-in symbol tables for the
// process's first kernel (development VM, glslc on an empty compute shader:
// 0.08 s at 430, 0.15 at 450).
const Syntax vulkan = {
    Dialect::vulkan,
    "vulkan",
    "#version 430\n" GLSL_TYPES,
    GLSL_SCALARS,
    "layout(local_size_x = %1$u) in;\n"
    "layout(std430, set = 0, binding = 0) readonly buffer Src { %2$s d[]; } src;\n"
    "layout(std430, set = 0, binding = 1) %4$sbuffer Dst { %3$s d[]; } dst;\n"
    "layout(std430, set = 0, binding = 2) readonly buffer Tab { cplx_t d[]; } tab;\n"
    "layout(push_constant) uniform Push { uint group_offset; } pc;\n",
    GLSL_BODY("pc.group_offset"),
    "src.d[%s]",
    "dst.d[%s]",
    "tab.d[%s]",
    "src.d[(%1$s) >> 1][(%1$s) & 1u]",
    "dst.d[(%1$s) >> 1][(%1$s) & 1u]",
    nullptr,
    nullptr,
    GLSL_HALF,
    GLSL_STORE16,
};

// Vulkan with buffer device addresses (GL_EXT_buffer_reference): the
// buffers are pointers in push constants, as CUDA's kernel arguments, in
// place of descriptor-bound storage buffers; an experiment of vulkan_bench
// (--pointers), to tell whether that is what keeps NVIDIA's Vulkan kernels
// slower than the same kernels under CUDA.
const Syntax vulkan_pointers = {
    Dialect::vulkan_pointers,
    "vulkan-pointers",
    "#version 450\n#extension GL_EXT_buffer_reference : require\n" GLSL_TYPES,
    GLSL_SCALARS,
    "layout(local_size_x = %1$u) in;\n"
    "layout(buffer_reference, std430, buffer_reference_align = 8) readonly buffer Src "
    "{ %2$s d[]; };\n"
    "layout(buffer_reference, std430, buffer_reference_align = 8) %4$sbuffer Dst "
    "{ %3$s d[]; };\n"
    "layout(buffer_reference, std430, buffer_reference_align = 8) readonly buffer Tab "
    "{ cplx_t d[]; };\n"
    "layout(push_constant) uniform Push { Src src; Dst dst; Tab tab; uint group_offset; } pc;\n",
    GLSL_BODY("pc.group_offset"),
    "pc.src.d[%s]",
    "pc.dst.d[%s]",
    "pc.tab.d[%s]",
    "pc.src.d[(%1$s) >> 1][(%1$s) & 1u]",
    "pc.dst.d[(%1$s) >> 1][(%1$s) & 1u]",
    nullptr,
    nullptr,
    GLSL_HALF,
    GLSL_STORE16,
};

// OpenGL 4.3: SSBO bindings without sets, a plain uniform for the offset.
const Syntax opengl = {
    Dialect::opengl,
    "opengl",
    "#version 430\n" GLSL_TYPES,
    GLSL_SCALARS,
    "layout(local_size_x = %1$u) in;\n"
    "layout(std430, binding = 0) readonly buffer Src { %2$s d[]; } src;\n"
    "layout(std430, binding = 1) %4$sbuffer Dst { %3$s d[]; } dst;\n"
    "layout(std430, binding = 2) readonly buffer Tab { cplx_t d[]; } tab;\n"
    // Real views of the same buffers: NVIDIA's GLSL compiler rejects a
    // double written through a dynamically indexed dvec2 component.
    "layout(std430, binding = 0) readonly buffer SrcReal { real_t d[]; } src_r;\n"
    "layout(std430, binding = 1) writeonly buffer DstReal { real_t d[]; } dst_r;\n"
    "layout(location = 0) uniform uint group_offset;\n",
    GLSL_BODY("group_offset"),
    "src.d[%s]",
    "dst.d[%s]",
    "tab.d[%s]",
    "src_r.d[%s]",
    "dst_r.d[%s]",
    nullptr,
    nullptr,
    GLSL_HALF,
    GLSL_STORE16,
};

const Sm90 cuda_sm90 = {
    "__cluster_dims__(%u, 1, 1) ",
    "asm volatile(\"barrier.cluster.arrive.release.aligned;\\n\\t"
    "barrier.cluster.wait.acquire.aligned;\" ::: \"memory\");",
    "uint zs = uint(__cvta_generic_to_shared(sh));",
    "uint za%1$lld; asm(\"mapa.shared::cluster.u32 %%0, %%1, %%2;\" : \"=r\"(za%1$lld) "
    ": \"r\"(zs), \"r\"(%1$lldu));",
    "asm volatile(\"ld.shared::cluster.v2.f32 {%%0, %%1}, [%%2];\" : \"=f\"(%1$s.x), "
    "\"=f\"(%1$s.y) : \"r\"(%2$s));",
    // A source not 16-byte aligned (a caller's pointer) is read directly
    // instead: the copy needs that alignment.
    "  __shared__ __align__(8) unsigned long long bar;\n"
    "  uint bar_at = (uint)__cvta_generic_to_shared(&bar), phase = 0u;\n"
    "  uint pre_at = (uint)__cvta_generic_to_shared(sh + %1$s);\n"
    "  const cplx_t* pre = (const cplx_t*)(sh + %1$s);\n"
    "  bool bulk = ((size_t)src & 15u) == 0u;\n"
    "  if (lid == 0u) {\n"
    "    asm volatile(\"mbarrier.init.shared::cta.b64 [%%0], 1;\" :: \"r\"(bar_at) : "
    "\"memory\");\n"
    "    asm volatile(\"fence.mbarrier_init.release.cluster;\" ::: \"memory\");\n"
    "  }\n"
    "  __syncthreads();\n  %2$s\n  for (uint group = blockIdx.x; group < %3$s; group += "
    "gridDim.x) {\n",
    "if (bulk && lid == 0u && %1$s < %2$s) { "
    "asm volatile(\"fence.proxy.async.shared::cta;\" ::: \"memory\"); "
    "asm volatile(\"mbarrier.arrive.expect_tx.shared::cta.b64 _, [%%0], %%1;\" :: "
    "\"r\"(bar_at), \"r\"(%3$s) : \"memory\"); "
    "asm volatile(\"cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes "
    "[%%0], [%%1], %%2, [%%3];\" :: \"r\"(pre_at), \"l\"(src + (size_t)(%1$s) * %4$s), "
    "\"r\"(%3$s), \"r\"(bar_at) : \"memory\"); }",
    "asm volatile(\"{ .reg .pred p; W: mbarrier.try_wait.parity.shared::cta.b64 p, [%0], "
    "%1; @!p bra W; }\" :: \"r\"(bar_at), \"r\"(phase) : \"memory\");",
    "blockIdx.x",
    "group + gridDim.x",
};

// 16-bit storage in CUDA by bit operations (no header NVRTC must find, and the
// emulation runs them as they are): F16 rebiased by a multiply, rounded to
// nearest even as F. Giesen's float_to_half_fast3_rtne; BF16 as in GLSL.
const char* const cuda_f16 =
    "FN real_t h2f(uint h) {\n"
    "  real_t f = __uint_as_float((h & 0x7fffu) << 13) * 5.192296858534828e33f; // 2^112\n"
    "  if ((h & 0x7c00u) == 0x7c00u) f = __uint_as_float(((h & 0x7fffu) << 13) | 0x7f800000u);\n"
    "  return __uint_as_float(__float_as_uint(f) | ((h & 0x8000u) << 16));\n"
    "}\n"
    "FN uint f2h(real_t x) {\n"
    "  uint f = __float_as_uint(x) & 0x7fffffffu, sign = (__float_as_uint(x) >> 16) & 0x8000u;\n"
    "  if (f >= 0x47800000u) return sign | (f > 0x7f800000u ? 0x7e00u : 0x7c00u);\n"
    "  if (f < 0x38800000u) return sign | (__float_as_uint(__uint_as_float(f) + 0.5f) - "
    "0x3f000000u);\n"
    "  return sign | ((f + 0xc8000fffu + ((f >> 13) & 1u)) >> 13);\n"
    "}\n"
    "FN cplx_t ld16(uint w) { return CPLX(h2f(w & 0xffffu), h2f(w >> 16)); }\n"
    "FN real_t ld16r(uint w, uint i) { return h2f(i ? w >> 16 : w & 0xffffu); }\n"
    "FN uint st16(cplx_t v) { return f2h(v.x) | (f2h(v.y) << 16); }\n"
    "FN uint st16r(real_t v) { return f2h(v); }\n";
const char* const cuda_bf16 =
    "FN cplx_t ld16(uint w) { return CPLX(__uint_as_float(w << 16), __uint_as_float(w & "
    "0xffff0000u)); }\n"
    "FN real_t ld16r(uint w, uint i) { return __uint_as_float(i ? w & 0xffff0000u : w << 16); }\n"
    "FN uint bf16(real_t f) { uint u = __float_as_uint(f); "
    "return f != f ? 0x7fc0u : (u + 0x7fffu + ((u >> 16) & 1u)) >> 16; }\n"
    "FN uint st16(cplx_t v) { return bf16(v.x) | (bf16(v.y) << 16); }\n"
    "FN uint st16r(real_t v) { return bf16(v); }\n";

// CUDA C++ for NVRTC: vector operators the GLSL types have built in.
const Syntax cuda = {
    Dialect::cuda,
    "cuda",
    "typedef unsigned int uint;\n"
    "#define real_t %1$s\n#define cplx_t %2$s\n#define CPLX(a, b) make_%2$s(a, b)\n"
    "#define FN __device__ __forceinline__\n#define INOUT(T) T&\n"
    "FN cplx_t operator+(cplx_t a, cplx_t b) { return CPLX(a.x + b.x, a.y + b.y); }\n"
    "FN cplx_t operator-(cplx_t a, cplx_t b) { return CPLX(a.x - b.x, a.y - b.y); }\n"
    "FN cplx_t operator-(cplx_t a) { return CPLX(-a.x, -a.y); }\n"
    "FN cplx_t operator*(cplx_t a, real_t s) { return CPLX(a.x * s, a.y * s); }\n",
    {"float", "double"},
    {"float2", "double2"},
    {"f", ""},
    "",
    // Dynamic: the launch sizes it, so a kernel may use more than the 48 KiB
    // a static array allows (227 KiB per block on Hopper); 16-byte aligned
    // for bulk copies (Kernel::stream).
    "  extern __shared__ __align__(16) real_t sh[];\n",
    // %4$s qualifies the table, which is never written (src and dst alias
    // in place, so they stay plain).
    "extern \"C\" __global__ void %5$s__launch_bounds__(%2$u%3$s) %1$s("
    "const %6$s* src, %7$s* dst, const cplx_t* %4$stab, uint group_offset) {\n",
    "}\n",
    "threadIdx.x",
    "(blockIdx.x + blockIdx.y * gridDim.x + group_offset)",
    "__syncthreads();",
    "src[%s]",
    "dst[%s]",
    "tab[%s]",
    "((const real_t*)src)[%1$s]",
    "((real_t*)dst)[%1$s]",
    // Every lane of the warp runs it: exchanges are outside guards, and
    // shuffled() asks for whole warps.
    "__shfl_sync(0xffffffffu, %1$s, %2$s, %3$s)",
    &cuda_sm90,
    {cuda_f16, cuda_bf16},
    "atomicAnd(&%1$s, %2$s); atomicOr(&%1$s, %3$s);",
};

} // namespace

const Syntax& syntax(Dialect d) {
  switch (d) {
  case Dialect::opengl: return opengl;
  case Dialect::cuda: return cuda;
  case Dialect::vulkan_pointers: return vulkan_pointers;
  default: return vulkan;
  }
}

const char* dialect_name(Dialect d) {
  return syntax(d).name;
}

// y_k = a0 + sum_j (a_j + a_{p-j}) cos(2 pi jk/p) + S i sum_j (a_j - a_{p-j}) sin(2 pi jk/p)
std::string odd_butterfly(int p, int sign, const char* suffix) {
  std::string sfx = suffix, s = "FN void bf" + std::to_string(p) + sfx + "(";
  for (int i = 0; i < p; ++i)
    s += (i ? ", " : "") + std::string("INOUT(cplx_t) a") + std::to_string(i);
  s += ") {\n";
  int h = (p - 1) / 2;
  auto lit = [](double v) {
    char b[64];
    std::snprintf(b, sizeof b, "K(%.20f)", v);
    return std::string(b);
  };
  std::string y0 = "a0";
  for (int j = 1; j <= h; ++j) {
    std::string J = std::to_string(j), Q = std::to_string(p - j);
    s += "  cplx_t s" + J + " = a" + J + " + a" + Q + ", d" + J + " = a" + J + " - a" + Q + ";\n";
    y0 += " + s" + J;
  }
  const double pi = 3.14159265358979323846;
  for (int k = 1; k <= h; ++k) {
    std::string K = std::to_string(k), re = "a0", im;
    for (int j = 1; j <= h; ++j) {
      std::string J = std::to_string(j);
      re += " + s" + J + " * " + lit(std::cos(2 * pi * j * k / p));
      im += (j > 1 ? " + d" : "d") + J + " * " + lit(std::sin(2 * pi * j * k / p));
    }
    s += "  cplx_t r" + K + " = " + re + ";\n  cplx_t i" + K + " = rot" + sfx + "(" + im + ");\n";
  }
  s += "  a0 = " + y0 + ";\n";
  for (int k = 1; k <= h; ++k) {
    std::string K = std::to_string(k), Q = std::to_string(p - k);
    s += "  a" + K + " = r" + K + " + i" + K + ";\n  a" + Q + " = r" + K + " - i" + K + ";\n";
  }
  (void)sign; // the sign lives in rot<suffix>
  return s + "}\n";
}

// A twiddle w_r^e applied to v: the eighth turns exactly (w8 from
// shaders/butterflies.glsl, spliced wherever r has a factor 8), the rest by
// its constant.
static std::string twiddled(const std::string& v, int r, int e, int sign, const std::string& sfx) {
  if (8 * e % r == 0) {
    static const char* const eighth[] = {"", "w81", "rot", "w83", "-", "-w81", "-rot", "-w83"};
    std::string f = eighth[8 * e / r];
    return f == "-" ? "-" + v : f + sfx + "(" + v + ")";
  }
  const double pi = 3.14159265358979323846;
  char c[96];
  std::snprintf(c, sizeof c, "CPLX(K(%.20f), K(%.20f))", std::cos(2 * pi * e / r),
                sign * std::sin(2 * pi * e / r));
  return "cmul(" + v + ", " + c + ")";
}

// Cooley-Tukey in registers, r = a b, input n = b n1 + n2, output
// k = k1 + a k2: DFT_a down each of the b columns, the twiddles w_r^(n2 k1),
// DFT_b along each row (slot b k1 + k2 then holds X[k1 + a k2]), and the
// transpose into natural order, which is only renaming.
std::string composite_butterfly(int r, int sign, const char* suffix) {
  auto [a, b] = composite_parts(r);
  std::string sfx = suffix, s = "FN void bf" + std::to_string(r) + sfx + "(";
  auto at = [](int i) { return "a" + std::to_string(i); };
  for (int i = 0; i < r; ++i)
    s += (i ? ", " : "") + std::string("INOUT(cplx_t) ") + at(i);
  s += ") {\n";
  auto call = [&](int radix, int first, int stride, int count) {
    s += "  bf" + std::to_string(radix) + sfx + "(";
    for (int i = 0; i < count; ++i)
      s += (i ? ", " : "") + at(first + i * stride);
    s += ");\n";
  };
  for (int n2 = 0; n2 < b; ++n2)
    call(a, n2, b, a);
  for (int k1 = 1; k1 < a; ++k1)
    for (int n2 = 1; n2 < b; ++n2)
      s +=
          "  " + at(b * k1 + n2) + " = " + twiddled(at(b * k1 + n2), r, n2 * k1, sign, sfx) + ";\n";
  for (int k1 = 0; k1 < a; ++k1)
    call(b, b * k1, 1, b);
  for (int k1 = 0; k1 < a; ++k1) // the transpose's moved values; fixed points stay
    for (int k2 = 0; k2 < b; ++k2)
      if (k1 + a * k2 != b * k1 + k2)
        s += "  cplx_t t" + std::to_string(b * k1 + k2) + " = " + at(b * k1 + k2) + ";\n";
  for (int k1 = 0; k1 < a; ++k1)
    for (int k2 = 0; k2 < b; ++k2)
      if (k1 + a * k2 != b * k1 + k2)
        s += "  " + at(k1 + a * k2) + " = t" + std::to_string(b * k1 + k2) + ";\n";
  return s + "}\n";
}

} // namespace fftmux::codegen
