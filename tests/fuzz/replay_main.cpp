// Without libFuzzer (any compiler, any build): runs a harness once on every
// file named, or in the folders named, so that the seeds and every finding
// kept as a regression input are checked by every test run.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);
extern "C" __attribute__((weak)) int LLVMFuzzerInitialize(int* argc, char*** argv);

namespace fs = std::filesystem;

namespace {

std::vector<fs::path> inputs(int argc, char** argv) {
  std::vector<fs::path> all;
  for (int i = 1; i < argc; ++i) {
    if (!fs::is_directory(argv[i])) {
      all.emplace_back(argv[i]);
      continue;
    }
    std::vector<fs::path> files;
    for (const auto& f : fs::directory_iterator(argv[i]))
      if (f.is_regular_file())
        files.push_back(f.path());
    std::sort(files.begin(), files.end());
    all.insert(all.end(), files.begin(), files.end());
  }
  return all;
}

} // namespace

int main(int argc, char** argv) {
  if (LLVMFuzzerInitialize)
    LLVMFuzzerInitialize(&argc, &argv);
  std::vector<fs::path> all = inputs(argc, argv);
  for (const fs::path& p : all) {
    std::ifstream f(p, std::ios::binary);
    if (!f) {
      std::fprintf(stderr, "cannot read %s\n", p.c_str());
      return 1;
    }
    std::stringstream s;
    s << f.rdbuf();
    std::string bytes = s.str();
    std::fprintf(stderr, "replay %s\n", p.c_str());
    LLVMFuzzerTestOneInput(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
  }
  std::printf("%zu inputs replayed without a failure\n", all.size());
  return all.empty() ? 1 : 0;
}
