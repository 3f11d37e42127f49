// The generator on its own: factorizations, pass plans for two devices
// (the H200 under Vulkan and lavapipe), tables, and emitted source that
// compiles with shaderc for Vulkan and OpenGL.
#include <fftmux/codegen.hpp>
#include <fftmux/gpu/dispatch.hpp>
#include <fftmux/gpu/generation.hpp>
#include <fftmux/gpu/kernel_cache.hpp>
#include <fftmux/gpu/variants.hpp>

#include <gtest/gtest.h>
#include <r2r.hpp>
#include <reference.hpp>
#include <shaderc/shaderc.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <numeric>
#include <random>
#include <set>
#include <tuple>

namespace fftmux::codegen {
namespace {

int64_t product(const std::vector<int>& r) {
  return std::accumulate(r.begin(), r.end(), int64_t(1), std::multiplies<int64_t>());
}

Device h200() { // Vulkan on the H200: 48 KiB shared memory, 1024 invocations
  Device d;
  d.shared_bytes = 49152;
  d.max_threads = 1024;
  d.subgroup = 32;
  d.max_binding_bytes = 1ull << 32;
  return d;
}

Device h200_cuda() { // CUDA on the H200: 227 KiB of shared memory a block
  Device d = h200();
  d.shared_bytes = 232448;
  d.api = Api::cuda; // its profile: launch bounds, CUDA's rules
  return d;
}

Device lavapipe() {
  Device d;
  d.shared_bytes = 32768;
  d.max_threads = 1024;
  d.subgroup = 8;
  d.max_binding_bytes = 1ull << 27;
  return d;
}

// A resolved descriptor (default layouts), as plugins receive it.
fftmux_desc problem(std::vector<int64_t> n, fftmux_kind kind = FFTMUX_C2C,
                    fftmux_precision p = FFTMUX_F32, int64_t batch = 1, uint32_t flags = 0) {
  fftmux_desc d;
  fftmux_desc_init(&d);
  d.rank = uint32_t(n.size());
  for (size_t i = 0; i < n.size(); ++i)
    d.n[i] = n[i];
  d.kind = kind;
  d.precision = p;
  d.batch = batch;
  d.flags = flags;
  return ref::resolved(d);
}

// The line lengths of a plan's passes, in order.
std::vector<int64_t> lengths(const Plan& p) {
  std::vector<int64_t> l;
  for (const Pass& pass : p.passes)
    l.push_back(pass.kernel.length);
  return l;
}

// The line lengths of a 1D problem's passes, in order.
std::vector<int64_t> pass_lengths(int64_t n, const Device& dev, fftmux_precision p = FFTMUX_F32,
                                  fftmux_kind kind = FFTMUX_C2C) {
  return lengths(plan(problem({n}, kind, p), FFTMUX_FORWARD, dev));
}

int direction(const fftmux_desc& d) {
  return d.kind == FFTMUX_C2R ? FFTMUX_INVERSE : FFTMUX_FORWARD;
}

TEST(Factorize, ProductIsTheLengthAndRadicesAreAllowed) {
  for (int64_t n : {2, 3, 4, 8, 16, 60, 64, 1000, 1536, 2187, 2401, 3125, 4096, 6000, 8192, 12288,
                    11 * 13 * 16, 1 << 20}) {
    for (uint32_t maxr : {32u, 16u, 8u, 4u}) {
      std::vector<int> r = factorize(n, maxr);
      EXPECT_EQ(product(r), n) << n;
      for (int x : r) {
        bool prime = x == 2 || x == 3 || x == 5 || x == 7 || x == 11 || x == 13;
        bool composite = composite_parts(x).first > 0;
        EXPECT_TRUE(prime || composite || x == 9 || x == 4 || x == 8 || x == 16) << x;
        if (composite) {
          auto [a, b] = composite_parts(x);
          EXPECT_EQ(a * b, x);
        }
        if ((x & (x - 1)) == 0 || composite) {
          EXPECT_LE(uint32_t(x), maxr) << n;
        }
      }
      EXPECT_TRUE(std::is_sorted(r.rbegin(), r.rend())) << n;
    }
  }
}

TEST(Factorize, PrefersFewStages) {
  EXPECT_EQ(factorize(4096), (std::vector<int>{16, 16, 16}));
  EXPECT_EQ(factorize(1024).size(), 3u);
  EXPECT_EQ(factorize(1024, 32), (std::vector<int>{32, 32}));
  EXPECT_EQ(factorize(8, 4), (std::vector<int>{4, 2}));
  EXPECT_EQ(factorize(2187), (std::vector<int>{9, 9, 9, 3}));
  EXPECT_EQ(factorize(2187, 16, 0), (std::vector<int>(7, 3)));
  // Composite radices save exchanges: 1000 in three stages (cuFFT's 10^3)
  // where the primes take four, 3125 in three where they take five.
  EXPECT_EQ(factorize(1000), (std::vector<int>{10, 10, 10}));
  EXPECT_EQ(factorize(1000, 16, 9), (std::vector<int>{8, 5, 5, 5}));
  EXPECT_EQ(factorize(3125, 32), (std::vector<int>{25, 25, 5}));
  EXPECT_EQ(factorize(2187, 32), (std::vector<int>{27, 9, 9}));
}

// The sizes vulkan.backend's CompositeRadicesAreCorrect runs take every
// composite radix between them (lines under 512 points stop at radix 16).
TEST(Factorize, CompositeSizesCoverEveryComposite) {
  std::set<int> seen;
  for (int64_t n : {150, 540, 600})
    for (int r : factorize(n, n < 512 ? 16 : 32))
      if (composite_parts(r).first)
        seen.insert(r);
  EXPECT_EQ(seen, (std::set<int>{10, 15, 20, 24, 25, 27}));
}

TEST(Factorize, DeclinesLargePrimes) {
  EXPECT_TRUE(factorize(17).empty());
  EXPECT_TRUE(factorize(4097).empty()); // 17 * 241
  EXPECT_TRUE(factorize(1).empty());
  EXPECT_FALSE(smooth(10007));
  EXPECT_TRUE(smooth(13 * 11 * 7 * 5 * 3 * 2));
}

TEST(Bluestein, LengthIsSmoothAndLongEnough) {
  for (int64_t n : {17, 97, 1009, 4093, 4097, 10007, 65537}) {
    int64_t m = bluestein_length(n);
    EXPECT_GE(m, 2 * n - 2);
    int64_t x = m;
    for (int p : {2, 3, 5, 7})
      while (x % p == 0)
        x /= p;
    EXPECT_EQ(x, 1) << m;
    EXPECT_LT(m, 2 * (2 * n - 2)) << "longer than the next power of two";
  }
}

TEST(Bluestein, LengthPrefersFewCheapStages) {
  EXPECT_EQ(bluestein_length(17), 32);     // 2n - 2 exactly: the shared slot
  EXPECT_EQ(bluestein_length(4097), 8192); // not 8232 = 8 * 3 * 7^3
  EXPECT_EQ(bluestein_length(1009), 2048); // not 2016 = 2^5 * 3^2 * 7
}

TEST(Plan, OnePassWhenTheLineFitsSharedMemory) {
  for (int64_t n : {8, 64, 1000, 4096, 8192, 12288}) {
    Plan p = plan(problem({n}, FFTMUX_C2C, FFTMUX_F32, 1 << 20), FFTMUX_FORWARD, h200());
    EXPECT_EQ(p.passes.size(), 1u) << n << ": " << p.summary;
    EXPECT_EQ(p.scratch_elements, 0u);
    const Kernel& k = p.passes[0].kernel;
    EXPECT_LE(k.workgroup(), 1024u);
    EXPECT_LE(k.shared_scalars() * 4u, 49152u);
  }
}

fftmux_desc r2r_problem(std::vector<int64_t> n, uint32_t kind, int64_t batch = 1) {
  fftmux_desc d = problem(n, FFTMUX_C2C, FFTMUX_F32, batch);
  d.kind = FFTMUX_R2R;
  for (size_t i = 0; i < n.size(); ++i)
    d.r2r[i] = kind;
  return ref::resolved(d);
}

// A real-to-real axis is its DFT of N' points with the weights applied by the kernels that load
// the reals and store them: one kernel where the DFT fits one, a chain's column and row kernels,
// Bluestein's; an inverse runs the inverse kind's DFT forward. A DCT-II, which weighs nothing
// before, is the R2C of its reals: of even n in Makhoul's order (a complex line of n / 2 points),
// of odd n zero-extended to 2n (n points), the weights after its post step; a DCT-III, which
// weighs nothing after, the C2R of its reals weighed as they load (even n: n / 2 points, its
// outputs in Makhoul's order). A DST-II of even n is that DCT-II of (-1)^j x[j] stored backwards,
// a DST-III that DCT-III of its reals backwards, its odd outputs negated; of odd n the R2C of the
// 2n reals storing its outputs 1..n and the C2R loading its reals at 1..n.
TEST(Plan, RealToRealAxesAreOneKernelWhereTheirDftFits) {
  for (uint32_t kind : {FFTMUX_DCT2, FFTMUX_DST2})
    for (int64_t n : {1000, 1001}) {
      bool makhoul = n % 2 == 0, sine = kind == FFTMUX_DST2;
      Plan two = plan(r2r_problem({n}, kind, 7), FFTMUX_FORWARD, h200());
      ASSERT_EQ(two.passes.size(), 1u) << two.summary;
      const Kernel& k = two.passes[0].kernel;
      EXPECT_EQ(k.length, makhoul ? n / 2 : n);
      EXPECT_EQ(k.load.access, Access::real_pair);
      EXPECT_EQ(k.load.axes[0].zigzag, makhoul ? n : 0);
      EXPECT_EQ(k.load.negate_odds, makhoul && sine);
      EXPECT_EQ(k.store.access, makhoul ? Access::fold_ends : Access::real);
      EXPECT_EQ(k.store.axes[0].reverse, makhoul && sine ? n : 0);
      EXPECT_EQ(k.store.axes[0].start, !makhoul && sine ? 1 : 0);
      EXPECT_EQ(k.store.axes[0].limit, makhoul ? n / 2 + 1 : sine ? n + 1 : n);
      EXPECT_EQ(k.steps.back().kind, Step::r2c_post);
      EXPECT_GE(k.store_weights.offset, 0);
      Plan three = plan(r2r_problem({n}, kind, 7), FFTMUX_INVERSE, h200());
      ASSERT_EQ(three.passes.size(), 1u) << three.summary;
      const Kernel& c = three.passes[0].kernel;
      EXPECT_EQ(c.length, makhoul ? n / 2 : n);
      EXPECT_EQ(c.load.access, Access::c2r);
      EXPECT_GE(c.load.weights.offset, 0);
      EXPECT_EQ(c.load.ends, makhoul);
      EXPECT_EQ(c.load.axes[0].reverse, makhoul && sine ? n : 0);
      EXPECT_EQ(c.load.axes[0].start, !makhoul && sine ? 1 : 0);
      EXPECT_EQ(c.store.access, Access::real_pair);
      EXPECT_EQ(c.store.axes[0].zigzag, makhoul ? n : 0);
      EXPECT_EQ(c.store.negate_odds, makhoul && sine);
      if (!makhoul) {
        EXPECT_EQ(c.store.held, n); // the first n of 2n reals
      }
      for (const Step& s : c.steps)
        EXPECT_TRUE(s.kind != Step::multiply) << "no weights but the load's";
      EXPECT_EQ(three.scratch_elements, 0u);
    }
  Plan inverse = plan(r2r_problem({1000}, FFTMUX_DCT4), FFTMUX_INVERSE, h200());
  for (const Pass& pass : inverse.passes)
    for (const Step& s : pass.kernel.steps)
      EXPECT_TRUE(s.kind != Step::stage || s.sign == -1) << "an inverse runs the DFT forward";
  // The first or last step multiplies by a table at the loaded or stored logical position.
  auto weighs = [](const Kernel& k, bool first) {
    const Step& s = first ? k.steps.front() : k.steps.back();
    const std::vector<Term>& at = (first ? k.load : k.store).axes[0].terms;
    bool same = s.kind == Step::multiply && s.index.terms.size() == at.size();
    for (size_t i = 0; same && i < at.size(); ++i)
      same = s.index.terms[i].coord == at[i].coord && s.index.terms[i].coef == at[i].coef;
    return same;
  };
  // An ORTHO DCT-I, whose weights before an R2C's loads cannot take, of 65537 points: N' = 2^17,
  // a chain; of 1010: N' = 2018 = 2 x 1009, Bluestein's. Without ORTHO, the R2C of its even
  // extension: n - 1 points.
  fftmux_desc long_dct1 = r2r_problem({65537}, FFTMUX_DCT1),
              prime_dct1 = r2r_problem({1010}, FFTMUX_DCT1);
  long_dct1.norm = prime_dct1.norm = FFTMUX_NORM_ORTHO;
  Plan chain = plan(long_dct1, FFTMUX_FORWARD, h200());
  ASSERT_EQ(chain.passes.size(), 2u) << chain.summary; // columns, rows: no pass of its own
  EXPECT_TRUE(weighs(chain.passes[0].kernel, true));
  EXPECT_EQ(chain.passes[0].kernel.load.access, Access::real);
  EXPECT_TRUE(weighs(chain.passes[1].kernel, false));
  EXPECT_EQ(chain.passes[1].kernel.store.access, Access::real);
  Plan prime = plan(prime_dct1, FFTMUX_FORWARD, h200());
  ASSERT_EQ(prime.passes.size(), 1u) << prime.summary; // Bluestein's kernel, weighed
  EXPECT_TRUE(prime.passes[0].kernel.convolution);
  EXPECT_TRUE(weighs(prime.passes[0].kernel, true));
  EXPECT_TRUE(weighs(prime.passes[0].kernel, false));
  Plan even = plan(r2r_problem({513}, FFTMUX_DCT1, 3), FFTMUX_INVERSE, h200());
  ASSERT_EQ(even.passes.size(), 1u) << even.summary;
  const Kernel& e = even.passes[0].kernel;
  EXPECT_EQ(e.length, 512);
  EXPECT_EQ(e.load.access, Access::real_pair);
  EXPECT_EQ(e.load.axes[0].reflect, 513);
  EXPECT_EQ(e.store.access, Access::real);
  EXPECT_EQ(e.store.axes[0].limit, 513);
  EXPECT_EQ(e.steps.back().kind, Step::r2c_post);
  EXPECT_LT(e.store_weights.offset, 0); // y[k] = Re Z[k]
  for (uint32_t kind : {FFTMUX_DCT2, FFTMUX_DST2}) {
    Plan halves = plan(r2r_problem({65536}, kind), FFTMUX_FORWARD, h200());
    ASSERT_EQ(halves.passes.size(), 3u) << halves.summary; // the R2C's chain, its post's pass
    EXPECT_GE(halves.passes.back().kernel.store_weights.offset, 0);
    EXPECT_EQ(halves.passes.back().kernel.real_step, RealStep::mirror_pairs);
  }
  // A DCT-IV or DST-IV of even n: a line of n / 2 folded values, weighed on both ends; odd n
  // takes the line of 2n.
  for (uint32_t kind : {FFTMUX_DCT4, FFTMUX_DST4}) {
    Access fold = kind == FFTMUX_DCT4 ? Access::fold_cos : Access::fold_sin;
    for (int64_t n : {1000, 65536}) {
      Plan p = plan(r2r_problem({n}, kind, 3), FFTMUX_FORWARD, h200());
      const Kernel &first = p.passes.front().kernel, &last = p.passes.back().kernel;
      EXPECT_EQ(first.load.access, fold) << p.summary;
      EXPECT_EQ(first.load.length, n);
      EXPECT_EQ(last.store.access, fold) << p.summary;
      EXPECT_TRUE(weighs(first, true)) << p.summary;
      EXPECT_TRUE(weighs(last, false)) << p.summary;
      int64_t points = 1;
      for (const Pass& pass : p.passes)
        points = std::max(points, pass.kernel.length);
      EXPECT_LE(points, n / 2) << p.summary;
    }
    Plan odd = plan(r2r_problem({1001}, kind), FFTMUX_FORWARD, h200());
    EXPECT_EQ(odd.passes.front().kernel.load.access, Access::real) << odd.summary;
  }
  Plan cube = plan(r2r_problem({16, 12, 10}, FFTMUX_DCT4), FFTMUX_FORWARD, h200());
  EXPECT_EQ(cube.passes.size(), 3u) << cube.summary;
  EXPECT_NE(cube.summary.find("dct4"), std::string::npos) << cube.summary;
}

// The weights have an entry for every position the kernels index: N' where the DFT is Stockham
// stages, Bluestein's padded length where it is a convolution (2D: the runs of two kinds of one
// N' are the table's last, so a read past them is past the table).
TEST(Plan, RealToRealWeightsCoverEveryPositionTheKernelsIndex) {
  fftmux_desc mixed = r2r_problem({18, 16}, FFTMUX_DCT1); // N' = 34 both
  mixed.r2r[1] = FFTMUX_DST1;
  for (const fftmux_desc& d : {mixed, r2r_problem({1009}, FFTMUX_DST4, 3)}) {
    Plan p = plan(d, FFTMUX_FORWARD, h200());
    for (const Pass& pass : p.passes)
      for (const Step& s : pass.kernel.steps) {
        if (s.kind != Step::multiply)
          continue;
        for (const TableRun& r : p.table)
          if (r.at == s.table.offset &&
              (r.kind == TableRun::r2r_pre || r.kind == TableRun::r2r_post)) {
            EXPECT_GE(r.count, pass.kernel.length) << p.summary;
            EXPECT_LE(r.at + r.count, p.table_size);
          }
      }
  }
}

// Each kind's weights make its definition (fftmux.h): y[k] = Re(post[k] Z[k]), Z the DFT of N'
// points of pre[j] x[j], against the sums of cosines and sines, plain and under ORTHO. A DCT-III
// is the C2R of N' points of its half spectrum half[j] x[j]: y[k] = Z[k], its sum's terms past
// the first doubled.
TEST(Tables, RealToRealWeightsMakeEachDefinition) {
  const long double pi = 3.141592653589793238462643383279502884L;
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> u(-1, 1);
  for (uint32_t kind = FFTMUX_DCT1; kind <= FFTMUX_DST4; ++kind)
    for (int64_t n : {2, 3, 8, 13})
      for (bool ortho : {false, true}) {
        fftmux_desc d = r2r_problem({n}, kind);
        d.norm = ortho ? FFTMUX_NORM_ORTHO : FFTMUX_NORM_NONE;
        Plan p = plan(d, FFTMUX_FORWARD, h200());
        std::vector<std::complex<double>> t = table_values(p), pre, post;
        for (const TableRun& r : p.table)
          if (r.kind == TableRun::r2r_pre || r.kind == TableRun::r2r_post ||
              r.kind == TableRun::r2r_half || r.kind == TableRun::dst2_post ||
              r.kind == TableRun::dst3_half || r.kind == TableRun::r2r_fold_pre ||
              r.kind == TableRun::r2r_fold_post)
            (r.kind == TableRun::r2r_post || r.kind == TableRun::dst2_post ||
                     r.kind == TableRun::r2r_fold_post
                 ? post
                 : pre)
                .assign(t.begin() + r.at, t.begin() + r.at + r.count);
        std::vector<long double> x(static_cast<size_t>(n));
        for (long double& v : x)
          v = u(rng);
        // The norm's factor is the kernel's scale, not the tables'.
        std::vector<long double> want = ref::r2r_expected(d, FFTMUX_FORWARD, x, true);
        double norm = geometry::scale(d, FFTMUX_FORWARD);
        if ((kind == FFTMUX_DCT4 || kind == FFTMUX_DST4) && n % 2 == 0) { // folded
          ASSERT_EQ(int64_t(pre.size()), n / 2);
          ASSERT_EQ(int64_t(post.size()), n / 2);
          bool cos = kind == FFTMUX_DCT4;
          int64_t h = n / 2;
          for (int64_t q = 0; q < h; ++q) {
            std::complex<long double> z = 0;
            for (int64_t j = 0; j < h; ++j) {
              long double e = x[size_t(2 * j)], o = x[size_t(n - 1 - 2 * j)];
              long double a = -2 * pi * (long double)(j * q % h) / (long double)h;
              z += std::complex<long double>(pre[size_t(j)]) *
                   std::complex<long double>(cos ? e : o, cos ? o : e) *
                   std::complex<long double>(cosl(a), sinl(a));
            }
            std::complex<long double> v = std::complex<long double>(post[size_t(q)]) * z;
            EXPECT_NEAR(double(v.real()) * norm, double(want[size_t(2 * q)]), 1e-12);
            EXPECT_NEAR(double(cos ? -v.imag() : v.imag()) * norm,
                        double(want[size_t(n - 1 - 2 * q)]), 1e-12);
          }
          continue;
        }
        if (kind == FFTMUX_DCT1 && !ortho && n >= 3) { // the R2C of the even extension, no tables
          EXPECT_TRUE(pre.empty() && post.empty());
          for (int64_t k = 0; k < n; ++k) {
            long double y = 0;
            for (int64_t j = 0; j < 2 * (n - 1); ++j)
              y += x[size_t(j < n ? j : 2 * n - 2 - j)] *
                   cosl(2 * pi * (long double)(j * k % (2 * n - 2)) / (long double)(2 * n - 2));
            EXPECT_NEAR(double(y) * norm, double(want[size_t(k)]), 1e-12) << n << " " << k;
          }
          continue;
        }
        // Makhoul: a DCT-II of even n is V, the DFT of its n reals reordered, then y[k] = Re u
        // and y[n-k] = -Im u, u = post[k] V[k]; a DST-II the same of (-1)^j x[j], stored
        // backwards. A DCT-III is the C2R of (x[k] - i x[n-k]) pre[k], its outputs reordered; a
        // DST-III the same of its reals backwards, its odd outputs negated.
        bool sine = kind == FFTMUX_DST2 || kind == FFTMUX_DST3;
        auto zig = [&](int64_t j) { return j < n / 2 ? 2 * j : 2 * n - 1 - 2 * j; };
        auto sign = [&](int64_t j) { return sine && j >= n / 2 ? -1.0L : 1.0L; };
        if ((kind == FFTMUX_DCT2 || kind == FFTMUX_DST2) && n % 2 == 0 && n >= 4) {
          ASSERT_GE(int64_t(post.size()), n / 2 + 1);
          auto at = [&](int64_t i) { return size_t(sine ? n - 1 - i : i); };
          for (int64_t k = 0; k <= n / 2; ++k) {
            std::complex<long double> z = 0;
            for (int64_t j = 0; j < n; ++j) {
              long double a = -2 * pi * (long double)(j * k % n) / (long double)n;
              z += sign(j) * x[size_t(zig(j))] * std::complex<long double>(cosl(a), sinl(a));
            }
            std::complex<long double> v = std::complex<long double>(post[size_t(k)]) * z;
            EXPECT_NEAR(double(v.real()) * norm, double(want[at(k)]), 1e-12) << n << " " << k;
            if (k > 0) {
              EXPECT_NEAR(double(-v.imag()) * norm, double(want[at(n - k)]), 1e-12)
                  << n << " " << k;
            }
          }
          continue;
        }
        if ((kind == FFTMUX_DCT3 || kind == FFTMUX_DST3) && n % 2 == 0 && n >= 4) {
          ASSERT_EQ(int64_t(pre.size()), n / 2 + 1);
          auto in = [&](int64_t i) { return x[size_t(sine ? n - 1 - i : i)]; };
          for (int64_t q = 0; q < n; ++q) {
            std::complex<long double> z = 0;
            for (int64_t j = 0; j < n; ++j) { // the whole Hermitian spectrum
              int64_t h = j <= n / 2 ? j : n - j;
              std::complex<long double> v = std::complex<long double>(pre[size_t(h)]) *
                                            std::complex<long double>(in(h), h ? -in(n - h) : 0.0L);
              long double a = 2 * pi * (long double)(j * q % n) / (long double)n;
              z += (j <= n / 2 ? v : std::conj(v)) * std::complex<long double>(cosl(a), sinl(a));
            }
            EXPECT_NEAR(double(sign(q) * z.real()) * norm, double(want[size_t(zig(q))]), 1e-12)
                << n << " " << q;
          }
          continue;
        }
        int64_t m = geometry::logical_size(kind, n);
        if (sine) { // odd n: the DCT paths of 2n reals, one position on
          bool c2r = kind == FFTMUX_DST3;
          ASSERT_EQ(int64_t((c2r ? pre : post).size()), c2r ? n + 1 : m);
          // DST-II: y[k] = Re(post[k + 1] Z[k + 1]); DST-III: the C2R of the half spectrum
          // pre[q] x[q - 1], 0 < q <= n, its terms below the Nyquist counted twice.
          for (int64_t k = 0; k < n; ++k) {
            std::complex<long double> z = 0;
            for (int64_t q = 1; q <= n; ++q) {
              long double a = c2r ? 2 * pi * (long double)(q * k % m) / (long double)m
                                  : -2 * pi * (long double)((q - 1) * (k + 1) % m) / (long double)m;
              std::complex<long double> w =
                  c2r ? std::complex<long double>(pre[size_t(q)]) * (q < n ? 2.0L : 1.0L) : 1.0L;
              z += w * x[size_t(q - 1)] * std::complex<long double>(cosl(a), sinl(a));
            }
            double y =
                double((c2r ? z : std::complex<long double>(post[size_t(k + 1)]) * z).real());
            EXPECT_NEAR(y * norm, double(want[size_t(k)]), 1e-12)
                << geometry::r2r_name(kind) << " n " << n << " k " << k << (ortho ? " ortho" : "");
          }
          continue;
        }
        bool c2r = kind == FFTMUX_DCT3;
        if (kind == FFTMUX_DCT2) // no weights before its R2C
          pre.assign(size_t(geometry::logical_size(kind, n)), 1.0);
        if (c2r) { // no weights after its C2R; its half spectrum's n + 1 weights, x[n] = 0
          ASSERT_EQ(int64_t(pre.size()), n + 1);
          pre.resize(size_t(geometry::logical_size(kind, n)));
          post.assign(pre.size(), 1.0);
        }
        ASSERT_EQ(int64_t(pre.size()), geometry::logical_size(kind, n));
        ASSERT_EQ(int64_t(post.size()), geometry::logical_size(kind, n));
        for (int64_t k = 0; k < n; ++k) {
          std::complex<long double> z = 0;
          for (int64_t j = 0; j < n; ++j) {
            long double a = (c2r ? 2 : -2) * pi * (long double)(j * k % m) / (long double)m;
            z += std::complex<long double>(pre[size_t(j)]) * x[size_t(j)] *
                 std::complex<long double>(cosl(a), sinl(a)) * (c2r && j ? 2.0L : 1.0L);
          }
          double y = double((std::complex<long double>(post[size_t(k)]) * z).real());
          EXPECT_NEAR(y * norm, double(want[size_t(k)]), 1e-12)
              << geometry::r2r_name(kind) << " n " << n << " k " << k << (ortho ? " ortho" : "");
        }
      }
}

TEST(Plan, SmallLinesShareWorkgroups) {
  Plan p = plan(problem({16}, FFTMUX_C2C, FFTMUX_F32, 1 << 20), FFTMUX_FORWARD, h200());
  EXPECT_GT(p.passes[0].kernel.teams, 1u);
  EXPECT_GE(p.passes[0].kernel.workgroup(), 64u);
}

// validate() refuses a kernel whose modes the emitter does not support
// together, naming the rule; every kernel plan() makes passes it.
TEST(Plan, ValidateNamesTheBrokenRule) {
  const Kernel k =
      plan(problem({16}, FFTMUX_C2C, FFTMUX_F32, 1 << 20), FFTMUX_FORWARD, h200()).passes[0].kernel;
  ASSERT_GT(k.teams, 1u);
  auto refusal = [](const Kernel& bad) -> std::string {
    try {
      validate(bad);
    } catch (const std::logic_error& e) {
      return e.what();
    }
    return "accepted";
  };
  EXPECT_EQ(refusal(k), "accepted");
  Kernel chunked = k;
  chunked.exchange = Exchange::chunked;
  EXPECT_NE(refusal(chunked).find("chunks above 1 exactly in a chunked exchange"),
            std::string::npos);
  chunked.chunks = 2;
  EXPECT_NE(refusal(chunked).find("a chunked exchange holds one line a group"), std::string::npos);
  Kernel streamed = k;
  streamed.exchange = Exchange::streamed;
  streamed.teams = 2;
  EXPECT_NE(refusal(streamed).find("a streamed line is one a group"), std::string::npos);
  Kernel pairs = k;
  pairs.real_step = RealStep::mirror_pairs;
  pairs.mirror_pairs = 9;
  pairs.load_mapping = Mapping::alt;
  EXPECT_NE(refusal(pairs).find("mirror pairs load and store both outputs of a slot directly"),
            std::string::npos);
  pairs.mirror_pairs = 0;
  EXPECT_NE(refusal(pairs).find("mirror_lines and mirror_pairs are counts of their real step"),
            std::string::npos);
  Kernel flat = k;
  flat.load.access = Access::real;
  EXPECT_NE(refusal(flat).find("a flat load reads complex elements"), std::string::npos);
  Kernel columns = k;
  columns.cluster_columns = 4;
  EXPECT_NE(refusal(columns).find("cluster columns only in a cluster"), std::string::npos);
}

TEST(Plan, ShortContiguousLinesMoveAsOneRun) {
  const Kernel k =
      plan(problem({16}, FFTMUX_C2C, FFTMUX_F32, 1 << 20), FFTMUX_FORWARD, h200()).passes[0].kernel;
  EXPECT_TRUE(k.load_mapping == Mapping::flat && k.store_mapping == Mapping::flat)
      << "16 points: one thread a line";
  std::string src = emit(k, Dialect::cuda);
  EXPECT_NE(src.find("src[group * " + std::to_string(16 * k.teams) + "u + lid + 0u]"),
            std::string::npos)
      << "invocation i reads element i of the workgroup's run";
  // Long lines already coalesce; strided lines are not one run.
  EXPECT_FALSE(plan(problem({1024}, FFTMUX_C2C, FFTMUX_F32, 64), FFTMUX_FORWARD, h200())
                   .passes[0]
                   .kernel.load_mapping == Mapping::flat);
  fftmux_desc strided = problem({16}, FFTMUX_C2C, FFTMUX_F32, 1024);
  strided.in_strides[0] = 2;
  strided.in_distance = 32;
  const Kernel s = plan(strided, FFTMUX_FORWARD, h200()).passes[0].kernel;
  EXPECT_FALSE(s.load_mapping == Mapping::flat) << "every other element: not one run";
  EXPECT_TRUE(s.store_mapping == Mapping::flat);
}

TEST(Plan, OneKernelHoldsAtMostTheTargetRegisters) {
  // 16 values a thread at 1024 threads: 16384 points in one kernel; 32768
  // (a power of two whose component fits 227 KiB) in one at 32 values a
  // thread; 30000 and the half-length line of a 65536-point R2C in two
  // (and its post-processing pass).
  EXPECT_EQ(plan(problem({16384}), FFTMUX_FORWARD, h200_cuda()).passes.size(), 1u);
  const Plan wide = plan(problem({32768}), FFTMUX_FORWARD, h200_cuda());
  ASSERT_EQ(wide.passes.size(), 1u);
  EXPECT_EQ(wide.passes[0].kernel.threads, 1024u);
  EXPECT_EQ(plan(problem({30000}), FFTMUX_FORWARD, h200_cuda()).passes.size(), 2u);
  EXPECT_EQ(plan(problem({65536}, FFTMUX_R2C), FFTMUX_FORWARD, h200_cuda()).passes.size(), 2u)
      << "two passes, the post-processing in the rows";
  EXPECT_EQ(
      plan(problem({32768}, FFTMUX_C2C, FFTMUX_F64), FFTMUX_FORWARD, h200_cuda()).passes.size(),
      2u);
  EXPECT_EQ(plan(problem({32768}), FFTMUX_FORWARD, h200()).passes.size(), 2u) << "48 KiB";
  // A Bluestein convolution may hold twice that: 10007 convolves 20160 points in one.
  EXPECT_EQ(plan(problem({10007}), FFTMUX_FORWARD, h200_cuda()).passes.size(), 1u);
}

// The options of the backends' variant of that name.
Options variant_named(const std::string& name) {
  for (const Variant& v : variants())
    if (v.name == name)
      return v.options;
  ADD_FAILURE() << "no variant " << name;
  return {};
}

std::vector<int> radices(const fftmux_desc& d, const Device& dev, const Options& o = {}) {
  std::vector<int> r;
  const Plan p = plan(d, FFTMUX_FORWARD, dev, o);
  for (const Step& s : p.passes[0].kernel.steps)
    if (s.kind == Step::stage)
      r.push_back(s.radix);
  return r;
}

// Radix 32 where it saves a stage and a thread may hold 32 values: F32
// lines from 1024 points, from 512 on 48 KiB devices; not F64's, not
// lavapipe's 4 values a thread, not a 32-point line in one thread.
TEST(Plan, RadixThirtyTwoWhereItSavesAStage) {
  EXPECT_EQ(radices(problem({1024}, FFTMUX_C2C, FFTMUX_F32, 64), h200_cuda()),
            (std::vector<int>{32, 32}));
  EXPECT_EQ(radices(problem({512}, FFTMUX_C2C, FFTMUX_F32, 64), h200()),
            (std::vector<int>{32, 16}));
  EXPECT_EQ(radices(problem({512}, FFTMUX_C2C, FFTMUX_F32, 64), h200_cuda()).size(), 3u);
  EXPECT_EQ(radices(problem({32}, FFTMUX_C2C, FFTMUX_F32, 64), h200()), (std::vector<int>{8, 4}));
  EXPECT_EQ(radices(problem({1024}, FFTMUX_C2C, FFTMUX_F64, 64), h200_cuda()).size(), 3u);
  Options narrow, radix16;
  narrow.values_per_thread = 4;
  radix16.max_radix = 16;
  EXPECT_EQ(radices(problem({1024}, FFTMUX_C2C, FFTMUX_F32, 64), lavapipe(), narrow).size(), 3u);
  EXPECT_EQ(radices(problem({1024}, FFTMUX_C2C, FFTMUX_F32, 64), h200(), radix16).size(), 3u);
}

// Where no thread count divides every stage (mixed radices, Bluestein
// lengths), each stage still keeps at least 3/4 of the threads busy; a small
// register target never leaves one thread with the whole line (a line alone
// on its multiprocessor: LoneConvolutionsFitTheRegisterFile).
TEST(Plan, ThreadsStayBusyInEveryStage) {
  for (int64_t n : {1000, 2401, 6000, 4097}) {
    const Kernel k = plan(problem({n}), FFTMUX_FORWARD, h200_cuda()).passes[0].kernel;
    for (const Step& s : k.steps)
      if (s.kind == Step::stage) {
        int64_t q = k.length / s.radix, rounds = (q + k.threads - 1) / k.threads;
        EXPECT_GE(double(q) / double(rounds * k.threads), 0.75)
            << n << ": radix " << s.radix << " on " << k.threads << " threads";
      }
  }
  Options narrow; // lavapipe's target: 4 values a thread, below one radix-16 butterfly
  narrow.values_per_thread = 4;
  EXPECT_EQ(plan(problem({4096}), FFTMUX_FORWARD, lavapipe(), narrow).passes[0].kernel.threads,
            256u);
  // radix8-narrow: radix 8 on 8 values a thread, twice radix8's threads.
  Options r8n = variant_named("radix8-narrow");
  const Kernel k = plan(problem({4096}, FFTMUX_C2C, FFTMUX_F32, 64), FFTMUX_FORWARD, h200(), r8n)
                       .passes[0]
                       .kernel;
  EXPECT_EQ(k.threads, 512u);
  for (const Step& s : k.steps)
    EXPECT_TRUE(s.kind != Step::stage || s.radix == 8) << s.radix;
}

TEST(Emit, CudaQualifiersFollowTheKernel) {
  const Kernel k = plan(problem({1024}), FFTMUX_FORWARD, h200_cuda()).passes[0].kernel;
  std::string one = emit(k, Dialect::cuda);
  EXPECT_NE(one.find("__launch_bounds__(" + std::to_string(k.workgroup()) + ")"), std::string::npos)
      << "no group count unasked";
  EXPECT_NE(one.find("const cplx_t* __restrict__ tab"), std::string::npos);
  std::string blue =
      emit(plan(problem({4097}), FFTMUX_FORWARD, h200_cuda()).passes[0].kernel, Dialect::cuda);
  EXPECT_EQ(blue.find("__restrict__"), std::string::npos) << "a Bluestein kernel spills with it";
  Options two;
  two.resident_groups = 2;
  const Kernel b = plan(problem({8192}), FFTMUX_FORWARD, h200_cuda(), two).passes[0].kernel;
  EXPECT_NE(
      emit(b, Dialect::cuda).find("__launch_bounds__(" + std::to_string(b.workgroup()) + ", 2)"),
      std::string::npos);
}

// Lines whose groups leave shared memory for one or two more hold twice the
// values a thread, so that registers let two groups run; lines alone on a
// multiprocessor, and Bluestein convolutions, keep the default.
TEST(Plan, RegistersLeaveRoomForASecondGroup) {
  auto first = [](const fftmux_desc& d) {
    return plan(d, FFTMUX_FORWARD, h200_cuda()).passes.at(0).kernel;
  };
  Kernel k = first(problem({8192}));
  EXPECT_EQ(k.threads, 256u);
  EXPECT_EQ(first(problem({16384}, FFTMUX_R2C)).threads, 256u) << "its half-length line";
  EXPECT_EQ(first(problem({16384})).threads, 512u) << "alone: the most radix 32 allows";
  EXPECT_EQ(first(problem({4096})).threads, 256u) << "16 values: three groups fit";
  EXPECT_EQ(first(problem({4093})).threads, 256u) << "a convolution of 8192 at radix 32";
  EXPECT_EQ(plan(problem({8192}), FFTMUX_FORWARD, h200()).passes.at(0).kernel.threads, 256u)
      << "alone in 48 KiB, radix 32";
}

// A line whose one component overflows shared memory runs in one kernel,
// exchanging chunks of 32-aligned positions that fit it; a fused Bluestein
// convolution is never chunked.
TEST(Plan, ChunkedLinesRunInOnePass) {
  for (auto [dev, n, chunks, prec] : {std::tuple{h200(), 16384, 2u, FFTMUX_F32},
                                      {lavapipe(), 16384, 3u, FFTMUX_F32},
                                      {h200(), 12800, 2u, FFTMUX_F32},
                                      {lavapipe(), 12288, 2u, FFTMUX_F32},
                                      {h200(), 8192, 2u, FFTMUX_F64}}) {
    fftmux_desc d = problem({n});
    d.precision = prec;
    Plan p = plan(d, FFTMUX_FORWARD, dev);
    ASSERT_EQ(p.passes.size(), 1u) << n;
    const Kernel& k = p.passes[0].kernel;
    EXPECT_EQ(k.chunks, chunks) << n;
    EXPECT_EQ(k.chunk() % 32, 0) << n;
    EXPECT_GE(k.chunk() * k.chunks, n) << n;
    EXPECT_LE(k.shared_scalars() * (prec == FFTMUX_F64 ? 8 : 4), dev.shared_bytes) << n;
  }
  // Where a component fits, or in a convolution, nothing is chunked.
  for (int64_t n : {8192, 10007})
    for (const Pass& pass : plan(problem({n}), FFTMUX_FORWARD, h200()).passes)
      EXPECT_EQ(pass.kernel.chunks, 1u) << n;
}

// A device's radix limits (OpenGL's compiler): composites no larger than
// max_composite, above 16 only from large_composites_from on; radix 32 as
// on Vulkan, except on lines with an odd factor below that.
TEST(Plan, DeviceRadixLimits) {
  Device gl = dialect_limits(h200(), Dialect::opengl);
  EXPECT_EQ(gl.max_composite, 25u);
  EXPECT_EQ(gl.large_composites_from, 2048u);
  auto largest = [](int64_t n, const Device& dev) {
    std::vector<int> r = radices(problem({n}), dev);
    return r.empty() ? 0 : *std::max_element(r.begin(), r.end());
  };
  EXPECT_EQ(largest(1024, gl), 32);
  EXPECT_EQ(largest(8192, gl), 32);
  Plan p = plan(problem({1 << 18}, FFTMUX_C2C, FFTMUX_F32, 512), FFTMUX_FORWARD, gl);
  for (const Pass& pass : p.passes) // two passes of 512-point lines, as 32 x 16
    EXPECT_EQ(pass.kernel.steps.front().radix, 32) << p.summary;
  EXPECT_EQ(largest(2187, gl), 9) << "27 is a composite above 25";
  EXPECT_EQ(largest(1000, gl), 10) << "25 only from 2048 points";
  EXPECT_EQ(largest(1536, gl), 8) << "an odd line below 2048 points: radix 16 at most";
  EXPECT_EQ(largest(1600, gl), 16);
  EXPECT_EQ(largest(12800, gl), 32);
  EXPECT_EQ(largest(1536, h200()), 24);
  EXPECT_EQ(largest(1000, h200()), 25);
  EXPECT_EQ(largest(1024, h200()), 32);
  EXPECT_EQ(largest(2187, h200()), 27);
}

// Under Vulkan a group's values take at most a quarter of the register
// file (its compiler spends some 4 registers a value): 2^20's passes take 4
// lines of 1024 points a group, not 8; 512-point lines (2^18) keep 8, and
// CUDA keeps half the file.
TEST(Plan, VulkanGroupsHoldAQuarterOfTheRegisterFile) {
  Device vk = dialect_limits(h200(), Dialect::vulkan);
  EXPECT_EQ(vk.group_value_bytes, 1u << 15);
  EXPECT_EQ(dialect_limits(h200(), Dialect::vulkan_pointers).group_value_bytes, 1u << 15);
  EXPECT_EQ(dialect_limits(h200_cuda(), Dialect::cuda).group_value_bytes, 1u << 17);
  Options gpu = device_defaults({}, false); // as the GPU backends plan
  auto teams = [&](int64_t n, const Device& dev) {
    Plan p = plan(problem({n}, FFTMUX_C2C, FFTMUX_F32, (1 << 27) / n), FFTMUX_FORWARD, dev, gpu);
    std::vector<uint32_t> t;
    for (const Pass& pass : p.passes)
      t.push_back(pass.kernel.teams);
    return t;
  };
  EXPECT_EQ(teams(1 << 20, vk), (std::vector<uint32_t>{4, 4}));
  EXPECT_EQ(teams(1 << 20, h200()), (std::vector<uint32_t>{8, 8}));
  EXPECT_EQ(teams(1 << 18, vk), (std::vector<uint32_t>{8, 8}));
  EXPECT_EQ(teams(1 << 18, vk), teams(1 << 18, h200()));
}

// The column passes of a four-step chain over F32 lines of 65-128 points
// take twice the values a thread (16 lines a group read 128-byte runs); the
// row pass, F64, longer columns and GL's capped shared memory keep theirs.
TEST(Plan, ChainColumnsOf128PointsTakeTwiceTheValues) {
  Device vk = dialect_limits(h200(), Dialect::vulkan);
  Options gpu = device_defaults({}, false);
  auto shapes = [&](int64_t n, fftmux_precision p, const Device& dev) {
    Plan pl = plan(problem({n}, FFTMUX_C2C, p, (1 << 27) / n), FFTMUX_FORWARD, dev, gpu);
    std::vector<std::pair<int64_t, uint32_t>> s; // (length / threads, teams)
    for (const Pass& pass : pl.passes)
      s.push_back({pass.kernel.length / pass.kernel.threads, pass.kernel.teams});
    return s;
  };
  using S = std::vector<std::pair<int64_t, uint32_t>>;
  EXPECT_EQ(shapes(1 << 21, FFTMUX_F32, vk), (S{{32, 16}, {32, 16}, {16, 8}}));
  EXPECT_EQ(shapes(1 << 22, FFTMUX_F32, vk), (S{{32, 16}, {32, 16}, {16, 8}}));
  EXPECT_EQ(shapes(1 << 23, FFTMUX_F32, vk), (S{{16, 8}, {32, 16}, {16, 8}}));
  EXPECT_EQ(shapes(1 << 21, FFTMUX_F64, vk), (S{{16, 8}, {16, 8}, {16, 8}}));
  EXPECT_EQ(shapes(1 << 21, FFTMUX_F32, dialect_limits(h200(), Dialect::opengl)),
            (S{{8, 16}, {16, 8}, {16, 8}})); // 32 x 256 x 256: short_first
}

// Chains of three passes where two would not serve: CUDA's 2^24 F32, whose
// 4096-point columns would run 4 lines a group (32-byte runs, one group of
// 128 KiB of values an SM), starts with a column ending in radix 8, the
// shorter of two equally near; 2^23 and F64 keep their plans. Under GL's
// shared-memory cap a chain of three whose others fit 512 points starts
// with 32.
TEST(Plan, ChainsOfThreeWhereTwoRunShort) {
  Device cuda = dialect_limits(h200_cuda(), Dialect::cuda);
  Device gl = dialect_limits(h200(), Dialect::opengl);
  using L = std::vector<int64_t>;
  EXPECT_EQ(pass_lengths(1 << 24, cuda), (L{128, 512, 256}));
  EXPECT_EQ(pass_lengths(1 << 23, cuda), (L{2048, 4096}));
  EXPECT_EQ(pass_lengths(3 << 22, cuda).size(), 3u) << "3072-point columns, five a group";
  EXPECT_EQ(pass_lengths(2401 * 2401, cuda, FFTMUX_F64), (L{2401, 2401})) << "F64 not measured";
  EXPECT_EQ(pass_lengths(int64_t(2197) * 2197 * 2197, cuda).size(), 3u)
      << "the rows of a chain never add a pass";
  EXPECT_EQ(pass_lengths(1 << 21, gl), (L{32, 256, 256}));
  EXPECT_EQ(pass_lengths(1 << 23, gl), (L{32, 512, 512}));
  EXPECT_EQ(pass_lengths(1 << 24, gl), (L{256, 256, 256})) << "the rest would need 1024";
  EXPECT_NE(pass_lengths(32 * 7 * 13 * 13 * 13 * 13, gl).front(), 32) << "169 x 1183: over 512";
  EXPECT_EQ(pass_lengths(1 << 20, gl), (L{1024, 1024})) << "two passes fit";
  EXPECT_EQ(pass_lengths(1 << 21, dialect_limits(h200(), Dialect::vulkan)), (L{128, 128, 128}))
      << "Vulkan has no cap";
  // llvmpipe's GL device too (opengl_test runs it).
  Plan p = plan(problem({1 << 21}), FFTMUX_FORWARD, dialect_limits(lavapipe(), Dialect::opengl),
                device_defaults({}, true));
  EXPECT_EQ(p.passes.at(0).kernel.length, 32) << p.summary;
}

// Where 1024 points take two stages and 512 three (CUDA), F32 chains of
// two passes over 2^17 to 2^21 points take rows of 1024; only a line's own
// chain (2^24's rows of 2^17 keep theirs).
TEST(Plan, ChainRowsOf1024OnCuda) {
  Device cuda = dialect_limits(h200_cuda(), Dialect::cuda);
  using L = std::vector<int64_t>;
  EXPECT_EQ(pass_lengths(1 << 17, cuda), (L{128, 1024}));
  EXPECT_EQ(pass_lengths(1 << 18, cuda), (L{256, 1024}));
  EXPECT_EQ(pass_lengths(1 << 19, cuda), (L{512, 1024}));
  EXPECT_EQ(pass_lengths(1 << 20, cuda), (L{1024, 1024}));
  EXPECT_EQ(pass_lengths(1 << 21, cuda), (L{2048, 1024}));
  EXPECT_EQ(pass_lengths(1 << 16, cuda), (L{256, 256})) << "64 x 1024 lost";
  EXPECT_EQ(pass_lengths(1 << 22, cuda), (L{2048, 2048})) << "4096 x 1024 tied";
  // Chains that make R2C's outputs take rows of 256 from columns of up to
  // 1024 (the half lines of 2^17 and 2^18 points).
  EXPECT_EQ(pass_lengths(1 << 18, cuda, FFTMUX_F32, FFTMUX_R2C), (L{512, 256}));
  EXPECT_EQ(pass_lengths(1 << 19, cuda, FFTMUX_F32, FFTMUX_R2C), (L{1024, 256}));
  EXPECT_EQ(pass_lengths(1 << 20, cuda, FFTMUX_F32, FFTMUX_R2C), (L{512, 1024}));
  EXPECT_EQ(pass_lengths(1 << 17, cuda, FFTMUX_F32, FFTMUX_R2C), (L{256, 256}));
  Options separate; // the post step a pass of its own: the half line's plain chain
  separate.real_rows = false;
  EXPECT_EQ(plan(problem({1 << 19}, FFTMUX_R2C), FFTMUX_FORWARD, cuda, separate)
                .passes.at(1)
                .kernel.length,
            1024);
  EXPECT_EQ(plan(problem({1 << 19}, FFTMUX_C2R), FFTMUX_INVERSE, cuda).passes.at(0).kernel.length,
            256)
      << "C2R keeps rows of 1024";
  EXPECT_EQ(pass_lengths(1 << 24, cuda), (L{128, 512, 256}));
  EXPECT_EQ(pass_lengths(1 << 18, cuda, FFTMUX_F64), (L{512, 512})) << "F64 not measured";
  EXPECT_EQ(pass_lengths(1 << 18, dialect_limits(h200(), Dialect::vulkan)), (L{512, 512}))
      << "512 points in two stages there";
  Options narrow_chains; // 64 lines a strided group: chain lines of at most 908 points
  narrow_chains.coalesce_teams = 64;
  Plan p = plan(problem({1 << 18}), FFTMUX_FORWARD, cuda, narrow_chains);
  EXPECT_EQ(p.passes.at(1).kernel.length, 512) << "no rows of 1024 where they do not fit";
}

// A chain's strided columns of 1024 F32 points take radix 16 (64 threads
// of 16 values a line) and a launch bound of two groups where the compiler
// takes one (CUDA); the rows, F64 and the GLSL dialects keep their kernels.
TEST(Plan, BoundColumnsOf1024OnCuda) {
  Device cuda = dialect_limits(h200_cuda(), Dialect::cuda);
  EXPECT_TRUE(profile(cuda.api).launch_bounds);
  EXPECT_FALSE(profile(dialect_limits(h200_cuda(), Dialect::vulkan).api).launch_bounds);
  EXPECT_FALSE(profile(dialect_limits(h200(), Dialect::opengl).api).launch_bounds);
  auto first = [](const fftmux_desc& d, const Device& dev) {
    Plan p = plan(d, direction(d), dev);
    EXPECT_GE(p.passes.size(), 2u) << p.summary;
    return p.passes.at(0).kernel;
  };
  for (fftmux_kind kind : {FFTMUX_C2C, FFTMUX_R2C}) {
    int64_t n = kind == FFTMUX_C2C ? 1 << 20 : 1 << 21; // columns of 1024 either way
    fftmux_desc d = problem({n}, kind, FFTMUX_F32, 3);
    Plan p = plan(d, direction(d), cuda);
    ASSERT_GE(p.passes.size(), 2u) << p.summary;
    const Kernel& k = p.passes.front().kernel;
    EXPECT_EQ(k.length, 1024);
    EXPECT_EQ(k.threads, 64u);
    EXPECT_EQ(k.teams, 8u);
    EXPECT_EQ(k.workgroup(), 512u);
    EXPECT_EQ(k.resident_groups, 2u);
    EXPECT_EQ(k.steps.at(0).radix, 16);
    EXPECT_NE(emit(k, Dialect::cuda).find("__launch_bounds__(512, 2)"), std::string::npos);
    EXPECT_EQ(p.passes.back().kernel.threads, 32u) << "the rows keep theirs";
  }
  Plan c2r = plan(problem({1 << 21}, FFTMUX_C2R, FFTMUX_F32, 2), FFTMUX_INVERSE, cuda);
  int bound = 0;
  for (const Pass& pass : c2r.passes)
    bound += pass.kernel.resident_groups == 2 && pass.kernel.threads == 64;
  EXPECT_EQ(bound, 1) << "C2R's columns (after its pre pass) too: " << c2r.summary;
  EXPECT_NE(first(problem({1 << 20}, FFTMUX_C2C, FFTMUX_F64, 3), cuda).resident_groups, 2u)
      << "F64 not measured";
  for (const char* v : {"radix8", "radix4", "wide", "radix8-narrow", "wide-strides"}) {
    fftmux_desc d = problem({1 << 20}, FFTMUX_C2C, FFTMUX_F32, 3);
    EXPECT_NE(plan(d, FFTMUX_FORWARD, cuda, variant_named(v)).passes.at(0).kernel.resident_groups,
              2u)
        << v << " keeps its columns";
  }
  Kernel vk = first(problem({1 << 20}, FFTMUX_C2C, FFTMUX_F32, 3),
                    dialect_limits(h200_cuda(), Dialect::vulkan));
  EXPECT_EQ(vk.resident_groups, 0u);
  EXPECT_NE(vk.threads, 64u) << "Vulkan keeps radix 32";
}

// C2R 2^20's mirror columns of 512 F32 points (32 threads of 16 values, 16
// lines: 512 threads) are bound to two groups an SM on CUDA (pairs_sm);
// F64, the variants of other shapes and the GLSL dialects keep theirs.
TEST(Plan, PairedGroupsOfC2RColumnsOnCuda) {
  Device cuda = dialect_limits(h200_cuda(), Dialect::cuda);
  auto first = [](const fftmux_desc& d, const Device& dev, const char* v = "default") {
    Plan p = plan(d, FFTMUX_INVERSE, dev, variant_named(v));
    EXPECT_GE(p.passes.size(), 2u) << p.summary;
    return p.passes.at(0).kernel;
  };
  fftmux_desc d = problem({1 << 20}, FFTMUX_C2R, FFTMUX_F32, 4);
  Kernel k = first(d, cuda);
  EXPECT_EQ(k.length, 512);
  EXPECT_EQ(k.workgroup(), 512u);
  EXPECT_GT(k.teams, 1u);
  EXPECT_EQ(k.resident_groups, 2u);
  EXPECT_NE(emit(k, Dialect::cuda).find("__launch_bounds__(512, 2)"), std::string::npos);
  for (const char* v : {"radix8", "radix4", "narrow", "radix16", "wide-strides"})
    EXPECT_NE(first(d, cuda, v).resident_groups, 2u) << v << " keeps its columns";
  EXPECT_NE(first(problem({1 << 20}, FFTMUX_C2R, FFTMUX_F64, 4), cuda).resident_groups, 2u)
      << "F64's 16 values would spill";
  EXPECT_EQ(first(d, dialect_limits(h200_cuda(), Dialect::vulkan)).resident_groups, 0u);
}

// Variant long-real-columns: R2C 2^24 (a half line of 2^23) as columns of
// 4096 and rows of 2048 with the post step, 8 rows a group, where the
// default takes 2048 x 4096 (4 rows a group: two mirror pairs). Even
// powers, C2R and devices whose chains stop below 4096 keep their plans.
TEST(Plan, LongRealColumns) {
  Device cuda = dialect_limits(h200_cuda(), Dialect::cuda);
  Options wide = variant_named("long-real-columns");
  ASSERT_TRUE(wide.long_real_columns);
  fftmux_desc r = problem({1 << 24}, FFTMUX_R2C, FFTMUX_F32, 2);
  Plan p = plan(r, FFTMUX_FORWARD, cuda, wide);
  EXPECT_EQ(lengths(p), (std::vector<int64_t>{4096, 2048})) << p.summary;
  EXPECT_EQ(p.passes.at(1).kernel.mirror_lines, 4096);
  EXPECT_EQ(p.passes.at(1).kernel.teams, 8u) << "runs of 4 outputs a store";
  for (const fftmux_desc& d : {problem({1 << 23}, FFTMUX_R2C, FFTMUX_F32, 2),
                               problem({1 << 24}, FFTMUX_C2R, FFTMUX_F32, 2)}) {
    EXPECT_EQ(lengths(plan(d, direction(d), cuda, wide)), lengths(plan(d, direction(d), cuda)))
        << d.n[0];
  }
  EXPECT_EQ(lengths(plan(r, FFTMUX_FORWARD, h200(), wide)),
            lengths(plan(r, FFTMUX_FORWARD, h200())))
      << "48 KiB: no columns of 4096";
}

// An R2C chain's rows make the outputs only where half a group's lines
// fill 32-byte store runs: F32 rows of 4096 (4 a group) leave the post step
// to a pass of its own, F64's (runs of 2 values, 32 bytes) keep it; F64
// under CUDA takes the longer root as columns by default.
TEST(Plan, ThinRealRowsLeaveThePostStep) {
  Device cuda = dialect_limits(h200_cuda(), Dialect::cuda);
  auto shape = [](const Plan& p) {
    std::vector<std::pair<int64_t, int64_t>> s; // length, mirror_lines
    for (const Pass& pass : p.passes)
      s.emplace_back(pass.kernel.length, pass.kernel.mirror_lines);
    return s;
  };
  using S = std::vector<std::pair<int64_t, int64_t>>;
  Plan p24 = plan(problem({1 << 24}, FFTMUX_R2C, FFTMUX_F32, 2), FFTMUX_FORWARD, cuda);
  EXPECT_EQ(shape(p24), (S{{2048, 0}, {4096, 0}, {512, 0}})) << p24.summary;
  Plan p23 = plan(problem({1 << 23}, FFTMUX_R2C, FFTMUX_F32, 2), FFTMUX_FORWARD, cuda);
  EXPECT_EQ(shape(p23), (S{{2048, 0}, {2048, 2048}})) << "8 rows of 2048 a group";
  Plan d23 = plan(problem({1 << 23}, FFTMUX_R2C, FFTMUX_F64, 2), FFTMUX_FORWARD, cuda);
  ASSERT_EQ(d23.passes.size(), 2u) << d23.summary;
  EXPECT_NE(d23.passes[1].kernel.mirror_lines, 0) << "F64: 4 rows store 32-byte runs";
  Plan d16 = plan(problem({65536}, FFTMUX_R2C, FFTMUX_F64, 2), FFTMUX_FORWARD, cuda);
  EXPECT_EQ(shape(d16), (S{{256, 0}, {128, 256}})) << d16.summary;
  Device vulkan = dialect_limits(h200(), Dialect::vulkan);
  Plan vk = plan(problem({65536}, FFTMUX_R2C, FFTMUX_F64, 2), FFTMUX_FORWARD, vulkan);
  EXPECT_EQ(shape(vk), (S{{128, 0}, {256, 128}})) << "no launch bounds: the shorter columns";
  Plan v21 = plan(problem({1 << 21}, FFTMUX_R2C, FFTMUX_F32, 2), FFTMUX_FORWARD, vulkan);
  EXPECT_EQ(v21.passes.size(), 3u) << "32 KiB of values: 4 rows of 1024 a group";
}

// The pre/post pass walks the first half of the mirror pairs (k = 0 ..
// h / 2), each slot also making the output at h - k below the pass's count
// (R2C: X[h] from k = 0; C2R: none past Z[h - 1]); lines interleaved in
// memory, whose pass loads through a second mapping, walk every position.
TEST(Emit, MirrorPassInPairs) {
  Device cuda = dialect_limits(h200_cuda(), Dialect::cuda);
  Plan r = plan(problem({1 << 24}, FFTMUX_R2C, FFTMUX_F32, 2), FFTMUX_FORWARD, cuda);
  const Kernel& post = r.passes.back().kernel;
  ASSERT_EQ(post.load.access, Access::r2c) << r.summary;
  EXPECT_EQ(post.mirror_pairs, (1 << 23) + 1);
  EXPECT_EQ(post.digits.at(0), ((1 << 22) + 1 + 511) / 512);
  std::string src = emit(post, Dialect::cuda);
  EXPECT_NE(src.find("dst[(8388608u - ((tS + 0u) + dS0 * 512u))"), std::string::npos) << src;
  EXPECT_NE(src.find("(8388608u - ((tS + 0u) + dS0 * 512u)) < 8388609u"), std::string::npos);
  Options rows_apart = variant_named("mirror-pass");
  Plan c = plan(problem({100002}, FFTMUX_C2R, FFTMUX_F32, 2), FFTMUX_INVERSE, cuda, rows_apart);
  const Kernel& pre = c.passes.front().kernel;
  ASSERT_EQ(pre.load.access, Access::c2r) << c.summary;
  EXPECT_EQ(pre.mirror_pairs, 50001);
  EXPECT_EQ(pre.load.axes[0].limit, 25001) << "k = 0 .. 25000, mirrors 25001 .. 50000";
  fftmux_desc woven = problem({65536}, FFTMUX_R2C, FFTMUX_F32, 16);
  woven.in_strides[0] = woven.out_strides[0] = 16;
  woven.in_distance = woven.out_distance = 1;
  Plan w = plan(woven, FFTMUX_FORWARD, cuda, rows_apart);
  const Kernel& lone = w.passes.back().kernel;
  ASSERT_EQ(lone.load.access, Access::r2c) << w.summary;
  EXPECT_TRUE(lone.load_mapping == Mapping::alt || lone.store_mapping == Mapping::alt) << w.summary;
  EXPECT_EQ(lone.mirror_pairs, 0);
  EXPECT_EQ(lone.load.axes[0].limit, 32769) << "every output its own";
}

// The variant sector-columns: 16384, 32768 and 65536 points as 2, 4 and 8
// groups of 4 adjacent columns of 2048 (whole 32-byte sectors a group's
// row), rows of 8, 16 and 32 points across the cluster; not without
// clusters, not F64, not real lines. (Their results: codegen.emulation.)
TEST(Plan, SectorColumnsClusterAdjacentColumns) {
  Device cuda = dialect_limits(h200_cuda(), Dialect::cuda);
  cuda.cluster = 8;
  Options sectors = variant_named("sector-columns");
  for (int64_t c : {2, 4, 8}) {
    Plan p = plan(problem({8192 * c}, FFTMUX_C2C, FFTMUX_F32, 3), FFTMUX_FORWARD, cuda, sectors);
    ASSERT_EQ(p.passes.size(), 1u) << c;
    const Kernel& k = p.passes[0].kernel;
    EXPECT_EQ(k.cluster, uint32_t(c));
    EXPECT_EQ(k.cluster_columns, 4u);
    EXPECT_EQ(k.teams, 4u) << "a group's teams are its columns";
    EXPECT_FALSE(k.team_major) << "adjacent columns in adjacent threads";
    EXPECT_EQ(k.length, 2048);
    EXPECT_EQ(k.digits, (std::vector<int64_t>{4 * c, 3}));
    EXPECT_EQ(k.groups(), uint64_t(3 * c));
    EXPECT_GE(k.shared_scalars(), 2u * 4 * 2052) << "4 padded columns, both components";
    std::string src = emit(k, Dialect::cuda);
    EXPECT_NE(src.find("bf" + std::to_string(4 * c) + "_f(z0, z1"), std::string::npos);
    EXPECT_NE(src.find("uint k = dS0 / 4u * " + std::to_string(2048 / c) + "u + i;"),
              std::string::npos);
  }
  EXPECT_EQ(plan(problem({131072}), FFTMUX_FORWARD, cuda, sectors).passes.at(0).kernel.cluster, 1u)
      << "16 groups exceed a portable cluster";
  EXPECT_EQ(plan(problem({65536}, FFTMUX_C2C, FFTMUX_F64), FFTMUX_FORWARD, cuda, sectors)
                .passes.at(0)
                .kernel.cluster,
            1u);
  for (const Pass& pass : plan(problem({65536}, FFTMUX_R2C), FFTMUX_FORWARD, cuda, sectors).passes)
    EXPECT_EQ(pass.kernel.cluster_columns, 1u) << "R2C keeps its cluster of single columns";
  Device vulkan = dialect_limits(h200_cuda(), Dialect::vulkan);
  for (const Pass& pass : plan(problem({65536}), FFTMUX_FORWARD, vulkan, sectors).passes)
    EXPECT_EQ(pass.kernel.cluster, 1u) << "no clusters outside CUDA";
}

// 32768 points as a cluster of four groups (Kernel::cluster): columns of
// 8192 at stride 4, their rows of 4 across the cluster's shared memory,
// where the device has clusters; the other sizes, F64 and devices without
// clusters keep their plans.
TEST(Plan, ClusterOfFourFor32768OnCuda) {
  Device cuda = dialect_limits(h200_cuda(), Dialect::cuda);
  cuda.cluster = 8;
  Plan p = plan(problem({32768}, FFTMUX_C2C, FFTMUX_F32, 3), FFTMUX_INVERSE, cuda);
  ASSERT_EQ(p.passes.size(), 1u);
  const Kernel& k = p.passes[0].kernel;
  EXPECT_EQ(k.cluster, 4u);
  EXPECT_EQ(k.length, 8192);
  EXPECT_EQ(k.teams, 1u);
  EXPECT_EQ(k.digits, (std::vector<int64_t>{4, 3})) << "the group's rank first";
  EXPECT_EQ(k.groups(), 12u);
  EXPECT_GE(k.shared_scalars(), 2u * 8192) << "the column, both components";
  std::string src = emit(k, Dialect::cuda);
  EXPECT_NE(src.find("__cluster_dims__(4, 1, 1) __launch_bounds__(256, 2)"), std::string::npos);
  // The second row, X[k + 8192], turns z1 by w_4 = +i (inverse) or -i.
  EXPECT_NE(src.find("(k + 8192u)) + ((dS1)) * 32768u] = (z0 + rot_i(z1) + -(z2) + rot_f(z3))"),
            std::string::npos);
  std::string fwd = emit(
      plan(problem({32768}, FFTMUX_C2C, FFTMUX_F32, 3), FFTMUX_FORWARD, cuda).passes.at(0).kernel,
      Dialect::cuda);
  EXPECT_NE(fwd.find("(k + 8192u)) + ((dS1)) * 32768u] = (z0 + rot_f(z1) + -(z2) + rot_i(z3))"),
            std::string::npos);
  // Real sides (a C2R line of 65536 whose real output has stride 2 is a
  // contiguous half line of 32768) keep the one wide pass: rows store
  // complex values.
  fftmux_desc c2r = problem({65536}, FFTMUX_C2R, FFTMUX_F32, 2);
  c2r.out_strides[0] = 2;
  c2r.out_distance = 2 * 65536;
  for (const Pass& pass : plan(c2r, FFTMUX_INVERSE, cuda).passes)
    EXPECT_EQ(pass.kernel.cluster, 1u);
  EXPECT_EQ(dialect_limits(cuda, Dialect::vulkan).cluster, 0u) << "CUDA's alone";
  for (int64_t n : {16384, 65536})
    EXPECT_EQ(plan(problem({n}), FFTMUX_FORWARD, cuda).passes.at(0).kernel.cluster, 1u) << n;
  EXPECT_EQ(plan(problem({32768}, FFTMUX_C2C, FFTMUX_F64), FFTMUX_FORWARD, cuda)
                .passes.at(0)
                .kernel.cluster,
            1u);
  EXPECT_EQ(plan(problem({65536}, FFTMUX_R2C, FFTMUX_F64), FFTMUX_FORWARD, cuda)
                .passes.at(0)
                .kernel.cluster,
            1u);
  Plan plain = plan(problem({32768}), FFTMUX_FORWARD, dialect_limits(h200_cuda(), Dialect::cuda));
  ASSERT_EQ(plain.passes.size(), 1u);
  EXPECT_EQ(plain.passes[0].kernel.length, 32768) << "one wide line without clusters";
}

// R2C of 65536 reals: its half line of 32768 as the cluster of four, the
// post step in the rows, each output's partner X[h - k] read from the
// cluster's shared memory at position 8192 - k of the mirrored row (row 0's
// own at k = 0), X[h] from k = 0 alone; C2R the same way round. Not as the
// variant whose pre or post step is a pass of its own, nor with strided
// reals.
TEST(Plan, ClusteredHalfLinesOfRealTransforms) {
  Device cuda = dialect_limits(h200_cuda(), Dialect::cuda);
  cuda.cluster = 8;
  Plan p = plan(problem({65536}, FFTMUX_R2C, FFTMUX_F32, 3), FFTMUX_FORWARD, cuda);
  ASSERT_EQ(p.passes.size(), 1u) << p.summary;
  const Kernel& k = p.passes[0].kernel;
  EXPECT_EQ(k.cluster, 4u);
  EXPECT_EQ(k.length, 8192);
  ASSERT_EQ(k.steps.back().kind, Step::r2c_post);
  EXPECT_EQ(k.steps.back().span, 32768);
  EXPECT_GE(k.steps.back().table.offset, 0);
  std::string src = emit(k, Dialect::cuda);
  EXPECT_NE(src.find("uint kk = (8192u - k) % 8192u;"), std::string::npos);
  EXPECT_NE(
      src.find(
          "dst[((k + 8192u)) + ((dS1)) * 32769u] = (r2c_post(z0 + rot_f(z1) + -(z2) + rot_i(z3), "
          "(k == 0u ? p0 + rot_i(p1) + -(p2) + rot_f(p3) : p0 + -(p1) + p2 + -(p3))"),
      std::string::npos)
      << "row 1 pairs with row 3 at k = 0, with row 2 elsewhere";
  EXPECT_NE(src.find("if (okS && k == 0u) { dst[((k + 32768u)) + ((dS1)) * 32769u]"),
            std::string::npos)
      << "X[h]";
  Options separate;
  separate.real_rows = false;
  EXPECT_EQ(plan(problem({65536}, FFTMUX_R2C), FFTMUX_FORWARD, cuda, separate).passes.size(), 3u);
  fftmux_desc strided = problem({65536}, FFTMUX_R2C, FFTMUX_F32, 2);
  strided.in_strides[0] = 2;
  strided.in_distance = 2 * 65536;
  for (const Pass& pass : plan(strided, FFTMUX_FORWARD, cuda).passes)
    EXPECT_EQ(pass.kernel.cluster, 1u);
  // C2R: the pre step in the columns' loads (X[l] with X[h - l], l = 4 j + d
  // for column d), the rows' values stored as real pairs.
  Plan c2r = plan(problem({65536}, FFTMUX_C2R, FFTMUX_F32, 3), FFTMUX_INVERSE, cuda);
  ASSERT_EQ(c2r.passes.size(), 1u) << c2r.summary;
  EXPECT_EQ(c2r.passes[0].kernel.cluster, 4u);
  std::string inv = emit(c2r.passes[0].kernel, Dialect::cuda);
  EXPECT_NE(inv.find("c2r_pre(src[(((tS + 0u) + 256u) * 4u + dS0) + ((dS1)) * 32769u], "
                     "src[(32768u - (((tS + 0u) + 256u) * 4u + dS0)) + ((dS1)) * 32769u]"),
            std::string::npos);
  EXPECT_NE(inv.find("dst[((2u * ((k + 8192u))) + ((dS1)) * 65536u) >> 1u] = (z0 + rot_i(z1) + "
                     "-(z2) + rot_f(z3)) * 1.52587890625e-05f;"),
            std::string::npos);
  EXPECT_EQ(plan(problem({65536}, FFTMUX_C2R), FFTMUX_INVERSE, cuda, separate).passes.size(), 3u);
}

// Real pairs that start at even reals, adjacent, are read and written as
// one complex element each; others as two reals.
TEST(Emit, RealPairsAsComplexElements) {
  Device cuda = dialect_limits(h200_cuda(), Dialect::cuda);
  auto source = [&](fftmux_desc d) {
    return emit(plan(d, direction(d), cuda).passes.at(0).kernel, Dialect::cuda);
  };
  std::string r2c = source(problem({1024}, FFTMUX_R2C, FFTMUX_F32, 3));
  EXPECT_EQ(r2c.find("((const real_t*)src)"), std::string::npos);
  EXPECT_NE(r2c.find(") >> 1u]"), std::string::npos);
  EXPECT_EQ(source(problem({1024}, FFTMUX_C2R, FFTMUX_F32, 3)).find("((real_t*)dst)"),
            std::string::npos);
  fftmux_desc odd = problem({1024}, FFTMUX_R2C, FFTMUX_F32, 3);
  odd.in_distance = 1025; // every other line starts at an odd real
  EXPECT_NE(source(odd).find("((const real_t*)src)"), std::string::npos);
  fftmux_desc strided = problem({1024}, FFTMUX_R2C, FFTMUX_F32, 3);
  strided.in_strides[0] = 2;
  strided.in_distance = 2048;
  EXPECT_NE(source(strided).find("((const real_t*)src)"), std::string::npos);
  EXPECT_NE(source(problem({1024}, FFTMUX_R2C, FFTMUX_F32, 3, FFTMUX_SHIFT_INPUT))
                .find("((const real_t*)src)"),
            std::string::npos)
      << "a shifted line wraps around";
  fftmux_desc odd_out = problem({1024}, FFTMUX_C2R, FFTMUX_F32, 3);
  odd_out.out_distance = 1025;
  EXPECT_NE(source(odd_out).find("((real_t*)dst)"), std::string::npos);
  fftmux_desc v = problem({1024}, FFTMUX_R2C, FFTMUX_F32, 3);
  std::string glsl =
      emit(plan(v, FFTMUX_FORWARD, dialect_limits(h200(), Dialect::vulkan)).passes.at(0).kernel,
           Dialect::vulkan);
  EXPECT_NE(glsl.find(") >> 1u]"), std::string::npos);
  EXPECT_EQ(glsl.find(") & 1u]"), std::string::npos) << "no real read one component at a time";
}

// R2C's post step finds Z[h - k] in the thread itself where a line has
// one thread (every dialect) or, in dialects without shuffles, where the
// last stage can leave it there (mirrored butterflies); else in the lane
// that holds it where a line is a run of lanes (CUDA's shuffles), else
// through shared memory.
TEST(Emit, R2cPartnersFromLanes) {
  Device cuda = dialect_limits(h200_cuda(), Dialect::cuda);
  Device vk = dialect_limits(h200(), Dialect::vulkan);
  Device gl = dialect_limits(h200(), Dialect::opengl);
  auto source = [](const fftmux_desc& d, const Device& dev, Dialect x) {
    return emit(plan(d, FFTMUX_FORWARD, dev).passes.at(0).kernel, x);
  };
  // 4096: a half line of 2048 as 16 x 16 x 8 on 128 threads, two radix-8
  // butterflies a thread in the last stage, t and its mirror 256 - t.
  fftmux_desc d = problem({4096}, FFTMUX_R2C, FFTMUX_F32, 3);
  ASSERT_EQ(plan(d, FFTMUX_FORWARD, vk).passes.at(0).kernel.threads, 128u);
  for (auto [dev, x] : {std::pair{vk, Dialect::vulkan}, std::pair{gl, Dialect::opengl}}) {
    std::string k = source(d, dev, x);
    EXPECT_NE(k.find("uint k = (tS == 0u ? 128u : 256u - tS);"), std::string::npos)
        << "thread 0's second butterfly is q / 2, the others' the mirror of their first";
    EXPECT_EQ(k.find("CPLX(sh[a], sh[a"), std::string::npos) << "no partner through shared memory";
    EXPECT_NE(k.find("r2c_pair(z[0], (tS == 0u ? z[0] : z[15]), "), std::string::npos)
        << "X[t] with X[2048 - t]; thread 0: X[0] with X[2048]";
    EXPECT_NE(k.find("r2c_pair((tS == 0u ? z[8] : z[4]), (tS == 0u ? z[15] : z[11]), "),
              std::string::npos)
        << "thread 0 pairs its second butterfly's outputs in the upper slots' computations";
    EXPECT_NE(k.find("if (tS == 0u) { r[16] = r2c_post(z[4], z[4], "), std::string::npos)
        << "X[1024], its own partner";
  }
  EXPECT_EQ(plan(d, FFTMUX_FORWARD, vk).passes.at(0).kernel.steps.back().partners_unshuffled,
            Partners::mirrored)
      << "the planner's choice for the GLSL dialects";
  EXPECT_EQ(plan(d, FFTMUX_FORWARD, cuda).passes.at(0).kernel.steps.back().partners,
            Partners::shared_half)
      << "and for CUDA";
  std::string warps = source(d, cuda, Dialect::cuda);
  EXPECT_EQ(warps.find("__shfl"), std::string::npos) << "a line of several warps";
  EXPECT_NE(warps.find("r2c_pair(z[0], tS == 0u ? z[0] : CPLX(sh[a], sh[a + "), std::string::npos)
      << "CUDA: its upper halves through shared memory";
  std::string lanes = source(problem({512}, FFTMUX_R2C, FFTMUX_F32, 4096), cuda, Dialect::cuda);
  EXPECT_NE(lanes.find("__shfl_sync(0xffffffffu, z[15].x, (16u - tS) % 16u, 16)"),
            std::string::npos)
      << "one butterfly a thread in the last stage: partners from lanes";
  EXPECT_NE(lanes.find("r2c_pair(z[1], tS == 0u ? z[15] : s, tab[0u + (tS + 16u)], r[1], r[9]);"),
            std::string::npos)
      << "X[t + 16] and X[256 - t - 16] from one pair";
  std::string shared = source(problem({8192}, FFTMUX_R2C, FFTMUX_F32, 3), vk, Dialect::vulkan);
  EXPECT_NE(shared.find("r2c_pair(z[0], tS == 0u ? z[0] : CPLX(sh[a], sh[a + "), std::string::npos)
      << "no shuffles, one butterfly a thread: upper halves through shared memory";
  std::string one = source(problem({16}, FFTMUX_R2C, FFTMUX_F32, 3), vk, Dialect::vulkan);
  EXPECT_NE(one.find("r2c_pair(z[1], z[7], tab.d[0u + (tS + 1u)], r[1], r[5]);"), std::string::npos)
      << "one thread a line";
  EXPECT_EQ(one.find("r2c_post(CPLX(sh[a]"), std::string::npos);
}

// The correctness matrix on lavapipe and llvmpipe (CI) runs mirrored
// post steps: its R2C 64, 1000 (a last stage of odd radix, 5) and 4096
// take them under the CPU drivers' defaults.
TEST(Emit, MirroredPostStepsOnCpuDrivers) {
  for (Dialect x : {Dialect::vulkan, Dialect::opengl}) {
    auto source = [&](int64_t n, fftmux_precision p) {
      Plan pl = plan(problem({n}, FFTMUX_R2C, p, 3), FFTMUX_FORWARD, dialect_limits(lavapipe(), x),
                     device_defaults({}, true));
      return emit(pl.passes.at(0).kernel, x);
    };
    for (int64_t n : {64, 1000})
      for (fftmux_precision p : {FFTMUX_F32, FFTMUX_F64})
        EXPECT_NE(source(n, p).find("r2c_pair(z[0], (tS == 0u ? "), std::string::npos) << n;
    EXPECT_NE(source(4096, FFTMUX_F32).find("r2c_pair(z[0], (tS == 0u ? "), std::string::npos);
    EXPECT_NE(source(1000, FFTMUX_F32).find("bf5_f("), std::string::npos);
  }
}

// Half lines of 1024 points or fewer with R2C's post or C2R's pre step
// stop at radix 16; longer ones and complex lines keep radix 32.
TEST(Plan, RealHalfLinesTakeRadix16UpTo1024) {
  Device cuda = dialect_limits(h200_cuda(), Dialect::cuda);
  Options gpu = device_defaults({}, false); // as the GPU backends plan
  auto largest = [&](std::vector<int64_t> n, fftmux_kind kind) {
    fftmux_desc d = problem(n, kind, FFTMUX_F32, 4096);
    int r = 0;
    Plan p = plan(d, direction(d), cuda, gpu);
    for (const Step& s : p.passes.at(0).kernel.steps)
      if (s.kind == Step::stage)
        r = std::max(r, s.radix);
    return r;
  };
  EXPECT_EQ(largest({2048}, FFTMUX_R2C), 16);
  EXPECT_EQ(largest({2048}, FFTMUX_C2R), 16);
  EXPECT_EQ(largest({1024}, FFTMUX_C2C), 32);
  EXPECT_EQ(largest({16384}, FFTMUX_R2C), 32);
}

// A line that fills a multiprocessor's shared memory streams where the
// device has bulk copies: persistent groups loop over the lines, the next
// one copied after the split exchange area while this one is transformed.
TEST(Plan, StreamedLinesOnBulkCopyDevices) {
  Device cuda = dialect_limits(h200_cuda(), Dialect::cuda);
  cuda.bulk_copy = true;
  Kernel k =
      plan(problem({16384}, FFTMUX_C2C, FFTMUX_F32, 9), FFTMUX_FORWARD, cuda).passes.at(0).kernel;
  EXPECT_EQ(k.exchange, Exchange::streamed);
  EXPECT_EQ(k.shared_scalars(), uint32_t(k.stream_offset() + 2 * 16384));
  EXPECT_EQ(k.stream_offset() % 4, 0) << "16-byte aligned";
  EXPECT_LE(k.shared_scalars() * 4, cuda.shared_bytes);
  std::string src = emit(k, Dialect::cuda);
  EXPECT_NE(src.find("__launch_bounds__(512, 1)"), std::string::npos) << "one group an SM";
  EXPECT_NE(src.find("for (uint group = blockIdx.x; group < 9u; group += gridDim.x) {"),
            std::string::npos);
  EXPECT_NE(src.find("cp.async.bulk.shared::cluster.global"), std::string::npos);
  EXPECT_NE(src.find("src + (size_t)(group + gridDim.x) * 16384u"), std::string::npos);
  EXPECT_NE(src.find("r[31] = pre[((tS + 0u) + 15872u)]"), std::string::npos);
  EXPECT_NE(src.find("} else {"), std::string::npos) << "an unaligned source is read directly";
  auto streams = [&](fftmux_desc d, const Device& dev) {
    for (const Pass& p : plan(d, direction(d), dev).passes)
      if (p.kernel.exchange == Exchange::streamed)
        return true;
    return false;
  };
  EXPECT_TRUE(streams(problem({8192}, FFTMUX_C2C, FFTMUX_F64, 9), cuda)) << "F64's 128 KiB lines";
  EXPECT_FALSE(streams(problem({8192}, FFTMUX_C2C, FFTMUX_F32, 9), cuda)) << "three groups an SM";
  EXPECT_EQ(plan(problem({8192}, FFTMUX_C2C, FFTMUX_F32, 9), FFTMUX_FORWARD, cuda)
                .passes.at(0)
                .kernel.resident_groups,
            0u)
      << "no launch bound where groups share an SM";
  EXPECT_FALSE(streams(problem({16384}, FFTMUX_C2C, FFTMUX_F32, 9), h200_cuda()))
      << "no bulk copies";
  EXPECT_FALSE(dialect_limits(cuda, Dialect::vulkan).bulk_copy) << "CUDA's alone";
  fftmux_desc strided = problem({16384}, FFTMUX_C2C, FFTMUX_F32, 9);
  strided.in_strides[0] = 2;
  strided.in_distance = 2 * 16384;
  EXPECT_FALSE(streams(strided, cuda));
  EXPECT_FALSE(streams(problem({16384}, FFTMUX_C2C, FFTMUX_F32, 9, FFTMUX_SHIFT_INPUT), cuda))
      << "a shifted line wraps around";
  EXPECT_FALSE(streams(problem({32768}, FFTMUX_R2C, FFTMUX_F32, 9), cuda)) << "real pairs";
}

// Short lines adjacent in memory move as one run a workgroup: R2C's h + 1
// outputs, and C2R's real pairs (held as complex elements) where a line's
// row is at most a sector; not R2C's real inputs (slower on the H200),
// nor padded in-place lines.
TEST(Plan, ShortRealLinesMoveFlat) {
  Device cuda = dialect_limits(h200_cuda(), Dialect::cuda);
  auto kernel = [&](const fftmux_desc& d) {
    return plan(d, direction(d), cuda).passes.at(0).kernel;
  };
  Kernel r2c = kernel(problem({64}, FFTMUX_R2C, FFTMUX_F32, 1 << 16));
  ASSERT_EQ(r2c.threads, 2u);
  EXPECT_FALSE(r2c.load_mapping == Mapping::flat);
  EXPECT_TRUE(r2c.store_mapping == Mapping::flat);
  std::string src = emit(r2c, Dialect::cuda);
  EXPECT_NE(src.find("dst[group * " + std::to_string(r2c.teams * 33) + "u + lid"),
            std::string::npos)
      << "33 outputs a line";
  Kernel c2r = kernel(problem({64}, FFTMUX_C2R, FFTMUX_F32, 1 << 16));
  ASSERT_EQ(c2r.threads, 2u);
  EXPECT_FALSE(c2r.load_mapping == Mapping::flat) << "the hermitian input pairs k with h - k";
  EXPECT_TRUE(c2r.store_mapping == Mapping::flat);
  EXPECT_NE(
      emit(c2r, Dialect::cuda).find("dst[group * " + std::to_string(c2r.teams * 32) + "u + lid"),
      std::string::npos)
      << "32 pairs a line";
  EXPECT_TRUE(kernel(problem({128}, FFTMUX_C2R, FFTMUX_F32, 1 << 15)).store_mapping ==
              Mapping::flat)
      << "4 threads: a row of a sector";
  Kernel c2r256 = kernel(problem({256}, FFTMUX_C2R, FFTMUX_F32, 1 << 14));
  ASSERT_GE(c2r256.threads, 8u);
  EXPECT_FALSE(c2r256.store_mapping == Mapping::flat) << "a row of more than a sector";
  fftmux_desc in_place = problem({64}, FFTMUX_C2R, FFTMUX_F32, 1 << 16);
  in_place.out_distance = 66; // the in-place layout: lines padded to 2 (h + 1) reals
  EXPECT_FALSE(kernel(in_place).store_mapping == Mapping::flat);
}

// Radix 49 (7 x 7 in registers) where the device allows it (CUDA) and a
// thread holds radix 32's values (not F64's 16).
TEST(Plan, RadixFortyNineOnCuda) {
  EXPECT_EQ(factorize(2401, 32, 49), (std::vector<int>{49, 49}));
  EXPECT_EQ(factorize(2401, 32, 32), (std::vector<int>{7, 7, 7, 7}));
  EXPECT_EQ(factorize(2401, 16, 49), (std::vector<int>{7, 7, 7, 7}));
  Device cuda = dialect_limits(h200_cuda(), Dialect::cuda);
  EXPECT_EQ(radices(problem({2401}), cuda), (std::vector<int>{49, 49}));
  EXPECT_EQ(radices(problem({2401}, FFTMUX_C2C, FFTMUX_F64), cuda), (std::vector<int>{7, 7, 7, 7}));
  EXPECT_EQ(radices(problem({2401}), dialect_limits(h200(), Dialect::vulkan)),
            (std::vector<int>{7, 7, 7, 7}));
  EXPECT_EQ(radices(problem({2401}), dialect_limits(h200(), Dialect::opengl)),
            (std::vector<int>{7, 7, 7, 7}));
  std::string src =
      emit(plan(problem({2401}), FFTMUX_FORWARD, cuda).passes.at(0).kernel, Dialect::cuda);
  EXPECT_NE(src.find("FN void bf49_f("), std::string::npos);
}

// Four-step twiddles: a butterfly's outputs take one lookup and a row value
// each where a butterfly has at most 8 outputs or the line is longer than
// 2^20 points, and the row pass reads them as a run of adjacent columns;
// chains choose their columns for it.
TEST(Plan, FourStepTwiddlesByRows) {
  Device cuda = dialect_limits(h200_cuda(), Dialect::cuda);
  auto rows = [&](int64_t n) {
    Plan pl = plan(problem({n}, FFTMUX_C2C, FFTMUX_F32, (1 << 27) / n), FFTMUX_FORWARD, cuda,
                   device_defaults({}, false));
    const Step& m = pl.passes.at(0).kernel.steps.back();
    EXPECT_EQ(m.kind, Step::multiply) << n;
    return m.rows >= 0 ? m.row_count : 0;
  };
  EXPECT_EQ(rows(1 << 19), 8); // 512 = 8 x 8 x 8
  EXPECT_EQ(rows(1 << 20), 8); // 1024 = 16 x 8 x 8 (bound_columns)
  EXPECT_EQ(rows(1 << 22), 8); // 2048 = 16 x 16 x 8
  EXPECT_EQ(rows(1 << 23), 8); // 2048 again
  EXPECT_EQ(rows(1 << 24), 0); // 128 = 16 x 8 of three passes: 2^20 row values
  EXPECT_EQ(rows(1 << 16), 0); // 256 = 16 x 16
  // Between two column lengths equally near n^(1/2), the one whose last
  // butterfly has at most 8 outputs.
  EXPECT_EQ(pass_lengths(1 << 19, cuda).at(0), 512);  // not 1024 = 32 x 32
  EXPECT_EQ(pass_lengths(1 << 21, cuda).at(0), 2048); // not 1024
  EXPECT_EQ(pass_lengths(1 << 23, cuda).at(0), 2048); // not 4096 = 16 x 16 x 16
  Plan pl = plan(problem({1 << 22}), FFTMUX_FORWARD, cuda);
  std::string src = emit(pl.passes[0].kernel, Dialect::cuda);
  EXPECT_NE(src.find("cplx_t tw0 = "), std::string::npos);
  EXPECT_NE(src.find(std::to_string(pl.passes[0].kernel.steps.back().rows + 2048) + "u + dS0]"),
            std::string::npos)
      << "row 1 of 2048 columns, read at the column digit";
}

// Where the driver grants a multiprocessor 64 KiB of shared memory (OpenGL),
// plain one-line kernels whose groups would hold fewer than 768 threads
// there split their exchange, and chunk it in equal parts, until they do;
// r2c lines (whose last step reads both components), kernels of more
// threads and fused convolutions keep their shape. Groups of several lines split
// and take fewer lines while that fits more threads.
TEST(Plan, KernelsOfFewThreadsShareTheMultiprocessor) {
  Device gl = dialect_limits(h200(), Dialect::opengl);
  ASSERT_EQ(gl.sm_shared_bytes, 65536u);
  Device uncapped = gl;
  uncapped.sm_shared_bytes = 0;
  auto kernel = [](fftmux_desc d, const Device& dev) {
    Plan p = plan(d, FFTMUX_FORWARD, dev);
    EXPECT_EQ(p.passes.size(), 1u) << d.n[0];
    return p.passes.at(0).kernel;
  };
  for (auto [n, chunks] : {std::pair{4096, 1u}, {8192, 2u}, {2187, 1u}, {6000, 1u}}) {
    Kernel k = kernel(problem({n}), gl), was = kernel(problem({n}), uncapped);
    EXPECT_EQ(k.exchange, chunks > 1 ? Exchange::chunked : Exchange::split) << n;
    EXPECT_EQ(k.chunks, chunks) << n;
    EXPECT_LT(k.shared_scalars(), was.shared_scalars()) << n;
    EXPECT_GE(65536 / (k.shared_scalars() * 4 + 2048) * k.workgroup(), 768) << n;
  }
  // Groups of several lines: split, and 2^20's passes 4 lines a group where
  // 8 left 512 threads an SM.
  Plan wide = plan(problem({1 << 20}, FFTMUX_C2C, FFTMUX_F32, 128), FFTMUX_FORWARD, gl);
  Plan was = plan(problem({1 << 20}, FFTMUX_C2C, FFTMUX_F32, 128), FFTMUX_FORWARD, uncapped);
  ASSERT_EQ(wide.passes.size(), 2u);
  for (size_t i = 0; i < 2; ++i) {
    EXPECT_EQ(was.passes[i].kernel.teams, 8u);
    EXPECT_EQ(wide.passes[i].kernel.teams, 4u);
    EXPECT_EQ(wide.passes[i].kernel.exchange, Exchange::split);
  }
  for (fftmux_desc d : {problem({12288}), problem({4093}), problem({8192}, FFTMUX_R2C)})
    EXPECT_EQ(emit(kernel(d, gl), Dialect::opengl), emit(kernel(d, uncapped), Dialect::opengl))
        << d.n[0];
}

// Under GL's shared-memory cap, short lines spread over at least a sector's
// worth of threads (4 in F32) and load directly; groups of several lines of
// few threads take fewer values a thread while that fits more threads an SM.
TEST(Plan, ShortLinesSpreadOverASectorUnderTheCap) {
  Device gl = dialect_limits(h200(), Dialect::opengl), uncapped = gl;
  uncapped.sm_shared_bytes = 0;
  Options gpu = device_defaults({}, false); // as the GPU backends plan
  auto kernel = [&](int64_t n, const Device& dev, fftmux_precision p = FFTMUX_F32) {
    return plan(problem({n}, FFTMUX_C2C, p, (1 << 27) / n), FFTMUX_FORWARD, dev, gpu)
        .passes.at(0)
        .kernel;
  };
  EXPECT_EQ(radices(problem({16}, FFTMUX_C2C, FFTMUX_F32, 1 << 20), gl, gpu),
            (std::vector<int>{4, 4}));
  EXPECT_EQ(radices(problem({16}, FFTMUX_C2C, FFTMUX_F32, 1 << 20), uncapped, gpu),
            (std::vector<int>{16}));
  for (auto [n, threads, was] :
       {std::tuple{16, 4u, 1u}, {32, 4u, 2u}, {64, 8u, 4u}, {128, 8u, 8u}}) {
    Kernel k = kernel(n, gl), w = kernel(n, uncapped);
    EXPECT_EQ(k.threads, threads) << n;
    EXPECT_EQ(w.threads, was) << n;
    EXPECT_FALSE(k.load_mapping == Mapping::flat || k.store_mapping == Mapping::flat)
        << n << ": rows of 32 bytes load directly";
    EXPECT_TRUE(w.load_mapping == Mapping::flat && w.store_mapping == Mapping::flat) << n;
  }
  Kernel eight = kernel(8, gl);
  EXPECT_EQ(eight.threads, 1u);
  EXPECT_TRUE(eight.load_mapping == Mapping::flat)
      << "8 points: one thread, staged through shared memory";
  EXPECT_EQ(kernel(16, gl, FFTMUX_F64).threads, 4u);
  // 10007's convolution (320 points): 64 threads, one line a group, not 14 x 4.
  Plan p = plan(problem({10007}, FFTMUX_C2C, FFTMUX_F32, 13412), FFTMUX_FORWARD, gl, gpu);
  ASSERT_EQ(p.passes.size(), 3u);
  EXPECT_EQ(p.passes[1].kernel.threads, 64u);
  EXPECT_EQ(p.passes[1].kernel.teams, 1u);
  EXPECT_EQ(plan(problem({10007}, FFTMUX_C2C, FFTMUX_F32, 13412), FFTMUX_FORWARD, uncapped, gpu)
                .passes[1]
                .kernel.threads,
            14u);
}

// A convolution that has a multiprocessor to itself takes the thread count
// whose values fit the register file: 10007's 20480 points on CUDA as 512
// threads of 40 values, not 1024 of up to 24 (which spilled).
TEST(Plan, LoneConvolutionsFitTheRegisterFile) {
  Kernel k = plan(problem({10007}), FFTMUX_FORWARD, h200_cuda()).passes.at(0).kernel;
  ASSERT_EQ(k.length, 20480);
  EXPECT_EQ(k.threads, 512u);
  EXPECT_EQ(plan(problem({12800}), FFTMUX_FORWARD, h200()).passes.at(0).kernel.threads, 800u)
      << "a plain line keeps its threads";
}

// Between a thread count above the register target and one below it, the
// one below: 1000 = 10 x 10 x 10 on 100 threads of 10 values, not 50 of 20
// (16 is the F32 target); 729 on 81 threads of 9, not 27 of 27.
TEST(Plan, ValuesAThreadLeanBelowTheTarget) {
  auto threads = [](int64_t n) {
    return plan(problem({n}), FFTMUX_FORWARD, h200_cuda()).passes.at(0).kernel.threads;
  };
  EXPECT_EQ(threads(1000), 100u);
  EXPECT_EQ(threads(729), 81u);
  EXPECT_EQ(threads(2187), 81u) << "radix 27 needs its 27 values";
  EXPECT_EQ(threads(512), 32u) << "16 values: on target";
}

// A strided axis whose lines share a workgroup fewer than fill a 32-byte
// sector is taken in two passes of long runs: 4096^2 in 48 KiB, F32 and F64;
// in CUDA's 227 KiB four F32 lines fit (32 bytes) and three F64 (48).
TEST(Plan, StridedLinesShareSectors) {
  for (fftmux_precision p : {FFTMUX_F32, FFTMUX_F64}) {
    fftmux_desc d = problem({4096, 4096}, FFTMUX_C2C, p, 8);
    EXPECT_EQ(plan(d, FFTMUX_FORWARD, h200()).passes.size(), 3u);
    EXPECT_EQ(plan(d, FFTMUX_FORWARD, h200_cuda()).passes.size(), 2u);
  }
  EXPECT_EQ(
      plan(problem({1024, 1024}, FFTMUX_C2C, FFTMUX_F32, 8), FFTMUX_FORWARD, h200()).passes.size(),
      2u);
}

// A strided pass exchanges one component at a time unless it twiddles long
// lines (codegen/plan/shape.cpp, interleaved_split; docs/codegen-rules.md says what
// the H200 measured).
TEST(Plan, StridedPassesExchangeOneComponentAtATime) {
  auto split = [](std::vector<int64_t> n, int64_t batch) {
    std::vector<int> out;
    for (const Pass& p :
         plan(problem(n, FFTMUX_C2C, FFTMUX_F32, batch), FFTMUX_FORWARD, h200_cuda()).passes)
      out.push_back(p.kernel.team_major ? -1 : p.kernel.exchange != Exchange::whole);
    return out;
  };
  // -1: lines one after another; 1 / 0: interleaved lines, split or not.
  EXPECT_EQ(split({1024, 1024}, 64), (std::vector<int>{-1, 1}));
  EXPECT_EQ(split({512, 512, 512}, 1), (std::vector<int>{-1, 1, 1}));
  EXPECT_EQ(split({65536}, 2048), (std::vector<int>{1, -1}));  // 256-point twiddled columns
  EXPECT_EQ(split({1 << 20}, 128), (std::vector<int>{0, -1})); // 1024-point twiddled columns
}

// Butterfly tails: the columns of C2C 2^21 (2048 = 16 x 16 x 8, two radix-8
// butterflies a thread in the last stage) under the variant butterfly-tail,
// and C2C 2^20's bound columns of 1024 by default, store the first
// butterfly's outputs before reading the second's inputs from shared
// memory; the default's columns of 2048 read both first. Where the tail
// does not fit (an R2C post step follows), the planner leaves it off and
// validate() refuses it.
TEST(Emit, ButterflyTail) {
  Device cuda = dialect_limits(h200_cuda(), Dialect::cuda);
  Options tail = variant_named("butterfly-tail");
  ASSERT_TRUE(tail.butterfly_tail);
  auto order = [&](int64_t n, const Options& o, bool expect_tail) {
    fftmux_desc d = problem({n}, FFTMUX_C2C, FFTMUX_F32, 3);
    Kernel k = plan(d, FFTMUX_FORWARD, cuda, o).passes.at(0).kernel;
    EXPECT_EQ(k.butterfly_tail, expect_tail) << n;
    std::string src = emit(k, Dialect::cuda);
    size_t last = src.rfind("__syncthreads();");
    size_t stored = src.find("] = r[0];", last), read = src.find("r[8] = CPLX(sh[", last);
    EXPECT_NE(stored, std::string::npos) << src;
    EXPECT_NE(read, std::string::npos) << src;
    return stored < read;
  };
  EXPECT_TRUE(order(1 << 21, tail, true));
  EXPECT_FALSE(order(1 << 21, Options{}, false));
  EXPECT_TRUE(order(1 << 20, Options{}, true)) << "the bound columns take it by default";
  fftmux_desc r = problem({4096}, FFTMUX_R2C, FFTMUX_F32, 3); // the post step follows
  Kernel k = plan(r, FFTMUX_FORWARD, cuda, tail).passes.at(0).kernel;
  EXPECT_FALSE(k.butterfly_tail) << "the planner leaves it off";
  k.butterfly_tail = true;
  EXPECT_THROW(validate(k), std::logic_error);
}

// A butterfly's run of slots shares one padded base index (ixN) in place of
// i + (i >> 5) per slot, which NVRTC did not fold (8192 points: 2176 SASS
// instructions, 1872 with the base) and NVIDIA's OpenGL compiler neither.
TEST(Emit, PaddedIndexOncePerButterfly) {
  auto count = [](const std::string& s, const std::string& what) {
    size_t n = 0;
    for (size_t at = s.find(what); at != std::string::npos; at = s.find(what, at + 1))
      ++n;
    return n;
  };
  for (int64_t n : {int64_t(4096), int64_t(8192), int64_t(16384)}) {
    Kernel k =
        plan(problem({n}, FFTMUX_C2C, FFTMUX_F32, 8), FFTMUX_FORWARD, h200_cuda()).passes[0].kernel;
    ASSERT_TRUE(k.pad_shared) << n;
    std::string src = emit(k, Dialect::cuda);
    EXPECT_EQ(count(src, "i += i >> 5u"), 0u) << n;
    EXPECT_GT(count(src, "uint ix"), 0u) << n;
    EXPECT_LE(count(src, "uint ix"), size_t(k.length / 64)) << n;
  }
}

// A line's loads and stores go through one base a butterfly (CUDA: a
// pointer, so NVRTC adds constant offsets instead of widening every index).
TEST(Emit, MemoryThroughOneBaseAButterfly) {
  Kernel k = plan(problem({8192}, FFTMUX_C2C, FFTMUX_F32, 8), FFTMUX_FORWARD, h200_cuda())
                 .passes[0]
                 .kernel;
  std::string cu = emit(k, Dialect::cuda), gl = emit(k, Dialect::opengl);
  EXPECT_EQ(cu.find("src["), std::string::npos);
  EXPECT_EQ(cu.find("dst["), std::string::npos);
  EXPECT_NE(cu.find("const cplx_t* gp0 = src + "), std::string::npos);
  EXPECT_NE(cu.find("gp0[256u]"), std::string::npos);
  EXPECT_NE(gl.find("src.d[gp0 + 256u]"), std::string::npos);
}

// Statements under one guard share one if (NVIDIA's OpenGL compiler kept
// an IF/ENDIF around each load): a line's 32 loads, one branch.
TEST(Emit, OneGuardOverARunOfStatements) {
  Kernel k = plan(problem({8192}, FFTMUX_C2C, FFTMUX_F32, 8), FFTMUX_FORWARD, h200_cuda())
                 .passes[0]
                 .kernel;
  std::string src = emit(k, Dialect::opengl);
  size_t ifs = 0;
  for (size_t at = src.find("if (okS)"); at != std::string::npos; at = src.find("if (okS)", at + 1))
    ++ifs;
  EXPECT_EQ(ifs, 2u) << "one for the loads, one for the stores";
}

// Every index the mapping declares is read: a kernel whose loads and
// stores are flat (64 points x8192) has no okS, dS0 or gS (NVRTC warned of
// each), and the others keep theirs.
TEST(Emit, NoIndexDeclaredUnread) {
  auto words = [](const std::string& src, const std::string& v) {
    size_t n = 0;
    auto word = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
    for (size_t at = src.find(v); at != std::string::npos; at = src.find(v, at + 1))
      n += !word(src[at - 1]) && !word(src[at + v.size()]);
    return n;
  };
  for (auto [n, kind] : {std::pair{64, FFTMUX_C2C},
                         {16, FFTMUX_C2C},
                         {1 << 20, FFTMUX_R2C},
                         {65536, FFTMUX_R2C},
                         {10007, FFTMUX_C2C},
                         {4096, FFTMUX_C2R}})
    for (Dialect d : {Dialect::cuda, Dialect::vulkan}) {
      fftmux_desc desc = problem({n}, kind, FFTMUX_F32, 64);
      for (const Pass& pass : plan(desc, direction(desc), h200_cuda()).passes) {
        std::string src = emit(pass.kernel, d);
        for (std::string v : {"teamS", "tS", "gS", "okS", "dS0", "dS1", "cS", "mateS", "teamA",
                              "tA", "gA", "okA", "dA0", "dA1"})
          if (src.find("uint " + v + " = ") != std::string::npos ||
              src.find("bool " + v + " = ") != std::string::npos) {
            EXPECT_GE(words(src, v), 2u) << v << " in " << pass.kernel.name << " of " << n;
          }
      }
    }
  std::string flat =
      emit(plan(problem({64}, FFTMUX_C2C, FFTMUX_F32, 8192), FFTMUX_FORWARD, h200_cuda())
               .passes[0]
               .kernel,
           Dialect::cuda);
  EXPECT_EQ(flat.find("bool okS"), std::string::npos);
  EXPECT_EQ(flat.find("uint dS0"), std::string::npos);
  EXPECT_NE(flat.find("uint teamS"), std::string::npos) << "its exchanges read it";
}

// A workgroup's values take at most half of a 64K-register file: the F64
// column pass of 4096² had 1024 threads of 16 complex doubles and spilled
// 968 bytes each under NVRTC; the F32 one keeps its four lines a group.
TEST(Plan, GroupValuesFitHalfARegisterFile) {
  for (fftmux_precision p : {FFTMUX_F64, FFTMUX_F32})
    for (fftmux_kind kind : {FFTMUX_C2C, FFTMUX_R2C}) {
      fftmux_desc d = problem({4096, 4096}, kind, p, 1);
      for (const Pass& pass : plan(d, direction(d), h200_cuda()).passes) {
        const Kernel& k = pass.kernel;
        int64_t bytes =
            int64_t(k.workgroup()) * (k.length / k.threads) * 2 * (p == FFTMUX_F64 ? 8 : 4);
        EXPECT_LE(bytes, 1 << 17) << p << " " << kind;
        if (p == FFTMUX_F32 && !k.team_major) {
          EXPECT_EQ(k.teams, 4u);
        }
      }
    }
}

TEST(Plan, InterleavedLinesOfEveryKind) {
  // Lines of a batch interleaved in memory (stride = batch, distance 1): a
  // strided axis of every kind, real and Hermitian sides included.
  for (fftmux_kind kind : {FFTMUX_C2C, FFTMUX_R2C, FFTMUX_C2R})
    for (int64_t n : {int64_t(4096), int64_t(4095), int64_t(65536), int64_t(100002)})
      for (const Device& dev : {lavapipe(), h200(), h200_cuda()}) {
        fftmux_desc d = problem({n}, kind, FFTMUX_F32, 16);
        d.in_strides[0] = d.out_strides[0] = 16;
        d.in_distance = d.out_distance = 1;
        EXPECT_NO_THROW(plan(d, direction(d), dev)) << kind << " " << n;
      }
}

TEST(Plan, LongLinesTakeAtMostThreePasses) {
  struct Want {
    int64_t n;
    size_t passes;
  };
  for (Want w : {Want{1 << 15, 2}, Want{1 << 20, 2}, Want{1 << 24, 3}, Want{1 << 27, 3}}) {
    Plan p = plan(problem({w.n}), FFTMUX_FORWARD, h200());
    EXPECT_EQ(p.passes.size(), w.passes) << w.n << ": " << p.summary;
    EXPECT_GE(p.scratch_elements, uint64_t(w.n));
  }
}

TEST(Plan, EveryPassReadsAndWritesWholeRuns) {
  // A pass whose side is strided takes adjacent lines in a workgroup: it
  // covers runs of teams elements there, not one element at a time. Long
  // lines, and strided axes whose chain keeps the unit digit fastest in
  // scratch (4096^2 and 16 x 2^20 on 48 KiB).
  std::vector<fftmux_desc> ds;
  for (int64_t n : {int64_t(1) << 20, int64_t(1) << 21, int64_t(1) << 24, int64_t(1) << 27})
    ds.push_back(problem({n}));
  ds.push_back(problem({4096, 4096}));
  ds.push_back(problem({1 << 20, 16}));
  for (const fftmux_desc& d : ds)
    for (const Pass& p : plan(d, FFTMUX_FORWARD, h200()).passes)
      for (const Side* s : {&p.kernel.load, &p.kernel.store}) {
        int64_t e = stride(*s, kElement), d0 = stride(*s, 0);
        EXPECT_TRUE(e == 1 || d0 == 1) << d.n[0] << "x" << d.n[1] << ", " << p.kernel.name
                                       << ": element stride " << e << ", digit 0 stride " << d0;
      }
}

TEST(Plan, TwoToTheThirtyInThreePasses) {
  Plan p = plan(problem({int64_t(1) << 30}), FFTMUX_FORWARD, h200());
  EXPECT_EQ(p.passes.size(), 3u) << p.summary;
  EXPECT_LT(p.table_size, int64_t(1) << 20) << "twiddles of long lines are split";
}

TEST(Plan, BluesteinForLargePrimes) {
  Plan one = plan(problem({4093}), FFTMUX_FORWARD, h200()); // m = 8192 fits
  EXPECT_EQ(one.passes.size(), 1u) << one.summary;
  EXPECT_NE(one.summary.find("bluestein"), std::string::npos);
  Plan three = plan(problem({10007}), FFTMUX_FORWARD, h200());
  EXPECT_EQ(three.passes.size(), 3u) << three.summary;
  EXPECT_GE(three.scratch_elements, uint64_t(bluestein_length(10007)));
}

// Variant split-convolution: a convolution whose padded line one pass
// holds runs as two kernels of one transform each, through scratch, shaped
// as the plain line of that length (under GL's cap, chunked as it is); one
// that only chunks hold (7919 as 16384 under 48 KiB) takes two passes
// instead of three, one that no pass holds (10007 as 20480) keeps three.
TEST(Plan, SplitConvolutionTakesTwoKernelsOfOneTransform) {
  Options split = variant_named("split-convolution");
  ASSERT_TRUE(split.split_convolution);
  Device gl = dialect_limits(h200(), Dialect::opengl);
  for (const Device& dev : {h200(), h200_cuda(), gl}) {
    Plan p = plan(problem({4093}), FFTMUX_FORWARD, dev, split);
    ASSERT_EQ(lengths(p), (std::vector<int64_t>{8192, 8192})) << p.summary;
    EXPECT_EQ(p.scratch_elements, 8192u);
    Kernel plain = plan(problem({8192}), FFTMUX_FORWARD, dev).passes.at(0).kernel;
    for (const Pass& pass : p.passes) {
      EXPECT_FALSE(pass.kernel.convolution);
      EXPECT_EQ(pass.kernel.threads, plain.threads);
      EXPECT_EQ(pass.kernel.chunks, plain.chunks);
    }
    EXPECT_EQ(p.passes[0].dst, Binding::scratch);
    EXPECT_EQ(p.passes[1].src, Binding::scratch);
  }
  EXPECT_EQ(lengths(plan(problem({4093}), FFTMUX_FORWARD, h200())).size(), 1u) << "fused";
  EXPECT_EQ(lengths(plan(problem({7919}), FFTMUX_FORWARD, h200())).size(), 3u);
  EXPECT_EQ(lengths(plan(problem({7919}), FFTMUX_FORWARD, h200(), split)),
            (std::vector<int64_t>{16384, 16384}));
  EXPECT_EQ(lengths(plan(problem({7919}), FFTMUX_FORWARD, h200_cuda())).size(), 1u) << "fused";
  EXPECT_EQ(lengths(plan(problem({10007}), FFTMUX_FORWARD, h200(), split)).size(), 3u);
  Plan r2c = plan(problem({8186}, FFTMUX_R2C), FFTMUX_FORWARD, h200_cuda(), split);
  ASSERT_EQ(r2c.passes.size(), 2u) << r2c.summary;
  EXPECT_EQ(r2c.passes[1].kernel.positions, 4094) << "R2C's post step in the second";
}

TEST(Plan, ChainsFindFactorsThatFit) {
  Options small;
  small.max_single = 64; // chain kernels of at most 64 points
  Plan p = plan(problem({30030}), FFTMUX_FORWARD, lavapipe(), small); // 2*3*5*7*11*13
  EXPECT_EQ(p.passes.size(), 3u) << p.summary;
  for (const Pass& pass : p.passes)
    EXPECT_LE(pass.kernel.length, 64);
  // Bluestein picks a padded length that splits into columns and rows.
  Plan b = plan(problem({1999}), FFTMUX_FORWARD, lavapipe(), small);
  EXPECT_EQ(b.passes.size(), 3u) << b.summary;
  for (const Pass& pass : b.passes)
    EXPECT_LE(pass.kernel.length, 64);
}

TEST(Plan, RealTransformsUseTheHalfLength) {
  Plan r = plan(problem({1024}, FFTMUX_R2C), FFTMUX_FORWARD, h200());
  ASSERT_EQ(r.passes.size(), 1u);
  EXPECT_EQ(r.passes[0].kernel.length, 512);
  EXPECT_EQ(r.passes[0].kernel.positions, 513);
  Plan c = plan(problem({1024}, FFTMUX_C2R), FFTMUX_INVERSE, h200());
  ASSERT_EQ(c.passes.size(), 1u);
  EXPECT_EQ(c.passes[0].kernel.load.access, Access::c2r);
  Plan odd = plan(problem({15}, FFTMUX_R2C), FFTMUX_FORWARD, h200());
  EXPECT_EQ(odd.passes[0].kernel.length, 15);
  Device cuda = dialect_limits(h200_cuda(), Dialect::cuda);
  Plan lng = plan(problem({1 << 20}, FFTMUX_R2C), FFTMUX_FORWARD, cuda);
  EXPECT_EQ(lng.passes.size(), 2u) << lng.summary; // the post step in the rows
  Options separate;
  separate.real_rows = false; // variant mirror-pass
  EXPECT_EQ(plan(problem({1 << 20}, FFTMUX_R2C), FFTMUX_FORWARD, cuda, separate).passes.size(), 3u)
      << "two for the half length, one post pass";
  EXPECT_EQ(plan(problem({1 << 20}, FFTMUX_R2C), FFTMUX_FORWARD, h200()).passes.size(), 3u)
      << "F32 without launch bounds (Vulkan): the post pass";
  EXPECT_EQ(plan(problem({1 << 19}, FFTMUX_R2C, FFTMUX_F64), FFTMUX_FORWARD, h200()).passes.size(),
            2u)
      << "F64: the post step in the rows";
  EXPECT_EQ(plan(problem({1 << 20}, FFTMUX_C2R), FFTMUX_INVERSE, cuda).passes.size(), 2u)
      << "C2R's pre step in the 512-point columns, 16 of them in 68 of 227 KiB";
  EXPECT_EQ(plan(problem({1 << 20}, FFTMUX_C2R), FFTMUX_INVERSE, cuda, separate).passes.size(), 3u);
  EXPECT_EQ(plan(problem({1 << 20}, FFTMUX_C2R), FFTMUX_INVERSE, h200()).passes.size(), 3u)
      << "48 KiB holds 4 of its 1024-point columns: runs of 2 lines";
  EXPECT_EQ(plan(problem({1 << 21}, FFTMUX_C2R), FFTMUX_INVERSE, cuda).passes.size(), 3u)
      << "16 of its 1024-point columns would fill an SM's shared memory";
  Device gl = dialect_limits(h200(), Dialect::opengl);
  EXPECT_EQ(plan(problem({1 << 20}, FFTMUX_R2C), FFTMUX_FORWARD, gl).passes.size(), 3u)
      << "under the driver's cap the rows would fill an SM alone";
}

// A long R2C line's rows come in mirror pairs, rows k1 and n1 - k1 in
// adjacent teams (0 with n1 / 2), and make X[k1 + n1 k] from both; a long
// C2R line's columns pair likewise and read both X[k] and X[h - k].
TEST(Plan, LongRealLinesPairWithTheirMirrors) {
  Device cuda = dialect_limits(h200_cuda(), Dialect::cuda);
  Plan p = plan(problem({1 << 20}, FFTMUX_R2C, FFTMUX_F32, 3), FFTMUX_FORWARD, cuda);
  ASSERT_EQ(p.passes.size(), 2u) << p.summary;
  const Kernel& rows = p.passes[1].kernel;
  EXPECT_EQ(rows.length, 1024);
  EXPECT_EQ(rows.positions, 1025) << "row 0 makes X[h] too";
  EXPECT_EQ(rows.mirror_lines, 512);
  EXPECT_EQ(rows.threads, 32u) << "32 values a thread, so that 16 rows share a group";
  EXPECT_EQ(rows.teams, 16u);
  EXPECT_EQ(plan(problem({1 << 19}, FFTMUX_R2C), FFTMUX_FORWARD, cuda).passes.at(1).kernel.threads,
            16u)
      << "rows of 256: 16 of them fit half a group at the default 16 values";
  EXPECT_FALSE(rows.load_mapping == Mapping::flat) << "a group's rows are not one run";
  EXPECT_EQ(p.passes[1].dst, Binding::output);
  std::string src = emit(rows, Dialect::cuda);
  EXPECT_NE(src.find("dS0 = (cS & 1u) == 0u ? cS >> 1u : cS == 1u ? 256u : 512u - (cS >> 1u);"),
            std::string::npos);
  EXPECT_NE(src.find("uint mateS = cS < 2u ? teamS : teamS ^ 1u;"), std::string::npos);
  EXPECT_NE(src.find("(dS0 == 0u ? (1024u - (tS + 0u)) % 1024u : (2047u - (tS + 0u)) % 1024u)"),
            std::string::npos)
      << "row 0's partner of k is its own n - k, the others' their mate's n - 1 - k";
  const Step& post = rows.steps.back();
  ASSERT_EQ(post.kind, Step::r2c_post);
  ASSERT_EQ(post.table.split_bits, 10) << "the root of X[k1 + n1 k] from two runs of 1024 or less";
  std::string hi = "tab[" + std::to_string(post.table.hi_offset) + "u + ";
  EXPECT_NE(src.find(hi + "(((dS0 + 512u * (tS + 0u))) >> 10u)]"), std::string::npos)
      << "a row's threads, consecutive k, read the high run in order";
  EXPECT_NE(src.find(hi + "((524288u) >> 10u)]"), std::string::npos) << "X[h]: the root -1";
  EXPECT_LT(p.table_size, 20000) << "no table of 2^19 roots";
  EXPECT_NE(src.find("< 524289u"), std::string::npos) << "X[h] stored by row 0 alone";
  // C2R: the columns read X[k] and X[h - k], column j2 beside n2 - j2.
  Plan c = plan(problem({1 << 20}, FFTMUX_C2R, FFTMUX_F32, 3), FFTMUX_INVERSE, cuda);
  ASSERT_EQ(c.passes.size(), 2u) << c.summary;
  const Kernel& columns = c.passes[0].kernel;
  EXPECT_EQ(columns.load.access, Access::c2r);
  EXPECT_EQ(columns.mirror_lines, columns.digits.at(0));
  EXPECT_EQ(columns.teams, 16u) << "twice the 8 lines of a strided pass: each run is half";
  std::string cs = emit(columns, Dialect::cuda);
  EXPECT_NE(cs.find("c2r_pre("), std::string::npos);
  EXPECT_EQ(cs.find("mateS"), std::string::npos) << "no partner through shared memory";
  EXPECT_EQ(c.passes[1].kernel.mirror_lines, 0);
}

TEST(Plan, AxesOneAfterAnother) {
  Plan p = plan(problem({64, 32, 16}), FFTMUX_FORWARD, h200());
  EXPECT_EQ(p.passes.size(), 3u);
  EXPECT_EQ(p.passes[0].src, Binding::input);
  EXPECT_EQ(p.passes[1].src, Binding::output);
  EXPECT_EQ(p.passes[2].dst, Binding::output);
  // The strided axes are read with lines adjacent: coalesced.
  EXPECT_FALSE(p.passes[1].kernel.team_major);
  EXPECT_FALSE(p.passes[2].kernel.team_major);
}

TEST(Plan, OutOfPlaceC2RLeavesItsInput) {
  Plan p = plan(problem({16, 30}, FFTMUX_C2R), FFTMUX_INVERSE, h200());
  for (const Pass& pass : p.passes)
    EXPECT_NE(pass.dst, Binding::input);
}

TEST(Plan, NormalizationFoldedIntoTheLastPass) {
  fftmux_desc d = problem({64, 64});
  d.norm = FFTMUX_NORM_ORTHO;
  Plan p = plan(d, FFTMUX_FORWARD, h200());
  EXPECT_EQ(p.passes.front().kernel.scale, 1.0);
  EXPECT_DOUBLE_EQ(p.passes.back().kernel.scale, 1.0 / 64);
}

TEST(Plan, ShiftsAreIndexRemapsNotPasses) {
  Plan plain = plan(problem({1000}), FFTMUX_FORWARD, h200());
  Plan shifted =
      plan(problem({1000}, FFTMUX_C2C, FFTMUX_F32, 1, FFTMUX_SHIFT_INPUT | FFTMUX_SHIFT_OUTPUT),
           FFTMUX_FORWARD, h200());
  EXPECT_EQ(plain.passes.size(), shifted.passes.size());
  EXPECT_EQ(shifted.passes[0].kernel.load.axes[0].shift, 500);
  EXPECT_EQ(shifted.passes[0].kernel.store.axes[0].shift, 500);
}

TEST(Plan, DeclinesWhatTheDeviceCannot) {
  Device no64 = lavapipe();
  no64.f64 = false;
  EXPECT_THROW(plan(problem({64}, FFTMUX_C2C, FFTMUX_F64), FFTMUX_FORWARD, no64), Unsupported);
  EXPECT_THROW(plan(problem({64}, FFTMUX_R2C), FFTMUX_INVERSE, h200()), Unsupported);
}

// Kernels are found while a plan holds them and while among the `keep` most
// recent; the keys of the others go at the next add.
// A problem beyond one binding is cut into chunks of its batch that cover
// it in order, each within the limit and starting at an aligned offset on
// both sides; where not even one aligned step fits, the reason is kept.
TEST(Chunks, CoverTheBatchWithinTheLimitAtAlignedOffsets) {
  const uint64_t limit = 65536, align = 256;
  for (const fftmux_desc& d :
       {problem({64}, FFTMUX_C2C, FFTMUX_F32, 200), problem({30}, FFTMUX_R2C, FFTMUX_F32, 700),
        problem({97}, FFTMUX_C2C, FFTMUX_F32, 120)}) {
    std::vector<Chunk> chunks =
        generate_chunks(d, h200(), Options{}, limit, Dialect::vulkan, align);
    ASSERT_GT(chunks.size(), 1u) << d.n[0];
    int64_t next = 0;
    for (const Chunk& c : chunks) {
      EXPECT_EQ(c.first, next) << d.n[0];
      EXPECT_EQ(batch_offset(d, true, c.first) % align, 0u) << d.n[0] << " at " << c.first;
      EXPECT_EQ(batch_offset(d, false, c.first) % align, 0u) << d.n[0] << " at " << c.first;
      EXPECT_LE(c.generated->planned.in_bytes, limit);
      EXPECT_LE(c.generated->planned.out_bytes, limit);
      next += c.count;
    }
    EXPECT_EQ(next, d.batch) << d.n[0];
  }
  fftmux_desc whole = problem({64}, FFTMUX_C2C, FFTMUX_F32, 10);
  EXPECT_EQ(generate_chunks(whole, h200(), Options{}, limit, Dialect::vulkan, align).size(), 1u);
  fftmux_desc big = problem({16384}, FFTMUX_C2C, FFTMUX_F32, 4); // 128 KiB a transform
  try {
    generate_chunks(big, h200(), Options{}, limit, Dialect::vulkan, align);
    ADD_FAILURE() << "a transform larger than the limit was chunked";
  } catch (const Unsupported& e) {
    EXPECT_NE(std::string(e.what()).find("one binding of the device addresses"), std::string::npos)
        << e.what();
  }
}

// A GPU's fence is polled (its driver's sleeping wait woke late), for a
// bounded time, then waited on; a CPU device's is waited on at once.
TEST(FenceWait, PollsOnGpusForABoundedTimeAndBlocksOnCpus) {
  int polls = 0, blocks = 0;
  wait_fence(
      true, [&] { return ++polls, true; }, [&] { ++blocks; });
  EXPECT_EQ(polls, 0);
  EXPECT_EQ(blocks, 1);
  polls = blocks = 0;
  wait_fence(
      false, [&] { return ++polls == 3; }, [&] { ++blocks; });
  EXPECT_EQ(polls, 3);
  EXPECT_EQ(blocks, 0);
  polls = blocks = 0;
  auto start = std::chrono::steady_clock::now();
  wait_fence(
      false, [&] { return ++polls, false; }, [&] { ++blocks; });
  EXPECT_GE(std::chrono::steady_clock::now() - start, std::chrono::milliseconds(5));
  EXPECT_GT(polls, 1);
  EXPECT_EQ(blocks, 1);
}

TEST(KernelCache, KeepsTheHeldAndTheRecent) {
  KernelCache<int> cache(2);
  auto held = std::make_shared<int>(1);
  cache.add("held", held);
  for (int i = 0; i < 4; ++i)
    cache.add("k" + std::to_string(i), std::make_shared<int>(i));
  EXPECT_EQ(cache.find("held"), held);
  EXPECT_EQ(cache.find("k0"), nullptr);
  EXPECT_EQ(cache.find("k1"), nullptr);
  EXPECT_NE(cache.find("k2"), nullptr);
  EXPECT_NE(cache.find("k3"), nullptr);
  for (int i = 4; i < 100; ++i)
    cache.add("k" + std::to_string(i), std::make_shared<int>(i));
  EXPECT_EQ(cache.keys(), 4u) << "held, two kept and the one dropped at the last add";
}

// exp(sign 2 pi i num / den) from the whole angle (num < den) in long
// double: the reference for values the tables reduce to the first octant.
std::complex<double> root(int sign, long double num, long double den) {
  const long double pi = 3.141592653589793238462643383279502884L;
  long double a = 2 * pi * num / den;
  return {double(cosl(a)), double(sign * sinl(a))};
}

// Every run of the tables of a split-twiddle, a Bluestein and a real plan
// against its formula; the runs tile the table.
TEST(Tables, EveryRunHoldsItsFormula) {
  int64_t grids = 0;
  int64_t rows = 0;
  for (const fftmux_desc& d : {problem({1 << 22}), problem({10007}), problem({1000}, FFTMUX_R2C),
                               problem({1 << 20}, FFTMUX_R2C)}) {
    Plan p = plan(d, FFTMUX_FORWARD, h200_cuda());
    std::vector<std::complex<double>> t = table_values(p);
    ASSERT_EQ(int64_t(t.size()), p.table_size);
    int64_t covered = 0;
    for (const TableRun& r : p.table) {
      covered += r.count;
      for (int64_t m = 0; m < r.count; ++m) {
        std::complex<double> want;
        switch (r.kind) {
        case TableRun::roots: want = root(-1, (long double)(m * r.b), r.n); break;
        case TableRun::stage_twiddles:
          want = root(-1, (long double)((m / r.n + 1) * (m % r.n)), r.n * r.b);
          break;
        case TableRun::chirp: want = root(r.sign, (long double)(m * m % (2 * r.n)), 2 * r.n); break;
        case TableRun::grid: want = root(-1, (long double)(m / r.b * (m % r.b)), r.n); break;
        case TableRun::r2r_pre:
        case TableRun::r2r_post:
        case TableRun::r2r_half:
        case TableRun::dst2_post:
        case TableRun::dst3_half:
        case TableRun::r2r_fold_pre:
        case TableRun::r2r_fold_post: continue; // Tables.RealToRealWeightsMakeEachDefinition
        case TableRun::product: continue;       // Emulation.ProductInTheLastStore
        case TableRun::bluestein: {
          if (m % 997) // a naive DFT of the wrapped chirp at every 997th entry
            continue;
          long double re = 0, im = 0;
          for (int64_t k = 0; k < r.b; ++k) {
            int64_t j = k < r.n ? k : r.b - k < r.n ? r.b - k : -1;
            if (j < 0)
              continue;
            std::complex<double> c = root(-r.sign, (long double)(j * j % (2 * r.n)), 2 * r.n);
            std::complex<double> w = root(-1, (long double)(k * m % r.b), r.b);
            re += (long double)c.real() * w.real() - (long double)c.imag() * w.imag();
            im += (long double)c.real() * w.imag() + (long double)c.imag() * w.real();
          }
          want = std::complex<double>(double(re), double(im)) * (r.scale / double(r.b));
          ASSERT_LT(std::abs(t[size_t(r.at + m)] - want), 1e-15)
              << "bluestein " << r.n << " at " << m;
          continue;
        }
        }
        ASSERT_LT(std::abs(t[size_t(r.at + m)] - want), 3e-16)
            << "kind " << r.kind << " n " << r.n << " b " << r.b << " at " << m;
      }
    }
    EXPECT_EQ(covered, p.table_size) << "runs overlap or leave gaps";
    grids += std::count_if(p.table.begin(), p.table.end(),
                           [](const TableRun& r) { return r.kind == TableRun::grid; });
    rows += std::count_if(p.table.begin(), p.table.end(), [](const TableRun& r) {
      return r.kind == TableRun::roots && r.n == 1 << 20 && r.b > 1;
    });
  }
  EXPECT_GT(grids, 0) << "no four-step rows checked";
  EXPECT_GT(rows, 0) << "no high run of a split table (R2C 2^20's post step) checked";
}

TEST(Tables, TwiddlesAreAccurateInDouble) {
  Plan p = plan(problem({4096}, FFTMUX_C2C, FFTMUX_F64), FFTMUX_FORWARD, h200());
  std::vector<std::complex<double>> t = table_values(p);
  const double pi = 3.14159265358979323846;
  int checked = 0;
  for (const Step& s : p.passes.at(0).kernel.steps) {
    if (s.kind != Step::stage || s.twiddles < 0)
      continue;
    // Input i of butterfly k reads w^(i k) at (i - 1) span + k.
    for (int i = 1; i < s.radix; ++i)
      for (int64_t k = 0; k < s.span; ++k, ++checked) {
        std::complex<double> want =
            std::polar(1.0, -2 * pi * double(i * k) / double(s.span * s.radix));
        ASSERT_LT(std::abs(t.at(size_t(s.twiddles + (i - 1) * s.span + k)) - want), 1e-15)
            << "span " << s.span << " i " << i << " k " << k;
      }
  }
  EXPECT_EQ(checked, 15 * 16 + 15 * 256) << "4096 = 16 x 16 x 16: two twiddled stages";
}

// The real steps' roots of long lines are two short runs (Tables::half):
// R2C 2^24's plan had read a table of 2^23 roots, as many bytes as its
// data. C2R's pre step up to 2^20 points keeps one run, read from L2.
TEST(Tables, LongRealLinesReadShortTables) {
  Device cuda = dialect_limits(h200_cuda(), Dialect::cuda);
  auto c2r_table = [](const Plan& p) {
    for (const Pass& pass : p.passes)
      if (pass.kernel.load.access == Access::c2r)
        return pass.kernel.load.table;
    return Table{};
  };
  for (const Device& dev : {h200(), cuda})
    for (int64_t n : {int64_t(1) << 22, int64_t(1) << 24}) {
      Plan r = plan(problem({n}, FFTMUX_R2C, FFTMUX_F32, 2), FFTMUX_FORWARD, dev);
      Plan c = plan(problem({n}, FFTMUX_C2R, FFTMUX_F32, 2), FFTMUX_INVERSE, dev);
      for (const Plan* p : {&r, &c})
        for (const TableRun& run : p->table)
          EXPECT_TRUE(run.kind != TableRun::roots || run.count <= 4097)
              << p->summary << ": " << run.count << " roots of order " << run.n;
      EXPECT_GT(c2r_table(c).split_bits, 0) << n;
    }
  Table whole =
      c2r_table(plan(problem({1 << 20}, FFTMUX_C2R, FFTMUX_F32, 3), FFTMUX_INVERSE, cuda));
  EXPECT_GE(whole.offset, 0) << "C2R 2^20 has a pre step";
  EXPECT_EQ(whole.split_bits, 0);
  EXPECT_TRUE(whole.conj) << "the inverse's roots";
}

// ---- emitted source compiles ----

struct Source {
  std::string name;
  fftmux_desc desc;
};

std::vector<Source> sources() {
  std::vector<Source> s;
  auto add = [&](std::string name, fftmux_desc d) { s.push_back({std::move(name), d}); };
  add("c2c_1024", problem({1024}, FFTMUX_C2C, FFTMUX_F32, 8));
  add("c2c_f64_1000", problem({1000}, FFTMUX_C2C, FFTMUX_F64, 3));
  add("c2c_radix13_11", problem({11 * 13}, FFTMUX_C2C, FFTMUX_F32, 5));
  add("c2c_7_5_3", problem({7 * 5 * 3 * 16}));
  add("bluestein_97", problem({97}, FFTMUX_C2C, FFTMUX_F32, 4));
  add("bluestein_10007", problem({10007}));
  add("fourstep_2_20", problem({1 << 20}));
  add("r2c_1024", problem({1024}, FFTMUX_R2C, FFTMUX_F32, 2));
  add("r2c_odd_15", problem({15}, FFTMUX_R2C));
  add("r2c_bluestein_34", problem({34}, FFTMUX_R2C));
  add("c2r_1000", problem({1000}, FFTMUX_C2R, FFTMUX_F64));
  add("c2r_odd_21", problem({21}, FFTMUX_C2R));
  add("r2c_long", problem({1 << 16}, FFTMUX_R2C));
  add("c2r_long", problem({1 << 16}, FFTMUX_C2R));
  add("c2c_3d_shift",
      problem({8, 6, 10}, FFTMUX_C2C, FFTMUX_F32, 2, FFTMUX_SHIFT_INPUT | FFTMUX_SHIFT_OUTPUT));
  add("split_exchange_8192", problem({8192}));
  return s;
}

class Compiles : public ::testing::TestWithParam<Source> {};

void compile(const std::string& src, shaderc_target_env env, const std::string& what) {
  shaderc::Compiler compiler;
  shaderc::CompileOptions o;
  o.SetTargetEnvironment(env, env == shaderc_target_env_vulkan ? shaderc_env_version_vulkan_1_1
                                                               : shaderc_env_version_opengl_4_5);
  auto r = compiler.CompileGlslToSpv(src, shaderc_compute_shader, what.c_str(), o);
  EXPECT_EQ(r.GetCompilationStatus(), shaderc_compilation_status_success)
      << what << ": " << r.GetErrorMessage();
}

TEST_P(Compiles, VulkanAndOpenGL) {
  const Source& s = GetParam();
  Plan p = plan(s.desc, direction(s.desc), lavapipe());
  for (const Pass& pass : p.passes) {
    compile(emit(pass.kernel, Dialect::vulkan), shaderc_target_env_vulkan, s.name);
    std::string pointers = emit(pass.kernel, Dialect::vulkan_pointers);
    EXPECT_NE(pointers.find("buffer_reference"), std::string::npos);
    EXPECT_EQ(pointers.find("binding ="), std::string::npos)
        << "descriptors in the pointer dialect";
    compile(pointers, shaderc_target_env_vulkan, s.name + " (pointers)");
    std::string gl = emit(pass.kernel, Dialect::opengl);
    EXPECT_NE(gl.find("#version 430"), std::string::npos);
    compile(gl, shaderc_target_env_opengl, s.name);
  }
}

TEST_P(Compiles, CudaDialectIsEmitted) {
  const Source& s = GetParam();
  Plan p = plan(s.desc, direction(s.desc), h200());
  for (const Pass& pass : p.passes) {
    std::string cu = emit(pass.kernel, Dialect::cuda);
    EXPECT_NE(cu.find("extern \"C\" __global__"), std::string::npos);
    EXPECT_NE(cu.find(entry_point(pass.kernel, Dialect::cuda)), std::string::npos);
    EXPECT_EQ(cu.find("gl_"), std::string::npos) << "GLSL leaked into CUDA";
  }
}

INSTANTIATE_TEST_SUITE_P(Kernels, Compiles, ::testing::ValuesIn(sources()),
                         [](const auto& info) { return info.param.name; });

} // namespace
} // namespace fftmux::codegen
