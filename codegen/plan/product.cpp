// A spectrum that multiplies the forward transform's outputs (Options::product): the kernel that
// stores them multiplies each by its value (Kernel::product), so that a convolution's pointwise
// product costs no pass of its own.
#include "plan/planner.hpp"

namespace fftmux::codegen::planning {

// Why the product cannot be fused into this problem's plan, or "".
std::string Planner::product_gap() const {
  if (d.kind != FFTMUX_C2C && d.kind != FFTMUX_R2C)
    return "a product follows forward C2C and R2C transforms only";
  if (d.flags & (FFTMUX_IN_PLACE | FFTMUX_SHIFT_OUTPUT) || geometry::padded(d, false))
    return "a product needs an output out of place, unshifted and uncut";
  if (geometry::custom_strides(d, false) || geometry::custom_distance(d, false))
    return "a product needs the output in its packed layout";
  if (int64_t(opt.product->size()) != geometry::default_layout(d, false).distance)
    return "the product holds " + std::to_string(opt.product->size()) +
           " values, not one a point of a transform's output";
  return "";
}

// The last pass's kernel multiplies each value it stores by the product's value at the value's
// place in its transform: its memory index modulo a transform's points (the output is packed).
void Planner::fuse_product() {
  if (std::string gap = product_gap(); !gap.empty())
    throw Unsupported(gap);
  Pass& last = out.passes.back();
  if (last.dst != Binding::output)
    throw Unsupported("the output's last pass writes scratch, which a product cannot follow");
  last.kernel.product = tables.product(opt.product);
  last.kernel.product_points = int64_t(opt.product->size());
  summary << "; times a product";
}

} // namespace fftmux::codegen::planning
