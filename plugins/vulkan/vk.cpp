#include "vk.hpp"

#include <fftmux/plugin_support.hpp>

#include <dlfcn.h>

namespace fftmux::vk {

bool Api::open(std::string& why) {
  // Never closed: the loader keeps driver libraries that must outlive us.
  void* lib = dlopen("libvulkan.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!lib)
    lib = dlopen("libvulkan.so", RTLD_NOW | RTLD_LOCAL);
  if (!lib) {
    const char* e = dlerror();
    why = std::string("no Vulkan loader (libvulkan.so.1): ") + (e ? e : "not found");
    return false;
  }
  vkGetInstanceProcAddr =
      reinterpret_cast<PFN_vkGetInstanceProcAddr>(dlsym(lib, "vkGetInstanceProcAddr"));
  if (!vkGetInstanceProcAddr) {
    why = "the Vulkan loader has no vkGetInstanceProcAddr";
    return false;
  }
  vkCreateInstance =
      reinterpret_cast<PFN_vkCreateInstance>(vkGetInstanceProcAddr(nullptr, "vkCreateInstance"));
  if (!vkCreateInstance) {
    why = "the Vulkan loader has no vkCreateInstance";
    return false;
  }
  return true;
}

void Api::load_instance(VkInstance instance) {
#define FFTMUX_VK_LOAD(f)                                                                          \
  f = reinterpret_cast<PFN_##f>(vkGetInstanceProcAddr(instance, #f));                              \
  if (!f)                                                                                          \
    plugin::fail(FFTMUX_ERROR_UNAVAILABLE, "the Vulkan loader lacks " #f);
  FFTMUX_VK_INSTANCE(FFTMUX_VK_LOAD)
#undef FFTMUX_VK_LOAD
}

void Api::load_device(VkDevice device) {
#define FFTMUX_VK_LOAD(f)                                                                          \
  f = reinterpret_cast<PFN_##f>(vkGetDeviceProcAddr(device, #f));                                  \
  if (!f)                                                                                          \
    plugin::fail(FFTMUX_ERROR_UNAVAILABLE, "the Vulkan device lacks " #f);
  FFTMUX_VK_DEVICE(FFTMUX_VK_LOAD)
#undef FFTMUX_VK_LOAD
}

const char* result_name(VkResult r) {
  switch (r) {
#define FFTMUX_VK_CASE(x)                                                                          \
  case x: return #x;
    FFTMUX_VK_CASE(VK_SUCCESS)
    FFTMUX_VK_CASE(VK_NOT_READY)
    FFTMUX_VK_CASE(VK_TIMEOUT)
    FFTMUX_VK_CASE(VK_INCOMPLETE)
    FFTMUX_VK_CASE(VK_ERROR_OUT_OF_HOST_MEMORY)
    FFTMUX_VK_CASE(VK_ERROR_OUT_OF_DEVICE_MEMORY)
    FFTMUX_VK_CASE(VK_ERROR_INITIALIZATION_FAILED)
    FFTMUX_VK_CASE(VK_ERROR_DEVICE_LOST)
    FFTMUX_VK_CASE(VK_ERROR_MEMORY_MAP_FAILED)
    FFTMUX_VK_CASE(VK_ERROR_LAYER_NOT_PRESENT)
    FFTMUX_VK_CASE(VK_ERROR_EXTENSION_NOT_PRESENT)
    FFTMUX_VK_CASE(VK_ERROR_FEATURE_NOT_PRESENT)
    FFTMUX_VK_CASE(VK_ERROR_INCOMPATIBLE_DRIVER)
    FFTMUX_VK_CASE(VK_ERROR_TOO_MANY_OBJECTS)
    FFTMUX_VK_CASE(VK_ERROR_FORMAT_NOT_SUPPORTED)
    FFTMUX_VK_CASE(VK_ERROR_OUT_OF_POOL_MEMORY)
#undef FFTMUX_VK_CASE
  default: return "VkResult error";
  }
}

void check(VkResult r, const char* what) {
  if (r == VK_SUCCESS)
    return;
  fftmux_status s = r == VK_ERROR_OUT_OF_HOST_MEMORY || r == VK_ERROR_OUT_OF_DEVICE_MEMORY
                        ? FFTMUX_ERROR_OUT_OF_MEMORY
                        : FFTMUX_ERROR_BACKEND;
  plugin::fail(s, std::string(what) + " failed: " + result_name(r) + " (" + std::to_string(int(r)) +
                      ")");
}

} // namespace fftmux::vk
