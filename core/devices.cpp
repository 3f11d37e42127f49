#include "devices.hpp"

#include "error.hpp"

#include <sstream>

namespace fftmux {

namespace {

const char* order_name(uint32_t order) {
  return order == FFTMUX_ORDER_PERMUTED ? "permuted" : "natural";
}

void check_list(const fftmux_plan_options& o) {
  if (o.device_list_length && !o.device_list)
    invalid("options->device_list is NULL but options->device_list_length is " +
            std::to_string(o.device_list_length));
  if (o.device_list && !o.device_list_length)
    invalid("options->device_list_length is 0 but options->device_list is given: the length "
            "counts the listed devices (at least 1)");
  if (o.device_list_length > FFTMUX_MAX_DEVICES)
    invalid("options->device_list_length = " + std::to_string(o.device_list_length) +
            ": must be at most " + std::to_string(FFTMUX_MAX_DEVICES) + " (FFTMUX_MAX_DEVICES)");
  if (o.device_list && o.device_count && o.device_count != o.device_list_length)
    invalid("options->device_count = " + std::to_string(o.device_count) +
            " but options->device_list holds " + std::to_string(o.device_list_length) +
            " devices: give one of them, or the same number");
  for (uint32_t i = 0; i < o.device_list_length; ++i)
    for (uint32_t j = 0; j < i; ++j)
      if (o.device_list[i] == o.device_list[j])
        invalid("options->device_list[" + std::to_string(i) + "] = " +
                std::to_string(o.device_list[i]) + ": device " + std::to_string(o.device_list[i]) +
                " is listed twice (also at " + std::to_string(j) + "); list each device once");
}

} // namespace

DeviceSet read_devices(const fftmux_plan_options& o, const fftmux_desc& d) {
  check_list(o);
  if (o.device_count > FFTMUX_MAX_DEVICES)
    invalid("options->device_count = " + std::to_string(o.device_count) + ": must be at most " +
            std::to_string(FFTMUX_MAX_DEVICES) + " (FFTMUX_MAX_DEVICES)");
  if (o.order != FFTMUX_ORDER_NATURAL && o.order != FFTMUX_ORDER_PERMUTED)
    invalid("options->order = " + std::to_string(o.order) +
            ": must be FFTMUX_ORDER_NATURAL (0) or FFTMUX_ORDER_PERMUTED (1)");
  DeviceSet set;
  set.order = o.order;
  if (o.device_list)
    set.indices.assign(o.device_list, o.device_list + o.device_list_length);
  else if (o.device_count > 1)
    for (uint32_t i = 0; i < o.device_count; ++i)
      set.indices.push_back(i);
  if (set.order == FFTMUX_ORDER_PERMUTED && !set.spans())
    invalid("options->order = FFTMUX_ORDER_PERMUTED: only a plan across devices has a permuted "
            "order (set device_count or device_list)");
  if (set.order == FFTMUX_ORDER_PERMUTED && d.placement != FFTMUX_DEVICE)
    invalid("options->order = FFTMUX_ORDER_PERMUTED needs DEVICE placement: a HOST plan's "
            "arrays are always in natural order");
  return set;
}

fftmux_plan_params_v1 plan_params(const DeviceSet& devices, uint32_t threads) {
  fftmux_plan_params_v1 p{};
  p.struct_size = sizeof p;
  p.threads = threads;
  p.devices = devices.spans() ? devices.indices.data() : nullptr;
  p.device_count = uint32_t(devices.indices.size());
  p.order = devices.order;
  return p;
}

fftmux_plan_params_v1 plan_params(const Problem& problem, uint32_t threads) {
  fftmux_plan_params_v1 p = plan_params(problem.devices, threads);
  if (problem.product) {
    p.product = problem.product->data();
    p.product_points = int64_t(problem.product->size() / 2);
  }
  return p;
}

bool spans_devices(const fftmux_backend_v1& t) {
  return (t.caps & FFTMUX_CAP_DEVICES) && FFTMUX_HAS_FIELD(&t, query_v2) &&
         FFTMUX_HAS_FIELD(&t, plan_create_v2) && FFTMUX_HAS_FIELD(&t, plan_buffer_alloc) &&
         FFTMUX_HAS_FIELD(&t, buffer_piece);
}

std::string devices_gap(const std::string& name, const fftmux_backend_v1& t,
                        const DeviceSet& devices) {
  if (!devices.spans() || spans_devices(t))
    return "";
  return "backend " + name + " lacks FFTMUX_CAP_DEVICES: the plan spans " +
         std::to_string(devices.indices.size()) +
         " devices, and fftmux never splits a problem across backends' devices itself";
}

std::string engine_key(Backend& b, const DeviceSet& devices) {
  std::string key = b.hardware_key();
  if (!devices.spans())
    return key;
  std::vector<std::string> lines;
  std::istringstream all(b.devices());
  for (std::string line; std::getline(all, line);)
    lines.push_back(line);
  key += "; " + std::to_string(devices.indices.size()) + " devices";
  for (uint32_t i : devices.indices)
    key += "; " + std::to_string(i) + ": " + (i < lines.size() ? lines[i] : "unknown");
  return key;
}

std::string devices_text(const DeviceSet& devices) {
  if (!devices.spans())
    return "";
  std::string list;
  for (uint32_t i : devices.indices)
    list += (list.empty() ? "" : ", ") + std::to_string(i);
  return "devices {" + list + "}, " + order_name(devices.order) + " order";
}

} // namespace fftmux
