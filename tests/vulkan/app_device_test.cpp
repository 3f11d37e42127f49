// The Vulkan backend on an application's own device: the test plays a
// Vulkan application (its instance, device and buffers, made with the
// system's loader), hands the device to fftmux through
// fftmux_context_options::devices, wraps its VkBuffers and transforms them.
// Also the handles fftmux refuses, and why. A machine without a Vulkan
// device skips with the reason.
#include <fftmux/fftmux.hpp>
#include <reference.hpp>

#include <vulkan/vulkan.h>

#include <gtest/gtest.h>

#include <cstddef>
#include <cstring>
#include <string>
#include <vector>

namespace fftmux {
namespace {

// The application: an instance, the first device with a compute queue, and
// host-visible buffers it fills and reads through its own mappings.
struct App {
  VkInstance instance = VK_NULL_HANDLE;
  VkPhysicalDevice physical = VK_NULL_HANDLE;
  VkDevice device = VK_NULL_HANDLE;
  uint32_t family = 0;
  bool f64 = false;
  std::string skip;

  App() {
    VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO};
    app.apiVersion = VK_API_VERSION_1_1;
    VkInstanceCreateInfo ici{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
    ici.pApplicationInfo = &app;
    if (vkCreateInstance(&ici, nullptr, &instance) != VK_SUCCESS) {
      skip = "vkCreateInstance failed: no Vulkan driver";
      return;
    }
    uint32_t n = 1;
    VkResult r = vkEnumeratePhysicalDevices(instance, &n, &physical);
    if ((r != VK_SUCCESS && r != VK_INCOMPLETE) || !n) {
      skip = "the Vulkan driver reports no device";
      return;
    }
    uint32_t nf = 0;
    vkGetPhysicalDeviceQueueFamilyProperties(physical, &nf, nullptr);
    std::vector<VkQueueFamilyProperties> fam(nf);
    vkGetPhysicalDeviceQueueFamilyProperties(physical, &nf, fam.data());
    while (family < nf && !(fam[family].queueFlags & VK_QUEUE_COMPUTE_BIT))
      ++family;
    VkPhysicalDeviceFeatures have{}, enable{};
    vkGetPhysicalDeviceFeatures(physical, &have);
    enable.shaderFloat64 = have.shaderFloat64;
    f64 = have.shaderFloat64;
    float priority = 1;
    VkDeviceQueueCreateInfo q{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
    q.queueFamilyIndex = family;
    q.queueCount = 1;
    q.pQueuePriorities = &priority;
    VkDeviceCreateInfo dci{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
    dci.queueCreateInfoCount = 1;
    dci.pQueueCreateInfos = &q;
    dci.pEnabledFeatures = &enable;
    if (family == nf || vkCreateDevice(physical, &dci, nullptr, &device) != VK_SUCCESS)
      skip = "no device with a compute queue could be created";
  }
  ~App() {
    if (device)
      vkDestroyDevice(device, nullptr);
    if (instance)
      vkDestroyInstance(instance, nullptr);
  }

  // The handles of fftmux_native_device for "vulkan".
  fftmux_native_device native() const {
    fftmux_native_device d{};
    d.backend = "vulkan";
    d.handles[0] = reinterpret_cast<uint64_t>(instance);
    d.handles[1] = reinterpret_cast<uint64_t>(physical);
    d.handles[2] = reinterpret_cast<uint64_t>(device);
    d.handles[3] = family;
    d.handles[4] = 0;
    d.handles[5] = f64 ? 1 : 0;
    return d;
  }
};

// A host-visible, coherent storage buffer of the application, mapped.
struct AppBuffer {
  const App& app;
  VkBuffer buffer = VK_NULL_HANDLE;
  VkDeviceMemory memory = VK_NULL_HANDLE;
  void* mapped = nullptr;

  AppBuffer(const App& a, uint64_t bytes) : app(a) {
    VkBufferCreateInfo bci{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
    bci.size = bytes;
    bci.usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT |
                VK_BUFFER_USAGE_TRANSFER_DST_BIT;
    EXPECT_EQ(vkCreateBuffer(a.device, &bci, nullptr, &buffer), VK_SUCCESS);
    VkMemoryRequirements req;
    vkGetBufferMemoryRequirements(a.device, buffer, &req);
    VkPhysicalDeviceMemoryProperties mp;
    vkGetPhysicalDeviceMemoryProperties(a.physical, &mp);
    const VkMemoryPropertyFlags want =
        VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
    uint32_t type = 0;
    while (type < mp.memoryTypeCount && (!(req.memoryTypeBits & (1u << type)) ||
                                         (mp.memoryTypes[type].propertyFlags & want) != want))
      ++type;
    VkMemoryAllocateInfo mai{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
    mai.allocationSize = req.size;
    mai.memoryTypeIndex = type;
    EXPECT_LT(type, mp.memoryTypeCount) << "a host-visible coherent memory type";
    EXPECT_EQ(vkAllocateMemory(a.device, &mai, nullptr, &memory), VK_SUCCESS);
    EXPECT_EQ(vkBindBufferMemory(a.device, buffer, memory, 0), VK_SUCCESS);
    EXPECT_EQ(vkMapMemory(a.device, memory, 0, VK_WHOLE_SIZE, 0, &mapped), VK_SUCCESS);
  }
  ~AppBuffer() {
    vkUnmapMemory(app.device, memory);
    vkDestroyBuffer(app.device, buffer, nullptr);
    vkFreeMemory(app.device, memory, nullptr);
  }
};

App& app() {
  static App a;
  return a;
}

#define SKIP_WITHOUT_DEVICE()                                                                      \
  if (!app().skip.empty())                                                                         \
  GTEST_SKIP() << app().skip

// The vulkan backend's listing entry: ready, or why not.
fftmux_backend_info vulkan_of(fftmux_context ctx) {
  fftmux_backend_info info;
  fftmux_backend_info_init(&info);
  uint32_t count = 0;
  EXPECT_EQ(fftmux_backend_count(ctx, &count), FFTMUX_OK);
  for (uint32_t i = 0; i < count; ++i) {
    fftmux_backend_info b;
    fftmux_backend_info_init(&b);
    EXPECT_EQ(fftmux_backend_get(ctx, i, FFTMUX_PROBE, &b), FFTMUX_OK);
    if (std::string(b.name) == "vulkan")
      info = b;
  }
  return info;
}

fftmux_context_options with_device(const fftmux_native_device& device) {
  fftmux_context_options o;
  fftmux_context_options_init(&o);
  o.devices = &device;
  o.device_count = 1;
  return o;
}

TEST(AppDevice, TransformsTheApplicationsBuffers) {
  SKIP_WITHOUT_DEVICE();
  fftmux_native_device dev = app().native();
  for (fftmux_precision p : {FFTMUX_F32, FFTMUX_F64}) {
    if (p == FFTMUX_F64 && !app().f64)
      continue; // the device lacks shaderFloat64: F64 is declined (tested below)
    fftmux_desc d;
    fftmux_desc_init(&d);
    d.n[0] = 1000;
    d.batch = 3;
    d.precision = p;
    d.placement = FFTMUX_DEVICE;
    fftmux_layout l;
    l.struct_size = sizeof l;
    ASSERT_EQ(fftmux_desc_layout(&d, &l), FFTMUX_OK);
    AppBuffer in(app(), l.in_bytes), out(app(), l.out_bytes);
    std::vector<unsigned char> x = ref::random_input(d, 7), y(l.out_bytes);
    std::memcpy(in.mapped, x.data(), l.in_bytes);
    {
      context ctx(with_device(dev));
      fftmux_backend_info info = vulkan_of(ctx.get());
      ASSERT_EQ(info.state, FFTMUX_BACKEND_READY) << info.reason;
      EXPECT_NE(std::string(info.devices).find("the application's device"), std::string::npos)
          << info.devices;
      fftmux_buffer wi = nullptr, wo = nullptr;
      ASSERT_EQ(fftmux_buffer_wrap(ctx.get(), "vulkan", reinterpret_cast<uint64_t>(in.buffer),
                                   l.in_bytes, &wi),
                FFTMUX_OK)
          << fftmux_last_error();
      ASSERT_EQ(fftmux_buffer_wrap(ctx.get(), "vulkan", reinterpret_cast<uint64_t>(out.buffer),
                                   l.out_bytes, &wo),
                FFTMUX_OK);
      buffer bi(wi), bo(wo);
      plan pl = ctx.make_plan(d, "vulkan");
      pl.execute(FFTMUX_FORWARD, bi, bo);
      pl.synchronize();
    } // fftmux is gone; the application's device and buffers stay usable
    std::memcpy(y.data(), out.mapped, l.out_bytes);
    double err = ref::relative_error(ref::read_side(d, false, y.data()),
                                     ref::expected(d, FFTMUX_FORWARD, x.data()));
    EXPECT_LE(err, ref::error_bound(d)) << (p == FFTMUX_F64 ? "f64" : "f32");
  }
}

TEST(AppDevice, F64OnlyWhereTheApplicationEnabledIt) {
  SKIP_WITHOUT_DEVICE();
  fftmux_native_device dev = app().native();
  dev.handles[5] = 0; // shaderFloat64 not enabled, says the application
  context ctx(with_device(dev));
  fftmux_desc d;
  fftmux_desc_init(&d);
  d.n[0] = 64;
  d.precision = FFTMUX_F64;
  fftmux_support s = ctx.query(d, "vulkan");
  EXPECT_FALSE(s.supported);
}

TEST(AppDevice, WrongHandlesMakeTheBackendUnavailableWithTheReason) {
  SKIP_WITHOUT_DEVICE();
  struct Bad {
    int index;
    uint64_t value;
    const char* says;
  };
  for (Bad b : {Bad{1, 0x1234, "handles[1] is not a VkPhysicalDevice"},
                Bad{3, 99, "handles[3] = 99 is not a queue family"}, Bad{4, 7, "handles[4] = 7"},
                Bad{2, 0, "must all be set"}}) {
    fftmux_native_device dev = app().native();
    dev.handles[b.index] = b.value;
    context ctx(with_device(dev));
    fftmux_backend_info info = vulkan_of(ctx.get());
    EXPECT_EQ(info.state, FFTMUX_BACKEND_UNAVAILABLE);
    EXPECT_NE(std::string(info.reason).find(b.says), std::string::npos) << info.reason;
  }
}

TEST(AppDevice, OptionsAreChecked) {
  fftmux_context_options o;
  fftmux_context_options_init(&o);
  fftmux_context ctx = nullptr;
  o.device_count = 1;
  EXPECT_EQ(fftmux_context_create(&o, &ctx), FFTMUX_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(std::string(fftmux_last_error()).find("options->devices is NULL"), std::string::npos)
      << fftmux_last_error();
  fftmux_native_device two[2] = {};
  two[0].backend = two[1].backend = "vulkan";
  o.devices = two;
  o.device_count = 2;
  EXPECT_EQ(fftmux_context_create(&o, &ctx), FFTMUX_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(std::string(fftmux_last_error()).find("options->devices[1].backend"), std::string::npos)
      << fftmux_last_error();
  two[0].backend = nullptr;
  EXPECT_EQ(fftmux_context_create(&o, &ctx), FFTMUX_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(std::string(fftmux_last_error()).find("options->devices[0].backend is NULL"),
            std::string::npos);
  // A caller built before the devices fields: its smaller struct is taken,
  // and what lies beyond it is never read.
  fftmux_context_options old = o;
  old.struct_size = offsetof(fftmux_context_options, devices);
  old.devices = nullptr;
  old.device_count = 7;
  ASSERT_EQ(fftmux_context_create(&old, &ctx), FFTMUX_OK) << fftmux_last_error();
  fftmux_context_destroy(ctx);
  // A device for a backend that is not installed is a note, not an error.
  two[0].backend = "no-such-backend";
  o.device_count = 1;
  ASSERT_EQ(fftmux_context_create(&o, &ctx), FFTMUX_OK) << fftmux_last_error();
  char notes[4096];
  size_t needed = 0;
  EXPECT_EQ(fftmux_context_notes(ctx, notes, sizeof notes, &needed), FFTMUX_OK);
  EXPECT_NE(std::string(notes).find("'no-such-backend', which is not installed"), std::string::npos)
      << notes;
  fftmux_context_destroy(ctx);
}

} // namespace
} // namespace fftmux
