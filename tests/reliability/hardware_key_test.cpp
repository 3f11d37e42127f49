// Hardware keys reduced to what identical machines share, for each
// backend's key as it reads: UUIDs dropped, drivers to their major version.
#include <tuning.hpp>

#include <gtest/gtest.h>

namespace {

using fftmux::hardware_class;

TEST(HardwareClass, KeepsWhatIdenticalMachinesShare) {
  const std::pair<const char*, const char*> keys[] = {
      {"cuda runtime 12.4; cufft 11200; nvrtc 12.4; device NVIDIA H100 sm_90; driver 550.54.15; "
       "GPU-0a1b2c3d-0000-1111-2222-333344445555",
       "cuda runtime 12.4; cufft 11200; nvrtc 12.4; device NVIDIA H100 sm_90; driver 550"},
      {"vulkan 1.3.277; device NVIDIA H100; driver NVIDIA (2307194880); device-uuid 0a1b; "
       "driver-uuid 2c3d",
       "vulkan 1.3.277; device NVIDIA H100; driver NVIDIA (major 550)"},
      {"vulkan 1.3.255; device llvmpipe; driver llvmpipe (100663301); device-uuid 00; "
       "driver-uuid 11",
       "vulkan 1.3.255; device llvmpipe; driver llvmpipe (major 24)"},
      {"opengl 4.5 (Core Profile) Mesa 24.0.5; renderer llvmpipe; vendor Mesa; glsl 4.50; EGL "
       "1.5; driver swrast; device-uuid 00; driver-uuid 11",
       "opengl 4.5 (Core Profile) Mesa 24.0.5; renderer llvmpipe; vendor Mesa; glsl 4.50; EGL "
       "1.5; driver swrast"},
      {"fftw-3.3.10-sse2-avx; cpu Intel(R) Xeon(R) Processor; threads 2",
       "fftw-3.3.10-sse2-avx; cpu Intel(R) Xeon(R) Processor; threads 2"},
      {"", ""}};
  for (auto [key, expected] : keys) {
    EXPECT_EQ(hardware_class(key), expected) << key;
    EXPECT_EQ(hardware_class(expected), expected) << "a class is its own class";
  }
}

TEST(HardwareClass, NodesDifferingOnlyInUuidAndDriverPatchShareOne) {
  EXPECT_EQ(hardware_class("device X; driver 550.54.15; device-uuid aa"),
            hardware_class("device X; driver 550.90.07; device-uuid bb"));
  EXPECT_NE(hardware_class("device X; driver 550.54.15"), hardware_class("device X; driver 560.1"));
  EXPECT_NE(hardware_class("device X; driver 550"), hardware_class("device Y; driver 550"));
}

} // namespace
