// The device: settings, the context on its worker thread, limits, identity,
// programs (compiled in parallel, cached as program binaries) and buffers.
#include "engine.hpp"

#include <fftmux/gpu/variants.hpp>
#include <fftmux/plugin_support.hpp>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <limits>
#include <sstream>
#include <unistd.h>

namespace fftmux::opengl {

using plugin::fail;

namespace {

std::string gl_string(GladGLContext& gl, GLenum name) {
  const GLubyte* s = gl.GetString(name);
  return s ? reinterpret_cast<const char*>(s) : "";
}

const char* error_name(GLenum e) {
  switch (e) {
  case GL_INVALID_ENUM: return "GL_INVALID_ENUM";
  case GL_INVALID_VALUE: return "GL_INVALID_VALUE";
  case GL_INVALID_OPERATION: return "GL_INVALID_OPERATION";
  case GL_INVALID_FRAMEBUFFER_OPERATION: return "GL_INVALID_FRAMEBUFFER_OPERATION";
  case GL_OUT_OF_MEMORY: return "GL_OUT_OF_MEMORY";
  default: return "an unknown GL error";
  }
}

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> out;
  std::stringstream in(s);
  for (std::string item; std::getline(in, item, sep);) {
    item.erase(0, item.find_first_not_of(" \t"));
    item.erase(item.find_last_not_of(" \t") + 1);
    if (!item.empty())
      out.push_back(item);
  }
  return out;
}

bool flag(const std::string& key, const std::string& v) {
  return plugin::flag("opengl", key, v);
}

long integer(const std::string& key, const std::string& v, long low, long high, const char* hint) {
  char* end = nullptr;
  long n = std::strtol(v.c_str(), &end, 10);
  if (v.empty() || *end || n < low || n > high)
    fail(FFTMUX_ERROR_INVALID_ARGUMENT,
         "[backends.opengl] " + key + " = \"" + v + "\": use " + hint);
  return n;
}

// A program binary on disk: this magic, the driver's format, the bytes.
constexpr char kMagic[8] = {'F', 'M', 'X', 'G', 'L', 'P', 'B', '1'};

std::string log_of(GladGLContext& gl, GLuint object, bool program) {
  GLint n = 0;
  (program ? gl.GetProgramiv : gl.GetShaderiv)(object, GL_INFO_LOG_LENGTH, &n);
  std::string log(size_t(std::max(n, 1)), '\0');
  (program ? gl.GetProgramInfoLog : gl.GetShaderInfoLog)(object, n, nullptr, log.data());
  return log.c_str();
}

} // namespace

const std::vector<Storage>& storages() {
  static const std::vector<Storage> table = {
      {"dynamic", true, GL_DYNAMIC_STORAGE_BIT, 0},
      {"immutable", true, 0, 0},
      {"client", true, GL_DYNAMIC_STORAGE_BIT | GL_CLIENT_STORAGE_BIT, 0},
      {"mappable", true, GL_DYNAMIC_STORAGE_BIT | GL_MAP_READ_BIT | GL_MAP_WRITE_BIT, 0},
      {"data-static-draw", false, 0, GL_STATIC_DRAW},
      {"data-static-copy", false, 0, GL_STATIC_COPY},
      {"data-dynamic-copy", false, 0, GL_DYNAMIC_COPY},
      {"data-dynamic-draw", false, 0, GL_DYNAMIC_DRAW},
      {"data-stream-read", false, 0, GL_STREAM_READ},
      {"vulkan", true, 0, 0, true},
  };
  return table;
}

const Storage& storage(const std::string& name) {
  std::string names = "auto";
  for (const Storage& s : storages()) {
    if (name == s.name || (name == "auto" && s.imported))
      return s;
    names += ", " + std::string(s.name);
  }
  fail(FFTMUX_ERROR_INVALID_ARGUMENT,
       "[backends.opengl] storage = \"" + name + "\": use one of " + names);
}

