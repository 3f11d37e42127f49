// plugins/fftw/quirks.hpp against the installed FFTW: random layouts given
// to FFTW alone, each planned and run in a child process (a crash kills
// only the child). Every crash must be one the rule flags, and every
// flagged layout must run when planned FFTW_UNALIGNED, as the backend plans
// it. When FFTW stops crashing, the output says so: the rule may go.
#include "quirks.hpp"

#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

namespace {

struct Layout {
  int rank;
  fftw_iodim64 dims[3];
  fftw_iodim64 batch;
};

// The axes and the batch stacked in a random order on each side, innermost
// first, with steps and padding now and then (as tests/sweep draws them).
Layout draw(std::mt19937_64& rng) {
  const int64_t sizes[] = {2, 3, 4, 5, 6, 8, 12, 16, 20, 32, 64, 100};
  auto pick = [&](int64_t n) { return int64_t(rng() % uint64_t(n)); };
  Layout l{};
  l.rank = 1 + int(pick(3));
  for (int i = 0; i < l.rank; ++i)
    l.dims[i].n = sizes[pick(12)];
  l.batch.n = 1 + pick(16);
  for (int side = 0; side < 2; ++side) {
    std::vector<fftw_iodim64*> order{&l.batch};
    for (int i = 0; i < l.rank; ++i)
      order.push_back(&l.dims[i]);
    std::shuffle(order.begin(), order.end(), rng);
    int64_t stride = 1 + (pick(4) == 0);
    for (fftw_iodim64* d : order) {
      (side ? d->os : d->is) = stride;
      stride *= d->n + (pick(3) == 0 ? pick(4) : 0);
    }
  }
  return l;
}

int64_t span(const Layout& l, bool out) {
  int64_t last = (l.batch.n - 1) * (out ? l.batch.os : l.batch.is);
  for (int i = 0; i < l.rank; ++i)
    last += (l.dims[i].n - 1) * (out ? l.dims[i].os : l.dims[i].is);
  return last + 1;
}

// Plans and runs the layout in a child: whether the child died.
bool crashes(const Layout& l, unsigned flags) {
  pid_t pid = fork();
  if (pid == 0) {
    auto* in = static_cast<fftwf_complex*>(fftwf_malloc(sizeof(fftwf_complex) * span(l, false)));
    auto* out = static_cast<fftwf_complex*>(fftwf_malloc(sizeof(fftwf_complex) * span(l, true)));
    fftwf_plan p = fftwf_plan_guru64_dft(l.rank, l.dims, 1, &l.batch, in, out, FFTW_FORWARD,
                                         FFTW_ESTIMATE | flags);
    std::memset(in, 0, sizeof(fftwf_complex) * span(l, false));
    if (p)
      fftwf_execute(p);
    _exit(0);
  }
  int status = 0;
  waitpid(pid, &status, 0);
  return !(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

TEST(FftwQuirks, EveryCrashIsFlaggedAndFlaggedLayoutsRunUnaligned) {
  std::mt19937_64 rng(20261205);
  int crashed = 0, flagged = 0;
  for (int t = 0; t < 3000; ++t) {
    Layout l = draw(rng);
    bool flag = fftmux::fftw::f32_c2c_crashes(l.rank, l.dims, l.batch);
    flagged += flag;
    if (flag) {
      EXPECT_FALSE(crashes(l, FFTW_UNALIGNED)) << "layout " << t << " crashes planned unaligned";
      crashed += crashes(l, 0);
    } else {
      EXPECT_FALSE(crashes(l, 0)) << "layout " << t << " crashes FFTW and is not flagged";
    }
  }
  std::printf("%d of 3000 random layouts flagged; %d of those crash FFTW planned as is%s\n",
              flagged, crashed,
              crashed ? "" : " (none: this FFTW may not need plugins/fftw/quirks.hpp)");
}

} // namespace
