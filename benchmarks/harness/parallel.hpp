// A small pool of threads that sleep between jobs. OpenMP's workers spin
// for milliseconds after each region and would steal cores from the engine
// timed next; these block on a condition variable, as FFTW's own do.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace bench {

class Workers {
public:
  // All cores by default.
  explicit Workers(int threads = int(std::max(1u, std::thread::hardware_concurrency())));
  ~Workers();
  Workers(const Workers&) = delete;
  Workers& operator=(const Workers&) = delete;
  int size() const { return int(threads_.size()) + 1; }
  // Calls job(t) for t = 0 .. size()-1, one per thread (the caller runs
  // t = 0), and returns when all are done.
  void run(const std::function<void(int)>& job);

private:
  void loop(int t);
  std::vector<std::thread> threads_;
  std::mutex m_;
  std::condition_variable wake_, done_;
  const std::function<void(int)>* job_ = nullptr;
  uint64_t generation_ = 0;
  int pending_ = 0;
  bool stop_ = false;
};

// The process's pool, for the harness's own work (data, checks).
Workers& workers();

// f(begin, end) over [0, n) in one contiguous share per thread.
void parallel_for(int64_t n, const std::function<void(int64_t, int64_t)>& f);

} // namespace bench