Settings settings_from(const std::function<const char*(const char*)>& get) {
  Settings s;
  auto value = [&](const char* key, auto&& apply) {
    if (const char* v = get(key))
      apply(std::string(v));
  };
  value("egl_library", [&](const std::string& v) { s.context.library = v; });
  value("platforms", [&](const std::string& v) { s.context.platforms = split(v, ','); });
  value("device", [&](const std::string& v) {
    s.context.device = int(integer("device", v, 0, 1 << 20, "an EGL device index, 0 or more"));
  });
  value("share_context", [&](const std::string& v) { s.context.share = flag("share_context", v); });
  value("storage", [&](const std::string& v) {
    storage(v); // throws for an unknown name
    s.storage = v;
  });
  value("host_io", [&](const std::string& v) {
    const std::pair<const char*, HostIo> modes[] = {
        {"auto", HostIo::automatic}, {"mapped", HostIo::mapped}, {"staged", HostIo::staged}};
    auto m = std::find_if(std::begin(modes), std::end(modes),
                          [&](const auto& e) { return v == e.first; });
    if (m == std::end(modes))
      fail(FFTMUX_ERROR_INVALID_ARGUMENT,
           "[backends.opengl] host_io = \"" + v + "\": use auto, mapped or staged");
    s.host_io = m->second;
  });
  value("program_binaries",
        [&](const std::string& v) { s.program_binaries = flag("program_binaries", v); });
  value("f64", [&](const std::string& v) { s.f64 = flag("f64", v); });
  value("max_binding_bytes", [&](const std::string& v) {
    s.max_binding_bytes =
        uint64_t(integer("max_binding_bytes", v, 0, std::numeric_limits<long>::max(),
                         "0 (the driver's limit) or a byte count"));
  });
  value("values_per_thread", [&](const std::string& v) {
    s.values_per_thread = uint32_t(integer("values_per_thread", v, 0, 64, "0 (by device) to 64"));
  });
  value("sm_shared_bytes", [&](const std::string& v) {
    s.sm_shared_bytes =
        integer("sm_shared_bytes", v, 0, 1 << 30, "0 (not limiting) or a byte count");
  });
  return s;
}

// ---- the device ----

Device::Device(const Settings& s) : settings_(s), storage_(&storage(s.storage)) {
  Share share = load_egl(s.context); // on this thread: its current context is the one to share
  worker_.call([&] {
    try {
      open(share);
    } catch (...) { // a context made before the failure goes on its own thread
      context_.reset();
      throw;
    }
  });
}

Device::~Device() {
  worker_.call([&] {
    programs_.clear();
    scratch_.reset();
    context_.reset();
  });
}

