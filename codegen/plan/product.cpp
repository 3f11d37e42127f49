// Spectra that multiply the forward transform's outputs (Options::product): the kernel that
// stores them multiplies each by its value in each spectrum (Kernel::product), storing one copy a
// spectrum, so that a convolution's pointwise products cost no pass of their own.
#include "plan/planner.hpp"

namespace fftmux::codegen::planning {

// Why the product cannot be fused into this problem's plan, or "".
std::string Planner::product_gap() const {
  if (d.kind != FFTMUX_C2C && d.kind != FFTMUX_R2C)
    return "a product follows forward C2C and R2C transforms only";
  if (d.flags & (FFTMUX_IN_PLACE | FFTMUX_SHIFT_OUTPUT) || geometry::padded(d, false))
    return "a product needs an output out of place, unshifted and uncut";
  int64_t points = geometry::default_layout(d, false).distance, size = int64_t(opt.product->size());
  if (size == 0 || size % points)
    return "the product holds " + std::to_string(size) + " values, not " + std::to_string(points) +
           " (one a point of a transform's output) a spectrum";
  if (geometry::custom_strides(d, false) ||
      (d.batch > 1 && geometry::shape(d, false).distance != size))
    return "a product of " + std::to_string(size / points) +
           " spectra needs the outputs packed, each transform's " + std::to_string(size) +
           " elements apart";
  return "";
}

// The last pass's kernel multiplies each value it stores by each spectrum's value at the value's
// place in its transform: its memory index modulo the spectra's points (the outputs are packed).
void Planner::fuse_product() {
  if (std::string gap = product_gap(); !gap.empty())
    throw Unsupported(gap);
  Pass& last = out.passes.back();
  if (last.dst != Binding::output)
    throw Unsupported("the output's last pass writes scratch, which a product cannot follow");
  int64_t points = geometry::default_layout(d, false).distance;
  last.kernel.product = tables.product(opt.product);
  last.kernel.product_points = points;
  last.kernel.product_count = int64_t(opt.product->size()) / points;
  summary << "; times a product";
  if (last.kernel.product_count > 1)
    summary << " of " << last.kernel.product_count << " spectra";
}

} // namespace fftmux::codegen::planning
