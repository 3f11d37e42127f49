#include "context.hpp"

std::shared_ptr<const fftmux::TuningCache> fftmux_context_s::tuning() {
  std::lock_guard<std::mutex> lock(tuning_mutex_);
  if (!tuning_) {
    auto cache = std::make_shared<fftmux::TuningCache>();
    std::vector<std::string> found;
    cache->load({system_tuning_path, tuning_path}, found);
    std::lock_guard<std::mutex> notes_lock(notes_mutex);
    notes.insert(notes.end(), found.begin(), found.end());
    tuning_ = cache;
  }
  return tuning_;
}

void fftmux_context_s::reload_tuning() {
  std::lock_guard<std::mutex> lock(tuning_mutex_);
  tuning_.reset();
}
