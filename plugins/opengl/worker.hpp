// One thread that owns the GL context. A GL context is current on one
// thread at a time, and making it current on every caller's thread would
// serialize callers anyway and break applications that have their own
// context current: so every call is marshalled here and waited for.
//
// A hand-off through a condition variable costs two thread wake-ups (about
// 5 us): as much as a small transform on a GPU. So on machines with cores to
// spare (8 or more) both sides spin for up to 50 us before they sleep:
// back-to-back calls never sleep, an idle worker costs nothing. With fewer
// cores spinning steals the core the other side needs (measured on 2 cores:
// 5 us blocking, 16-350 us spinning), so they block at once.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <functional>
#include <future>
#include <mutex>
#include <thread>
#include <type_traits>

namespace fftmux::opengl {

class Worker {
public:
  Worker() : thread_([this] { loop(); }) {}
  ~Worker() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      stop_ = true;
    }
    ready_.notify_one();
    thread_.join();
  }
  Worker(const Worker&) = delete;
  Worker& operator=(const Worker&) = delete;

  // Runs f on the worker and returns its result; an exception thrown by f
  // is rethrown here. Calls made on the worker itself run at once.
  template <class F> auto call(F&& f) -> std::invoke_result_t<F&> {
    using R = std::invoke_result_t<F&>;
    if (std::this_thread::get_id() == thread_.get_id())
      return f();
    std::packaged_task<R()> task(std::ref(f));
    std::future<R> done = task.get_future();
    bool wake;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      queue_.emplace_back([&task] { task(); });
      pending_.fetch_add(1, std::memory_order_release);
      wake = sleeping_;
    }
    if (wake)
      ready_.notify_one();
    spin([&] { return done.wait_for(std::chrono::seconds(0)) == std::future_status::ready; });
    return done.get();
  }

private:
  static void pause() {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#endif
  }

  // Polls until() for about 50 us (at once only, on few cores).
  template <class Until> bool spin(Until&& until) const {
    if (!spin_)
      return until();
    auto end = std::chrono::steady_clock::now() + std::chrono::microseconds(50);
    for (int i = 0;; ++i) {
      if (until())
        return true;
      pause();
      if (i % 64 == 63 && std::chrono::steady_clock::now() > end)
        return false;
    }
  }

  void loop() {
    for (;;) {
      spin([this] { return pending_.load(std::memory_order_acquire) > 0; });
      std::unique_lock<std::mutex> lock(mutex_);
      sleeping_ = true;
      ready_.wait(lock, [this] { return stop_ || !queue_.empty(); });
      sleeping_ = false;
      if (queue_.empty())
        return; // stopping, and nothing is left to run
      std::function<void()> job = std::move(queue_.front());
      queue_.pop_front();
      pending_.fetch_sub(1, std::memory_order_relaxed);
      lock.unlock();
      job(); // packaged_task keeps exceptions for the caller
    }
  }

  std::mutex mutex_;
  std::condition_variable ready_;
  std::deque<std::function<void()>> queue_;
  std::atomic<size_t> pending_{0}; // jobs queued: polled without the lock
  bool sleeping_ = false;          // the worker waits on ready_
  const bool spin_ = std::thread::hardware_concurrency() >= 8;
  bool stop_ = false;
  std::thread thread_; // last: starts after the members it uses exist
};

} // namespace fftmux::opengl
