// A plan: generated kernels compiled to pipelines, tables uploaded once,
// command buffers recorded once per (direction, buffers) and resubmitted.
#include "engine.hpp"

#include <fftmux/gpu/dispatch.hpp>
#include <fftmux/plugin_support.hpp>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <functional>
#include <future>

namespace fftmux::vulkan {

using plugin::fail;

namespace {

VkMemoryBarrier barrier(VkAccessFlags src, VkAccessFlags dst) {
  VkMemoryBarrier b{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
  b.srcAccessMask = src;
  b.dstAccessMask = dst;
  return b;
}

} // namespace

Plan::Plan(Device& d, const fftmux_desc& desc, const codegen::Options& options)
    : d_(d), desc_(desc) {
  in_bytes_ = codegen::side_bytes(desc, true);
  out_bytes_ = codegen::side_bytes(desc, false);
  std::vector<codegen::Chunk> parts;
  try {
    parts = d.generated(desc, options);
  } catch (const codegen::Unsupported& e) {
    fail(FFTMUX_ERROR_UNSUPPORTED, std::string("vulkan: ") + e.what());
  }
  // Chunks of one batch count share a generation, compiled once.
  std::vector<const codegen::Generated*> gens;
  for (const codegen::Chunk& part : parts)
    if (std::find(gens.begin(), gens.end(), part.generated.get()) == gens.end())
      gens.push_back(part.generated.get());
  std::vector<std::vector<std::shared_ptr<const Pipeline>>> pipes = pipelines(gens);
  uint64_t scratch = 0;
  for (const codegen::Chunk& part : parts) {
    const codegen::Generated& g = *part.generated;
    const auto& made = pipes[size_t(std::find(gens.begin(), gens.end(), &g) - gens.begin())];
    Chunk& c = chunks_.emplace_back(Chunk{part.first, {}});
    size_t at = 0;
    for (size_t pi = 0; pi < g.planned.plans.size(); ++pi) {
      const codegen::Plan& p = g.planned.plans[pi];
      Direction& dd = c.dirs[g.planned.directions[pi]];
      dd.table = d.table(g.table(pi));
      for (const codegen::Pass& pass : p.passes)
        dd.passes.push_back({pass.kernel, pass.src, pass.dst, made[at++]});
    }
    scratch = std::max(scratch, g.planned.scratch_bytes);
  }
  summary_ = codegen::summary(parts);
  if (scratch)
    scratch_ = d.scratch(scratch);
}

// The pipelines of every kernel of gens, in their order: kernels made
// earlier in this process are reused, the others compiled (or read from the
// disk cache) and made pipelines all at once, as the driver's compiler is
// most of a cold plan's time.
std::vector<std::vector<std::shared_ptr<const Pipeline>>>
Plan::pipelines(const std::vector<const codegen::Generated*>& gens) {
  struct Job {
    const std::string* source;
    bool convolution;
    std::shared_ptr<const Pipeline> made;
    std::future<std::shared_ptr<const Pipeline>> pending;
    bool hit = false;
    double glsl = 0, driver = 0; // seconds
  };
  std::vector<Job> all;
  for (const codegen::Generated* g : gens) {
    size_t at = 0;
    for (const codegen::Plan& p : g->planned.plans)
      for (const codegen::Pass& pass : p.passes)
        all.push_back({&g->sources()[at++], pass.kernel.convolution, nullptr, {}, false});
  }
  for (size_t i = 0; i < all.size(); ++i) {
    Job& k = all[i];
    k.made = d_.find_pipeline(*k.source);
    k.hit = k.made != nullptr;
    if (!k.made)
      k.pending = std::async(std::launch::async, [this, &k, i] {
        using clock = std::chrono::steady_clock;
        auto t0 = clock::now();
        auto words = compile(d_, *k.source, "fftmux_pass" + std::to_string(i) + ".comp",
                             k.convolution, &k.hit);
        auto t1 = clock::now();
        auto made = d_.add_pipeline(*k.source, words);
        k.glsl = std::chrono::duration<double>(t1 - t0).count();
        k.driver = std::chrono::duration<double>(clock::now() - t1).count();
        return made;
      });
  }
  try {
    for (Job& k : all)
      if (!k.made) {
        k.made = k.pending.get();
        (k.hit ? making_.cached : making_.compiled) += 1;
        making_.glsl_seconds += k.glsl;
        making_.driver_seconds += k.driver;
      }
  } catch (...) {
    for (Job& k : all)
      if (k.pending.valid())
        k.pending.wait();
    throw;
  }
  std::vector<std::vector<std::shared_ptr<const Pipeline>>> out;
  size_t at = 0;
  for (const codegen::Generated* g : gens) {
    auto& v = out.emplace_back();
    for (size_t n = g->sources().size(); n; --n, ++at)
      v.push_back(all[at].made);
  }
  return out;
}

Plan::~Plan() {
  synchronize();
  for (auto& r : recordings_)
    release(*r);
  recordings_.clear();
}

uint64_t Plan::dense_out_bytes() const {
  plugin::Shape s = plugin::shape(desc_, false);
  uint64_t n = uint64_t(desc_.batch) * (s.complex ? 2 : 1) * plugin::scalar_bytes(desc_.precision);
  for (int64_t e : s.extent)
    n *= uint64_t(e);
  return n;
}

size_t Plan::passes() const {
  size_t n = 0;
  for (const auto& [direction, dd] : chunks_.front().dirs)
    n = std::max(n, passes(direction));
  return n;
}

size_t Plan::passes(int direction) const {
  size_t n = 0;
  for (const Chunk& c : chunks_)
    n += c.dirs.at(direction).passes.size();
  return n;
}

Plan::Direction& Plan::dir(int direction, size_t chunk) {
  auto& dirs = chunks_[chunk].dirs;
  auto it = dirs.find(direction);
  if (it == dirs.end())
    fail(FFTMUX_ERROR_INVALID_ARGUMENT,
         std::string("direction = ") + std::to_string(direction) + ": a " +
             (desc_.kind == FFTMUX_R2C ? "r2c plan runs forward (-1) only"
                                       : "c2r plan runs inverse (+1) only"));
  return it->second;
}

std::vector<std::pair<std::string, VkPipeline>> Plan::pass_pipelines(int direction) {
  std::vector<std::pair<std::string, VkPipeline>> out;
  for (const Pass& p : dir(direction).passes)
    out.emplace_back(p.kernel.name, p.pipeline->handle);
  return out;
}

void Plan::record(VkCommandBuffer cmd, int direction, Buffer& in, Buffer& out,
                  const std::function<void(VkCommandBuffer)>& after_pass) {
  encode(cmd, recording(direction, in, out, false), after_pass);
}

void Plan::encode(VkCommandBuffer cmd, const Recording& r,
                  const std::function<void(VkCommandBuffer)>& after_pass) {
  auto& api = d_.api;
  VkMemoryBarrier b =
      barrier(VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_WRITE_BIT | VK_ACCESS_HOST_WRITE_BIT,
              VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT);
  api.vkCmdPipelineBarrier(cmd,
                           VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT |
                               VK_PIPELINE_STAGE_HOST_BIT,
                           VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, 0, 1, &b, 0, nullptr, 0, nullptr);
  const uint32_t* count = d_.props.limits.maxComputeWorkGroupCount;
  size_t set = 0;
  for (size_t c = 0; c < chunks_.size(); ++c)
    for (const Pass& p : dir(r.direction, c).passes) {
      api.vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, p.pipeline->handle);
      api.vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, d_.layout, 0, 1,
                                  &r.sets[set++], 0, nullptr);
      for (const codegen::Dispatch& g :
           codegen::dispatches(p.kernel.groups(), count[0], count[1])) {
        // pointers: the addresses, then group_offset (codegen::Dialect::vulkan_pointers)
        if (d_.settings.pointers) {
          uint32_t push[7];
          std::memcpy(push, r.addresses[set - 1].data(), 24);
          push[6] = g.offset;
          api.vkCmdPushConstants(cmd, d_.layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof push, push);
        } else
          api.vkCmdPushConstants(cmd, d_.layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, 4, &g.offset);
        api.vkCmdDispatch(cmd, g.x, g.y, 1);
      }
      // The next pass (or chunk, which may share the scratch) reads what
      // this one wrote.
      VkMemoryBarrier pb = barrier(VK_ACCESS_SHADER_WRITE_BIT,
                                   VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT |
                                       VK_ACCESS_TRANSFER_READ_BIT | VK_ACCESS_HOST_READ_BIT);
      api.vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                               VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT |
                                   VK_PIPELINE_STAGE_TRANSFER_BIT | VK_PIPELINE_STAGE_HOST_BIT,
                               0, 1, &pb, 0, nullptr, 0, nullptr);
      if (after_pass)
        after_pass(cmd);
    }
}

