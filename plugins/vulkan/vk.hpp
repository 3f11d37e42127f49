// The Vulkan functions the backend calls, loaded at run time from the
// loader (libvulkan.so.1): a missing loader makes init fail with a reason
// instead of the plugin failing to load.
#pragma once

#define VK_NO_PROTOTYPES
#include <vulkan/vulkan.h>

#include <string>

namespace fftmux::vk {

#define FFTMUX_VK_INSTANCE(X)                                                                      \
  X(vkDestroyInstance)                                                                             \
  X(vkEnumeratePhysicalDevices)                                                                    \
  X(vkGetPhysicalDeviceProperties)                                                                 \
  X(vkGetPhysicalDeviceProperties2)                                                                \
  X(vkGetPhysicalDeviceFeatures)                                                                   \
  X(vkGetPhysicalDeviceQueueFamilyProperties)                                                      \
  X(vkGetPhysicalDeviceMemoryProperties)                                                           \
  X(vkEnumerateDeviceExtensionProperties)                                                          \
  X(vkCreateDevice)                                                                                \
  X(vkGetDeviceProcAddr)

#define FFTMUX_VK_DEVICE(X)                                                                        \
  X(vkDestroyDevice)                                                                               \
  X(vkGetDeviceQueue)                                                                              \
  X(vkDeviceWaitIdle)                                                                              \
  X(vkCreateBuffer)                                                                                \
  X(vkDestroyBuffer)                                                                               \
  X(vkGetBufferMemoryRequirements2)                                                                \
  X(vkAllocateMemory)                                                                              \
  X(vkFreeMemory)                                                                                  \
  X(vkBindBufferMemory)                                                                            \
  X(vkMapMemory)                                                                                   \
  X(vkUnmapMemory)                                                                                 \
  X(vkCreateCommandPool)                                                                           \
  X(vkDestroyCommandPool)                                                                          \
  X(vkAllocateCommandBuffers)                                                                      \
  X(vkFreeCommandBuffers)                                                                          \
  X(vkBeginCommandBuffer)                                                                          \
  X(vkEndCommandBuffer)                                                                            \
  X(vkCmdCopyBuffer)                                                                               \
  X(vkCmdPipelineBarrier)                                                                          \
  X(vkCmdBindPipeline)                                                                             \
  X(vkCmdBindDescriptorSets)                                                                       \
  X(vkCmdPushConstants)                                                                            \
  X(vkCmdDispatch)                                                                                 \
  X(vkCmdWriteTimestamp)                                                                           \
  X(vkCmdResetQueryPool)                                                                           \
  X(vkCmdFillBuffer)                                                                               \
  X(vkCreateQueryPool)                                                                             \
  X(vkDestroyQueryPool)                                                                            \
  X(vkGetQueryPoolResults)                                                                         \
  X(vkQueueSubmit)                                                                                 \
  X(vkQueueWaitIdle)                                                                               \
  X(vkCreateFence)                                                                                 \
  X(vkDestroyFence)                                                                                \
  X(vkWaitForFences)                                                                               \
  X(vkResetFences)                                                                                 \
  X(vkGetFenceStatus)                                                                              \
  X(vkCreateShaderModule)                                                                          \
  X(vkDestroyShaderModule)                                                                         \
  X(vkCreatePipelineCache)                                                                         \
  X(vkDestroyPipelineCache)                                                                        \
  X(vkGetPipelineCacheData)                                                                        \
  X(vkCreateComputePipelines)                                                                      \
  X(vkDestroyPipeline)                                                                             \
  X(vkCreatePipelineLayout)                                                                        \
  X(vkDestroyPipelineLayout)                                                                       \
  X(vkCreateDescriptorSetLayout)                                                                   \
  X(vkDestroyDescriptorSetLayout)                                                                  \
  X(vkCreateDescriptorPool)                                                                        \
  X(vkDestroyDescriptorPool)                                                                       \
  X(vkAllocateDescriptorSets)                                                                      \
  X(vkUpdateDescriptorSets)

struct Api {
  PFN_vkGetInstanceProcAddr vkGetInstanceProcAddr = nullptr;
  PFN_vkCreateInstance vkCreateInstance = nullptr;
#define FFTMUX_VK_MEMBER(f) PFN_##f f = nullptr;
  FFTMUX_VK_INSTANCE(FFTMUX_VK_MEMBER)
  FFTMUX_VK_DEVICE(FFTMUX_VK_MEMBER)
#undef FFTMUX_VK_MEMBER
  // VK_KHR_pipeline_executable_properties, loaded when the device enables it.
  PFN_vkGetPipelineExecutableStatisticsKHR vkGetPipelineExecutableStatisticsKHR = nullptr;
  // VK_KHR_buffer_device_address, loaded when the device enables it.
  PFN_vkGetBufferDeviceAddressKHR vkGetBufferDeviceAddressKHR = nullptr;
  PFN_vkGetPipelineExecutableInternalRepresentationsKHR
      vkGetPipelineExecutableInternalRepresentationsKHR = nullptr;

  // Opens the loader; false with why when it is missing.
  bool open(std::string& why);
  void load_instance(VkInstance instance);
  void load_device(VkDevice device);
};

// Throws a plugin::Failure naming the call when r is an error.
void check(VkResult r, const char* what);
const char* result_name(VkResult r);

} // namespace fftmux::vk