void Device::open(const Share& share) {
  context_ = std::make_unique<Context>(settings_.context, share);
  GladGLContext& g = gl();
  renderer_ = gl_string(g, GL_RENDERER);
  version_ = gl_string(g, GL_VERSION);
  vendor_ = gl_string(g, GL_VENDOR);
  glsl_ = gl_string(g, GL_SHADING_LANGUAGE_VERSION);
  for (const char* cpu : {"llvmpipe", "softpipe", "swrast"})
    software_ = software_ || renderer_.find(cpu) != std::string::npos || context_->driver == cpu;
  GLint v = 0;
  g.GetIntegerv(GL_MAX_COMPUTE_SHARED_MEMORY_SIZE, &v);
  limits_.shared_bytes = uint32_t(v);
  limits_ = codegen::dialect_limits(limits_, codegen::Dialect::opengl);
  if (settings_.sm_shared_bytes >= 0)
    limits_.sm_shared_bytes = uint32_t(settings_.sm_shared_bytes);
  GLint invocations = 0, size_x = 0;
  g.GetIntegerv(GL_MAX_COMPUTE_WORK_GROUP_INVOCATIONS, &invocations);
  g.GetIntegeri_v(GL_MAX_COMPUTE_WORK_GROUP_SIZE, 0, &size_x);
  limits_.max_threads = uint32_t(std::min(invocations, size_x));
  for (GLuint axis = 0; axis < 2; ++axis) {
    g.GetIntegeri_v(GL_MAX_COMPUTE_WORK_GROUP_COUNT, axis, &v);
    max_groups_[axis] = uint32_t(v);
  }
  GLint64 block = 0;
  g.GetInteger64v(GL_MAX_SHADER_STORAGE_BLOCK_SIZE, &block);
  limits_.max_binding_bytes = uint64_t(block);
  if (settings_.max_binding_bytes)
    limits_.max_binding_bytes = std::min(limits_.max_binding_bytes, settings_.max_binding_bytes);
  g.GetIntegerv(GL_SHADER_STORAGE_BUFFER_OFFSET_ALIGNMENT, &v);
  offset_align_ = uint64_t(std::max(v, 1));
  if (context_->has("GL_KHR_shader_subgroup")) {
    g.GetIntegerv(GL_SUBGROUP_SIZE_KHR, &v);
    limits_.subgroup = uint32_t(std::max(v, 1));
  }
  limits_.f64 = f64_missing().empty();
  if (context_->has("GL_EXT_memory_object") && g.GetUnsignedBytevEXT) {
    GLubyte driver[GL_UUID_SIZE_EXT] = {};
    g.GetUnsignedBytei_vEXT(GL_DEVICE_UUID_EXT, 0, device_uuid_);
    g.GetUnsignedBytevEXT(GL_DRIVER_UUID_EXT, driver);
    uuids_ = "; device-uuid " + codegen::bytes_hex(device_uuid_, sizeof device_uuid_) +
             "; driver-uuid " + codegen::bytes_hex(driver, sizeof driver);
  }
  choose_storage();
  GLint formats = 0;
  g.GetIntegerv(GL_NUM_PROGRAM_BINARY_FORMATS, &formats);
  if (!settings_.program_binaries)
    binaries_missing_ = "program_binaries = false";
  else if (formats < 1)
    binaries_missing_ = "the driver offers no program binary format";
  else if (settings_.cache_dir.empty() || !settings_.write_file)
    binaries_missing_ = "no cache folder";
  parallel_compile_ =
      context_->has("GL_KHR_parallel_shader_compile") && g.MaxShaderCompilerThreadsKHR;
  if (parallel_compile_)
    g.MaxShaderCompilerThreadsKHR(0xFFFFFFFFu); // as many as the driver likes
  take_error(); // queries of optional limits may have failed: none matters
}

// "auto" takes Vulkan's memory where GL can import it, on GPUs only (a
// software renderer's memory is the host's either way), else mappable.
// Named, it must work: init fails with the reason.
void Device::choose_storage() {
  if (!storage_->imported)
    return;
  if (settings_.storage != "auto") {
    vulkan();
    return;
  }
  try {
    if (software_)
      fail(FFTMUX_ERROR_UNAVAILABLE, "a software renderer");
    vulkan();
  } catch (const plugin::Failure& f) {
    storage_ = &storage("mappable");
    storage_note_ = std::string(" (no Vulkan memory: ") + f.what() + ")";
  }
}

VulkanMemory& Device::vulkan() {
  if (vulkan_)
    return *vulkan_;
  if (!context_->has("GL_EXT_memory_object_fd") || !gl().ImportMemoryFdEXT)
    fail(FFTMUX_ERROR_UNAVAILABLE, "opengl: storage \"vulkan\": GL lacks GL_EXT_memory_object_fd");
  vulkan_ = std::make_unique<VulkanMemory>(device_uuid_);
  return *vulkan_;
}

codegen::Options Device::options(codegen::Options o) const {
  if (!o.values_per_thread)
    o.values_per_thread = settings_.values_per_thread;
  return codegen::device_defaults(o, software_);
}

