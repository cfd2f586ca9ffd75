#include <cei/rt/decision/config.hpp>
#include <cei/rt/decision/did_you_mean.hpp>
#include <cei/rt/decision/env.hpp>

#include <toml++/toml.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <initializer_list>
#include <limits>
#include <set>
#include <sstream>

namespace cei::rt {

namespace {

// "file:line: key: message"; without a line "file: key: message", and for an environment
// variable (file and key are its name) "CEI_X: message".
std::string config_what(const std::string& file, int line, const std::string& key,
                        const std::string& message) {
  if (line == 0 && file == key) return key + ": " + message;
  return file + (line > 0 ? ":" + std::to_string(line) : "") + ": " + key + ": " + message;
}

}  // namespace

ConfigError::ConfigError(std::string file, int line, std::string key, const std::string& message)
    : std::runtime_error(config_what(file, line, key, message)),
      file_(std::move(file)),
      line_(line),
      key_(std::move(key)),
      message_(message) {}

const char* to_string(PlatformType t) {
  switch (t) {
    case PlatformType::Cpu:
      return "cpu";
    case PlatformType::OpenCL:
      return "opencl";
    case PlatformType::Remote:
      return "remote";
  }
  return "?";
}

PlatformConfig default_platform(std::string name, PlatformType type) {
  PlatformConfig p;
  p.name = std::move(name);
  p.type = type;
  // Rough figures for a laptop-class machine; a config with measured figures replaces them.
  switch (type) {
    case PlatformType::Cpu:
      p.power = {15, 3};
      break;
    case PlatformType::OpenCL:
      p.power = {40, 5};
      break;
    case PlatformType::Remote:
      p.power = {1, 0.5};
      break;  // the local radio, not the node
  }
  return p;
}

const PlatformConfig* Config::find(std::string_view name) const {
  for (const auto& p : platforms)
    if (p.name == name) return &p;
  return nullptr;
}

PlatformConfig Config::platform_or_default(std::string_view name, PlatformType type) const {
  if (const auto* p = find(name)) return *p;
  return default_platform(std::string(name), type);
}

static bool is_discovered_opencl_name(std::string_view name) {
  constexpr std::string_view prefix = "opencl";
  if (name.size() <= prefix.size() || name.substr(0, prefix.size()) != prefix) return false;
  for (char c : name.substr(prefix.size()))
    if (c < '0' || c > '9') return false;
  return true;
}

// Remote nodes may also come from CEI_REMOTE="name=url,token=...;name2=..." (platforms/remote).
static std::vector<std::string> cei_remote_names() {
  std::vector<std::string> names;
  const char* env = std::getenv("CEI_REMOTE");
  std::string_view rest = env ? env : "";
  while (!rest.empty()) {
    auto entry = rest.substr(0, rest.find(';'));
    rest = entry.size() < rest.size() ? rest.substr(entry.size() + 1) : std::string_view{};
    if (!entry.empty()) names.emplace_back(entry.substr(0, entry.find('=')));
  }
  return names;
}

static bool named_in_cei_remote(std::string_view name) {
  const auto names = cei_remote_names();
  return std::find(names.begin(), names.end(), name) != names.end();
}

bool Config::names_opencl_platform(std::string_view name) const {
  if (const PlatformConfig* p = find(name)) return p->type == PlatformType::OpenCL;
  return all_opencl_devices && is_discovered_opencl_name(name);
}

bool Config::knows_platform(std::string_view name) const {
  return find(name) || names_opencl_platform(name) || named_in_cei_remote(name);
}

std::string Config::unknown_platform(std::string_view name) const {
  std::vector<std::string> names;
  for (const auto& p : platforms) names.push_back(p.name);
  for (auto& n : cei_remote_names()) names.push_back(std::move(n));
  if (all_opencl_devices) names.emplace_back("opencl0");
  return "unknown platform '" + std::string(name) + "' " +
         did_you_mean(name, "platforms", names,
                      all_opencl_devices ? ", opencl1, ... one per OpenCL device found" : "");
}

namespace {

// A token travels in a request header: a control character (CR, LF) would end it and start
// another header.
bool has_control_character(std::string_view token) {
  return std::any_of(token.begin(), token.end(),
                     [](char c) { return static_cast<unsigned char>(c) < 0x20 || c == 0x7f; });
}

// Reads one TOML document and reports every mistake with file, line and dotted key.
class Reader {
 public:
  explicit Reader(std::string file) : file_(std::move(file)) {}

