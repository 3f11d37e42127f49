#include "vulkan_memory.hpp"

#include <fftmux/plugin_support.hpp>

#include <cstring>
#include <dlfcn.h>
#include <string>
#include <vector>

namespace fftmux::opengl {

using plugin::fail;

namespace {

[[noreturn]] void unavailable(const std::string& why) {
  fail(FFTMUX_ERROR_UNAVAILABLE, "opengl: storage \"vulkan\": " + why);
}

template <class F> F proc(PFN_vkGetInstanceProcAddr get, VkInstance i, const char* name) {
  auto f = reinterpret_cast<F>(get(i, name));
  if (!f)
    unavailable(std::string("the Vulkan loader lacks ") + name);
  return f;
}

} // namespace

VulkanMemory::VulkanMemory(const uint8_t (&device_uuid)[VK_UUID_SIZE]) {
  try {
    open(device_uuid);
  } catch (...) {
    if (device_ && destroy_device_)
      destroy_device_(device_, nullptr);
    if (instance_ && destroy_instance_)
      destroy_instance_(instance_, nullptr);
    throw;
  }
}

void VulkanMemory::open(const uint8_t (&device_uuid)[VK_UUID_SIZE]) {
  // Never closed: the loader keeps driver libraries that must outlive us.
  void* lib = dlopen("libvulkan.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!lib)
    unavailable("no Vulkan loader (libvulkan.so.1)");
  auto get = reinterpret_cast<PFN_vkGetInstanceProcAddr>(dlsym(lib, "vkGetInstanceProcAddr"));
  if (!get)
    unavailable("the Vulkan loader has no vkGetInstanceProcAddr");
  VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO};
  app.pApplicationName = "fftmux opengl";
  app.apiVersion = VK_API_VERSION_1_1;
  VkInstanceCreateInfo ici{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
  ici.pApplicationInfo = &app;
  auto create_instance = proc<PFN_vkCreateInstance>(get, nullptr, "vkCreateInstance");
  if (create_instance(&ici, nullptr, &instance_) != VK_SUCCESS)
    unavailable("vkCreateInstance failed (no Vulkan driver)");
  destroy_instance_ = proc<PFN_vkDestroyInstance>(get, instance_, "vkDestroyInstance");
  auto enumerate =
      proc<PFN_vkEnumeratePhysicalDevices>(get, instance_, "vkEnumeratePhysicalDevices");
  auto properties =
      proc<PFN_vkGetPhysicalDeviceProperties2>(get, instance_, "vkGetPhysicalDeviceProperties2");
  uint32_t n = 0;
  enumerate(instance_, &n, nullptr);
  std::vector<VkPhysicalDevice> all(n);
  enumerate(instance_, &n, all.data());
  VkPhysicalDevice phys = VK_NULL_HANDLE;
  for (VkPhysicalDevice p : all) {
    VkPhysicalDeviceIDProperties id{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ID_PROPERTIES};
    VkPhysicalDeviceProperties2 pr{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, &id};
    properties(p, &pr);
    if (std::memcmp(id.deviceUUID, device_uuid, VK_UUID_SIZE) == 0)
      phys = p;
  }
  if (!phys)
    unavailable("no Vulkan device has the GL device's UUID");
  VkPhysicalDeviceMemoryProperties mp;
  proc<PFN_vkGetPhysicalDeviceMemoryProperties>(get, instance_,
                                                "vkGetPhysicalDeviceMemoryProperties")(phys, &mp);
  // Device-local, host-invisible where there is such a type (GPUs).
  type_ = mp.memoryTypeCount;
  for (uint32_t i = mp.memoryTypeCount; i-- > 0;) {
    VkMemoryPropertyFlags f = mp.memoryTypes[i].propertyFlags;
    if ((f & VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT) &&
        (type_ == mp.memoryTypeCount || !(f & VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT)))
      type_ = i;
  }
  float priority = 1;
  VkDeviceQueueCreateInfo q{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
  q.queueCount = 1;
  q.pQueuePriorities = &priority;
  const char* extension = VK_KHR_EXTERNAL_MEMORY_FD_EXTENSION_NAME;
  VkDeviceCreateInfo dci{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
  dci.queueCreateInfoCount = 1;
  dci.pQueueCreateInfos = &q;
  dci.enabledExtensionCount = 1;
  dci.ppEnabledExtensionNames = &extension;
  if (type_ == mp.memoryTypeCount)
    unavailable("the Vulkan device has no device-local memory type");
  auto create_device = proc<PFN_vkCreateDevice>(get, instance_, "vkCreateDevice");
  if (create_device(phys, &dci, nullptr, &device_) != VK_SUCCESS)
    unavailable("the Vulkan device lacks " + std::string(extension));
  auto device_proc = proc<PFN_vkGetDeviceProcAddr>(get, instance_, "vkGetDeviceProcAddr");
  destroy_device_ = reinterpret_cast<PFN_vkDestroyDevice>(device_proc(device_, "vkDestroyDevice"));
  allocate_ = reinterpret_cast<PFN_vkAllocateMemory>(device_proc(device_, "vkAllocateMemory"));
  free_ = reinterpret_cast<PFN_vkFreeMemory>(device_proc(device_, "vkFreeMemory"));
  get_fd_ = reinterpret_cast<PFN_vkGetMemoryFdKHR>(device_proc(device_, "vkGetMemoryFdKHR"));
  if (!destroy_device_ || !allocate_ || !free_ || !get_fd_)
    unavailable("the Vulkan device lacks vkGetMemoryFdKHR");
}

VulkanMemory::~VulkanMemory() {
  destroy_device_(device_, nullptr);
  destroy_instance_(instance_, nullptr);
}

VulkanMemory::Allocation VulkanMemory::allocate(uint64_t bytes) {
  VkExportMemoryAllocateInfo ex{VK_STRUCTURE_TYPE_EXPORT_MEMORY_ALLOCATE_INFO};
  ex.handleTypes = VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT;
  VkMemoryAllocateInfo ai{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO, &ex};
  ai.allocationSize = (bytes + 65535) / 65536 * 65536;
  ai.memoryTypeIndex = type_;
  Allocation a{VK_NULL_HANDLE, ai.allocationSize, -1};
  if (allocate_(device_, &ai, nullptr, &a.memory) != VK_SUCCESS)
    fail(FFTMUX_ERROR_OUT_OF_MEMORY,
         "opengl: Vulkan could not allocate " + std::to_string(ai.allocationSize) + " bytes");
  VkMemoryGetFdInfoKHR gi{VK_STRUCTURE_TYPE_MEMORY_GET_FD_INFO_KHR};
  gi.memory = a.memory;
  gi.handleType = VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT;
  if (get_fd_(device_, &gi, &a.fd) != VK_SUCCESS) {
    free_(device_, a.memory, nullptr);
    fail(FFTMUX_ERROR_INTERNAL, "opengl: vkGetMemoryFdKHR failed on a new allocation");
  }
  return a;
}

void VulkanMemory::free(VkDeviceMemory memory) {
  free_(device_, memory, nullptr);
}

} // namespace fftmux::opengl