std::vector<codegen::Chunk> Device::generated(const fftmux_desc& desc,
                                              const codegen::Options& variant) const {
  if (desc.precision == FFTMUX_F64 && !f64_missing().empty())
    throw codegen::Unsupported(f64_missing());
  return codegen::generate_chunks(desc, limits_, options(variant), limits_.max_binding_bytes,
                                  codegen::Dialect::opengl, offset_align_);
}

bool Device::buffer_storage_api() const {
  return context_->gl_version >= GLAD_MAKE_VERSION(4, 4) || context_->has("GL_ARB_buffer_storage");
}

std::string Device::f64_missing() const {
  if (!settings_.f64)
    return "F64 is turned off by [backends.opengl] f64 = false";
  if (!context_->has("GL_ARB_gpu_shader_fp64"))
    return renderer_ + " has no double precision in shaders (GL_ARB_gpu_shader_fp64)";
  return "";
}

std::string Device::description() const {
  return renderer_ + " (OpenGL " + version_ + ", " + context_->egl + ", EGL " + context_->platform +
         (context_->shared ? ", shared with the application" : "") + "; storage " + storage_->name +
         storage_note_ + ")";
}

std::string Device::hardware_key() const {
  return "opengl " + version_ + "; renderer " + renderer_ + "; vendor " + vendor_ + "; glsl " +
         glsl_ + "; " + context_->egl +
         (context_->driver.empty() ? "" : "; driver " + context_->driver) + uuids_;
}

GLenum Device::take_error() {
  GLenum first = gl().GetError();
  // Bounded: a lost context may report its loss on every call.
  for (int i = 0; i < 32 && first != GL_NO_ERROR && gl().GetError() != GL_NO_ERROR; ++i) {
  }
  return first;
}

void Device::check(const std::string& what) {
  GLenum e = take_error();
  if (e == GL_NO_ERROR)
    return;
  fail(e == GL_OUT_OF_MEMORY ? FFTMUX_ERROR_OUT_OF_MEMORY : FFTMUX_ERROR_BACKEND,
       "opengl: " + what + " failed with " + error_name(e));
}

// ---- programs ----

std::vector<std::shared_ptr<Program>> Device::programs(const std::vector<std::string>& sources,
                                                       ProgramCounts& counts) {
  Compiling c = start(sources, counts);
  return finish(c, counts);
}

// Start every compilation before asking for any result: drivers with
// compiler threads (NVIDIA, Mesa) then compile them side by side.
Device::Compiling Device::start(const std::vector<std::string>& sources, ProgramCounts& counts) {
  GladGLContext& g = gl();
  bool disk = binaries_missing_.empty();
  Compiling c;
  c.out.resize(sources.size());
  c.keys.resize(sources.size());
  for (size_t i = 0; i < sources.size(); ++i) {
    c.keys[i] = codegen::hash_hex(hardware_key() + "\n" +
                                  std::to_string(codegen::generator_version) + "\n" + sources[i]);
    if ((c.out[i] = programs_.find(c.keys[i]))) {
      ++counts.memory;
      continue;
    }
    std::string path = settings_.cache_dir + "/programs/" + c.keys[i] + ".bin";
    if (disk && (c.out[i] = load_binary(path))) {
      ++counts.disk;
      programs_.add(c.keys[i], c.out[i]);
      continue;
    }
    const char* text = sources[i].c_str();
    GLuint shader = g.CreateShader(GL_COMPUTE_SHADER);
    g.ShaderSource(shader, 1, &text, nullptr);
    g.CompileShader(shader);
    GLuint program = g.CreateProgram();
    g.AttachShader(program, shader);
    if (disk)
      g.ProgramParameteri(program, GL_PROGRAM_BINARY_RETRIEVABLE_HINT, GL_TRUE);
    g.LinkProgram(program);
    c.pending.push_back({i, shader, program});
  }
  return c;
}