  [[noreturn]] void fail(const toml::node& at, const std::string& key,
                         const std::string& msg) const {
    throw ConfigError(file_, static_cast<int>(at.source().begin.line), key, msg);
  }

  void only_keys(const toml::table& t, const std::string& path,
                 std::initializer_list<std::string_view> allowed) const {
    for (auto&& [k, v] : t) {
      bool ok = false;
      for (auto a : allowed) ok = ok || k.str() == a;
      if (!ok) fail(v, join(path, k.str()), "unknown key");
    }
  }

  const toml::table& table(const toml::node& n, const std::string& key) const {
    if (!n.is_table()) fail(n, key, "expected a table, got " + type_name(n));
    return *n.as_table();
  }

  // `max`: inf only where infinity means "no limit" (a budget); elsewhere TOML's inf and nan would
  // reach the forecasts as they are.
  double number(const toml::node& n, const std::string& key, double min,
                double max = std::numeric_limits<double>::max()) const {
    double v = 0;
    if (auto i = n.value_exact<std::int64_t>())
      v = static_cast<double>(*i);
    else if (auto f = n.value_exact<double>())
      v = *f;
    else
      fail(n, key, "expected a number, got " + type_name(n));
    if (!(v >= min)) fail(n, key, "must be >= " + format(min));
    if (!(v <= max)) fail(n, key, "must be a finite number");
    return v;
  }

  // `max`: what the field's own type holds (an int, megabytes that become bytes).
  std::int64_t integer(const toml::node& n, const std::string& key, std::int64_t min,
                       std::int64_t max = std::numeric_limits<int>::max()) const {
    auto i = n.value_exact<std::int64_t>();
    if (!i) fail(n, key, "expected an integer, got " + type_name(n));
    if (*i < min) fail(n, key, "must be >= " + std::to_string(min));
    if (*i > max) fail(n, key, "must be <= " + std::to_string(max));
    return *i;
  }

  std::string string(const toml::node& n, const std::string& key) const {
    auto s = n.value_exact<std::string>();
    if (!s) fail(n, key, "expected a string, got " + type_name(n));
    return *s;
  }

  bool boolean(const toml::node& n, const std::string& key) const {
    auto b = n.value_exact<bool>();
    if (!b) fail(n, key, "expected a boolean, got " + type_name(n));
    return *b;
  }

  static std::string join(const std::string& path, std::string_view key) {
    return path.empty() ? std::string(key) : path + "." + std::string(key);
  }

  const std::string& file() const { return file_; }

