// One thread that owns the GL context. A GL context is current on one
// thread at a time, and making it current on every caller's thread would
// serialize callers anyway and break applications that have their own
// context current: so every call is marshalled here and waited for.
#pragma once

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
    {
      std::lock_guard<std::mutex> lock(mutex_);
      queue_.emplace_back([&task] { task(); });
    }
    ready_.notify_one();
    return done.get();
  }

private:
  void loop() {
    std::unique_lock<std::mutex> lock(mutex_);
    for (;;) {
      ready_.wait(lock, [this] { return stop_ || !queue_.empty(); });
      if (queue_.empty())
        return; // stopping, and nothing is left to run
      std::function<void()> job = std::move(queue_.front());
      queue_.pop_front();
      lock.unlock();
      job(); // packaged_task keeps exceptions for the caller
      lock.lock();
    }
  }

  std::mutex mutex_;
  std::condition_variable ready_;
  std::deque<std::function<void()>> queue_;
  bool stop_ = false;
  std::thread thread_; // last: starts after the members it uses exist
};

} // namespace fftmux::opengl
