#include "config.hpp"

#include "error.hpp"
#include "toml_util.hpp"

#include <fstream>
#include <sstream>

namespace fftmux {

namespace {

std::vector<std::string> string_list(const toml::table& t, const char* key,
                                     const std::string& origin) {
  std::vector<std::string> out;
  const toml::node* node = t.get(key);
  if (!node)
    return out;
  const toml::array* a = node->as_array();
  if (!a)
    invalid(origin + ": " + key + " must be an array of strings");
  for (const toml::node& item : *a) {
    auto s = item.value<std::string>();
    if (!s)
      invalid(origin + ": every entry of " + std::string(key) + " must be a string");
    out.push_back(*s);
  }
  return out;
}

} // namespace

Config parse_config(const std::string& text, const std::string& origin) {
  toml::table t = parse_toml(text, origin);
  Config c;
  c.path = origin;
  c.plugin_dirs = string_list(t, "plugin_dirs", origin);
  if (t.contains("preference"))
    c.preference = string_list(t, "preference", origin);
  for (auto [key, field] : {std::pair{"tuning_cache", &c.tuning_cache},
                            std::pair{"system_tuning_cache", &c.system_tuning_cache}})
    if (const toml::node* n = t.get(key)) {
      auto s = n->value<std::string>();
      if (!s)
        invalid(origin + ": " + key + " must be a string");
      *field = *s;
    }
  if (const toml::node* n = t.get("calibrate")) {
    auto b = n->value<bool>();
    if (!b || !n->is_boolean())
      invalid(origin + ": calibrate must be true or false");
    c.calibrate = *b;
  }
  if (const toml::node* n = t.get("backends")) {
    const toml::table* all = n->as_table();
    if (!all)
      invalid(origin + ": backends must be a table of tables ([backends.<name>])");
    for (auto&& [name, node] : *all) {
      const toml::table* one = node.as_table();
      if (!one)
        invalid(origin + ": backends." + std::string(name.str()) + " must be a table");
      auto& values = c.backends[std::string(name.str())];
      for (auto&& [key, value] : *one)
        values[std::string(key.str())] = scalar_text(value);
    }
  }
  return c;
}

Config load_config(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  if (!f)
    fail(FFTMUX_ERROR_IO, "cannot read the config file " + path);
  std::ostringstream s;
  s << f.rdbuf();
  return parse_config(s.str(), path);
}

} // namespace fftmux
