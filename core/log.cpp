#include "log.hpp"

#include "error.hpp"
#include "paths.hpp"

#include <fftmux/fftmux.h>

#include <atomic>
#include <condition_variable>
#include <cstdio>
#include <memory>
#include <mutex>
#include <utility>

namespace fftmux {

namespace {

// FFTMUX_LOG's threshold: -1 (nothing) unless it names a level.
int env_threshold() {
  static const int level = [] {
    const std::string v = env("FFTMUX_LOG");
    const char* names[] = {"error", "warn", "info", "debug"};
    for (int i = 0; i < 4; ++i)
      if (v == names[i])
        return i;
    return -1;
  }();
  return level;
}

// An installed callback and how many threads are running it.
struct Slot {
  fftmux_log_callback callback;
  void* user;
  int running = 0;
};

// Where messages go. Installing swaps the slot, then waits until the old one
// is running nowhere; loggers meanwhile take the new one, so none starves.
struct Sink {
  std::mutex mutex;
  std::condition_variable idle;
  std::shared_ptr<Slot> slot;                  // null: stderr
  std::atomic<int> threshold{env_threshold()}; // read without the lock to skip quickly
};

Sink& sink() {
  static Sink s;
  return s;
}

// Set while this thread runs the callback: its own messages go to stderr.
thread_local bool in_callback = false;

void print(int level, const std::string& message) {
  static const char* tags[] = {"error", "warning", "info", "debug"};
  std::fprintf(stderr, "fftmux %s: %s\n", tags[level], message.c_str());
}

// A threshold of the C API as the comparable int: -1 lets nothing pass.
int threshold_of(uint32_t threshold) {
  if (threshold <= FFTMUX_LOG_DEBUG)
    return int(threshold);
  if (threshold == FFTMUX_LOG_OFF)
    return -1;
  if (threshold == FFTMUX_LOG_ENV)
    return env_threshold();
  invalid("threshold = " + std::to_string(threshold) +
          ": must be FFTMUX_LOG_ERROR (0) to FFTMUX_LOG_DEBUG (3), FFTMUX_LOG_OFF (256) or "
          "FFTMUX_LOG_ENV (257)");
}

} // namespace

void log(Level level, const std::string& message) {
  int l = int(level);
  if (in_callback) {
    if (l <= env_threshold())
      print(l, message);
    return;
  }
  Sink& s = sink();
  if (l > s.threshold.load(std::memory_order_relaxed))
    return;
  std::shared_ptr<Slot> slot;
  {
    std::lock_guard<std::mutex> lock(s.mutex);
    if (l > s.threshold.load(std::memory_order_relaxed))
      return;
    if (!s.slot)
      return print(l, message);
    slot = s.slot;
    ++slot->running;
  }
  in_callback = true;
  try {
    slot->callback(slot->user, uint32_t(l), message.c_str());
  } catch (...) { // a C++ callback that throws loses its message, not the caller's call
  }
  in_callback = false;
  std::lock_guard<std::mutex> lock(s.mutex);
  if (--slot->running == 0)
    s.idle.notify_all();
}

} // namespace fftmux

using namespace fftmux;

extern "C" fftmux_status fftmux_set_log_callback(fftmux_log_callback callback, void* user,
                                                 uint32_t threshold) {
  return guard("fftmux_set_log_callback", [&] {
    int level = threshold_of(threshold);
    if (in_callback)
      invalid("called from inside the log callback: install callbacks from outside it");
    auto slot = callback ? std::make_shared<Slot>(Slot{callback, user}) : nullptr;
    Sink& s = sink();
    std::unique_lock<std::mutex> lock(s.mutex);
    std::shared_ptr<Slot> old = std::exchange(s.slot, slot);
    s.threshold.store(level, std::memory_order_relaxed);
    if (old)
      s.idle.wait(lock, [&] { return old->running == 0; });
  });
}
