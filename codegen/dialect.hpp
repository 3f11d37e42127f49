// The syntax of one target language: everything emit() writes that is not
// the algorithm. A new dialect is one more table in dialect.cpp.
#pragma once

#include <fftmux/codegen.hpp>

namespace fftmux::codegen {

// What CUDA adds from compute capability 9.0, as PTX and intrinsics: clusters
// whose groups read each other's shared memory (Kernel::cluster) and bulk
// copies completing on a shared barrier (Kernel::stream).
struct Sm90 {
  const char* cluster_dims;    // %u: groups a cluster; before the entry's name
  const char* cluster_barrier; // a statement: the whole cluster waits
  const char* cluster_base;    // a statement declaring zs, the address of sh
  const char* cluster_map;     // %1$lld: rank d; declares zad, zs in group d of the cluster
  const char* cluster_load;    // %1$s = the complex value at %2$s, an address of the cluster
  // Streamed lines: the opening of the loop over lines (%1$s: where the
  // copy lands in sh, %2$s: the first line's copy, %3$s: the groups); a
  // copy of line %1$s (< %2$s) of %3$s bytes, from src + (%1$s) * %4$s;
  // the statement waiting for it.
  const char* stream_open;
  const char* stream_fetch;
  const char* stream_wait;
  const char* first_group; // the first line a group takes
  const char* next_group;  // the line a group takes after `group`
};

struct Syntax {
  Dialect dialect;
  const char* name;
  // Before everything: version line, extensions, the type and helper macros
  // (real_t, cplx_t, CPLX, K, FN, INOUT). %s: the real and complex type names.
  const char* prelude;
  const char* real_type[2];    // f32, f64
  const char* complex_type[2]; // f32, f64
  const char* literal_suffix[2];
  // Declarations of src/dst/table buffers and the group offset; %1$u is the
  // workgroup size where a dialect needs it, %2$s and %3$s the element types
  // of src and dst (cplx_t, or uint for 16-bit storage), %4$s dst's
  // qualifier ("writeonly ", or "" where 16-bit reals are stored by atomics).
  const char* globals;
  const char* shared_decl; // %u: scalars
  // %1$s: entry name, %2$u: workgroup size, %3$s: ", groups" or "",
  // %4$s: the table pointer's qualifier ("__restrict__ " or ""), %5$s: the
  // cluster dimensions, %6$s and %7$s: the element types of src and dst
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
  const Sm90* sm90; // nullptr: the dialect has none
  // 16-bit storage (Kernel::storage), F16 and BF16: functions converting a
  // caller's 32-bit word, ld16(w) -> cplx_t, ld16r(w, half) -> real_t (half 0
  // the low 16 bits), st16(cplx_t) -> word and st16r(real_t) -> its bits in
  // the low half, rounding to nearest even.
  const char* half_functions[2];
  // A 16-bit real stored into half of a word that a neighbouring thread may
  // write too, by two atomics: %1$s the word, %2$s the mask keeping the other
  // half, %3$s the value's bits in place.
  const char* store16;
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
