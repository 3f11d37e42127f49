// The syntax of one target language: everything emit() writes that is not
// the algorithm. A new dialect is one more table in dialect.cpp.
#pragma once

#include <fftmux/codegen.hpp>

namespace fftmux::codegen {

struct Syntax {
  Dialect dialect;
  const char* name;
  // Before everything: version line, extensions, the type and helper macros
  // (real_t, cplx_t, CPLX, K, FN, INOUT). %s: the real and complex type names.
  const char* prelude;
  const char* real_type[2];    // f32, f64
  const char* complex_type[2]; // f32, f64
  const char* literal_suffix[2];
  // Declarations of src/dst/table buffers and the group offset; %u is the
  // workgroup size where a dialect needs it (CUDA's launch bounds).
  const char* globals;
  const char* shared_decl; // %u: scalars
  // %1$s: entry name, %2$u: workgroup size, %3$s: ", groups" or "",
  // %4$s: the table pointer's qualifier ("__restrict__ " or "")
  const char* entry_open;
  const char* entry_close;
  const char* local_id; // expression of the invocation's index in the workgroup
  const char* group_id; // the linear workgroup index, group_offset included
  const char* barrier;
  // Element access: %s is the index expression.
  const char *src, *dst, *tab;
  const char *src_real, *dst_real; // a real element of a complex-typed buffer
  // A real value of another lane in the same run of lanes: %1$s the value,
  // %2$s the source lane within the run, %3$s the run's length (a power of
  // two up to 32, the runs aligned). nullptr: the dialect has none (GLSL's
  // subgroup size is not fixed across the drivers it targets).
  const char* shuffle;
};

const Syntax& syntax(Dialect d);

// The texts of shaders/ (generated into the library by CMake).
extern const char* const shader_complex;
extern const char* const shader_butterflies;
extern const char* const shader_real;

// An odd butterfly (3, 5, 7, 9, 11, 13) named bf<p><suffix>: the DFT of p
// points through its symmetric pairs, valid for any odd p.
std::string odd_butterfly(int p, int sign, const char* suffix);
// bf<r><suffix> for a composite radix r = a b (composite_parts): butterflies
// of a and b with the twiddles between them, in registers (32 = 16 x 2).
std::string composite_butterfly(int r, int sign, const char* suffix);

} // namespace fftmux::codegen
