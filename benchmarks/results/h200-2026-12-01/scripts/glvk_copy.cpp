// Experiment: does a GL compute copy run faster in memory that Vulkan
// allocated and GL imported (GL_EXT_memory_object_fd) than in GL's own
// buffers? Build: g++ -O2 glvk_copy.cpp -lEGL -lOpenGL -lvulkan -o glvk_copy
#define GL_GLEXT_PROTOTYPES
#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GL/gl.h>
#include <GL/glext.h>
#include <vulkan/vulkan.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#define CHECK(c)                                                                                   \
  do {                                                                                             \
    if (!(c)) {                                                                                    \
      std::fprintf(stderr, "failed: %s (line %d)\n", #c, __LINE__);                               \
      std::exit(1);                                                                                \
    }                                                                                              \
  } while (0)

template <class F> F gl_proc(const char* name) {
  F f = reinterpret_cast<F>(eglGetProcAddress(name));
  CHECK(f);
  return f;
}

struct Vk {
  VkInstance inst{};
  VkPhysicalDevice phys{};
  VkDevice dev{};
  PFN_vkGetMemoryFdKHR get_fd{};
  void init(const GLubyte* uuid) {
    VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO};
    app.apiVersion = VK_API_VERSION_1_1;
    VkInstanceCreateInfo ici{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
    ici.pApplicationInfo = &app;
    CHECK(vkCreateInstance(&ici, nullptr, &inst) == VK_SUCCESS);
    uint32_t n = 0;
    vkEnumeratePhysicalDevices(inst, &n, nullptr);
    std::vector<VkPhysicalDevice> pds(n);
    vkEnumeratePhysicalDevices(inst, &n, pds.data());
    for (VkPhysicalDevice p : pds) {
      VkPhysicalDeviceIDProperties id{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ID_PROPERTIES};
      VkPhysicalDeviceProperties2 pr{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, &id};
      vkGetPhysicalDeviceProperties2(p, &pr);
      std::printf("vulkan device %s%s\n", pr.properties.deviceName,
                  std::memcmp(id.deviceUUID, uuid, 16) == 0 ? " (GL's device)" : "");
      if (std::memcmp(id.deviceUUID, uuid, 16) == 0)
        phys = p;
    }
    CHECK(phys);
    float prio = 1;
    VkDeviceQueueCreateInfo q{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
    q.queueCount = 1;
    q.pQueuePriorities = &prio;
    const char* ext[] = {"VK_KHR_external_memory_fd"};
    VkDeviceCreateInfo dci{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
    dci.queueCreateInfoCount = 1;
    dci.pQueueCreateInfos = &q;
    dci.enabledExtensionCount = 1;
    dci.ppEnabledExtensionNames = ext;
    CHECK(vkCreateDevice(phys, &dci, nullptr, &dev) == VK_SUCCESS);
    get_fd = reinterpret_cast<PFN_vkGetMemoryFdKHR>(vkGetDeviceProcAddr(dev, "vkGetMemoryFdKHR"));
    CHECK(get_fd);
  }
  // Device-local memory exported as an opaque fd (dedicated to a buffer
  // when `dedicated`, as some drivers want for interop).
  int alloc(VkDeviceSize bytes, bool dedicated) {
    VkExternalMemoryBufferCreateInfo eb{VK_STRUCTURE_TYPE_EXTERNAL_MEMORY_BUFFER_CREATE_INFO};
    eb.handleTypes = VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT;
    VkBufferCreateInfo bci{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO, &eb};
    bci.size = bytes;
    bci.usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT |
                VK_BUFFER_USAGE_TRANSFER_SRC_BIT;
    VkBuffer buf;
    CHECK(vkCreateBuffer(dev, &bci, nullptr, &buf) == VK_SUCCESS);
    VkMemoryRequirements req;
    vkGetBufferMemoryRequirements(dev, buf, &req);
    VkPhysicalDeviceMemoryProperties mp;
    vkGetPhysicalDeviceMemoryProperties(phys, &mp);
    uint32_t type = ~0u;
    for (uint32_t i = 0; i < mp.memoryTypeCount && type == ~0u; ++i)
      if ((req.memoryTypeBits >> i & 1) &&
          (mp.memoryTypes[i].propertyFlags & VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT))
        type = i;
    CHECK(type != ~0u);
    VkMemoryDedicatedAllocateInfo ded{VK_STRUCTURE_TYPE_MEMORY_DEDICATED_ALLOCATE_INFO};
    ded.buffer = buf;
    VkExportMemoryAllocateInfo ex{VK_STRUCTURE_TYPE_EXPORT_MEMORY_ALLOCATE_INFO,
                                  dedicated ? &ded : nullptr};
    ex.handleTypes = VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT;
    VkMemoryAllocateInfo ai{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO, &ex};
    ai.allocationSize = req.size;
    ai.memoryTypeIndex = type;
    VkDeviceMemory mem;
    CHECK(vkAllocateMemory(dev, &ai, nullptr, &mem) == VK_SUCCESS);
    CHECK(vkBindBufferMemory(dev, buf, mem, 0) == VK_SUCCESS);
    VkMemoryGetFdInfoKHR gi{VK_STRUCTURE_TYPE_MEMORY_GET_FD_INFO_KHR};
    gi.memory = mem;
    gi.handleType = VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT;
    int fd = -1;
    CHECK(get_fd(dev, &gi, &fd) == VK_SUCCESS);
    last_size = req.size;
    return fd;
  }
  VkDeviceSize last_size = 0;
};

const char* kCopy = R"(#version 430
layout(local_size_x = 256) in;
layout(std430, binding = 0) readonly buffer S { vec4 s[]; };
layout(std430, binding = 1) writeonly buffer D { vec4 d[]; };
layout(location = 0) uniform uint count;
void main() {
  uint i = gl_WorkGroupID.x * 256u + gl_WorkGroupID.y * 256u * gl_NumWorkGroups.x + gl_LocalInvocationID.x;
  if (i < count) d[i] = s[i];
}
)";

const char* kFill = R"(#version 430
layout(local_size_x = 256) in;
layout(std430, binding = 0) writeonly buffer S { vec4 s[]; };
layout(location = 0) uniform uint count;
void main() {
  uint i = gl_WorkGroupID.x * 256u + gl_WorkGroupID.y * 256u * gl_NumWorkGroups.x + gl_LocalInvocationID.x;
  // Random bits (no compressible pattern): a hash of the index.
  uint h = i * 2654435761u;
  h ^= h >> 15; h *= 2246822519u; h ^= h >> 13;
  if (i < count) s[i] = vec4(float(i & 65535u), float(i >> 16), float(h & 0xffffu), float(h >> 16));
}
)";

GLuint program(const char* src) {
  GLuint s = glCreateShader(GL_COMPUTE_SHADER);
  glShaderSource(s, 1, &src, nullptr);
  glCompileShader(s);
  GLint ok = 0;
  glGetShaderiv(s, GL_COMPILE_STATUS, &ok);
  CHECK(ok);
  GLuint p = glCreateProgram();
  glAttachShader(p, s);
  glLinkProgram(p);
  glGetProgramiv(p, GL_LINK_STATUS, &ok);
  CHECK(ok);
  return p;
}

void dispatch(GLuint prog, GLuint count) {
  glUseProgram(prog);
  glUniform1ui(0, count);
  GLuint groups = (count + 255) / 256, x = std::min<GLuint>(groups, 65535);
  glDispatchCompute(x, (groups + x - 1) / x, 1);
  glMemoryBarrier(GL_ALL_BARRIER_BITS);
}

struct Pair {
  GLuint src, dst;
};

double median_copy_us(GLuint copy, GLuint fill, Pair p, size_t bytes, int reps) {
  GLuint count = GLuint(bytes / 16);
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, p.src);
  dispatch(fill, count);
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, p.src);
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 1, p.dst);
  GLuint q;
  glGenQueries(1, &q);
  std::vector<double> t;
  for (int r = 0; r < reps + 2; ++r) {
    glBeginQuery(GL_TIME_ELAPSED, q);
    dispatch(copy, count);
    glEndQuery(GL_TIME_ELAPSED);
    GLuint64 ns = 0;
    glGetQueryObjectui64v(q, GL_QUERY_RESULT, &ns);
    if (r >= 2)
      t.push_back(ns / 1e3);
  }
  glDeleteQueries(1, &q);
  // Check a few elements of the destination.
  for (size_t i : {size_t(0), size_t(count / 2), size_t(count - 1)}) {
    float v[4];
    glGetNamedBufferSubData(p.dst, GLintptr(i * 16), 16, v);
    CHECK(v[0] == float(i & 65535u) && v[1] == float(i >> 16));
  }
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

