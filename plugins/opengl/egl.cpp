// EGL display choice and context creation.
#include "egl.hpp"

#include <fftmux/plugin_support.hpp>

#include <dlfcn.h>

#include <algorithm>
#include <cstring>
#include <map>
#include <mutex>

namespace fftmux::opengl {

using plugin::fail;

namespace {

// Process-wide EGL state: glad's entry points are globals of this library,
// and displays are process-wide singletons that another fftmux context or
// the application may be using.
std::mutex egl_mutex;
void* egl_library = nullptr;
bool display_entry_points = false; // EGL 1.5 and display extensions loaded
struct DisplayUse {
  int contexts = 0;
  bool ours = false; // fftmux initialized it, so fftmux terminates it
};
std::map<EGLDisplay, DisplayUse> displays;

GLADapiproc egl_symbol(void* library, const char* name) {
  void* p = dlsym(library, name);
  if (!p && glad_eglGetProcAddress) // extension entry points are not exported
    return glad_eglGetProcAddress(name);
  return reinterpret_cast<GLADapiproc>(p);
}

GLADapiproc gl_symbol(void*, const char* name) {
  return eglGetProcAddress(name);
}

const char* error_name(EGLint e) {
  static const char* const names[] = {
      "EGL_SUCCESS",       "EGL_NOT_INITIALIZED",     "EGL_BAD_ACCESS",
      "EGL_BAD_ALLOC",     "EGL_BAD_ATTRIBUTE",       "EGL_BAD_CONFIG",
      "EGL_BAD_CONTEXT",   "EGL_BAD_CURRENT_SURFACE", "EGL_BAD_DISPLAY",
      "EGL_BAD_MATCH",     "EGL_BAD_NATIVE_PIXMAP",   "EGL_BAD_NATIVE_WINDOW",
      "EGL_BAD_PARAMETER", "EGL_BAD_SURFACE",         "EGL_CONTEXT_LOST"};
  EGLint i = e - EGL_SUCCESS;
  return i >= 0 && i < EGLint(std::size(names)) ? names[i] : "unknown EGL error";
}

std::string last_error() {
  return error_name(eglGetError());
}

bool has_word(const char* list, const char* word) {
  if (!list)
    return false;
  size_t n = std::strlen(word);
  for (const char* at = std::strstr(list, word); at; at = std::strstr(at + 1, word))
    if ((at == list || at[-1] == ' ') && (at[n] == ' ' || at[n] == '\0'))
      return true;
  return false;
}

std::string text(const char* s) {
  return s ? s : "";
}

struct Candidate {
  std::string label;
  EGLDisplay display;
};

// The displays of one platform, or why it has none.
using Finder = std::vector<Candidate> (*)(const ContextSettings&, std::string& why);

std::vector<Candidate> device_displays(const ContextSettings& s, std::string& why) {
  const char* client = eglQueryString(EGL_NO_DISPLAY, EGL_EXTENSIONS);
  if (!has_word(client, "EGL_EXT_platform_device") || !eglQueryDevicesEXT) {
    why = "no EGL_EXT_platform_device / EGL_EXT_device_enumeration";
    return {};
  }
  EGLint n = 0;
  eglQueryDevicesEXT(0, nullptr, &n);
  std::vector<EGLDeviceEXT> devices(size_t(std::max(n, 0)));
  if (n <= 0 || !eglQueryDevicesEXT(n, devices.data(), &n)) {
    why = "no EGL device";
    return {};
  }
  std::vector<Candidate> hardware, software;
  for (EGLint i = 0; i < n; ++i) {
    if (s.device >= 0 && i != s.device)
      continue;
    const char* ext = eglQueryDeviceStringEXT(devices[i], EGL_EXTENSIONS);
    bool soft = has_word(ext, "EGL_MESA_device_software");
    std::string name = soft ? "software" : "";
    if (has_word(ext, "EGL_EXT_device_drm"))
      name = text(eglQueryDeviceStringEXT(devices[i], EGL_DRM_DEVICE_FILE_EXT));
    EGLDisplay d = eglGetPlatformDisplayEXT(EGL_PLATFORM_DEVICE_EXT, devices[i], nullptr);
    std::string label = "device " + std::to_string(i) + (name.empty() ? "" : " (" + name + ")");
    (soft ? software : hardware).push_back({label, d});
  }
  if (s.device >= n)
    why = "[backends.opengl] device = " + std::to_string(s.device) + " but EGL lists " +
          std::to_string(n) + " devices";
  hardware.insert(hardware.end(), software.begin(), software.end());
  return hardware;
}

std::vector<Candidate> surfaceless_display(const ContextSettings&, std::string& why) {
  if (!has_word(eglQueryString(EGL_NO_DISPLAY, EGL_EXTENSIONS), "EGL_MESA_platform_surfaceless")) {
    why = "no EGL_MESA_platform_surfaceless";
    return {};
  }
  return {{"surfaceless",
           eglGetPlatformDisplayEXT(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, nullptr)}};
}

std::vector<Candidate> default_display(const ContextSettings&, std::string&) {
  return {{"default display", eglGetDisplay(EGL_DEFAULT_DISPLAY)}};
}

const std::pair<const char*, Finder> platforms[] = {
    {"device", device_displays},
    {"surfaceless", surfaceless_display},
    {"default", default_display},
};

} // namespace

Share load_egl(const ContextSettings& s) {
  std::lock_guard<std::mutex> lock(egl_mutex);
  void* library = dlopen(s.library.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!library)
    fail(FFTMUX_ERROR_UNAVAILABLE,
         "opengl: cannot open " + s.library + ": " + text(dlerror()) +
             " (EGL is missing: install libegl1 and a driver, Mesa's libegl-mesa0 or NVIDIA's)");
  if (!egl_library) { // the first library opened stays in use for the process
    if (!gladLoadEGLUserPtr(EGL_NO_DISPLAY, egl_symbol, library))
      fail(FFTMUX_ERROR_UNAVAILABLE, "opengl: " + s.library + " lacks the EGL 1.0 entry points");
    egl_library = library;
  }
  // glad loads the entry points of the EGL version of a display: with none
  // initialized yet, EGL 1.0's only. A current display (the application's)
  // brings the rest, eglGetCurrentContext among them.
  EGLDisplay current = eglGetCurrentDisplay();
  if (current != EGL_NO_DISPLAY && !display_entry_points)
    display_entry_points = gladLoadEGLUserPtr(current, egl_symbol, egl_library) != 0;
  Share share;
  // Only a desktop GL context can share with ours; the caller's API binding
  // is left as it is.
  if (s.share && current != EGL_NO_DISPLAY && eglQueryAPI && eglGetCurrentContext &&
      eglQueryAPI() == EGL_OPENGL_API) {
    share.context = eglGetCurrentContext();
    share.display = share.context == EGL_NO_CONTEXT ? EGL_NO_DISPLAY : current;
  }
  return share;
}

Context::Context(const ContextSettings& s, const Share& share) {
  std::string reasons;
  auto note = [&](const std::string& r) { reasons += (reasons.empty() ? "" : "; ") + r; };
  std::string why;
  if (share.context != EGL_NO_CONTEXT) {
    if (open(share.display, share.context, why)) {
      platform = "the application's display";
      shared = true;
      return;
    }
    not_shared = why;
    note("sharing the application's context: " + why);
  }
  for (const std::string& name : s.platforms) {
    auto p = std::find_if(std::begin(platforms), std::end(platforms),
                          [&](const auto& e) { return name == e.first; });
    if (p == std::end(platforms))
      fail(FFTMUX_ERROR_INVALID_ARGUMENT, "[backends.opengl] platforms: unknown platform '" + name +
                                              "' (use device, surfaceless, default)");
    why.clear();
    std::vector<Candidate> found = p->second(s, why);
    if (!why.empty())
      note(name + ": " + why);
    for (const Candidate& c : found) {
      if (open(c.display, EGL_NO_CONTEXT, why)) {
        platform = c.label;
        return;
      }
      note(c.label + ": " + why);
    }
  }
  if (s.platforms.empty())
    note("[backends.opengl] platforms is empty");
  fail(FFTMUX_ERROR_UNAVAILABLE, "opengl: no OpenGL 4.3 core context through EGL: " + reasons);
}

Context::~Context() {
  close();
}

bool Context::has(const char* ext) const {
  return std::find(extensions_.begin(), extensions_.end(), ext) != extensions_.end();
}

bool Context::open(EGLDisplay display, EGLContext share, std::string& why) {
  if (display == EGL_NO_DISPLAY) {
    why = "no display (" + last_error() + ")";
    return false;
  }
  bool initialized = eglQueryString(display, EGL_VERSION) != nullptr;
  eglGetError(); // an uninitialized display reports EGL_NOT_INITIALIZED: expected
  EGLint major = 0, minor = 0;
  if (!eglInitialize(display, &major, &minor)) {
    why = "eglInitialize failed (" + last_error() + ")";
    return false;
  }
  {
    std::lock_guard<std::mutex> lock(egl_mutex);
    DisplayUse& use = displays[display];
    use.ours = use.ours || (!initialized && use.contexts == 0);
    ++use.contexts;
    display_ = display;
    // Entry points are the same for every display of the library: loaded
    // once, so no other thread ever sees them change.
    if (!display_entry_points)
      display_entry_points = gladLoadEGLUserPtr(display, egl_symbol, egl_library) != 0;
  }
  const char* ext = eglQueryString(display, EGL_EXTENSIONS);
  egl = text(eglQueryString(display, EGL_VENDOR)) + " EGL " +
        text(eglQueryString(display, EGL_VERSION));
  if (has_word(ext, "EGL_MESA_query_driver") && eglGetDisplayDriverName)
    driver = text(eglGetDisplayDriverName(display));
  auto failed = [&](const std::string& reason) {
    why = reason;
    close();
    return false;
  };
  if (major * 10 + minor < 15 && !has_word(ext, "EGL_KHR_create_context"))
    return failed("EGL " + std::to_string(major) + "." + std::to_string(minor) +
                  " cannot ask for a core profile (needs EGL 1.5 or EGL_KHR_create_context)");
  if (!eglBindAPI(EGL_OPENGL_API))
    return failed("no desktop OpenGL on this display (eglBindAPI: " + last_error() + ")");
  bool surfaceless = has_word(ext, "EGL_KHR_surfaceless_context");
  EGLConfig config = EGL_NO_CONFIG_KHR;
  EGLint id = 0;
  if (share != EGL_NO_CONTEXT)
    eglQueryContext(display, share, EGL_CONFIG_ID, &id);
  EGLint n = 0;
  if (id) { // a shared context uses the application's config
    const EGLint want[] = {EGL_CONFIG_ID, id, EGL_NONE};
    eglChooseConfig(display, want, &config, 1, &n);
  } else if (!surfaceless || !has_word(ext, "EGL_KHR_no_config_context")) {
    const EGLint want[] = {EGL_RENDERABLE_TYPE, EGL_OPENGL_BIT, EGL_SURFACE_TYPE, EGL_PBUFFER_BIT,
                           EGL_NONE};
    if (!eglChooseConfig(display, want, &config, 1, &n) || n < 1)
      return failed("no EGL config renders desktop OpenGL to a pbuffer");
  }
  const EGLint attributes[] = {EGL_CONTEXT_MAJOR_VERSION,
                               4,
                               EGL_CONTEXT_MINOR_VERSION,
                               3,
                               EGL_CONTEXT_OPENGL_PROFILE_MASK,
                               EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT,
                               EGL_NONE};
  context_ = eglCreateContext(display, config, share, attributes);
  if (context_ == EGL_NO_CONTEXT)
    return failed("eglCreateContext for OpenGL 4.3 core failed (" + last_error() + ")");
  if (!surfaceless) {
    const EGLint size[] = {EGL_WIDTH, 1, EGL_HEIGHT, 1, EGL_NONE};
    surface_ = eglCreatePbufferSurface(display, config, size);
    if (surface_ == EGL_NO_SURFACE)
      return failed("no surfaceless contexts and no pbuffer (" + last_error() + ")");
  }
  if (!eglMakeCurrent(display, surface_, surface_, context_))
    return failed("eglMakeCurrent failed (" + last_error() + ")");
  gl_version = gladLoadGLContextUserPtr(&gl, gl_symbol, nullptr);
  if (!gl_version)
    return failed("the OpenGL entry points could not be loaded");
  if (gl_version < GLAD_MAKE_VERSION(4, 3))
    return failed("OpenGL " + text(reinterpret_cast<const char*>(gl.GetString(GL_VERSION))) +
                  " on " + text(reinterpret_cast<const char*>(gl.GetString(GL_RENDERER))) +
                  ": compute shaders and storage buffers need OpenGL 4.3");
  GLint count = 0;
  gl.GetIntegerv(GL_NUM_EXTENSIONS, &count);
  for (GLint i = 0; i < count; ++i)
    extensions_.push_back(
        text(reinterpret_cast<const char*>(gl.GetStringi(GL_EXTENSIONS, GLuint(i)))));
  return true;
}

void Context::close() {
  if (display_ == EGL_NO_DISPLAY)
    return;
  eglMakeCurrent(display_, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
  if (surface_ != EGL_NO_SURFACE)
    eglDestroySurface(display_, surface_);
  if (context_ != EGL_NO_CONTEXT)
    eglDestroyContext(display_, context_);
  {
    std::lock_guard<std::mutex> lock(egl_mutex);
    DisplayUse& use = displays[display_];
    if (--use.contexts == 0) {
      if (use.ours)
        eglTerminate(display_);
      displays.erase(display_);
    }
  }
  eglReleaseThread();
  display_ = EGL_NO_DISPLAY;
  context_ = EGL_NO_CONTEXT;
  surface_ = EGL_NO_SURFACE;
  extensions_.clear();
}

} // namespace fftmux::opengl