Plan::Recording& Plan::recording(int direction, Buffer& in, Buffer& out, bool host) {
  for (auto& r : recordings_)
    if (r->direction == direction && r->in == in.handle() && r->out == out.handle() &&
        r->host == host)
      return *r;
  dir(direction); // a wrong direction fails before anything is made
  if (in.size() < in_bytes_ || out.size() < out_bytes_)
    fail(FFTMUX_ERROR_INVALID_ARGUMENT,
         "buffers of " + std::to_string(in.size()) + " and " + std::to_string(out.size()) +
             " bytes are too small for this plan's " + std::to_string(in_bytes_) + " and " +
             std::to_string(out_bytes_));
  // Few buffer pairs per plan in practice: drop the oldest beyond eight.
  if (recordings_.size() >= 8) {
    release(*recordings_.front());
    recordings_.erase(recordings_.begin());
  }
  auto r = std::make_unique<Recording>();
  r->direction = direction;
  r->in = in.handle();
  r->out = out.handle();
  r->host = host;
  auto& api = d_.api;
  uint32_t n = uint32_t(passes(direction));
  VkDescriptorPoolSize ps{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 3 * n};
  VkDescriptorPoolCreateInfo pi{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
  pi.maxSets = n;
  pi.poolSizeCount = 1;
  pi.pPoolSizes = &ps;
  vk::check(api.vkCreateDescriptorPool(d_.device, &pi, nullptr, &r->pool),
            "vkCreateDescriptorPool");
  std::vector<VkDescriptorSetLayout> layouts(n, d_.set_layout);
  VkDescriptorSetAllocateInfo ai{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO};
  ai.descriptorPool = r->pool;
  ai.descriptorSetCount = n;
  ai.pSetLayouts = layouts.data();
  r->sets.resize(n);
  vk::check(api.vkAllocateDescriptorSets(d_.device, &ai, r->sets.data()),
            "vkAllocateDescriptorSets");
  // A binding covers at most the device's range, from its chunk's offset.
  auto buffer = [&](codegen::Binding b) -> const Buffer& {
    return b == codegen::Binding::input ? in : b == codegen::Binding::output ? out : *scratch_;
  };
  auto info = [&](codegen::Binding b, int64_t first) -> VkDescriptorBufferInfo {
    const Buffer& buf = buffer(b);
    uint64_t offset = codegen::binding_offset(desc_, b, first);
    return {buf.handle(), offset, std::min(buf.size() - offset, d_.binding_limit())};
  };
  auto address = [&](codegen::Binding b, int64_t first) {
    return buffer(b).address() + codegen::binding_offset(desc_, b, first);
  };
  uint32_t set = 0;
  for (const Chunk& c : chunks_)
    for (const Pass& p : c.dirs.at(direction).passes) {
      const Buffer& table = *c.dirs.at(direction).table;
      VkDescriptorBufferInfo bufs[3] = {
          info(p.src, c.first), info(p.dst, c.first), {table.handle(), 0, VK_WHOLE_SIZE}};
      if (d_.settings.pointers)
        r->addresses.push_back({address(p.src, c.first), address(p.dst, c.first), table.address()});
      VkWriteDescriptorSet w{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
      w.dstSet = r->sets[set++];
      w.dstBinding = 0;
      w.descriptorCount = 3;
      w.descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
      w.pBufferInfo = bufs;
      api.vkUpdateDescriptorSets(d_.device, 1, &w, 0, nullptr);
    }
  recordings_.push_back(std::move(r));
  return *recordings_.back();
}

void Plan::release(Recording& r) {
  wait(r);
  auto& api = d_.api;
  for (Submission& s : r.copies) {
    if (s.fence)
      api.vkDestroyFence(d_.device, s.fence, nullptr);
    if (s.cmd) {
      std::lock_guard<std::mutex> lock(d_.queue_mutex);
      api.vkFreeCommandBuffers(d_.device, d_.pool, 1, &s.cmd);
    }
  }
  if (r.pool)
    api.vkDestroyDescriptorPool(d_.device, r.pool, nullptr);
}

void Plan::wait(Recording& r) {
  for (Submission& s : r.copies)
    wait(s);
}

void Plan::wait(Submission& s) {
  if (!s.pending)
    return;
  d_.wait(s.fence, "waiting for the transform's fence");
  s.pending = false;
}

void Plan::submit(Recording& r, const std::function<void(VkCommandBuffer)>& body) {
  auto& api = d_.api;
  Submission& s = r.copies[r.next];
  r.next = (r.next + 1) % kInFlight;
  wait(s);
  if (!s.cmd) { // recorded once, resubmitted afterwards
    std::lock_guard<std::mutex> lock(d_.queue_mutex);
    VkCommandBufferAllocateInfo ai{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
    ai.commandPool = d_.pool;
    ai.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
    ai.commandBufferCount = 1;
    vk::check(api.vkAllocateCommandBuffers(d_.device, &ai, &s.cmd), "vkAllocateCommandBuffers");
    VkCommandBufferBeginInfo bi{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
    vk::check(api.vkBeginCommandBuffer(s.cmd, &bi), "vkBeginCommandBuffer");
    body(s.cmd);
    vk::check(api.vkEndCommandBuffer(s.cmd), "vkEndCommandBuffer");
    VkFenceCreateInfo fi{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
    vk::check(api.vkCreateFence(d_.device, &fi, nullptr, &s.fence), "vkCreateFence");
  }
  vk::check(api.vkResetFences(d_.device, 1, &s.fence), "vkResetFences");
  VkSubmitInfo si{VK_STRUCTURE_TYPE_SUBMIT_INFO};
  si.commandBufferCount = 1;
  si.pCommandBuffers = &s.cmd;
  std::lock_guard<std::mutex> lock(d_.queue_mutex);
  vk::check(api.vkQueueSubmit(d_.queue, 1, &si, s.fence), "vkQueueSubmit");
  s.pending = true;
}

void Plan::execute_buffers(int direction, Buffer& in, Buffer& out) {
  Recording& r = recording(direction, in, out, false);
  submit(r, [&](VkCommandBuffer cmd) { encode(cmd, r); });
}

void Plan::synchronize() {
  for (auto& r : recordings_)
    wait(*r);
}

void Plan::host_buffers() {
  if (host_in_)
    return;
  bool in_place = desc_.flags & FFTMUX_IN_PLACE;
  uint64_t in_bytes = in_place ? std::max(in_bytes_, out_bytes_) : in_bytes_;
  host_in_ = std::make_unique<Buffer>(d_, in_bytes);
  stage_in_ = std::make_unique<Buffer>(d_, in_bytes, true);
  if (in_place)
    return;
  host_out_ = std::make_unique<Buffer>(d_, out_bytes_);
  stage_out_ = std::make_unique<Buffer>(d_, out_bytes_, true);
}

// One submission, recorded once: the input copied up, the passes, the
// output copied down. H200, 1024x1024: a staging buffer made for every copy
// and a submission each took 13.3 ms a call.
void Plan::execute(int direction, const void* in, void* out) {
  dir(direction); // a wrong direction fails before any buffer is made
  host_buffers();
  bool in_place = !host_out_;
  Buffer& bin = *host_in_;
  Buffer& bout = in_place ? bin : *host_out_;
  Buffer& sin = *stage_in_;
  Buffer& sout = in_place ? sin : *stage_out_;
  // The kernels write only the output's elements: where the layout has gaps
  // they must keep the caller's bytes, so those go down first.
  bool gaps = !in_place && out_bytes_ > dense_out_bytes();
  Recording& r = recording(direction, bin, bout, true);
  wait(r);
  std::memcpy(sin.mapped(), in, in_bytes_);
  if (gaps)
    std::memcpy(sout.mapped(), out, out_bytes_);
  auto& api = d_.api;
  submit(r, [&](VkCommandBuffer cmd) {
    auto copy = [&](Buffer& from, Buffer& to, uint64_t bytes) {
      VkBufferCopy c{0, 0, bytes};
      api.vkCmdCopyBuffer(cmd, from.handle(), to.handle(), 1, &c);
    };
    copy(sin, bin, in_bytes_);
    if (gaps)
      copy(sout, bout, out_bytes_);
    encode(cmd, r); // its barriers order the copies around the passes
    copy(bout, sout, out_bytes_);
    VkMemoryBarrier b = barrier(VK_ACCESS_TRANSFER_WRITE_BIT, VK_ACCESS_HOST_READ_BIT);
    api.vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1,
                             &b, 0, nullptr, 0, nullptr);
  });
  wait(r);
  std::memcpy(out, sout.mapped(), out_bytes_);
}

} // namespace fftmux::vulkan
