// Files that the library writes, from several threads of one process: each
// write replaces the file whole, none fails for another's temporary file,
// none leaves one behind.
#include <error.hpp>
#include <paths.hpp>

#include <gtest/gtest.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <thread>

namespace {

namespace fs = std::filesystem;

std::string slurp(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

TEST(Files, ThreadsReplacingOneFileEachWriteItWhole) {
  std::string dir = ::testing::TempDir() + "files_threads";
  fs::remove_all(dir);
  std::string path = dir + "/shared.bin";
  std::set<std::string> written;
  for (int t = 0; t < 8; ++t)
    written.insert(std::string(size_t(4096 + t), char('a' + t)));
  std::vector<std::thread> threads;
  std::atomic<int> failed{0};
  for (const std::string& contents : written)
    threads.emplace_back([&, contents] {
      for (int i = 0; i < 100; ++i)
        try {
          fftmux::write_file_atomic(path, contents);
        } catch (const fftmux::Error& e) {
          ++failed;
          ADD_FAILURE() << e.what();
        }
    });
  for (auto& t : threads)
    t.join();
  EXPECT_EQ(failed.load(), 0);
  EXPECT_EQ(written.count(slurp(path)), 1u) << "the file is one whole write";
  for (const auto& f : fs::directory_iterator(dir))
    EXPECT_EQ(f.path(), path) << "left behind";
}

} // namespace