int main(int argc, char** argv) {
  // Usage: glvk_copy REPS MIB [MIB...]; every size tries GL's own buffers
  // and Vulkan memory imported, in that order.
  int reps = argc > 1 ? std::atoi(argv[1]) : 20;
  std::vector<size_t> sizes;
  for (int a = 2; a < argc; ++a)
    sizes.push_back(size_t(std::atoll(argv[a])));
  if (sizes.empty())
    sizes = {128, 512, 1024};
  auto query_devices = gl_proc<PFNEGLQUERYDEVICESEXTPROC>("eglQueryDevicesEXT");
  auto platform_display = gl_proc<PFNEGLGETPLATFORMDISPLAYEXTPROC>("eglGetPlatformDisplayEXT");
  EGLDeviceEXT devs[8];
  EGLint nd = 0;
  CHECK(query_devices(8, devs, &nd) && nd > 0);
  EGLDisplay dpy = platform_display(EGL_PLATFORM_DEVICE_EXT, devs[0], nullptr);
  CHECK(eglInitialize(dpy, nullptr, nullptr));
  CHECK(eglBindAPI(EGL_OPENGL_API));
  EGLint attrs[] = {EGL_CONTEXT_MAJOR_VERSION, 4, EGL_CONTEXT_MINOR_VERSION, 5,
                    EGL_CONTEXT_OPENGL_PROFILE_MASK, EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT, EGL_NONE};
  EGLContext ctx = eglCreateContext(dpy, EGL_NO_CONFIG_KHR, EGL_NO_CONTEXT, attrs);
  CHECK(ctx != EGL_NO_CONTEXT);
  CHECK(eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, ctx));
  std::printf("GL: %s / %s\n", glGetString(GL_RENDERER), glGetString(GL_VERSION));

  auto get_uuid = gl_proc<PFNGLGETUNSIGNEDBYTEI_VEXTPROC>("glGetUnsignedBytei_vEXT");
  auto create_mem = gl_proc<PFNGLCREATEMEMORYOBJECTSEXTPROC>("glCreateMemoryObjectsEXT");
  auto mem_param = gl_proc<PFNGLMEMORYOBJECTPARAMETERIVEXTPROC>("glMemoryObjectParameterivEXT");
  auto import_fd = gl_proc<PFNGLIMPORTMEMORYFDEXTPROC>("glImportMemoryFdEXT");
  auto storage_mem = gl_proc<PFNGLNAMEDBUFFERSTORAGEMEMEXTPROC>("glNamedBufferStorageMemEXT");
  GLubyte uuid[16] = {};
  get_uuid(GL_DEVICE_UUID_EXT, 0, uuid);
  Vk vk;
  vk.init(uuid);

  GLuint copy = program(kCopy), fill = program(kFill);
  auto gl_buffer = [](size_t bytes, GLbitfield flags) {
    GLuint b;
    glCreateBuffers(1, &b);
    glNamedBufferStorage(b, GLsizeiptr(bytes), nullptr, flags);
    return b;
  };
  auto imported = [&](size_t bytes, bool dedicated) {
    int fd = vk.alloc(bytes, dedicated);
    GLuint mo, b;
    create_mem(1, &mo);
    GLint d = dedicated ? GL_TRUE : GL_FALSE;
    mem_param(mo, GL_DEDICATED_MEMORY_OBJECT_EXT, &d);
    import_fd(mo, vk.last_size, GL_HANDLE_TYPE_OPAQUE_FD_EXT, fd);
    glCreateBuffers(1, &b);
    storage_mem(b, GLsizeiptr(bytes), mo, 0);
    GLenum e = glGetError();
    if (e != GL_NO_ERROR) {
      std::printf("import failed: GL error 0x%x\n", e);
      return 0u;
    }
    return b;
  };
  const GLbitfield mappable = GL_DYNAMIC_STORAGE_BIT | GL_MAP_READ_BIT | GL_MAP_WRITE_BIT;
  std::printf("| buffers | MiB each | us | GB/s |\n|---|---:|---:|---:|\n");
  for (size_t mib : sizes) {
    size_t bytes = mib << 20;
    struct Case {
      const char* name;
      Pair p;
    } cases[] = {
        {"GL glBufferStorage(dynamic|map read|map write)",
         {gl_buffer(bytes, mappable), gl_buffer(bytes, mappable)}},
        {"GL glBufferStorage(dynamic)",
         {gl_buffer(bytes, GL_DYNAMIC_STORAGE_BIT), gl_buffer(bytes, GL_DYNAMIC_STORAGE_BIT)}},
        {"Vulkan memory imported", {imported(bytes, false), imported(bytes, false)}},
        {"Vulkan dedicated memory imported", {imported(bytes, true), imported(bytes, true)}},
    };
    for (const Case& c : cases) {
      if (!c.p.src || !c.p.dst)
        continue;
      double us = median_copy_us(copy, fill, c.p, bytes, reps);
      std::printf("| %s | %zu | %.1f | %.0f |\n", c.name, mib, us, 2.0 * bytes / us / 1e3);
      std::fflush(stdout);
    }
    for (const Case& c : cases) {
      GLuint b[2] = {c.p.src, c.p.dst};
      glDeleteBuffers(2, b);
    }
  }
  return 0;
}
