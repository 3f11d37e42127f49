// The binary index beside the tuning cache (core/tuning.cpp): a file on
// disk that anything may have damaged. Any bytes decode to entries or to
// nothing, quickly and without allocating more than the bytes can hold;
// what decodes is encoded back to the same entries.
#include "fuzz.hpp"
#include "measurements.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  // The identity the header claims (after the 8-byte magic), so that the
  // fuzzer spends its time in the entries rather than matching a file.
  fuzz::Reader in(data, size);
  in.take<uint64_t>();
  auto id = in.take<fftmux::FileIdentity>();
  std::string bytes = fuzz::text(data, size);
  auto all = fftmux::decode_index(bytes, id);
  if (!all)
    return 0;
  for (const fftmux::Measurement& m : *all)
    fuzz::expect(m.points >= 1 && m.batch >= 1, "decoded entries are as valid as read ones");
  auto again = fftmux::decode_index(fftmux::encode_index(*all, id), id);
  fuzz::expect(again && fuzz::same(*all, *again), "decoded entries encode to themselves");
  return 0;
}
