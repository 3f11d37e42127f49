// The objects behind the C API's opaque handles.
#pragma once

#include "config.hpp"
#include "problem.hpp"
#include "registry.hpp"

#include <fftmux/fftmux.h>

#include <atomic>
#include <mutex>
#include <string>
#include <vector>

struct fftmux_context_s {
  fftmux::Config config;
  fftmux::Registry registry;
  std::mutex notes_mutex;
  std::vector<std::string> notes; // what went wrong at start-up, for `fftmux backends`
  std::atomic<int> live{0};       // plans and buffers not yet destroyed
};

struct fftmux_plan_s {
  fftmux_context context = nullptr;
  fftmux::Backend* backend = nullptr;
  uint32_t variant = 0;
  std::string variant_name;
  void* handle = nullptr;
  fftmux::Problem problem;
  std::string explain;
};

struct fftmux_buffer_s {
  fftmux_context context = nullptr;
  fftmux::Backend* backend = nullptr;
  void* handle = nullptr;
  uint64_t bytes = 0;
};
