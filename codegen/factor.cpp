// Factorization of a line length into butterfly radices, by cost.
#include <fftmux/codegen.hpp>

#include <algorithm>
#include <map>

namespace fftmux::codegen {

namespace {

// Cost of one stage per element, in units of a shared-memory exchange: the
// exchange (write, barrier, read) dominates, then the butterfly's arithmetic.
// A composite radix a b costs its parts' less the exchange it saves (0.85:
// 32 = 16 x 2 at 1.75). 9 is a direct odd DFT: 3^7 = 2187 in seven radix-3
// stages ran at 0.46x cuFFT on the H200. 49 takes radix 32's budget of
// registers (max_radix 32) and a device that allows it (max_composite).
struct Radix {
  int r;
  double cost;
  int a = 0, b = 0; // a composite's parts (composite_butterfly)
};
const Radix radices[] = {{49, 2.35, 7, 7}, {32, 1.75, 16, 2}, {27, 2.15, 3, 9}, {25, 2.05, 5, 5},
                         {24, 1.75, 8, 3}, {20, 1.8, 4, 5},   {16, 1.45},       {15, 1.9, 3, 5},
                         {13, 2.2},        {11, 2.0},         {10, 1.75, 2, 5}, {9, 1.7},
                         {8, 1.3},         {7, 1.6},          {5, 1.45},        {4, 1.2},
                         {3, 1.3},         {2, 1.15}};

struct Best {
  double cost;
  std::vector<int> radices;
};

const Best& best(int64_t n, uint32_t max_radix, uint32_t max_composite,
                 std::map<int64_t, Best>& memo) {
  auto it = memo.find(n);
  if (it != memo.end())
    return it->second;
  Best b{n == 1 ? 0.0 : 1e300, {}};
  for (const Radix& r : radices) {
    bool pow2 = (r.r & (r.r - 1)) == 0, composite = (r.a && !pow2) || r.r == 9;
    if (((pow2 || r.a) && uint32_t(std::min(r.r, 32)) > max_radix) ||
        (composite && uint32_t(r.r) > max_composite) || n % r.r != 0)
      continue;
    const Best& rest = best(n / r.r, max_radix, max_composite, memo);
    double c = rest.cost + r.cost;
    if (c < b.cost) {
      b.cost = c;
      b.radices = rest.radices;
      b.radices.push_back(r.r);
    }
  }
  return memo[n] = b;
}

} // namespace

bool smooth(int64_t n) {
  for (int p : {2, 3, 5, 7, 11, 13})
    while (n % p == 0)
      n /= p;
  return n == 1;
}

std::pair<int, int> composite_parts(int r) {
  for (const Radix& x : radices)
    if (x.r == r && x.a)
      return {x.a, x.b};
  return {0, 0};
}

std::vector<int> factorize(int64_t n, uint32_t max_radix, uint32_t max_composite) {
  if (n < 1 || !smooth(n))
    return {};
  std::map<int64_t, Best> memo;
  std::vector<int> r = best(n, std::max<uint32_t>(max_radix, 2), max_composite, memo).radices;
  std::sort(r.rbegin(), r.rend());
  return r;
}

// The convolution needs m >= 2n - 2, not the textbook 2n - 1: its kernel
// exp(i pi d^2 / n) is even in d, so the one slot where d = n - 1 and
// d = -(n - 1) meet when m = 2n - 2 holds the value of both. Of the 7-smooth
// lengths below twice that bound, the one of least m x stage cost: 4097
// takes 8192 = 16^3 * 2 where 2n - 1 led to 8232 = 8 * 3 * 7^3.
int64_t bluestein_length(int64_t n) {
  int64_t lo = std::max<int64_t>(2 * n - 2, 1), m = 0;
  double least = 1e300;
  std::map<int64_t, Best> memo;
  for (int64_t a = 1; a < 2 * lo; a *= 2)
    for (int64_t b = a; b < 2 * lo; b *= 3)
      for (int64_t c = b; c < 2 * lo; c *= 5)
        for (int64_t d = c; d < 2 * lo; d *= 7) {
          double cost = d >= lo ? double(d) * best(d, 16, 0, memo).cost : 1e300;
          if (cost < least || (cost == least && d < m))
            least = cost, m = d;
        }
  return m;
}

} // namespace fftmux::codegen
