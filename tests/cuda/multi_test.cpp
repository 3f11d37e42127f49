// cuFFT's multi-GPU plans decline, with the reason, what they do not run:
// the rules checked on device lists made up here, as no second GPU (nor a
// first) is needed to read them. Running such plans takes multi_gpu_check.sh.
#include <multi.hpp>

#include <fftmux/fftmux.hpp>

#include <gtest/gtest.h>

#include <vector>

namespace fftmux::cuda_test {
namespace {

std::vector<cuda::Device> machine(int count, int major = 9) {
  std::vector<cuda::Device> all(static_cast<size_t>(count));
  for (int i = 0; i < count; ++i) {
    all[size_t(i)].index = i;
    all[size_t(i)].major = major;
  }
  return all;
}

fftmux_plan_params_v1 across(std::vector<uint32_t>& devices) {
  fftmux_plan_params_v1 p{};
  p.struct_size = sizeof p;
  p.devices = devices.data();
  p.device_count = uint32_t(devices.size());
  return p;
}

// A resolved descriptor (the host resolves strides before asking).
fftmux_desc problem(std::vector<int64_t> n, fftmux_kind kind = FFTMUX_C2C, uint32_t flags = 0,
                    uint32_t placement = FFTMUX_HOST) {
  fftmux_desc d = fftmux::make_desc(n, kind, FFTMUX_F32);
  d.flags = flags;
  d.placement = placement;
  fftmux_layout l;
  l.struct_size = sizeof l;
  EXPECT_EQ(fftmux_desc_layout(&d, &l), FFTMUX_OK) << fftmux_last_error();
  std::copy(std::begin(l.in_strides), std::end(l.in_strides), d.in_strides);
  std::copy(std::begin(l.out_strides), std::end(l.out_strides), d.out_strides);
  d.in_distance = l.in_distance;
  d.out_distance = l.out_distance;
  return d;
}

std::string declines(const std::vector<cuda::Device>& all, const fftmux_desc& d,
                     std::vector<uint32_t> devices = {0, 1}) {
  return cuda::multi_declines(all, d, across(devices));
}

TEST(CudaMulti, RunsWhatCufftsMultiGpuPlansRun) {
  for (const fftmux_desc& d : {problem({256, 256}), problem({64, 96, 160}), problem({1 << 20}),
                               problem({64, 64}, FFTMUX_R2C, FFTMUX_IN_PLACE),
                               problem({64, 64, 64}, FFTMUX_C2R, FFTMUX_IN_PLACE),
                               problem({128, 128}, FFTMUX_C2C, FFTMUX_IN_PLACE, FFTMUX_DEVICE)})
    EXPECT_EQ(declines(machine(4), d, {2, 0, 3}), "") << d.n[0];
}

TEST(CudaMulti, DeclinesWithCufftsRules) {
  struct Case {
    std::vector<cuda::Device> machine;
    fftmux_desc desc;
    std::vector<uint32_t> devices;
    const char* reason;
  };
  std::vector<cuda::Device> mixed = machine(2);
  mixed[1].major = 8;
  fftmux_desc half = problem({64, 64});
  half.precision = FFTMUX_F16;
  fftmux_desc strided = problem({64, 64});
  strided.in_strides[1] = 2;
  strided.in_strides[0] = 128;
  const Case cases[] = {
      {machine(1),
       problem({64, 64}),
       {0, 1},
       "cuda: this machine has 1 CUDA device; the plan asks for 2"},
      {machine(2),
       problem({64, 64}),
       {0, 2},
       "cuda: device 2 is not present: this machine has 2 CUDA devices (0 to 1)"},
      {machine(2), problem({64, 64}), {1}, "cuda: a plan across devices spans 2 to 16 GPUs"},
      {mixed, problem({64, 64}), {0, 1}, "cuda: devices 0 (sm_90) and 1 (sm_80) differ"},
      {machine(2), half, {0, 1}, "cuda: plans across devices run F32 and F64"},
      {machine(2), problem({64, 64}, FFTMUX_C2C, FFTMUX_SHIFT_OUTPUT), {0, 1}, "do not shift"},
      {machine(2), strided, {0, 1}, "cuda: cuFFT's multi-GPU plans take no strides"},
      {machine(2),
       problem({64, 64}, FFTMUX_R2C),
       {0, 1},
       "R2C and C2R across devices run in place"},
      {machine(2),
       problem({64, 64}, FFTMUX_C2C, 0, FFTMUX_DEVICE),
       {0, 1},
       "a DEVICE plan across devices runs in place"},
      {machine(2),
       problem({4096}, FFTMUX_R2C, FFTMUX_IN_PLACE),
       {0, 1},
       "a 1D plan across devices is a C2C of one batch whose length is a power of two"},
      {machine(2), problem({1000}), {0, 1}, "n[0] = 1000, batch 1"},
      {machine(2), problem({16, 64}), {0, 1}, "at least 32 points along every axis: n[0] = 16"},
      {machine(2), problem({64, 1009}), {0, 1}, "cuda: n[1] = 1009 has a prime factor above 7"},
      {machine(2), problem({64, 64, 97}), {0, 1}, "n[2] = 97 has a prime factor above 7"},
  };
  for (const Case& c : cases)
    EXPECT_NE(declines(c.machine, c.desc, c.devices).find(c.reason), std::string::npos)
        << c.reason << "\n  got: " << declines(c.machine, c.desc, c.devices);
}

} // namespace
} // namespace fftmux::cuda_test
