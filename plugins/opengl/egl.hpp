// A headless OpenGL 4.3+ core context through EGL: no window, no X server.
// libEGL is opened at run time (a machine without it leaves the backend
// unavailable with the reason, it does not fail to load); entry points come
// from the glad loaders generated at build time.
#pragma once

#include <glad/egl.h>
#include <glad/gl.h>

#include <string>
#include <vector>

namespace fftmux::opengl {

struct ContextSettings {
  std::string library = "libEGL.so.1";
  // Tried in order: "device" (EGL_EXT_platform_device: NVIDIA's headless
  // path, Mesa's devices too), "surfaceless" (EGL_MESA_platform_surfaceless),
  // "default" (eglGetDisplay(EGL_DEFAULT_DISPLAY)).
  std::vector<std::string> platforms = {"device", "surfaceless", "default"};
  int device = -1;   // index among the EGL devices; -1: hardware devices first
  bool share = true; // share objects with a context current on the initializing thread
};

// The EGL context current on the thread that initializes the backend, if
// any: ours shares its objects, so the application's buffer names are valid
// in fftmux (GL interop without copies).
struct Share {
  EGLDisplay display = EGL_NO_DISPLAY;
  EGLContext context = EGL_NO_CONTEXT;
};

// Opens libEGL (once per process) and returns the context current on the
// calling thread. Throws plugin::Failure (UNAVAILABLE) when libEGL is missing.
Share load_egl(const ContextSettings& settings);

// A context created and made current on the calling thread, which keeps it:
// construct and destroy it on the same thread.
class Context {
public:
  Context(const ContextSettings& settings,
          const Share& share); // throws with every platform's reason
  ~Context();
  Context(const Context&) = delete;
  Context& operator=(const Context&) = delete;

  GladGLContext gl{};
  int gl_version = 0;     // GLAD_VERSION_MAJOR * 10000 + minor
  std::string platform;   // how the display was found, e.g. "device 0 (/dev/dri/card1)"
  std::string egl;        // EGL vendor and version
  std::string driver;     // EGL_MESA_query_driver's name, when present
  bool shared = false;    // objects shared with the initializing thread's context
  std::string not_shared; // why an application context was current but not shared with

  bool has(const char* gl_extension) const;
  EGLContext egl_context() const { return context_; }

private:
  bool open(EGLDisplay display, EGLContext share, std::string& why);
  void close();

  EGLDisplay display_ = EGL_NO_DISPLAY;
  EGLContext context_ = EGL_NO_CONTEXT;
  EGLSurface surface_ = EGL_NO_SURFACE;
  std::vector<std::string> extensions_;
};

} // namespace fftmux::opengl