bool Device::compiled(const Compiling& c) {
  if (!parallel_compile_)
    return true;
  for (const Compiling::Pending& p : c.pending) {
    GLint done = GL_TRUE;
    gl().GetProgramiv(p.program, GL_COMPLETION_STATUS_KHR, &done);
    if (!done)
      return false;
  }
  return true;
}

std::vector<std::shared_ptr<Program>> Device::finish(Compiling& c, ProgramCounts& counts) {
  GladGLContext& g = gl();
  bool disk = binaries_missing_.empty();
  std::string failure;
  for (const Compiling::Pending& p : c.pending) {
    GLint compiled = 0, linked = 0;
    g.GetShaderiv(p.shader, GL_COMPILE_STATUS, &compiled);
    g.GetProgramiv(p.program, GL_LINK_STATUS, &linked);
    if ((!compiled || !linked) && failure.empty())
      failure = "opengl: the driver rejected generated kernel " + std::to_string(p.index) + ": " +
                log_of(g, compiled ? p.program : p.shader, compiled);
    g.DetachShader(p.program, p.shader);
    g.DeleteShader(p.shader);
    auto program = std::make_shared<Program>(g, p.program);
    if (!compiled || !linked)
      continue;
    if (disk)
      save_binary(p.program, settings_.cache_dir + "/programs/" + c.keys[p.index] + ".bin");
    c.out[p.index] = program;
    programs_.add(c.keys[p.index], program);
    ++counts.compiled;
  }
  c.pending.clear();
  if (!failure.empty())
    fail(FFTMUX_ERROR_INTERNAL, failure);
  check("compiling kernels");
  return c.out;
}

