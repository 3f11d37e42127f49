// The FFTW backend's default thread count: the config, then
// FFTMUX_NUM_THREADS, then OMP_NUM_THREADS, then the CPU affinity; invalid
// values are noted and skipped.
#include "threads.hpp"

#include <gtest/gtest.h>

#include <sched.h>

namespace {

using fftmux::fftw::affinity_cpus;
using fftmux::fftw::resolve_threads;
using fftmux::fftw::Threads;

TEST(Threads, TheFirstSetSourceWins) {
  Threads t = resolve_threads("5", "3", "2", 8);
  EXPECT_EQ(t.count, 5);
  EXPECT_EQ(t.source, "[backends.fftw] threads");
  t = resolve_threads(nullptr, "3", "2", 8);
  EXPECT_EQ(t.count, 3);
  EXPECT_EQ(t.source, "FFTMUX_NUM_THREADS");
  t = resolve_threads("", "", "2", 8);
  EXPECT_EQ(t.count, 2);
  EXPECT_EQ(t.source, "OMP_NUM_THREADS");
  t = resolve_threads(nullptr, nullptr, nullptr, 8);
  EXPECT_EQ(t.count, 8);
  EXPECT_EQ(t.source, "the CPU affinity");
  EXPECT_EQ(t.notes, "");
}

TEST(Threads, OpenMPListsGiveTheOuterLevel) {
  Threads t = resolve_threads(nullptr, nullptr, "4,2", 8);
  EXPECT_EQ(t.count, 4);
  EXPECT_EQ(t.source, "OMP_NUM_THREADS");
}

TEST(Threads, InvalidValuesAreNotedAndSkipped) {
  for (const char* bad : {"0", "-2", "many", "3x", "1025", "99999999999999999999999", " "}) {
    Threads t = resolve_threads(nullptr, bad, nullptr, 6);
    EXPECT_EQ(t.count, 6) << bad;
    EXPECT_EQ(t.source, "the CPU affinity") << bad;
    EXPECT_EQ(t.notes, std::string("FFTMUX_NUM_THREADS = \"") + bad +
                           "\" ignored: not a whole number from 1 to 1024")
        << bad;
  }
  Threads t = resolve_threads(nullptr, "abc", "0", 2);
  EXPECT_EQ(t.count, 2);
  EXPECT_NE(t.notes.find("FFTMUX_NUM_THREADS = \"abc\" ignored"), std::string::npos) << t.notes;
  EXPECT_NE(t.notes.find("OMP_NUM_THREADS = \"0\" ignored"), std::string::npos) << t.notes;
  t = resolve_threads(nullptr, "abc", "7", 2);
  EXPECT_EQ(t.count, 7);
  EXPECT_EQ(t.source, "OMP_NUM_THREADS");
}

TEST(Threads, TheLimitItselfIsValid) {
  EXPECT_EQ(resolve_threads(nullptr, "1024", nullptr, 1).count, 1024);
  EXPECT_EQ(resolve_threads(nullptr, nullptr, nullptr, 0).count, 1) << "at least one thread";
}

TEST(Threads, AffinityCountsTheProcesssCpus) {
  cpu_set_t set;
  ASSERT_EQ(sched_getaffinity(0, sizeof set, &set), 0);
  EXPECT_EQ(affinity_cpus(), CPU_COUNT(&set));
  cpu_set_t one;
  CPU_ZERO(&one);
  for (int c = 0; c < CPU_SETSIZE; ++c)
    if (CPU_ISSET(c, &set)) {
      CPU_SET(c, &one);
      break;
    }
  ASSERT_EQ(sched_setaffinity(0, sizeof one, &one), 0);
  int pinned = affinity_cpus();
  ASSERT_EQ(sched_setaffinity(0, sizeof set, &set), 0);
  EXPECT_EQ(pinned, 1) << "a process pinned to one CPU plans for one";
}

} // namespace

namespace {

using fftmux::fftw::cut_batch;
using fftmux::fftw::Pieces;

TEST(Pieces, OnePieceAThreadCoversTheBatch) {
  Pieces p = cut_batch(46, 16, 91125 * 4, 45 * 45 * 23 * 8);
  EXPECT_EQ((p.count - 1) * p.size + p.last(46), 46);
  EXPECT_LE(p.count, 16);
  EXPECT_GE(p.last(46), 1);
  EXPECT_LE(p.last(46), p.size);
  // 91125 F32 reals a transform: a piece starts 16-byte aligned every 4.
  EXPECT_EQ(p.size % 4, 0);
  EXPECT_EQ(p.size, 4);
  EXPECT_EQ(p.count, 12);
  EXPECT_EQ(p.threads, 1);
}

TEST(Pieces, FewerPiecesThanThreadsShareThem) {
  Pieces p = cut_batch(4, 16, 8 << 20, 8 << 20); // 2^20 F32 points x4
  EXPECT_EQ(p.count, 4);
  EXPECT_EQ(p.size, 1);
  EXPECT_EQ(p.threads, 4);
  EXPECT_EQ(cut_batch(3, 8, 16, 16).threads, 2); // 8 / 3, the rest idle
}

TEST(Pieces, AlignedStepsSplitEvenly) {
  Pieces p = cut_batch(1024, 2, 4096 * 8, 4096 * 8);
  EXPECT_EQ(p.size, 512);
  EXPECT_EQ(p.count, 2);
  EXPECT_EQ(p.last(1024), 512);
  p = cut_batch(7, 3, 16, 16);
  EXPECT_EQ(p.size, 3);
  EXPECT_EQ(p.count, 3);
  EXPECT_EQ(p.last(7), 1);
}

TEST(Pieces, NothingToSplitRunsWhole) {
  EXPECT_EQ(cut_batch(1, 8, 16, 16).count, 1);
  EXPECT_EQ(cut_batch(100, 1, 16, 16).count, 1);
  // Odd F32 steps need pieces of 4 transforms: 3 of them are one piece.
  EXPECT_EQ(cut_batch(3, 2, 4, 4).count, 1);
}

} // namespace
