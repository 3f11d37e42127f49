// The objects behind the C API's opaque handles.
#pragma once

#include "calibration.hpp"
#include "config.hpp"
#include "decision.hpp"
#include "problem.hpp"
#include "registry.hpp"
#include "tuning.hpp"

#include <fftmux/fftmux.h>

#include <atomic>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

struct fftmux_context_s {
  fftmux::Config config;
  fftmux::Registry registry;
  std::mutex notes_mutex;
  std::vector<std::string> notes; // what went wrong at start-up, for `fftmux backends`
  std::atomic<int> live{0};       // plans and buffers not yet destroyed

  std::string tuning_path;           // the user's cache: read, and written by autotune
  std::string system_tuning_path;    // beneath the user's: what an administrator measured
  fftmux::Calibrations calibrations; // device models for routing without measurements

  // The tuning cache, loaded on first use and replaced after autotune.
  std::shared_ptr<const fftmux::TuningCache> tuning();
  void reload_tuning();

private:
  std::mutex tuning_mutex_;
  std::shared_ptr<const fftmux::TuningCache> tuning_;
};

struct fftmux_plan_s {
  fftmux_context context = nullptr;
  fftmux::Backend* backend = nullptr;
  uint32_t variant = 0;
  std::string variant_name;
  void* handle = nullptr;
  fftmux::Problem problem;
  fftmux::Decision decision;  // for explain
  size_t chosen = 0;          // index of the running candidate in decision
  uint32_t threads_asked = 0; // fftmux_plan_options.threads
  uint32_t threads = 0;       // the backend's answer; 0: unknown (a plugin without plan_create_v2)
  // Distributed plans (distributed.cpp): the communicator and this rank's buffer bytes.
  bool distributed = false;
  uint64_t comm = 0;
  uint64_t local_in_bytes = 0, local_out_bytes = 0;
};

struct fftmux_buffer_s {
  fftmux_context context = nullptr;
  fftmux::Backend* backend = nullptr;
  void* handle = nullptr;
  uint64_t bytes = 0;
  std::vector<uint32_t> devices; // the devices it spans (a plan's buffer); empty: one
};