 private:
  static std::string type_name(const toml::node& n) {
    std::ostringstream s;
    s << n.type();
    return s.str();
  }
  static std::string format(double v) {
    std::ostringstream s;
    s << v;
    return s.str();
  }
  std::string file_;
};

bool valid_port(std::string_view port) {
  if (port.empty() || port.size() > 5) return false;
  long p = 0;
  for (char c : port) {
    if (c < '0' || c > '9') return false;
    p = p * 10 + (c - '0');
  }
  return p >= 1 && p <= 65535;
}

bool all_of(std::string_view s, bool (*ok)(unsigned char)) {
  return std::all_of(s.begin(), s.end(),
                     [ok](char c) { return ok(static_cast<unsigned char>(c)); });
}

// http(s)://host[:port][/path]: host a name or an IPv4 address, or an IPv6 address in brackets;
// port 1..65535; the path of URI characters only. What passes here, the REST client accepts: a
// path with a space reached it and ended the program in std::terminate (web::uri_exception).
bool valid_url(std::string_view url) {
  std::string_view rest;
  if (url.starts_with("http://"))
    rest = url.substr(7);
  else if (url.starts_with("https://"))
    rest = url.substr(8);
  else
    return false;
  const auto slash = rest.find('/');
  std::string_view authority = rest.substr(0, slash);
  const std::string_view path = slash == std::string_view::npos ? "" : rest.substr(slash);
  std::string_view host = authority;
  bool host_ok = false;
  if (authority.starts_with('[')) {
    const auto close = authority.find(']');
    if (close == std::string_view::npos) return false;
    host = authority.substr(1, close - 1);
    const std::string_view after = authority.substr(close + 1);
    if (!after.empty() && (!after.starts_with(':') || !valid_port(after.substr(1)))) return false;
    host_ok = !host.empty() && all_of(host, [](unsigned char c) {
      return std::isxdigit(c) || c == ':' || c == '.';
    });
  } else {
    if (const auto colon = authority.find(':'); colon != std::string_view::npos) {
      host = authority.substr(0, colon);
      if (!valid_port(authority.substr(colon + 1))) return false;
    }
    host_ok = !host.empty() &&
              all_of(host, [](unsigned char c) { return std::isalnum(c) || c == '.' || c == '-'; });
  }
  return host_ok && all_of(path, [](unsigned char c) {
           return std::isalnum(c) ||
                  std::string_view("-._~:/?#[]@!$&'()*+,;=%").find(static_cast<char>(c)) !=
                      std::string_view::npos;
         });
}

FailurePolicy failure_policy(const Reader& r, const toml::node& n, const std::string& key) {
  std::string s = r.string(n, key);
  if (s == "retry") return FailurePolicy::Retry;
  if (s == "cancel_successors") return FailurePolicy::CancelSuccessors;
  if (s == "ignore") return FailurePolicy::Ignore;
  if (s == "fail") return FailurePolicy::Fail;
  r.fail(n, key, "unknown failure policy '" + s + "' (retry, cancel_successors, ignore, fail)");
}

bool known_policy_name(std::string_view s) {
  return s == "dynperf" || s == "dynen" || s == "static" || s == "budget" || s == "cheapest" ||
         (s.starts_with("only:") && s.size() > 5);
}

PlatformConfig read_platform(const Reader& r, const std::string& name, const toml::node& node) {
  const std::string path = "platforms." + name;
  const auto& t = r.table(node, path);
  r.only_keys(t, path,
              {"type", "cores", "device", "naive", "memory_mb", "host_cores", "fallback", "url",
               "token", "active_w", "idle_w", "price_per_gb", "price_per_hour"});
  const toml::node* type_node = t.get("type");
  if (!type_node) r.fail(node, path + ".type", "missing key (cpu, opencl or remote)");
  std::string type = r.string(*type_node, path + ".type");
  PlatformType pt;
  if (type == "cpu")
    pt = PlatformType::Cpu;
  else if (type == "opencl")
    pt = PlatformType::OpenCL;
  else if (type == "remote")
    pt = PlatformType::Remote;
  else
    r.fail(*type_node, path + ".type",
           "unknown platform type '" + type + "' (cpu, opencl, remote)");

  PlatformConfig p = default_platform(name, pt);
  auto type_only = [&](std::string_view key, PlatformType wanted) -> const toml::node* {
    const toml::node* n = t.get(key);
    if (n && pt != wanted)
      r.fail(*n, path + "." + std::string(key),
             std::string("only for type = \"") + to_string(wanted) + "\"");
    return n;
  };
  if (auto* n = type_only("cores", PlatformType::Cpu))
    p.cores = static_cast<int>(r.integer(*n, path + ".cores", 0, kMaxCpuCores));
  if (auto* n = type_only("device", PlatformType::OpenCL))
    p.device_match = r.string(*n, path + ".device");
  if (auto* n = type_only("host_cores", PlatformType::OpenCL))
    p.host_cores = static_cast<int>(r.integer(*n, path + ".host_cores", 0, 1 << 16));
  if (auto* n = type_only("naive", PlatformType::OpenCL)) p.naive = r.boolean(*n, path + ".naive");
  if (auto* n = type_only("memory_mb", PlatformType::OpenCL))
    p.memory_cap_bytes =
        static_cast<std::size_t>(
            r.integer(*n, path + ".memory_mb", 1, std::numeric_limits<std::int64_t>::max() >> 20))
        << 20;
  auto* url = type_only("url", PlatformType::Remote);
  auto* token = type_only("token", PlatformType::Remote);
  if (pt == PlatformType::Remote) {
    if (!url) r.fail(node, path + ".url", "missing key (a remote platform needs its node's URL)");
    if (!token) r.fail(node, path + ".token", "missing key (a remote platform needs a token)");
    p.url = r.string(*url, path + ".url");
    if (!valid_url(p.url))
      r.fail(*url, path + ".url",
             "bad URL '" + p.url + "' (expected http(s)://host[:port][/path])");
    p.token = r.string(*token, path + ".token");
    if (p.token.empty()) r.fail(*token, path + ".token", "must not be empty");
    if (has_control_character(p.token))
      r.fail(*token, path + ".token", "control characters (CR, LF, ...) are not allowed");
  }
  if (auto* n = t.get("fallback")) p.fallback = r.boolean(*n, path + ".fallback");
  if (auto* n = t.get("active_w")) {
    p.power.active_w = r.number(*n, path + ".active_w", 0);
    p.power_configured = true;
  }
  if (auto* n = t.get("idle_w")) {
    p.power.idle_w = r.number(*n, path + ".idle_w", 0);
    p.power_configured = true;
  }
  if (auto* n = t.get("price_per_gb")) p.prices.per_gb = r.number(*n, path + ".price_per_gb", 0);
  if (auto* n = t.get("price_per_hour"))
    p.prices.per_hour = r.number(*n, path + ".price_per_hour", 0);
  return p;
}

void read_policy(const Reader& r, const toml::node& node, Config& cfg) {
  const auto& t = r.table(node, "policy");
  r.only_keys(t, "policy", {"name", "dynen_j_per_s", "budget", "slack_s", "static"});
  if (auto* n = t.get("name")) {
    cfg.policy.name = r.string(*n, "policy.name");
    if (!known_policy_name(cfg.policy.name))
      r.fail(*n, "policy.name",
             "unknown policy '" + cfg.policy.name +
                 "' (dynperf, dynen, static, only:<platform>, budget, cheapest)");
    if (cfg.policy.name.starts_with("only:") && !cfg.knows_platform(cfg.policy.name.substr(5)))
      r.fail(*n, "policy.name", cfg.unknown_platform(cfg.policy.name.substr(5)));
  }
  if (auto* n = t.get("dynen_j_per_s"))
    cfg.policy.j_per_s = r.number(*n, "policy.dynen_j_per_s", 0);
  constexpr double unlimited = std::numeric_limits<double>::infinity();
  if (auto* n = t.get("budget")) cfg.policy.budget = r.number(*n, "policy.budget", 0, unlimited);
  if (auto* n = t.get("slack_s")) cfg.policy.slack_s = r.number(*n, "policy.slack_s", 0, unlimited);
  if (auto* n = t.get("static")) {
    const auto& map = r.table(*n, "policy.static");
    for (auto&& [ce, target] : map) {
      std::string key = "policy.static." + std::string(ce.str());
      std::string platform = r.string(target, key);
      if (!cfg.knows_platform(platform)) r.fail(target, key, cfg.unknown_platform(platform));
      // "Iface::ce", as the run summary spells a CE, is "Iface.ce".
      std::string name(ce.str());
      if (const auto colons = name.find("::"); colons != std::string::npos)
        name.replace(colons, 2, ".");
      cfg.policy.static_map[name] = platform;
      cfg.policy.static_lines[name] = static_cast<int>(target.source().begin.line);
    }
  }
}

}  // namespace

Config parse_config(std::string_view toml_text, const std::string& file_name) {
  Reader r(file_name);
  // toml++ 3.3 reaches __builtin_unreachable() on some non-ASCII characters (upstream issues
  // #190, #295; found by tests/fuzz): undefined behaviour. The config is ASCII: refuse the rest.
  if (auto bad = std::find_if(toml_text.begin(), toml_text.end(),
                              [](char c) { return static_cast<unsigned char>(c) >= 0x80; });
      bad != toml_text.end()) {
    throw ConfigError(file_name, 1 + static_cast<int>(std::count(toml_text.begin(), bad, '\n')),
                      "(syntax)", "non-ASCII character: the platform config is plain ASCII");
  }
  toml::table doc;
  try {
    doc = toml::parse(toml_text, file_name);
  } catch (const toml::parse_error& e) {
    throw ConfigError(file_name, static_cast<int>(e.source().begin.line), "(syntax)",
                      std::string(e.description()));
  }
  r.only_keys(doc, "", {"platforms", "policy", "failure", "profile"});
  Config cfg;
  cfg.source = file_name;
  // Platforms first: the policy's static map and only:<p> name them.
  if (auto* n = doc.get("platforms")) {
    const auto& table = r.table(*n, "platforms");
    // A run with no platform could never execute a task; leaving the table out gives the default.
    if (table.empty())
      r.fail(
          *n, "platforms",
          "names no platform (leave [platforms] out for the default: cpu + every OpenCL device)");
    for (auto&& [name, node] : table)
      cfg.platforms.push_back(read_platform(r, std::string(name.str()), node));
  } else {
    cfg.platforms.push_back(default_platform("cpu", PlatformType::Cpu));
    cfg.all_opencl_devices = true;
  }
  if (auto* n = doc.get("policy")) read_policy(r, *n, cfg);
  if (auto* n = doc.get("failure")) {
    const auto& t = r.table(*n, "failure");
    r.only_keys(t, "failure", {"policy", "retries", "timeout_ms"});
    if (auto* p = t.get("policy")) cfg.failure.policy = failure_policy(r, *p, "failure.policy");
    if (auto* p = t.get("retries"))
      cfg.failure.retries = static_cast<int>(r.integer(*p, "failure.retries", 0));
    if (auto* p = t.get("timeout_ms"))
      cfg.failure.timeout_ms =
          r.integer(*p, "failure.timeout_ms", 0, std::numeric_limits<long>::max());
  }
  if (auto* n = doc.get("profile")) {
    const auto& t = r.table(*n, "profile");
    r.only_keys(t, "profile", {"path", "explore_runs", "default_exec_s"});
    if (auto* p = t.get("path")) cfg.profile.path = r.string(*p, "profile.path");
    if (auto* p = t.get("explore_runs"))
      cfg.profile.explore_runs = static_cast<int>(r.integer(*p, "profile.explore_runs", 0));
    if (auto* p = t.get("default_exec_s"))
      cfg.profile.default_exec_s = r.number(*p, "profile.default_exec_s", 0);
  }
  return cfg;
}

Config load_config(const std::string& path) {
  // Refused before reading: a directory reads as an empty file (the default config, silently),
  // and /dev/zero or a FIFO would be read until memory runs out or forever.
  std::error_code ec;
  const auto status = std::filesystem::status(path, ec);
  if (ec || !std::filesystem::exists(status))
    throw ConfigError(path, 0, "(file)", "cannot open the platform config");
  if (!std::filesystem::is_regular_file(status))
    throw ConfigError(path, 0, "(file)", "not a regular file");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw ConfigError(path, 0, "(file)", "cannot open the platform config");
  std::string text(kMaxConfigBytes + 1, '\0');
  in.read(text.data(), static_cast<std::streamsize>(text.size()));
  text.resize(static_cast<std::size_t>(in.gcount()));
  if (text.size() > kMaxConfigBytes)
    throw ConfigError(
        path, 0, "(file)",
        "larger than " + std::to_string(kMaxConfigBytes >> 20) + " MiB: not a platform config");
  return parse_config(text, path);
}

Config default_config() {
  return parse_config("", "<embedded>");
}

namespace {

[[noreturn]] void refuse_remote(const std::string& message) {
  throw ConfigError("CEI_REMOTE", 0, "CEI_REMOTE", message);
}

// A node's name is its platform's: one listed twice, or named like a platform of this machine or
// of the config, would be silently dropped or shadowed.
void check_node_name(const Config& cfg, const std::string& name, std::set<std::string>& seen) {
  if (!seen.insert(name).second) refuse_remote(name + ": listed twice");
  if (cfg.find(name) || cfg.names_opencl_platform(name))
    refuse_remote(name + ": a platform of " + cfg.source +
                  " has this name already; give the node another one");
}

void check_token(const std::string& name, std::string_view token) {
  if (token.empty()) refuse_remote(name + ": token: must not be empty");
  if (has_control_character(token))
    refuse_remote(name + ": token: control characters (CR, LF, ...) are not allowed");
}

}  // namespace

// CEI_REMOTE's syntax, as platforms/remote reads it: the remote platform factory runs before the
// policy factory reports a wrong launch, and a mistake must stop the program before a node is
// contacted ("name=url,token=T[,timeout_ms=N][,retry_ms=N][,health_ms=N][,health_failures=N]
// [,per_gb=P][,per_hour=P];...").
void check_remote_entries(const Config& cfg, std::string_view entries) {
  auto fail = [](const std::string& message) -> void { refuse_remote(message); };
  std::set<std::string> seen;
  std::string_view rest = entries;
  while (!rest.empty()) {
    std::string_view entry = rest.substr(0, rest.find(';'));
    rest = entry.size() < rest.size() ? rest.substr(entry.size() + 1) : std::string_view{};
    if (entry.empty()) continue;
    std::string name;
    bool token = false;
    while (!entry.empty()) {
      const std::string_view field = entry.substr(0, entry.find(','));
      entry = field.size() < entry.size() ? entry.substr(field.size() + 1) : std::string_view{};
      const auto eq = field.find('=');
      if (eq == std::string_view::npos) fail("'" + std::string(field) + "' is not key=value");
      const std::string k(field.substr(0, eq)), v(field.substr(eq + 1));
      if (name.empty()) {
        if (k.empty()) fail("an entry with no node name ('" + std::string(field) + "')");
        name = k;
        check_node_name(cfg, name, seen);
        if (!valid_url(v))
          fail(name + ": bad URL '" + v + "' (expected http(s)://host[:port][/path])");
      } else if (k == "timeout_ms" || k == "retry_ms" || k == "per_gb" || k == "per_hour") {
        char* end = nullptr;
        const double x = std::strtod(v.c_str(), &end);
        // A timeout of 0 would find every node lost at its first request.
        const double least = k == "timeout_ms" ? 1 : 0;
        if (v.empty() || *end != '\0' || !(x >= least) || !std::isfinite(x))
          fail(k + ": expected a number >= " + (least > 0 ? "1" : "0") + ", got '" + v + "'");
      } else if (k == "health_ms" || k == "health_failures") {
        // health_ms=0 turns the checks off; a threshold of 0 would lose the node before asking.
        char* end = nullptr;
        const long x = std::strtol(v.c_str(), &end, 10);
        const long least = k == "health_ms" ? 0 : 1;
        if (v.empty() || *end != '\0' || x < least || x > 86400000)
          fail(name + ": " + k + ": expected a whole number from " + std::to_string(least) +
               " to 86400000, got '" + v + "'");
      } else if (k != "token") {
        fail("unknown key '" + k + "'");
      } else {
        check_token(name, v);
        token = true;
      }
    }
    if (!token) fail(name + ": missing token=... (a node accepts no request without its token)");
  }
}

namespace {

void check_cei_remote(const Config& cfg) {
  if (const char* env = std::getenv("CEI_REMOTE")) check_remote_entries(cfg, env);
}

// A file the run writes when it ends (CEI_TRACE, CEI_GRAPH, a new CEI_PROFILE): one it cannot
// create there would be found out only after the whole run, and the run's record lost, so it is
// refused at launch.
void check_output_file(const char* name) {
  const char* p = std::getenv(name);
  if (!p || !*p) return;
  namespace fs = std::filesystem;
  const fs::path path(p);
  std::error_code ec;
  const auto refuse = [&](const std::string& why) {
    throw ConfigError(name, 0, name, "cannot write '" + std::string(p) + "': " + why);
  };
  if (fs::is_directory(path, ec)) refuse("it is a directory");
  if (fs::exists(path, ec)) {
    if (::access(p, W_OK) != 0) refuse("the file is not writable");
    return;
  }
  const fs::path dir = path.has_parent_path() ? path.parent_path() : fs::path(".");
  if (!fs::is_directory(dir, ec)) refuse("no directory '" + dir.string() + "'");
  if (::access(dir.c_str(), W_OK | X_OK) != 0)
    refuse("the directory '" + dir.string() + "' is not writable");
}

// The environment variables read by other parts (the runtime's, the OpenCL platforms'), checked
// here so that a mistake stops the program at launch with the variable's name instead of being
// taken silently or taking a platform down.
void check_other_variables(const Config& cfg) {
  env_integer("CEI_MAX_IN_FLIGHT", 1, std::int64_t{1} << 30);
  env_integer("CEI_BLOCK_CACHE_MB", 0, std::int64_t{1} << 20);
  if (const char* level = std::getenv("CEI_LOG"); level && *level) {
    const std::string_view l = level;
    if (l != "trace" && l != "debug" && l != "info" && l != "warn" && l != "warning" &&
        l != "error" && l != "critical" && l != "off")
      throw ConfigError("CEI_LOG", 0, "CEI_LOG",
                        "expected trace, debug, info, warn, error, critical or off, got '" +
                            std::string(l) + "'");
  }
  env_flag("CEI_SUMMARY");
  env_flag("CEI_PROGRESS");
  check_output_file("CEI_TRACE");
  check_output_file("CEI_GRAPH");
  // The profile is saved at exit too. One that exists is read, and may be shared read-only (its
  // save then fails with a message); one that does not is only to be written.
  if (const char* profile = std::getenv("CEI_PROFILE"); profile && *profile) {
    std::error_code ec;
    if (!std::filesystem::exists(profile, ec)) check_output_file("CEI_PROFILE");
  }
  opencl_env();
  if (const char* dir = std::getenv("CEI_OPENCL_CACHE");
      dir && *dir && std::string_view(dir) != "off") {
    std::error_code ec;
    if (std::filesystem::exists(dir, ec) && !std::filesystem::is_directory(dir, ec))
      throw ConfigError("CEI_OPENCL_CACHE", 0, "CEI_OPENCL_CACHE",
                        std::string("'") + dir + "' is not a directory");
  }
  check_cei_remote(cfg);
  // The folder where nodes that join the run appear (docs/remote.md, "Nodes that join").
  if (const char* dir = std::getenv("CEI_REMOTE_JOIN"); dir && *dir) {
    std::error_code ec;
    if (!std::filesystem::is_directory(dir, ec))
      throw ConfigError("CEI_REMOTE_JOIN", 0, "CEI_REMOTE_JOIN",
                        std::string("'") + dir + "' is not a folder");
  }
}

}  // namespace

void apply_env_overrides(Config& cfg) {
  if (const char* p = std::getenv("CEI_POLICY"); p && *p) {
    if (!known_policy_name(p))
      throw ConfigError("CEI_POLICY", 0, "CEI_POLICY",
                        std::string("unknown policy '") + p +
                            "' (dynperf, dynen, static, only:<platform>, budget, cheapest)");
    std::string name = p;
    if (name.starts_with("only:") && !cfg.knows_platform(name.substr(5)))
      throw ConfigError("CEI_POLICY", 0, "CEI_POLICY",
                        cfg.unknown_platform(name.substr(5)) + " in " + cfg.source);
    cfg.policy.name = name;
  }
  try {
    if (auto j = env_number("CEI_DYNEN_J_PER_S", 0, 1e9)) cfg.policy.j_per_s = *j;
    if (const char* st = std::getenv("CEI_SECOND_THOUGHTS"); st && *st) {
      char* end = nullptr;
      const double lag = std::strtod(st, &end);
      if (std::string_view(st) == "off")
        cfg.policy.second_thoughts = 0;
      else if (end != st && *end == '\0' && lag >= 1.5 && lag <= 1e3)
        cfg.policy.second_thoughts = lag;
      else
        env_detail::refuse("CEI_SECOND_THOUGHTS", "off or a number from 1.5 to 1000", st);
    }
    if (auto cores = env_integer("CEI_CPU_CORES", 0, kMaxCpuCores))
      for (auto& pl : cfg.platforms)
        if (pl.type == PlatformType::Cpu) pl.cores = static_cast<int>(*cores);
    check_other_variables(cfg);
  } catch (const EnvError& e) {
    throw ConfigError(e.name(), 0, e.name(), std::string(e.what()).substr(e.name().size() + 2));
  }
  if (const char* p = std::getenv("CEI_PROFILE"); p && *p) cfg.profile.path = p;
}

Config config_from_env() {
  const char* file = std::getenv("CEI_PLATFORMS");
  Config cfg;
  try {
    cfg = (file && *file) ? load_config(file) : default_config();
  } catch (const ConfigError& e) {
    // A file that cannot be read at all: the user set the variable, so the message names it.
    if (e.line() != 0 || e.key() != "(file)") throw;
    throw ConfigError("CEI_PLATFORMS", 0, "CEI_PLATFORMS",
                      "'" + std::string(file) + "': " + e.message());
  }
  apply_env_overrides(cfg);
  return cfg;
}

void check_static_map(const Config& cfg, std::span<const std::string> ces) {
  if (ces.empty()) return;
  for (const auto& [name, platform] : cfg.policy.static_map) {
    const bool known = std::any_of(ces.begin(), ces.end(), [&](const std::string& ce) {
      return ce == name || ce.substr(ce.rfind('.') + 1) == name;
    });
    if (known) continue;
    const auto line = cfg.policy.static_lines.find(name);
    throw ConfigError(cfg.source, line == cfg.policy.static_lines.end() ? 0 : line->second,
                      "policy.static." + name,
                      "no CE of that name in this program " + did_you_mean(name, "CEs", ces));
  }
}

const Config& launch_config() {
  static const Config cfg = config_from_env();  // a throw leaves it unset: the next call retries
  return cfg;
}

}  // namespace cei::rt
