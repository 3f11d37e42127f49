#include "parallel.hpp"

namespace bench {

Workers::Workers(int threads) {
  for (int t = 1; t < threads; ++t)
    threads_.emplace_back([this, t] { loop(t); });
}

Workers::~Workers() {
  {
    std::lock_guard<std::mutex> lock(m_);
    stop_ = true;
  }
  wake_.notify_all();
  for (std::thread& t : threads_)
    t.join();
}

void Workers::run(const std::function<void(int)>& job) {
  {
    std::lock_guard<std::mutex> lock(m_);
    job_ = &job;
    pending_ = int(threads_.size());
    ++generation_;
  }
  wake_.notify_all();
  job(0);
  std::unique_lock<std::mutex> lock(m_);
  done_.wait(lock, [&] { return pending_ == 0; });
}

void Workers::loop(int t) {
  uint64_t seen = 0;
  for (;;) {
    const std::function<void(int)>* job;
    {
      std::unique_lock<std::mutex> lock(m_);
      wake_.wait(lock, [&] { return stop_ || generation_ != seen; });
      if (stop_)
        return;
      seen = generation_;
      job = job_;
    }
    (*job)(t);
    std::lock_guard<std::mutex> lock(m_);
    if (--pending_ == 0)
      done_.notify_one();
  }
}

Workers& workers() {
  static Workers w;
  return w;
}

void parallel_for(int64_t n, const std::function<void(int64_t, int64_t)>& f) {
  Workers& w = workers();
  int64_t parts = w.size();
  w.run([&](int t) { f(n * t / parts, n * (t + 1) / parts); });
}

} // namespace bench
