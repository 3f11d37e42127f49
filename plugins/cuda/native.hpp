// The "native" variants: kernels of the shared generator (codegen/) in its
// CUDA C++ dialect, compiled at plan time with NVRTC for the device's
// architecture and cached on disk; within a process the generator's plans
// and the loaded modules are kept too, so planning a problem again costs
// no generation, compilation or loading.
#pragma once

#include "backend.hpp"

#include <fftmux/codegen.hpp>
#include <fftmux/gpu/generation.hpp>

namespace fftmux::cuda {

// What a CUDA device allows a generated kernel: the opt-in shared memory per
// block (227 KiB on an H200), 1024 threads, 32-bit element indices, and
// from compute capability 9.0 (major) clusters of 8 blocks and bulk copies.
codegen::Device native_limits(size_t shared_optin, int major);

// The shared-memory carveout (percent of shared_per_sm) for `groups`
// resident workgroups of group_bytes each (their shared memory and the
// driver's reserved share): what they need, so that the rest of the
// multiprocessor's memory stays L1 (the twiddle table, and the staging of
// every global load in flight), and at most 72 % unless one group needs
// more, since fewer groups with more L1 ran faster than more with less. The
// driver rounds the percent up to a capacity; a group alone or a plan of
// one pass (one_pass) asks the least capacity that holds what it needs
// where the next would hold no more groups.
int carveout_percent(int groups, size_t group_bytes, size_t shared_per_sm, bool one_pass);

// Both directions of a problem as the generator plans them for the device
// (remembered: codegen::generate). Throws codegen::Unsupported.
std::shared_ptr<const codegen::Generated> native_generated(const fftmux_desc& d,
                                                           const codegen::Device& limits,
                                                           const codegen::Options& options);

// Every kernel source of a problem, both directions where it runs both.
// Throws codegen::Unsupported with the reason.
std::vector<std::string> native_sources(const fftmux_desc& d, const codegen::Device& limits,
                                        const codegen::Options& options = {});

// Why native declines the problem, or "" when it runs it.
std::string native_declines(const fftmux_desc& d, const codegen::Device& limits,
                            const codegen::Options& options = {});

std::unique_ptr<Plan> make_native_plan(Backend& backend, const fftmux_desc& desc,
                                       const codegen::Options& options);

} // namespace fftmux::cuda
