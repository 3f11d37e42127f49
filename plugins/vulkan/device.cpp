// Instance, device and queue selection; buffers; the SPIR-V compiler.
#include "engine.hpp"

#include <fftmux/gpu/dispatch.hpp>
#include <fftmux/gpu/variants.hpp>
#include <fftmux/plugin_support.hpp>

#include <shaderc/shaderc.hpp>
#include <spirv-tools/optimizer.hpp>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>
#include <type_traits>

namespace fftmux::vulkan {

using plugin::fail;

namespace {

std::string version(uint32_t v) {
  return std::to_string(VK_API_VERSION_MAJOR(v)) + "." + std::to_string(VK_API_VERSION_MINOR(v)) +
         "." + std::to_string(VK_API_VERSION_PATCH(v));
}

const char* type_name(VkPhysicalDeviceType t) {
  switch (t) {
  case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU: return "discrete GPU";
  case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU: return "integrated GPU";
  case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU: return "virtual GPU";
  case VK_PHYSICAL_DEVICE_TYPE_CPU: return "CPU";
  default: return "other";
  }
}

int rank(VkPhysicalDeviceType t) { // the preferred device kinds first
  switch (t) {
  case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU: return 0;
  case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU: return 1;
  case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU: return 2;
  case VK_PHYSICAL_DEVICE_TYPE_CPU: return 3;
  default: return 4;
  }
}

std::vector<char> read_file(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  return std::vector<char>((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
}

} // namespace

Device::Device(const Settings& s) : settings(s) {
  std::string why;
  if (!api.open(why))
    fail(FFTMUX_ERROR_UNAVAILABLE, why);
  glsl_warm_ = std::async(std::launch::async, warm_glsl, dialect());
  if (s.native.empty())
    create(s);
  else if (s.pointers)
    fail(FFTMUX_ERROR_INVALID_ARGUMENT,
         "vulkan: pointers = true needs the backend's own device, not the application's");
  else
    adopt(s.native);
  api.load_device(device);
  auto load = [&](auto& f, const char* name) { // an extension's function
    f = reinterpret_cast<std::remove_reference_t<decltype(f)>>(
        api.vkGetDeviceProcAddr(device, name));
  };
  if (statistics) {
    load(api.vkGetPipelineExecutableStatisticsKHR, "vkGetPipelineExecutableStatisticsKHR");
    load(api.vkGetPipelineExecutableInternalRepresentationsKHR,
         "vkGetPipelineExecutableInternalRepresentationsKHR");
    statistics = api.vkGetPipelineExecutableStatisticsKHR != nullptr;
  }
  if (settings.pointers)
    load(api.vkGetBufferDeviceAddressKHR, "vkGetBufferDeviceAddressKHR");
  api.vkGetDeviceQueue(device, family, adopted_ ? uint32_t(s.native[4]) : 0, &queue);

  VkDescriptorSetLayoutBinding b[3];
  for (uint32_t i = 0; i < 3; ++i)
    b[i] = {i, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, nullptr};
  VkDescriptorSetLayoutCreateInfo dl{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
  dl.bindingCount = 3;
  dl.pBindings = b;
  vk::check(api.vkCreateDescriptorSetLayout(device, &dl, nullptr, &set_layout),
            "vkCreateDescriptorSetLayout");
  // group_offset alone, or three addresses and group_offset (pointers).
  VkPushConstantRange pc{VK_SHADER_STAGE_COMPUTE_BIT, 0, settings.pointers ? 28u : 4u};
  VkPipelineLayoutCreateInfo pl{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
  pl.setLayoutCount = 1;
  pl.pSetLayouts = &set_layout;
  pl.pushConstantRangeCount = 1;
  pl.pPushConstantRanges = &pc;
  vk::check(api.vkCreatePipelineLayout(device, &pl, nullptr, &layout), "vkCreatePipelineLayout");

  std::vector<char> blob;
  if (!settings.cache_dir.empty())
    blob = read_file(settings.cache_dir + "/pipelines-" + cache_key() + ".bin");
  VkPipelineCacheCreateInfo pci{VK_STRUCTURE_TYPE_PIPELINE_CACHE_CREATE_INFO};
  pci.initialDataSize = blob.size();
  pci.pInitialData = blob.empty() ? nullptr : blob.data();
  if (api.vkCreatePipelineCache(device, &pci, nullptr, &pipeline_cache) != VK_SUCCESS) {
    pci.initialDataSize = 0; // a stale or foreign cache is dropped
    pci.pInitialData = nullptr;
    vk::check(api.vkCreatePipelineCache(device, &pci, nullptr, &pipeline_cache),
              "vkCreatePipelineCache");
  }
  VkCommandPoolCreateInfo cp{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
  cp.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
  cp.queueFamilyIndex = family;
  vk::check(api.vkCreateCommandPool(device, &cp, nullptr, &pool), "vkCreateCommandPool");
}

// The backend's own instance and device.
void Device::create(const Settings& s) {
  VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO};
  app.pApplicationName = "fftmux";
  app.pEngineName = "fftmux";
  app.apiVersion = VK_API_VERSION_1_1;
  VkInstanceCreateInfo ici{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
  ici.pApplicationInfo = &app;
  VkResult r = api.vkCreateInstance(&ici, nullptr, &instance);
  if (r != VK_SUCCESS)
    fail(FFTMUX_ERROR_UNAVAILABLE, std::string("vkCreateInstance failed: ") + vk::result_name(r) +
                                       (r == VK_ERROR_INCOMPATIBLE_DRIVER
                                            ? " (no Vulkan driver found, or none with Vulkan 1.1)"
                                            : ""));
  api.load_instance(instance);
  pick(s);
}

// The application's instance and device (fftmux_native_device), checked as
// far as Vulkan lets: the physical device must be the instance's, the queue
// must exist in a family with compute. Whether the VkDevice belongs to the
// physical device Vulkan cannot tell: a wrong one is the application's error.
void Device::adopt(const std::vector<uint64_t>& h) {
  auto bad = [](const std::string& why) {
    fail(FFTMUX_ERROR_INVALID_ARGUMENT, "vulkan: the application's device: " + why);
  };
  if (h.size() < 5 || !h[0] || !h[1] || !h[2])
    bad("handles[0..2] (VkInstance, VkPhysicalDevice, VkDevice) must all be set");
  instance = reinterpret_cast<VkInstance>(h[0]);
  adopted_ = true;
  api.load_instance(instance);
  std::vector<VkPhysicalDevice> all = physical_devices();
  physical = reinterpret_cast<VkPhysicalDevice>(h[1]);
  if (std::find(all.begin(), all.end(), physical) == all.end())
    bad("handles[1] is not a VkPhysicalDevice of the VkInstance in handles[0]");
  api.vkGetPhysicalDeviceProperties(physical, &props);
  if (props.apiVersion < VK_API_VERSION_1_1)
    bad(std::string(props.deviceName) + " has Vulkan " + version(props.apiVersion) +
        ", fftmux needs 1.1");
  std::vector<VkQueueFamilyProperties> fam = queue_families(physical);
  size_t nf = fam.size();
  if (h[3] >= nf || !(fam[h[3]].queueFlags & VK_QUEUE_COMPUTE_BIT))
    bad("handles[3] = " + std::to_string(h[3]) + " is not a queue family with compute (" +
        std::to_string(nf) + " families)");
  if (h[4] >= fam[h[3]].queueCount)
    bad("handles[4] = " + std::to_string(h[4]) + ": queue family " + std::to_string(h[3]) +
        " has " + std::to_string(fam[h[3]].queueCount) + " queues");
  family = uint32_t(h[3]);
  device = reinterpret_cast<VkDevice>(h[2]);
  VkPhysicalDeviceFeatures feats;
  api.vkGetPhysicalDeviceFeatures(physical, &feats);
  feats.shaderFloat64 = feats.shaderFloat64 && h.size() > 5 && (h[5] & 1); // enabled, it says
  describe(feats);
}

std::vector<VkPhysicalDevice> Device::physical_devices() const {
  uint32_t count = 0;
  vk::check(api.vkEnumeratePhysicalDevices(instance, &count, nullptr),
            "vkEnumeratePhysicalDevices");
  std::vector<VkPhysicalDevice> all(count);
  vk::check(api.vkEnumeratePhysicalDevices(instance, &count, all.data()),
            "vkEnumeratePhysicalDevices");
  all.resize(count);
  return all;
}

std::vector<VkQueueFamilyProperties> Device::queue_families(VkPhysicalDevice p) const {
  uint32_t n = 0;
  api.vkGetPhysicalDeviceQueueFamilyProperties(p, &n, nullptr);
  std::vector<VkQueueFamilyProperties> fam(n);
  api.vkGetPhysicalDeviceQueueFamilyProperties(p, &n, fam.data());
  fam.resize(n);
  return fam;
}

void Device::pick(const Settings& s) {
  std::vector<VkPhysicalDevice> all = physical_devices();
  uint32_t count = uint32_t(all.size());
  if (!count)
    fail(FFTMUX_ERROR_UNAVAILABLE, "the Vulkan driver reports no device");
  std::vector<uint32_t> order(count);
  for (uint32_t i = 0; i < count; ++i)
    order[i] = i;
  if (s.device >= 0) {
    if (uint32_t(s.device) >= count)
      fail(FFTMUX_ERROR_INVALID_ARGUMENT, "[backends.vulkan] device = " + std::to_string(s.device) +
                                              ": only " + std::to_string(count) +
                                              " devices (0 to " + std::to_string(count - 1) + ")");
    order = {uint32_t(s.device)};
  } else {
    std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
      VkPhysicalDeviceProperties pa, pb;
      api.vkGetPhysicalDeviceProperties(all[a], &pa);
      api.vkGetPhysicalDeviceProperties(all[b], &pb);
      return rank(pa.deviceType) < rank(pb.deviceType);
    });
  }
  std::string skipped;
  for (uint32_t i : order) {
    VkPhysicalDeviceProperties p;
    api.vkGetPhysicalDeviceProperties(all[i], &p);
    if (p.apiVersion < VK_API_VERSION_1_1) {
      skipped += std::string(p.deviceName) + " (Vulkan " + version(p.apiVersion) + " < 1.1); ";
      continue;
    }
    std::vector<VkQueueFamilyProperties> fam = queue_families(all[i]);
    uint32_t nf = uint32_t(fam.size());
    int chosen = -1;
    for (uint32_t f = 0; f < nf && chosen < 0; ++f) // a compute-only queue first
      if ((fam[f].queueFlags & VK_QUEUE_COMPUTE_BIT) &&
          !(fam[f].queueFlags & VK_QUEUE_GRAPHICS_BIT))
        chosen = int(f);
    for (uint32_t f = 0; f < nf && chosen < 0; ++f)
      if (fam[f].queueFlags & VK_QUEUE_COMPUTE_BIT)
        chosen = int(f);
    if (chosen < 0) {
      skipped += std::string(p.deviceName) + " (no compute queue); ";
      continue;
    }
    physical = all[i];
    family = uint32_t(chosen);
    props = p;
    break;
  }
  if (!physical)
    fail(FFTMUX_ERROR_UNAVAILABLE, "no usable Vulkan device: " + skipped);

  VkPhysicalDeviceFeatures feats;
  api.vkGetPhysicalDeviceFeatures(physical, &feats);
  describe(feats);
  create_device(feats);
}

// What plans and the listing need to know of the physical device.
void Device::describe(const VkPhysicalDeviceFeatures& feats) {
  api.vkGetPhysicalDeviceMemoryProperties(physical, &memory);
  f64 = feats.shaderFloat64;
  VkPhysicalDeviceSubgroupProperties sub{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_PROPERTIES};
  VkPhysicalDeviceIDProperties id{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ID_PROPERTIES};
  VkPhysicalDeviceDriverProperties drv{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DRIVER_PROPERTIES};
  sub.pNext = &id;
  if (props.apiVersion >= VK_API_VERSION_1_2)
    id.pNext = &drv;
  VkPhysicalDeviceProperties2 p2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2};
  p2.pNext = &sub;
  api.vkGetPhysicalDeviceProperties2(physical, &p2);
  subgroup = std::max(1u, sub.subgroupSize);
  device_uuid = codegen::bytes_hex(id.deviceUUID, VK_UUID_SIZE);
  driver_uuid = codegen::bytes_hex(id.driverUUID, VK_UUID_SIZE);
  driver_name = props.apiVersion >= VK_API_VERSION_1_2
                    ? std::string(drv.driverName) + " " + drv.driverInfo
                    : "driver " + std::to_string(props.driverVersion);
}

void Device::create_device(const VkPhysicalDeviceFeatures& feats) {
  float priority = 1.0f;
  VkDeviceQueueCreateInfo q{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
  q.queueFamilyIndex = family;
  q.queueCount = 1;
  q.pQueuePriorities = &priority;
  VkPhysicalDeviceFeatures enable{};
  enable.shaderFloat64 = feats.shaderFloat64;
  VkDeviceCreateInfo dci{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
  dci.queueCreateInfoCount = 1;
  dci.pQueueCreateInfos = &q;
  dci.pEnabledFeatures = &enable;
  std::vector<const char*> exts;
  VkPhysicalDevicePipelineExecutablePropertiesFeaturesKHR exec{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PIPELINE_EXECUTABLE_PROPERTIES_FEATURES_KHR};
  exec.pipelineExecutableInfo = VK_TRUE;
  statistics =
      settings.statistics && has_extension(VK_KHR_PIPELINE_EXECUTABLE_PROPERTIES_EXTENSION_NAME);
  if (statistics) {
    exts.push_back(VK_KHR_PIPELINE_EXECUTABLE_PROPERTIES_EXTENSION_NAME);
    exec.pNext = const_cast<void*>(dci.pNext);
    dci.pNext = &exec;
  }
  VkPhysicalDeviceBufferDeviceAddressFeaturesKHR address{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_BUFFER_DEVICE_ADDRESS_FEATURES_KHR};
  address.bufferDeviceAddress = VK_TRUE;
  if (settings.pointers) {
    if (!has_extension(VK_KHR_BUFFER_DEVICE_ADDRESS_EXTENSION_NAME))
      fail(FFTMUX_ERROR_UNAVAILABLE, std::string(props.deviceName) + " lacks " +
                                         VK_KHR_BUFFER_DEVICE_ADDRESS_EXTENSION_NAME +
                                         ", which the pointers setting needs");
    exts.push_back(VK_KHR_BUFFER_DEVICE_ADDRESS_EXTENSION_NAME);
    address.pNext = const_cast<void*>(dci.pNext);
    dci.pNext = &address;
  }
  dci.enabledExtensionCount = uint32_t(exts.size());
  dci.ppEnabledExtensionNames = exts.data();
  vk::check(api.vkCreateDevice(physical, &dci, nullptr, &device), "vkCreateDevice");
}

bool Device::has_extension(const char* name) const {
  uint32_t n = 0;
  api.vkEnumerateDeviceExtensionProperties(physical, nullptr, &n, nullptr);
  std::vector<VkExtensionProperties> all(n);
  api.vkEnumerateDeviceExtensionProperties(physical, nullptr, &n, all.data());
  return std::any_of(all.begin(), all.end(), [&](const VkExtensionProperties& e) {
    return !std::strcmp(e.extensionName, name);
  });
}

// The driver's text forms of the pipeline's code (its IRs, its machine
// code where it shows it), by name; empty where it gives none.
std::vector<std::pair<std::string, std::string>>
Device::pipeline_representations(VkPipeline pipeline) const {
  std::vector<std::pair<std::string, std::string>> out;
  auto get = api.vkGetPipelineExecutableInternalRepresentationsKHR;
  if (!get)
    return out;
  VkPipelineExecutableInfoKHR info{VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_INFO_KHR};
  info.pipeline = pipeline;
  uint32_t n = 0;
  if (get(device, &info, &n, nullptr) != VK_SUCCESS)
    return out;
  std::vector<VkPipelineExecutableInternalRepresentationKHR> reps(
      n, {VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_INTERNAL_REPRESENTATION_KHR});
  if (get(device, &info, &n, reps.data()) != VK_SUCCESS) // the sizes
    return out;
  std::vector<std::vector<char>> text(n);
  for (uint32_t i = 0; i < n; ++i) {
    text[i].resize(reps[i].dataSize);
    reps[i].pData = text[i].data();
  }
  if (get(device, &info, &n, reps.data()) != VK_SUCCESS)
    return out;
  for (uint32_t i = 0; i < n; ++i)
    if (reps[i].isText)
      out.emplace_back(reps[i].name,
                       std::string(text[i].data(), strnlen(text[i].data(), text[i].size())));
  return out;
}

// "Register Count 40, ..." for each executable of the pipeline (one for a
// compute pipeline), as the driver names them; empty where it reports none.
std::string Device::pipeline_statistics(VkPipeline pipeline) const {
  if (!api.vkGetPipelineExecutableStatisticsKHR)
    return "";
  VkPipelineExecutableInfoKHR info{VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_INFO_KHR};
  info.pipeline = pipeline;
  uint32_t n = 0;
  if (api.vkGetPipelineExecutableStatisticsKHR(device, &info, &n, nullptr) != VK_SUCCESS)
    return "";
  std::vector<VkPipelineExecutableStatisticKHR> stats(
      n, {VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_STATISTIC_KHR});
  if (api.vkGetPipelineExecutableStatisticsKHR(device, &info, &n, stats.data()) != VK_SUCCESS)
    return "";
  std::string out;
  for (const VkPipelineExecutableStatisticKHR& st : stats) {
    const VkPipelineExecutableStatisticValueKHR& v = st.value;
    std::string value =
        st.format == VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_BOOL32_KHR   ? std::to_string(v.b32)
        : st.format == VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_INT64_KHR  ? std::to_string(v.i64)
        : st.format == VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_UINT64_KHR ? std::to_string(v.u64)
                                                                          : std::to_string(v.f64);
    out += (out.empty() ? "" : ", ") + std::string(st.name) + " " + value;
  }
  return out;
}

Device::~Device() {
  pipelines_.clear(); // plans are gone: these are the last references
  tables_.clear();
  scratch_.reset();
  staging_.reset();
  if (device) {
    api.vkDeviceWaitIdle(device);
    save_pipeline_cache();
    api.vkDestroyCommandPool(device, pool, nullptr);
    api.vkDestroyPipelineCache(device, pipeline_cache, nullptr);
    api.vkDestroyPipelineLayout(device, layout, nullptr);
    api.vkDestroyDescriptorSetLayout(device, set_layout, nullptr);
    if (!adopted_)
      api.vkDestroyDevice(device, nullptr);
  }
  if (instance && !adopted_)
    api.vkDestroyInstance(instance, nullptr);
}

Pipeline::Pipeline(Device& dev, std::string src, const std::vector<uint32_t>& spirv)
    : d(dev), source(std::move(src)) {
  VkShaderModuleCreateInfo si{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
  si.codeSize = spirv.size() * 4;
  si.pCode = spirv.data();
  VkShaderModule module;
  vk::check(d.api.vkCreateShaderModule(d.device, &si, nullptr, &module), "vkCreateShaderModule");
  VkComputePipelineCreateInfo ci{VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
  ci.stage.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
  ci.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
  ci.stage.module = module;
  ci.stage.pName = "main";
  ci.layout = d.layout;
  if (d.statistics)
    ci.flags = VK_PIPELINE_CREATE_CAPTURE_STATISTICS_BIT_KHR |
               VK_PIPELINE_CREATE_CAPTURE_INTERNAL_REPRESENTATIONS_BIT_KHR;
  VkResult r = d.api.vkCreateComputePipelines(d.device, d.pipeline_cache, 1, &ci, nullptr, &handle);
  d.api.vkDestroyShaderModule(d.device, module, nullptr);
  vk::check(r, "vkCreateComputePipelines");
}

Pipeline::~Pipeline() {
  d.api.vkDestroyPipeline(d.device, handle, nullptr);
}

std::shared_ptr<const Pipeline> Device::find_pipeline(const std::string& source) {
  std::lock_guard<std::mutex> lock(pipelines_mutex_);
  auto known = pipelines_.find(codegen::hash_hex(source));
  return known && known->source == source ? known : nullptr;
}

std::shared_ptr<const Pipeline> Device::add_pipeline(const std::string& source,
                                                     const std::vector<uint32_t>& spirv) {
  auto made = std::make_shared<const Pipeline>(*this, source, spirv);
  std::lock_guard<std::mutex> lock(pipelines_mutex_);
  pipelines_.add(codegen::hash_hex(source), made);
  return made;
}

void Device::save_pipeline_cache() {
  if (settings.cache_dir.empty() || !pipeline_cache)
    return;
  size_t n = 0;
  if (api.vkGetPipelineCacheData(device, pipeline_cache, &n, nullptr) != VK_SUCCESS || !n)
    return;
  std::vector<char> data(n);
  if (api.vkGetPipelineCacheData(device, pipeline_cache, &n, data.data()) != VK_SUCCESS)
    return;
  data.resize(n);
  if (settings.write_file)
    settings.write_file(settings.cache_dir + "/pipelines-" + cache_key() + ".bin", data);
}

codegen::Device Device::limits() const {
  codegen::Device c;
  c.shared_bytes = props.limits.maxComputeSharedMemorySize;
  c.max_threads = std::min(props.limits.maxComputeWorkGroupInvocations,
                           props.limits.maxComputeWorkGroupSize[0]);
  c.subgroup = subgroup;
  c.max_binding_bytes = binding_limit();
  c.f64 = f64;
  return codegen::dialect_limits(c, dialect());
}

codegen::Dialect Device::dialect() const {
  return settings.pointers ? codegen::Dialect::vulkan_pointers : codegen::Dialect::vulkan;
}

codegen::Options Device::tuned(codegen::Options o) const {
  o = codegen::device_defaults(o, props.deviceType == VK_PHYSICAL_DEVICE_TYPE_CPU);
  if (!o.max_single)
    o.max_single = settings.single_pass_limit;
  return o;
}

std::shared_ptr<Buffer> Device::scratch(uint64_t bytes) {
  std::lock_guard<std::mutex> lock(scratch_mutex_);
  if (scratch_ && scratch_->size() >= bytes)
    return scratch_;
  scratch_.reset(); // freed now unless a plan holds it
  scratch_ = std::make_shared<Buffer>(*this, bytes);
  return scratch_;
}

void Device::staged(uint64_t bytes, const std::function<void(Buffer& stage)>& move) {
  std::lock_guard<std::mutex> lock(staging_mutex_);
  if (!staging_ || staging_->size() < bytes) {
    staging_.reset(); // the smaller one goes first: host-visible memory can be scarce
    staging_ = std::make_unique<Buffer>(*this, bytes, true);
  }
  move(*staging_);
}

std::shared_ptr<const Buffer> Device::table(const std::vector<unsigned char>& bytes) {
  std::string key(bytes.begin(), bytes.end()); // the bytes themselves: no collision
  std::lock_guard<std::mutex> lock(tables_mutex_);
  if (std::shared_ptr<const Buffer> known = tables_.find(key))
    return known;
  auto made = std::make_shared<Buffer>(*this, std::max<size_t>(bytes.size(), 16));
  made->write(0, bytes.data(), bytes.size());
  tables_.add(key, made);
  return made;
}

uint64_t Device::binding_limit() const {
  uint64_t range = props.limits.maxStorageBufferRange;
  return settings.max_binding_bytes ? std::min(range, settings.max_binding_bytes) : range;
}

std::vector<codegen::Chunk> Device::generated(const fftmux_desc& desc,
                                              const codegen::Options& o) const {
  return codegen::generate_chunks(desc, limits(), tuned(o), binding_limit(), dialect(),
                                  props.limits.minStorageBufferOffsetAlignment);
}

std::string Device::description() const {
  return std::string(props.deviceName) + " (" + type_name(props.deviceType) + ", Vulkan " +
         version(props.apiVersion) + ", " + driver_name + ")" +
         (adopted_ ? ", the application's device" : "");
}

std::string Device::hardware_key() const {
  return "vulkan " + version(props.apiVersion) + "; device " + props.deviceName + "; driver " +
         driver_name + " (" + std::to_string(props.driverVersion) + "); device-uuid " +
         device_uuid + "; driver-uuid " + driver_uuid;
}

std::string Device::cache_key() const {
  return codegen::hash_hex(hardware_key());
}

uint32_t Device::memory_type(uint32_t bits, VkMemoryPropertyFlags want,
                             VkMemoryPropertyFlags avoid) const {
  for (int pass = 0; pass < 2; ++pass)
    for (uint32_t i = 0; i < memory.memoryTypeCount; ++i) {
      VkMemoryPropertyFlags f = memory.memoryTypes[i].propertyFlags;
      if ((bits >> i & 1u) && (f & want) == want && (pass || !(f & avoid)))
        return i;
    }
  fail(FFTMUX_ERROR_BACKEND, "no Vulkan memory type fits a buffer");
}

void Device::run_once(const std::function<void(VkCommandBuffer)>& record) {
  std::lock_guard<std::mutex> lock(queue_mutex);
  VkCommandBufferAllocateInfo ai{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
  ai.commandPool = pool;
  ai.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
  ai.commandBufferCount = 1;
  VkCommandBuffer cmd;
  vk::check(api.vkAllocateCommandBuffers(device, &ai, &cmd), "vkAllocateCommandBuffers");
  VkFence fence = VK_NULL_HANDLE;
  auto cleanup = [&] {
    if (fence)
      api.vkDestroyFence(device, fence, nullptr);
    api.vkFreeCommandBuffers(device, pool, 1, &cmd);
  };
  try {
    VkCommandBufferBeginInfo bi{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
    bi.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
    vk::check(api.vkBeginCommandBuffer(cmd, &bi), "vkBeginCommandBuffer");
    record(cmd);
    vk::check(api.vkEndCommandBuffer(cmd), "vkEndCommandBuffer");
    VkFenceCreateInfo fi{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
    vk::check(api.vkCreateFence(device, &fi, nullptr, &fence), "vkCreateFence");
    VkSubmitInfo si{VK_STRUCTURE_TYPE_SUBMIT_INFO};
    si.commandBufferCount = 1;
    si.pCommandBuffers = &cmd;
    vk::check(api.vkQueueSubmit(queue, 1, &si, fence), "vkQueueSubmit");
    wait(fence, "waiting for a transfer's fence");
  } catch (...) {
    cleanup();
    throw;
  }
  cleanup();
}

void Device::wait(VkFence fence, const char* what) {
  VkResult state = VK_NOT_READY;
  codegen::wait_fence(
      props.deviceType == VK_PHYSICAL_DEVICE_TYPE_CPU,
      [&] { return (state = api.vkGetFenceStatus(device, fence)) != VK_NOT_READY; },
      [&] { state = api.vkWaitForFences(device, 1, &fence, VK_TRUE, UINT64_MAX); });
  vk::check(state, what);
}

void Device::idle() {
  std::lock_guard<std::mutex> lock(queue_mutex);
  vk::check(api.vkQueueWaitIdle(queue), "vkQueueWaitIdle");
}

// ---- buffers ----

Buffer::Buffer(Device& d, uint64_t bytes, bool host_visible) : d_(d) {
  size_ = std::max<uint64_t>(16, (bytes + 15) / 16 * 16);
  VkBufferCreateInfo bi{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
  bi.size = size_;
  bi.usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT |
             VK_BUFFER_USAGE_TRANSFER_DST_BIT |
             (d.settings.pointers ? VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT_KHR : 0);
  bi.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
  vk::check(d.api.vkCreateBuffer(d.device, &bi, nullptr, &buffer_), "vkCreateBuffer");
  try {
    // Where the driver prefers (or requires) the buffer to own its memory,
    // it does: Vulkan 1.1's dedicated allocations.
    VkMemoryDedicatedRequirements ded{VK_STRUCTURE_TYPE_MEMORY_DEDICATED_REQUIREMENTS};
    VkMemoryRequirements2 req2{VK_STRUCTURE_TYPE_MEMORY_REQUIREMENTS_2, &ded};
    VkBufferMemoryRequirementsInfo2 ri{VK_STRUCTURE_TYPE_BUFFER_MEMORY_REQUIREMENTS_INFO_2};
    ri.buffer = buffer_;
    d.api.vkGetBufferMemoryRequirements2(d.device, &ri, &req2);
    const VkMemoryRequirements& req = req2.memoryRequirements;
    const VkMemoryPropertyFlags host =
        VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
    uint32_t type = host_visible
                        ? d.memory_type(req.memoryTypeBits, host, 0)
                        : d.memory_type(req.memoryTypeBits, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT,
                                        VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT);
    VkMemoryAllocateInfo ai{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
    ai.allocationSize = req.size;
    ai.memoryTypeIndex = type;
    VkMemoryDedicatedAllocateInfo own{VK_STRUCTURE_TYPE_MEMORY_DEDICATED_ALLOCATE_INFO};
    own.buffer = buffer_;
    if (ded.prefersDedicatedAllocation || ded.requiresDedicatedAllocation)
      ai.pNext = &own;
    VkMemoryAllocateFlagsInfo flags{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_FLAGS_INFO, ai.pNext,
                                    VK_MEMORY_ALLOCATE_DEVICE_ADDRESS_BIT_KHR};
    if (d.settings.pointers)
      ai.pNext = &flags;
    vk::check(d.api.vkAllocateMemory(d.device, &ai, nullptr, &mem_),
              ("vkAllocateMemory of " + std::to_string(req.size) + " bytes").c_str());
    vk::check(d.api.vkBindBufferMemory(d.device, buffer_, mem_, 0), "vkBindBufferMemory");
    bool mappable = (d.memory.memoryTypes[type].propertyFlags & host) == host;
    if (mappable && (host_visible || !d.settings.staging)) // unified memory: no staging
      vk::check(d.api.vkMapMemory(d.device, mem_, 0, VK_WHOLE_SIZE, 0, &mapped_), "vkMapMemory");
  } catch (...) {
    if (mem_)
      d.api.vkFreeMemory(d.device, mem_, nullptr);
    d.api.vkDestroyBuffer(d.device, buffer_, nullptr);
    throw;
  }
}

uint64_t Buffer::address() const {
  VkBufferDeviceAddressInfoKHR info{VK_STRUCTURE_TYPE_BUFFER_DEVICE_ADDRESS_INFO_KHR};
  info.buffer = buffer_;
  return d_.api.vkGetBufferDeviceAddressKHR(d_.device, &info);
}

Buffer::Buffer(Device& d, VkBuffer wrapped, uint64_t bytes)
    : d_(d), buffer_(wrapped), size_(bytes), owned_(false) {}

Buffer::~Buffer() {
  if (!owned_)
    return;
  if (mapped_)
    d_.api.vkUnmapMemory(d_.device, mem_);
  d_.api.vkDestroyBuffer(d_.device, buffer_, nullptr);
  d_.api.vkFreeMemory(d_.device, mem_, nullptr);
}

void Buffer::range(uint64_t offset, uint64_t bytes, const char* what) const {
  if (offset > size_ || bytes > size_ - offset)
    fail(FFTMUX_ERROR_INVALID_ARGUMENT,
         std::string("vulkan: buffer ") + what + " of " + std::to_string(bytes) + " bytes at " +
             std::to_string(offset) + " runs past the buffer's " + std::to_string(size_));
}

void Buffer::write(uint64_t offset, const void* src, uint64_t bytes) {
  range(offset, bytes, "write");
  if (!bytes)
    return;
  if (mapped_) {
    d_.idle(); // kernels submitted earlier may still use the memory
    std::memcpy(static_cast<char*>(mapped_) + offset, src, bytes);
    return;
  }
  d_.staged(bytes, [&](Buffer& stage) {
    std::memcpy(stage.mapped_, src, bytes);
    d_.run_once([&](VkCommandBuffer cmd) {
      VkBufferCopy c{0, offset, bytes};
      d_.api.vkCmdCopyBuffer(cmd, stage.buffer_, buffer_, 1, &c);
    });
  });
}

void Buffer::read(uint64_t offset, void* dst, uint64_t bytes) {
  range(offset, bytes, "read");
  if (!bytes)
    return;
  if (mapped_) {
    d_.idle(); // kernels submitted earlier may still use the memory
    std::memcpy(dst, static_cast<const char*>(mapped_) + offset, bytes);
    return;
  }
  d_.staged(bytes, [&](Buffer& stage) {
    d_.run_once([&](VkCommandBuffer cmd) {
      VkBufferCopy c{offset, 0, bytes};
      d_.api.vkCmdCopyBuffer(cmd, buffer_, stage.buffer_, 1, &c);
    });
    std::memcpy(dst, stage.mapped_, bytes);
  });
}

// ---- GLSL to SPIR-V ----

// Development VM, spirv-opt on the 8192-point kernel: 0.18 s with the
// validation, 0.14 without.
std::vector<uint32_t> optimized(const std::vector<uint32_t>& spirv) {
  spvtools::Optimizer optimizer(SPV_ENV_VULKAN_1_1);
  std::string messages;
  optimizer.SetMessageConsumer([&](spv_message_level_t, const char*, const spv_position_t&,
                                   const char* m) { messages += std::string(m) + "\n"; });
  optimizer.RegisterPass(spvtools::CreateStripDebugInfoPass());
  optimizer.RegisterPerformancePasses();
  spvtools::OptimizerOptions options;
  options.set_run_validator(false);
  std::vector<uint32_t> out;
  if (!optimizer.Run(spirv.data(), spirv.size(), &out, options))
    fail(FFTMUX_ERROR_INTERNAL, "spirv-opt failed on a generated kernel: " + messages);
  return out;
}

namespace {

// Unoptimized SPIR-V (optimized() follows). One compiler for the process
// (compiles may share it across threads): shaderc releases glslang's
// built-in symbol tables with the last compiler object and builds them
// again for the next. Development VM, 4096 points' kernel: 142 ms with a
// new compiler each time, 6.7 ms with one kept. Never destroyed: at exit
// warm_glsl may still be compiling on its thread (a context left open).
shaderc::SpvCompilationResult glsl_to_spirv(const std::string& source, const std::string& name) {
  static const shaderc::Compiler& compiler = *new shaderc::Compiler;
  shaderc::CompileOptions options;
  options.SetTargetEnvironment(shaderc_target_env_vulkan, shaderc_env_version_vulkan_1_1);
  options.SetOptimizationLevel(shaderc_optimization_level_zero);
  return compiler.CompileGlslToSpv(source, shaderc_compute_shader, name.c_str(), options);
}

} // namespace

void warm_glsl(codegen::Dialect dialect) {
  glsl_to_spirv(codegen::empty_shader(dialect), "warm.comp");
}

std::vector<uint32_t> compile(Device& d, const std::string& source, const std::string& name,
                              bool convolution, bool* from_cache) {
  // spirv-opt's inlining and scalar replacement of the register arrays gave
  // the H200 5-19 % (64 and 4096 points), but its Bluestein convolutions ran
  // 1.4x faster without it (4093 and 4097 points, two runs) and cold plans
  // 1.3-2x faster; a CPU device's LLVM does that work itself, and there
  // spirv-opt only lengthens the compilation (lavapipe: +40 %).
  bool optimize = d.settings.spirv_opt >= 0
                      ? d.settings.spirv_opt == 1
                      : d.props.deviceType != VK_PHYSICAL_DEVICE_TYPE_CPU && !convolution;
  std::string path;
  if (!d.settings.cache_dir.empty()) {
    std::string key = codegen::hash_hex(source + "\n" + std::to_string(codegen::generator_version) +
                                        (optimize ? "\nO\n" : "\n") + d.hardware_key());
    path = d.settings.cache_dir + "/spirv/" + key + ".spv";
    std::vector<char> b = read_file(path);
    if (b.size() >= 20 && b.size() % 4 == 0) {
      std::vector<uint32_t> words(b.size() / 4);
      std::memcpy(words.data(), b.data(), b.size());
      if (words[0] == 0x07230203u) {
        if (from_cache)
          *from_cache = true;
        return words;
      }
    }
  }
  auto result = glsl_to_spirv(source, name);
  if (result.GetCompilationStatus() != shaderc_compilation_status_success)
    fail(FFTMUX_ERROR_INTERNAL,
         "shaderc failed on generated kernel " + name + ": " + result.GetErrorMessage());
  std::vector<uint32_t> words(result.cbegin(), result.cend());
  if (optimize)
    words = optimized(words);
  if (!path.empty() && d.settings.write_file) {
    std::vector<char> bytes(words.size() * 4);
    std::memcpy(bytes.data(), words.data(), bytes.size());
    d.settings.write_file(path, bytes);
  }
  if (from_cache)
    *from_cache = false;
  return words;
}

} // namespace fftmux::vulkan
