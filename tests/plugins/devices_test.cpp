// Plans across devices, on the host's side: the plan options that name the
// devices and the rules they keep, backends that cannot span devices
// declining with the reason, the devices fixture (which claims 4 devices
// and runs on the host) carrying the set to its plans and buffers, and the
// tuning cache keeping "spans on 2 devices" apart from one device.
#include <fixture_test.hpp>
#include <reference.hpp>

#include <complex>
#include <cstddef>
#include <cstring>
#include <vector>

namespace {

using fftmux::test::has;

const std::string devices = std::string(FIXTURES) + "/devices";

struct Devices : fftmux::test::FixtureTest {
  fftmux_plan_options options(uint32_t count = 0, const std::vector<uint32_t>& list = {}) {
    list_ = list;
    fftmux_plan_options o;
    fftmux_plan_options_init(&o);
    o.backend = "spans";
    o.device_count = count;
    o.device_list = list_.empty() ? nullptr : list_.data();
    o.device_list_length = uint32_t(list_.size());
    return o;
  }
  // fftmux_plan_create's status, and its message in error.
  fftmux_status create(fftmux::context& ctx, const fftmux_desc& d, const fftmux_plan_options& o) {
    fftmux_plan p = nullptr;
    fftmux_status s = fftmux_plan_create(ctx.get(), &d, &o, &p);
    error = fftmux_last_error();
    fftmux_plan_destroy(p);
    return s;
  }
  std::string error;

private:
  std::vector<uint32_t> list_;
};

fftmux_desc line(int64_t n = 16, uint32_t placement = FFTMUX_HOST) {
  fftmux_desc d = fftmux::make_desc({n}, FFTMUX_C2C, FFTMUX_F64);
  d.placement = placement;
  return d;
}

TEST_F(Devices, TheOptionsAreCheckedNamingTheFieldAndTheRule) {
  fftmux::context ctx = open(devices, {});
  const uint32_t twice[] = {0, 1, 0};
  struct Case {
    std::function<void(fftmux_plan_options&, fftmux_desc&)> set;
    const char* message;
  };
  const Case cases[] = {
      {[](auto& o, auto&) { o.device_list_length = 2; },
       "fftmux_plan_create: options->device_list is NULL but options->device_list_length is 2"},
      {[&](auto& o, auto&) { o.device_list = twice; },
       "options->device_list_length is 0 but options->device_list is given"},
      {[&](auto& o, auto&) {
         o.device_list = twice;
         o.device_list_length = 3;
       },
       "options->device_list[2] = 0: device 0 is listed twice (also at 0); list each device once"},
      {[](auto& o, auto&) { o.device_count = 17; },
       "options->device_count = 17: must be at most 16 (FFTMUX_MAX_DEVICES)"},
      {[&](auto& o, auto&) {
         o.device_list = twice;
         o.device_list_length = 17;
       },
       "options->device_list_length = 17: must be at most 16"},
      {[&](auto& o, auto&) {
         o.device_list = twice;
         o.device_list_length = 2;
         o.device_count = 3;
       },
       "options->device_count = 3 but options->device_list holds 2 devices"},
      {[](auto& o, auto&) { o.order = 5; },
       "options->order = 5: must be FFTMUX_ORDER_NATURAL (0) or FFTMUX_ORDER_PERMUTED (1)"},
      {[](auto& o, auto& d) {
         o.order = FFTMUX_ORDER_PERMUTED;
         d.placement = FFTMUX_DEVICE;
       },
       "options->order = FFTMUX_ORDER_PERMUTED: only a plan across devices has a permuted order"},
      {[](auto& o, auto&) {
         o.order = FFTMUX_ORDER_PERMUTED;
         o.device_count = 2;
       },
       "options->order = FFTMUX_ORDER_PERMUTED needs DEVICE placement"},
  };
  for (const Case& c : cases) {
    fftmux_plan_options o = options();
    fftmux_desc d = line();
    c.set(o, d);
    EXPECT_EQ(create(ctx, d, o), FFTMUX_ERROR_INVALID_ARGUMENT) << c.message;
    EXPECT_TRUE(has(error, c.message)) << error;
  }
}

// A caller built before the device fields passes a shorter struct: whatever
// lies past its size, the plan is of one device.
TEST_F(Devices, AnOlderOptionsStructPlansOneDevice) {
  fftmux::context ctx = open(devices, {});
  fftmux_plan_options o = options(2);
  o.struct_size = offsetof(fftmux_plan_options, reserved2) + sizeof o.reserved2;
  fftmux_desc d = line();
  fftmux_plan p = nullptr;
  ASSERT_EQ(fftmux_plan_create(ctx.get(), &d, &o, &p), FFTMUX_OK) << fftmux_last_error();
  fftmux::plan plan(p);
  EXPECT_FALSE(has(plan.explain(), "spans:")) << plan.explain();
  fftmux::buffer b = plan.make_buffer(256);
  uint32_t count = 0;
  ASSERT_EQ(fftmux_buffer_piece_count(b.get(), &count), FFTMUX_OK);
  EXPECT_EQ(count, 1u);
}

// fftw, vulkan, opengl and the fixtures without FFTMUX_CAP_DEVICES are
// declined by the host before they are asked; cuda, which spans GPUs, is
// asked, and without a driver it is unavailable.
TEST_F(Devices, BackendsThatCannotSpanDevicesDeclineWithTheReason) {
  fftmux::context ctx = open_with(
      std::string(FFTW_PLUGIN_DIR) + ":" + fftmux::test::caps + ":" + devices, config({}));
  fftmux_plan_options o = options(2);
  for (const char* name : {"fftw", "vulkan", "opengl", "trusting", "lacks-f32", "cuda"}) {
    fftmux_support s;
    fftmux_support_init(&s);
    fftmux_desc d = line();
    fftmux_status status = fftmux_query_plan(ctx.get(), &d, name, &o, &s);
    if (status == FFTMUX_ERROR_NOT_FOUND) // a backend this build leaves out
      continue;
    ASSERT_EQ(status, FFTMUX_OK) << fftmux_last_error();
    EXPECT_EQ(s.supported, 0u) << name;
    if (std::string(name) == "cuda") { // no driver: unavailable; a GPU: its own rules
      EXPECT_TRUE(has(s.reason, "unavailable") || has(s.reason, "cuda:")) << s.reason;
      continue;
    }
    EXPECT_TRUE(has(s.reason, "backend " + std::string(name) +
                                  " lacks FFTMUX_CAP_DEVICES: the plan spans 2 devices"))
        << s.reason;
  }
  fftmux_desc d = line();
  o.backend = "fftw";
  EXPECT_EQ(create(ctx, d, o), FFTMUX_ERROR_UNSUPPORTED);
  EXPECT_TRUE(has(error, "fftmux never splits a problem")) << error;
}

TEST_F(Devices, TheFixtureDeclinesDevicesItDoesNotHave) {
  fftmux::context ctx = open(devices, {});
  fftmux_plan_options o = options(0, {1, 7});
  fftmux_support s;
  fftmux_support_init(&s);
  fftmux_desc d = line();
  ASSERT_EQ(fftmux_query_plan(ctx.get(), &d, "spans", &o, &s), FFTMUX_OK);
  EXPECT_EQ(s.supported, 0u);
  EXPECT_TRUE(has(s.reason, "fixture: device 7 is not present (4 devices)")) << s.reason;
  EXPECT_EQ(create(ctx, d, o), FFTMUX_ERROR_UNSUPPORTED);
}

TEST_F(Devices, BackendsTellHowManyDevicesAPlanSpans) {
  fftmux::context ctx = open_with(fftmux::test::caps + ":" + devices, config({}));
  uint32_t n = 0;
  ASSERT_EQ(fftmux_backend_count(ctx.get(), &n), FFTMUX_OK);
  int seen = 0;
  for (uint32_t i = 0; i < n; ++i) {
    fftmux_backend_info info;
    fftmux_backend_info_init(&info);
    ASSERT_EQ(fftmux_backend_get(ctx.get(), i, FFTMUX_PROBE, &info), FFTMUX_OK);
    if (std::string(info.name) == "spans" || std::string(info.name) == "trusting") {
      EXPECT_EQ(info.max_devices, std::string(info.name) == "spans" ? 4u : 1u) << info.name;
      ++seen;
    }
  }
  EXPECT_EQ(seen, 2);
}

// A DEVICE plan across devices {3, 1}: its buffer has a piece on each, in
// the plan's order, and transforms as the plan of one device does.
TEST_F(Devices, APlansBufferTellsEachDevicesPiece) {
  fftmux::context ctx = open(devices, {});
  fftmux_desc d = line(16, FFTMUX_DEVICE);
  fftmux_plan_options o = options(0, {3, 1});
  fftmux_plan p = nullptr;
  ASSERT_EQ(fftmux_plan_create(ctx.get(), &d, &o, &p), FFTMUX_OK) << fftmux_last_error();
  fftmux::plan plan(p);
  EXPECT_TRUE(has(plan.explain(), "spans: devices {3, 1}, natural order")) << plan.explain();
  uint64_t bytes = 4 * 16 * sizeof(std::complex<double>);
  fftmux::buffer in = plan.make_buffer(bytes), out = plan.make_buffer(bytes);
  uint32_t count = 0;
  ASSERT_EQ(fftmux_buffer_piece_count(in.get(), &count), FFTMUX_OK);
  ASSERT_EQ(count, 2u);
  uint32_t device[] = {3, 1};
  for (uint32_t i = 0; i < count; ++i) {
    fftmux_piece piece;
    fftmux_piece_init(&piece);
    ASSERT_EQ(fftmux_buffer_piece(in.get(), i, &piece), FFTMUX_OK);
    EXPECT_EQ(piece.device, device[i]);
    EXPECT_EQ(piece.offset, i * bytes / 2);
    EXPECT_EQ(piece.bytes, bytes / 2);
    EXPECT_EQ(piece.native, in.native() + piece.offset);
    EXPECT_EQ(piece.order, uint32_t(FFTMUX_ORDER_NATURAL));
  }
  fftmux_piece piece;
  fftmux_piece_init(&piece);
  EXPECT_EQ(fftmux_buffer_piece(in.get(), 2, &piece), FFTMUX_ERROR_INVALID_ARGUMENT);
  EXPECT_TRUE(has(fftmux_last_error(), "fftmux_buffer_piece: index = 2: the buffer has 2 pieces"))
      << fftmux_last_error();

  std::vector<std::complex<double>> x(4 * 16), y(x.size()), want(x.size());
  for (size_t i = 0; i < x.size(); ++i)
    x[i] = {double(i % 7), double(i % 3)};
  in.write(x.data(), bytes);
  plan.execute(FFTMUX_FORWARD, in, out);
  out.read(y.data(), bytes);
  fftmux_desc one = line(16);
  ctx.make_plan(one, "spans").forward(x.data(), want.data());
  for (size_t i = 0; i < x.size(); ++i)
    EXPECT_NEAR(std::abs(y[i] - want[i]), 0, 1e-9) << i;
}

TEST_F(Devices, APlanAcrossDevicesRefusesBuffersOfOne) {
  fftmux::context ctx = open(devices, {});
  fftmux_desc d = line(16, FFTMUX_DEVICE);
  fftmux_plan_options o = options(2);
  fftmux_plan p = nullptr;
  ASSERT_EQ(fftmux_plan_create(ctx.get(), &d, &o, &p), FFTMUX_OK) << fftmux_last_error();
  fftmux::plan plan(p);
  fftmux::buffer one = ctx.make_buffer("spans", 4096), two = ctx.make_buffer("spans", 4096);
  EXPECT_EQ(fftmux_execute_buffers(p, FFTMUX_FORWARD, one.get(), two.get()),
            FFTMUX_ERROR_INVALID_ARGUMENT);
  EXPECT_TRUE(has(fftmux_last_error(), "in spans 1 device(s), the plan 2: make the plan's buffers "
                                       "with fftmux_buffer_create_for_plan"))
      << fftmux_last_error();
  uint32_t count = 0;
  ASSERT_EQ(fftmux_buffer_piece_count(one.get(), &count), FFTMUX_OK);
  EXPECT_EQ(count, 1u);
  fftmux_piece piece;
  fftmux_piece_init(&piece);
  ASSERT_EQ(fftmux_buffer_piece(one.get(), 0, &piece), FFTMUX_OK);
  EXPECT_EQ(piece.bytes, 4096u);
  EXPECT_EQ(piece.native, one.native());
}

// A buffer of a backend without buffer_piece is one piece, the whole.
TEST_F(Devices, AnyOtherBufferIsOnePiece) {
  fftmux::context ctx = open_with(FFTW_PLUGIN_DIR, config({}));
  fftmux::buffer b = ctx.make_buffer("fftw", 100);
  fftmux_piece piece;
  fftmux_piece_init(&piece);
  ASSERT_EQ(fftmux_buffer_piece(b.get(), 0, &piece), FFTMUX_OK) << fftmux_last_error();
  EXPECT_EQ(piece.device, 0u);
  EXPECT_EQ(piece.offset, 0u);
  EXPECT_EQ(piece.bytes, 100u);
  EXPECT_EQ(piece.native, b.native());
  EXPECT_EQ(fftmux_buffer_piece_count(b.get(), nullptr), FFTMUX_ERROR_INVALID_ARGUMENT);
  EXPECT_TRUE(has(fftmux_last_error(), "fftmux_buffer_piece_count: count is NULL"));
}

// One device's measurement never routes the engine of two: the hardware
// key names the device set, so the cache holds them apart.
TEST_F(Devices, TheTuningCacheKeepsADeviceSetApart) {
  fftmux::context ctx = open(devices, {});
  fftmux_desc d = line();
  ASSERT_EQ(fftmux::test::tune(ctx, {d}), FFTMUX_OK) << fftmux_last_error();
  fftmux_plan_options o = options();
  o.backend = nullptr;
  fftmux_plan p = nullptr;
  ASSERT_EQ(fftmux_plan_create(ctx.get(), &d, &o, &p), FFTMUX_OK);
  fftmux::plan one(p);
  EXPECT_TRUE(has(one.explain(), "cache hit")) << one.explain();
  o = options(2);
  o.backend = nullptr;
  ASSERT_EQ(fftmux_plan_create(ctx.get(), &d, &o, &p), FFTMUX_OK);
  fftmux::plan two(p);
  EXPECT_FALSE(has(two.explain(), "cache hit")) << two.explain();
  EXPECT_TRUE(has(two.explain(), "spans: devices {0, 1}")) << two.explain();
  // The same measurement under the key of the pair routes the pair.
  std::string text = fftmux::test::slurp(cache);
  std::string key = "fixture spans", pair = "fixture spans; 2 devices; 0: fixture device 0; 1: "
                                            "fixture device 1";
  for (size_t at = text.find(key); at != std::string::npos; at = text.find(key, at + pair.size()))
    text.replace(at, key.size(), pair);
  std::ofstream(cache) << text;
  fftmux::context again = open(devices, {});
  ASSERT_EQ(fftmux_plan_create(again.get(), &d, &o, &p), FFTMUX_OK);
  fftmux::plan routed(p);
  EXPECT_TRUE(has(routed.explain(), "cache hit")) << routed.explain();
}

} // namespace
