// Device memory that Vulkan allocates and GL imports (GL_EXT_memory_object_fd,
// VK_KHR_external_memory_fd): storage = "vulkan". On the H200 a GL compute
// copy of 512 MiB-1 GiB runs at 1890-1980 GB/s in GL's own buffers, whatever
// their flags, and at 3670-3950 GB/s in imported Vulkan memory.
#pragma once

#define VK_NO_PROTOTYPES
#include <vulkan/vulkan.h>

#include <cstdint>

namespace fftmux::opengl {

class VulkanMemory {
public:
  // Opens the Vulkan device whose UUID GL reports (GL_DEVICE_UUID_EXT);
  // throws plugin::Failure naming what is missing.
  explicit VulkanMemory(const uint8_t (&device_uuid)[VK_UUID_SIZE]);
  ~VulkanMemory();
  VulkanMemory(const VulkanMemory&) = delete;
  VulkanMemory& operator=(const VulkanMemory&) = delete;

  struct Allocation {
    VkDeviceMemory memory;
    uint64_t size;
    int fd; // an opaque file descriptor, the caller's to import or close
  };
  // Device-local memory of at least bytes; throws plugin::Failure.
  Allocation allocate(uint64_t bytes);
  void free(VkDeviceMemory memory);

private:
  void open(const uint8_t (&device_uuid)[VK_UUID_SIZE]);

  VkInstance instance_ = VK_NULL_HANDLE;
  VkDevice device_ = VK_NULL_HANDLE;
  uint32_t type_ = 0; // the device-local memory type
  PFN_vkDestroyInstance destroy_instance_ = nullptr;
  PFN_vkDestroyDevice destroy_device_ = nullptr;
  PFN_vkAllocateMemory allocate_ = nullptr;
  PFN_vkFreeMemory free_ = nullptr;
  PFN_vkGetMemoryFdKHR get_fd_ = nullptr;
};

} // namespace fftmux::opengl
