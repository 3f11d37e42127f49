// The compiled-kernel cache every GPU plugin keeps a device (and generate()
// its generations).
#pragma once

#include <iterator>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace fftmux::codegen {

// A device's compiled kernels (pipelines, programs; Vulkan's uploaded tables
// too) by key: found while any plan holds them, and the most recent `keep` of
// them held after their plans are gone, so a plan made again in the process
// compiles and loads nothing. Keys of kernels gone are dropped at the next
// add. Not synchronized: its owner serializes the calls.
template <class T> class KernelCache {
public:
  explicit KernelCache(size_t keep) : keep_(keep) {}
  std::shared_ptr<T> find(const std::string& key) const {
    auto it = live_.find(key);
    return it == live_.end() ? nullptr : it->second.lock();
  }
  void add(const std::string& key, std::shared_ptr<T> kernel) {
    for (auto it = live_.begin(); it != live_.end();) // keys of kernels gone
      it = it->second.expired() ? live_.erase(it) : std::next(it);
    live_[key] = kernel;
    kept_.push_back(std::move(kernel));
    if (kept_.size() > keep_) // plans still hold theirs
      kept_.erase(kept_.begin());
  }
  size_t keys() const { return live_.size(); }
  void clear() { // the kernels die here, where the caller's API context is current
    kept_.clear();
    live_.clear();
  }

private:
  size_t keep_;
  std::map<std::string, std::weak_ptr<T>> live_;
  std::vector<std::shared_ptr<T>> kept_; // oldest first
};

} // namespace fftmux::codegen