std::shared_ptr<Program> Device::load_binary(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  std::vector<char> b((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  GLenum format = 0;
  size_t head = sizeof kMagic + sizeof format;
  if (b.size() <= head || std::memcmp(b.data(), kMagic, sizeof kMagic))
    return nullptr;
  std::memcpy(&format, b.data() + sizeof kMagic, sizeof format);
  GladGLContext& g = gl();
  auto program = std::make_shared<Program>(g, g.CreateProgram());
  g.ProgramBinary(program->id, format, b.data() + head, GLsizei(b.size() - head));
  GLint linked = 0;
  g.GetProgramiv(program->id, GL_LINK_STATUS, &linked);
  take_error(); // a stale binary (driver update) is rejected: compile instead
  return linked ? program : nullptr;
}

void Device::save_binary(GLuint program, const std::string& path) {
  GladGLContext& g = gl();
  GLint n = 0;
  g.GetProgramiv(program, GL_PROGRAM_BINARY_LENGTH, &n);
  if (n <= 0)
    return;
  GLenum format = 0;
  std::vector<char> b(sizeof kMagic + sizeof format + size_t(n));
  GLsizei got = 0;
  g.GetProgramBinary(program, n, &got, &format, b.data() + sizeof kMagic + sizeof format);
  if (take_error() != GL_NO_ERROR || got <= 0)
    return; // a cache: failing to fill it only costs time
  std::memcpy(b.data(), kMagic, sizeof kMagic);
  std::memcpy(b.data() + sizeof kMagic, &format, sizeof format);
  b.resize(sizeof kMagic + sizeof format + size_t(got));
  settings_.write_file(path, b);
}

// ---- buffers ----

std::shared_ptr<Buffer> Device::scratch(uint64_t bytes) {
  if (scratch_ && scratch_->size() >= bytes)
    return scratch_;
  scratch_.reset(); // freed now unless a plan holds it
  scratch_ = std::make_shared<Buffer>(*this, bytes);
  return scratch_;
}

Buffer::Buffer(Device& d, uint64_t bytes, Kind kind, const Storage* storage) : d_(d) {
  GladGLContext& g = d.gl();
  size_ = std::max<uint64_t>(16, (bytes + 15) / 16 * 16);
  g.GenBuffers(1, &name_);
  g.BindBuffer(GL_COPY_WRITE_BUFFER, name_);
  const Storage& s = storage ? *storage : d.buffer_storage();
  const GLbitfield persistent =
      GL_MAP_READ_BIT | GL_MAP_WRITE_BIT | GL_MAP_PERSISTENT_BIT | GL_MAP_COHERENT_BIT;
  if (kind == Kind::mapped) {
    g.BufferStorage(GL_COPY_WRITE_BUFFER, GLsizeiptr(size_), nullptr, persistent);
    mapped_ = g.MapBufferRange(GL_COPY_WRITE_BUFFER, 0, GLsizeiptr(size_), persistent);
  } else if (s.imported) {
    import(g);
  } else if (s.immutable && d.buffer_storage_api()) {
    g.BufferStorage(GL_COPY_WRITE_BUFFER, GLsizeiptr(size_), nullptr, s.flags);
    writable_ = s.flags & GL_DYNAMIC_STORAGE_BIT;
  } else {
    g.BufferData(GL_COPY_WRITE_BUFFER, GLsizeiptr(size_), nullptr,
                 s.immutable ? GL_DYNAMIC_COPY : s.usage);
  }
  g.BindBuffer(GL_COPY_WRITE_BUFFER, 0);
  try {
    d.check("allocating a buffer of " + std::to_string(size_) + " bytes");
  } catch (...) {
    release();
    throw;
  }
}

// Storage from Vulkan: immutable, so writes go through a staging copy.
void Buffer::import(GladGLContext& g) {
  try {
    VulkanMemory::Allocation a = d_.vulkan().allocate(size_);
    vk_memory_ = a.memory;
    g.CreateMemoryObjectsEXT(1, &memory_);
    g.ImportMemoryFdEXT(memory_, a.size, GL_HANDLE_TYPE_OPAQUE_FD_EXT, a.fd);
    if (g.GetError() != GL_NO_ERROR) { // GL took the descriptor only on success
      ::close(a.fd);
      fail(FFTMUX_ERROR_OUT_OF_MEMORY,
           "opengl: GL could not import " + std::to_string(a.size) + " bytes of Vulkan memory");
    }
    g.BufferStorageMemEXT(GL_COPY_WRITE_BUFFER, GLsizeiptr(size_), memory_, 0);
    writable_ = false;
  } catch (...) {
    g.BindBuffer(GL_COPY_WRITE_BUFFER, 0);
    release();
    throw;
  }
}

void Buffer::release() {
  GladGLContext& g = d_.gl();
  g.DeleteBuffers(1, &name_);
  if (memory_)
    g.DeleteMemoryObjectsEXT(1, &memory_);
  if (vk_memory_)
    d_.vulkan().free(vk_memory_);
}

Buffer::Buffer(Device& d, GLuint wrapped, uint64_t bytes) : d_(d), name_(wrapped), owned_(false) {
  GladGLContext& g = d.gl();
  if (!wrapped || !g.IsBuffer(wrapped))
    fail(FFTMUX_ERROR_INVALID_ARGUMENT,
         "opengl: " + std::to_string(wrapped) +
             " is not a buffer name of this context (or of one it shares objects with)");
  GLint64 size = 0;
  GLint immutable = 0, flags = 0;
  g.BindBuffer(GL_COPY_WRITE_BUFFER, wrapped);
  g.GetBufferParameteri64v(GL_COPY_WRITE_BUFFER, GL_BUFFER_SIZE, &size);
  if (d.buffer_storage_api()) {
    g.GetBufferParameteriv(GL_COPY_WRITE_BUFFER, GL_BUFFER_IMMUTABLE_STORAGE, &immutable);
    g.GetBufferParameteriv(GL_COPY_WRITE_BUFFER, GL_BUFFER_STORAGE_FLAGS, &flags);
  }
  g.BindBuffer(GL_COPY_WRITE_BUFFER, 0);
  d.check("querying buffer " + std::to_string(wrapped));
  if (uint64_t(size) < bytes)
    fail(FFTMUX_ERROR_INVALID_ARGUMENT, "opengl: buffer " + std::to_string(wrapped) + " holds " +
                                            std::to_string(size) + " bytes, fewer than the " +
                                            std::to_string(bytes) + " given");
  size_ = bytes;
  writable_ = !immutable || (flags & GL_DYNAMIC_STORAGE_BIT);
}

Buffer::~Buffer() {
  if (!owned_)
    return;
  GladGLContext& g = d_.gl();
  if (mapped_) {
    g.BindBuffer(GL_COPY_WRITE_BUFFER, name_);
    g.UnmapBuffer(GL_COPY_WRITE_BUFFER);
    g.BindBuffer(GL_COPY_WRITE_BUFFER, 0);
  }
  release();
}

void Buffer::range(uint64_t offset, uint64_t bytes, const char* what) const {
  if (offset > size_ || bytes > size_ - offset)
    fail(FFTMUX_ERROR_INVALID_ARGUMENT,
         std::string("opengl: buffer ") + what + " of " + std::to_string(bytes) + " bytes at " +
             std::to_string(offset) + " runs past the buffer's " + std::to_string(size_));
}

void Buffer::write(uint64_t offset, const void* src, uint64_t bytes) {
  range(offset, bytes, "write");
  if (!bytes)
    return;
  GladGLContext& g = d_.gl();
  if (mapped_) {
    g.Finish(); // kernels issued earlier may still read the memory
    std::memcpy(static_cast<char*>(mapped_) + offset, src, bytes);
    return;
  }
  if (writable_) {
    g.BindBuffer(GL_COPY_WRITE_BUFFER, name_);
    g.BufferSubData(GL_COPY_WRITE_BUFFER, GLintptr(offset), GLsizeiptr(bytes), src);
  } else { // immutable storage without GL_DYNAMIC_STORAGE_BIT: copy from a staging buffer
    GLuint stage = 0;
    g.GenBuffers(1, &stage);
    g.BindBuffer(GL_COPY_READ_BUFFER, stage);
    g.BufferData(GL_COPY_READ_BUFFER, GLsizeiptr(bytes), src, GL_STREAM_COPY);
    g.BindBuffer(GL_COPY_WRITE_BUFFER, name_);
    g.CopyBufferSubData(GL_COPY_READ_BUFFER, GL_COPY_WRITE_BUFFER, 0, GLintptr(offset),
                        GLsizeiptr(bytes));
    g.BindBuffer(GL_COPY_READ_BUFFER, 0);
    g.DeleteBuffers(1, &stage);
  }
  g.BindBuffer(GL_COPY_WRITE_BUFFER, 0);
  d_.check("writing " + std::to_string(bytes) + " bytes to buffer " + std::to_string(name_));
}

void Buffer::read(uint64_t offset, void* dst, uint64_t bytes) {
  range(offset, bytes, "read");
  if (!bytes)
    return;
  GladGLContext& g = d_.gl();
  if (mapped_) {
    g.MemoryBarrier(GL_CLIENT_MAPPED_BUFFER_BARRIER_BIT);
    g.Finish();
    std::memcpy(dst, static_cast<const char*>(mapped_) + offset, bytes);
    return;
  }
  g.MemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT); // kernels' writes before the read
  g.BindBuffer(GL_COPY_READ_BUFFER, name_);
  g.GetBufferSubData(GL_COPY_READ_BUFFER, GLintptr(offset), GLsizeiptr(bytes), dst);
  g.BindBuffer(GL_COPY_READ_BUFFER, 0);
  d_.check("reading " + std::to_string(bytes) + " bytes of buffer " + std::to_string(name_));
}

} // namespace fftmux::opengl
