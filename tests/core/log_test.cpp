// The log callback: messages arrive with their level and the user pointer,
// the threshold filters them, NULL returns them to stderr, and installing
// while other threads log is safe.
#include <fftmux/fftmux.h>

#include <gtest/gtest.h>

#include <atomic>
#include <mutex>
#include <string>
#include <thread>
#include <utility>
#include <vector>

namespace {

bool contains(const std::string& s, const std::string& part) {
  return s.find(part) != std::string::npos;
}

const std::string missing_device =
    "options->devices[0] is for backend 'not-installed', which is not installed: ignored";

// A context that logs a warning (a device for a backend that is not
// installed) and a debug message (a plugin search entry that does not exist).
void create_noisy_context() {
  fftmux_native_device device = {"not-installed", {}};
  fftmux_context_options options;
  fftmux_context_options_init(&options);
  options.plugin_path = "/nonexistent/fftmux-plugins";
  options.devices = &device;
  options.device_count = 1;
  fftmux_context ctx = nullptr;
  ASSERT_EQ(fftmux_context_create(&options, &ctx), FFTMUX_OK) << fftmux_last_error();
  fftmux_context_destroy(ctx);
}

struct Received {
  std::mutex mutex;
  std::vector<std::pair<uint32_t, std::string>> messages;
  void* user = nullptr;

  static void callback(void* user, uint32_t level, const char* message) {
    auto* self = static_cast<Received*>(user);
    std::lock_guard<std::mutex> lock(self->mutex);
    self->user = user;
    self->messages.emplace_back(level, message);
  }
  bool has(uint32_t level, const std::string& part) {
    for (auto& [l, m] : messages)
      if (l == level && contains(m, part))
        return true;
    return false;
  }
};

struct Log : ::testing::Test {
  Received received;
  void TearDown() override {
    EXPECT_EQ(fftmux_set_log_callback(nullptr, nullptr, FFTMUX_LOG_ENV), FFTMUX_OK);
  }
};

TEST_F(Log, CallbackReceivesLevelMessageAndUserPointer) {
  ASSERT_EQ(fftmux_set_log_callback(Received::callback, &received, FFTMUX_LOG_DEBUG), FFTMUX_OK);
  testing::internal::CaptureStderr();
  create_noisy_context();
  EXPECT_EQ(testing::internal::GetCapturedStderr(), "") << "the callback replaces stderr";
  EXPECT_EQ(received.user, &received);
  EXPECT_TRUE(received.has(FFTMUX_LOG_WARN, missing_device));
  EXPECT_TRUE(received.has(FFTMUX_LOG_DEBUG, "plugin search entry /nonexistent/fftmux-plugins "
                                             "does not exist"));
}

TEST_F(Log, ThresholdLetsTheMoreSevereThrough) {
  ASSERT_EQ(fftmux_set_log_callback(Received::callback, &received, FFTMUX_LOG_WARN), FFTMUX_OK);
  create_noisy_context();
  ASSERT_EQ(received.messages.size(), 1u);
  EXPECT_TRUE(received.has(FFTMUX_LOG_WARN, missing_device));
  ASSERT_EQ(fftmux_set_log_callback(Received::callback, &received, FFTMUX_LOG_OFF), FFTMUX_OK);
  create_noisy_context();
  EXPECT_EQ(received.messages.size(), 1u);
}

TEST_F(Log, NullRestoresStderr) {
  ASSERT_EQ(fftmux_set_log_callback(Received::callback, &received, FFTMUX_LOG_DEBUG), FFTMUX_OK);
  ASSERT_EQ(fftmux_set_log_callback(nullptr, nullptr, FFTMUX_LOG_WARN), FFTMUX_OK);
  testing::internal::CaptureStderr();
  create_noisy_context();
  EXPECT_EQ(testing::internal::GetCapturedStderr(), "fftmux warning: " + missing_device + "\n");
  EXPECT_TRUE(received.messages.empty());
}

TEST_F(Log, ThresholdIsChecked) {
  EXPECT_EQ(fftmux_set_log_callback(Received::callback, &received, 4),
            FFTMUX_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(std::string(fftmux_last_error()),
            "fftmux_set_log_callback: threshold = 4: must be FFTMUX_LOG_ERROR (0) to "
            "FFTMUX_LOG_DEBUG (3), FFTMUX_LOG_OFF (256) or FFTMUX_LOG_ENV (257)");
}

// Inside the callback, fftmux calls log to stderr, never to the callback
// again, and the callback cannot be replaced.
TEST_F(Log, TheCallbackIsNeverReentered) {
  static std::atomic<int> calls{0};
  static fftmux_status replaced = FFTMUX_OK;
  auto reenter = [](void*, uint32_t, const char*) {
    ++calls;
    replaced = fftmux_set_log_callback(nullptr, nullptr, FFTMUX_LOG_ENV);
    create_noisy_context();
  };
  ASSERT_EQ(fftmux_set_log_callback(reenter, nullptr, FFTMUX_LOG_WARN), FFTMUX_OK);
  create_noisy_context();
  EXPECT_EQ(calls.load(), 1);
  EXPECT_EQ(replaced, FFTMUX_ERROR_INVALID_ARGUMENT);
}

// Threads log while the callback is installed and removed: once removal
// returns, the callback is running nowhere and never called again
// (ThreadSanitizer checks the handover too).
TEST_F(Log, RemovalWaitsForTheCallbackOnEveryThread) {
  static std::atomic<bool> removed{false};
  static std::atomic<int> late{0};
  auto callback = [](void*, uint32_t, const char*) {
    std::this_thread::yield();
    late += removed.load();
  };
  std::atomic<bool> done{false};
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([&] {
      while (!done)
        create_noisy_context();
    });
  for (int i = 0; i < 200; ++i) {
    removed = false;
    EXPECT_EQ(fftmux_set_log_callback(callback, nullptr, FFTMUX_LOG_WARN), FFTMUX_OK);
    std::this_thread::yield();
    EXPECT_EQ(fftmux_set_log_callback(nullptr, nullptr, FFTMUX_LOG_OFF), FFTMUX_OK);
    removed = true;
  }
  done = true;
  for (auto& th : threads)
    th.join();
  EXPECT_EQ(late.load(), 0);
}

} // namespace
