#include "engine.hpp"

#include <chrono>

namespace bench {

double Run::time_launches(int direction, int runs) {
  auto start = std::chrono::steady_clock::now();
  for (int i = 0; i < runs; ++i)
    launch(direction);
  finish();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() / runs;
}

void Run::host(int, const void*, void*) {
  throw std::logic_error("this engine has no host path: upload, launch and download instead");
}

int64_t points(const fftmux_desc& d) {
  int64_t n = 1;
  for (uint32_t i = 0; i < d.rank; ++i)
    n *= d.n[i];
  return n;
}

} // namespace bench
