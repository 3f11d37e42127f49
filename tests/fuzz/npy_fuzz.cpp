// The .npy reader of `fftmux run` (tools/npy): any bytes are an array whose
// data matches its shape and survives a write and a read unchanged, or a
// std::runtime_error naming the file.
#include "fuzz.hpp"

#include <npy/npy.hpp>

#include <stdexcept>

namespace npy = fftmux::npy;

namespace {

uint64_t elements(const npy::Array& a) {
  uint64_t n = 1;
  for (int64_t e : a.shape)
    n *= uint64_t(e);
  return n;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  npy::Array a;
  try {
    a = npy::parse(fuzz::text(data, size), "fuzz.npy");
  } catch (const std::runtime_error& e) {
    fuzz::expect(std::string(e.what()).rfind("fuzz.npy: ", 0) == 0, "the message names the file");
    return 0;
  }
  fuzz::expect(a.data.size() == elements(a) * npy::item_size(a.dtype),
               "the data holds exactly the elements of the shape");
  npy::Array b = npy::parse(npy::serialize(a), "rewritten.npy");
  fuzz::expect(b.dtype == a.dtype && b.shape == a.shape && b.data == a.data,
               "an array read, written and read again is unchanged");
  return 0;
}
