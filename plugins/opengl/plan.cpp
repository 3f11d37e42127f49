// A plan: the generator's passes as GL programs, tables uploaded once,
// dispatched with barriers between passes.
#include "engine.hpp"

#include <fftmux/gpu/dispatch.hpp>
#include <fftmux/plugin_support.hpp>

#include <algorithm>
#include <cstring>

namespace fftmux::opengl {

using plugin::fail;

namespace {

// True when the output layout leaves bytes between its elements (strides,
// padding), which the caller expects untouched.
bool has_gaps(const fftmux_desc& desc, uint64_t out_bytes) {
  plugin::Shape out = plugin::shape(desc, false);
  uint64_t elements = uint64_t(desc.batch);
  for (int64_t e : out.extent)
    elements *= uint64_t(e);
  uint64_t scalar = codegen::complex_bytes(desc) / 2;
  return elements * (out.complex ? 2 : 1) * scalar != out_bytes;
}

} // namespace

Plan::Plan(Device& d, const fftmux_desc& desc, const codegen::Options& options)
    : d_(d), desc_(desc) {
  std::vector<codegen::Chunk> parts;
  try {
    parts = d.generated(desc, options);
  } catch (const codegen::Unsupported& e) {
    fail(FFTMUX_ERROR_UNSUPPORTED, std::string("opengl: ") + e.what());
  }
  in_bytes_ = codegen::side_bytes(desc, true);
  out_bytes_ = codegen::side_bytes(desc, false);
  out_gaps_ = has_gaps(desc, out_bytes_);
  uint64_t scratch = 0;
  size_t passes = 0;
  for (const codegen::Chunk& part : parts) {
    const codegen::Planned& planned = part.generated->planned;
    std::vector<std::shared_ptr<Program>> programs = d.programs(part.generated->sources(), counts_);
    Chunk& c = chunks_.emplace_back(Chunk{part.first, {}});
    size_t at = 0;
    for (size_t i = 0; i < planned.plans.size(); ++i) {
      const codegen::Plan& p = planned.plans[i];
      Direction& dd = c.dirs[planned.directions[i]];
      const std::vector<unsigned char>& table = part.generated->table(i);
      dd.table = std::make_unique<Buffer>(d, table.size());
      dd.table->write(0, table.data(), table.size());
      for (const codegen::Pass& pass : p.passes)
        dd.passes.push_back({pass.src, pass.dst, pass.kernel.groups(), programs[at++]});
    }
    scratch = std::max(scratch, planned.scratch_bytes);
    passes = std::max(passes, planned.passes);
  }
  summary_ = codegen::summary(parts);
  if (scratch)
    scratch_ = d.scratch(scratch);
  HostIo io = d.settings().host_io;
  host_mapped_ =
      d.buffer_storage_api() && (io == HostIo::mapped || (io == HostIo::automatic && passes == 1));
}

Plan::~Plan() {
  if (fence_)
    d_.gl().DeleteSync(fence_);
}

Plan::Direction& Plan::dir(int direction, size_t chunk) {
  auto it = chunks_[chunk].dirs.find(direction);
  if (it == chunks_[chunk].dirs.end())
    fail(FFTMUX_ERROR_INVALID_ARGUMENT,
         "opengl: direction = " + std::to_string(direction) + ": a " +
             (desc_.kind == FFTMUX_R2C ? "r2c plan runs forward (-1) only"
                                       : "c2r plan runs inverse (+1) only"));
  return it->second;
}

size_t Plan::passes(int direction) {
  size_t n = 0;
  for (size_t c = 0; c < chunks_.size(); ++c)
    n += dir(direction, c).passes.size();
  return n;
}

Buffer& Plan::buffer_of(codegen::Binding b, Buffer& in, Buffer& out) const {
  switch (b) {
  case codegen::Binding::input: return in;
  case codegen::Binding::output: return out;
  default: return *scratch_;
  }
}

void Plan::dispatch(int direction, Buffer& in, Buffer& out,
                    const std::function<void()>& after_pass) {
  dir(direction); // a wrong direction fails before anything is bound
  if (in.size() < in_bytes_ || out.size() < out_bytes_)
    fail(FFTMUX_ERROR_INVALID_ARGUMENT,
         "opengl: buffers of " + std::to_string(in.size()) + " and " + std::to_string(out.size()) +
             " bytes are too small for this plan's " + std::to_string(in_bytes_) + " and " +
             std::to_string(out_bytes_));
  GladGLContext& g = d_.gl();
  // A binding addresses at most the block limit, from its chunk's offset.
  auto bind = [&](GLuint index, const Buffer& b, uint64_t offset) {
    uint64_t size = std::min(b.size() - offset, d_.limits().max_binding_bytes);
    g.BindBufferRange(GL_SHADER_STORAGE_BUFFER, index, b.name(), GLintptr(offset),
                      GLsizeiptr(size));
  };
  for (size_t c = 0; c < chunks_.size(); ++c) {
    const Direction& cd = dir(direction, c);
    auto offset = [&](codegen::Binding b) {
      return codegen::binding_offset(desc_, b, chunks_[c].first);
    };
    for (size_t i = 0; i < cd.passes.size(); ++i) {
      const Pass& p = cd.passes[i];
      g.UseProgram(p.program->id);
      bind(0, buffer_of(p.src, in, out), offset(p.src));
      bind(1, buffer_of(p.dst, in, out), offset(p.dst));
      bind(2, *cd.table, 0);
      for (const codegen::Dispatch& grid :
           codegen::dispatches(p.groups, d_.max_groups(0), d_.max_groups(1))) {
        g.Uniform1ui(0, grid.offset); // group_offset, at location 0 in the GL dialect
        g.DispatchCompute(grid.x, grid.y, 1);
      }
      // The next pass (or chunk, which may share the scratch) reads what
      // this one wrote; after the last, whatever the caller does next
      // (reads, mapped access, its own drawing) sees it.
      bool last = c + 1 == chunks_.size() && i + 1 == cd.passes.size();
      g.MemoryBarrier(last ? GL_ALL_BARRIER_BITS : GL_SHADER_STORAGE_BARRIER_BIT);
      if (after_pass)
        after_pass();
    }
  }
  g.UseProgram(0);
  d_.check("dispatching the passes");
}

void Plan::execute_buffers(int direction, Buffer& in, Buffer& out) {
  dispatch(direction, in, out);
  if (fence_)
    d_.gl().DeleteSync(fence_);
  fence_ = d_.gl().FenceSync(GL_SYNC_GPU_COMMANDS_COMPLETE, 0);
  d_.gl().Flush(); // starts the work now, not at the next synchronize
}

void Plan::synchronize() {
  if (!fence_)
    return;
  GladGLContext& g = d_.gl();
  GLenum r = GL_TIMEOUT_EXPIRED;
  codegen::wait_fence(
      d_.software(), [&] { return (r = g.ClientWaitSync(fence_, 0, 0)) != GL_TIMEOUT_EXPIRED; },
      [&] {
        while ((r = g.ClientWaitSync(fence_, GL_SYNC_FLUSH_COMMANDS_BIT, 1000000000ull)) ==
               GL_TIMEOUT_EXPIRED) {
        }
      });
  g.DeleteSync(fence_);
  fence_ = nullptr;
  if (r == GL_WAIT_FAILED)
    d_.check("waiting for the transform");
}

void Plan::host_buffers() {
  if (host_in_)
    return;
  bool in_place = desc_.flags & FFTMUX_IN_PLACE;
  Buffer::Kind kind = host_mapped_ ? Buffer::Kind::mapped : Buffer::Kind::device;
  host_in_ =
      std::make_unique<Buffer>(d_, in_place ? std::max(in_bytes_, out_bytes_) : in_bytes_, kind);
  if (!in_place)
    host_out_ = std::make_unique<Buffer>(d_, out_bytes_, kind);
}

void Plan::execute(int direction, const void* in, void* out) {
  dir(direction); // a wrong direction fails before any buffer is made
  host_buffers();
  Buffer& bin = *host_in_;
  Buffer& bout = host_out_ ? *host_out_ : *host_in_;
  bin.write(0, in, in_bytes_);
  if (host_out_ && out_gaps_) // the read-back must return the caller's bytes between elements
    bout.write(0, out, out_bytes_);
  execute_buffers(direction, bin, bout);
  synchronize();
  bout.read(0, out, out_bytes_);
}

} // namespace fftmux::opengl
