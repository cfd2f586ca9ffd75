#include <cei/rt/decision/profile_store.hpp>

#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <mutex>
#include <stdexcept>

namespace cei::rt {

namespace {

// The CE's key without allocating on the hot path: one buffer per thread, reused.
std::string_view ce_key_view(const CeInfo& ce) {
  thread_local std::string buf;
  buf.assign(ce.interface_name ? ce.interface_name : "");
  buf += '.';
  buf += ce.name;
  return buf;
}

std::string_view impl_key_view(const CeInfo& ce, int version, std::string& scratch) {
  if (version < 0) return "opencl";
  if (static_cast<std::size_t>(version) < ce.nversions && ce.versions[version].declaring_class)
    return ce.versions[version].declaring_class;
  scratch = "v" + std::to_string(version);
  return scratch;
}

}  // namespace

ProfileStore::ProfileStore(ProfileOptions opts) : opts_(opts) {}

std::string ProfileStore::ce_key(const CeInfo& ce) {
  return std::string(ce_key_view(ce));
}

std::string ProfileStore::impl_key(const CeInfo& ce, int version) {
  std::string scratch;
  return std::string(impl_key_view(ce, version, scratch));
}

void ProfileStore::invalidate_fit(History& h) {
  h.fit_stale = true;
}

const Fit& ProfileStore::History::current_fit() const {
  if (fit_stale) {
    std::vector<std::pair<double, double>> points;
    points.reserve(sizes.size());
    for (const auto& [size, s] : sizes) points.emplace_back(size, s.mean_s);
    fit = fit_size_model(points);
    fit_stale = false;
  }
  return fit;
}

double ProfileStore::predict_locked(const History& h, double size) const {
  std::lock_guard g(h.mu);
  if (auto it = h.sizes.find(size); it != h.sizes.end()) return it->second.mean_s;
  return h.current_fit()(size);
}

Prediction ProfileStore::predict(const CeInfo& ce, int version, const std::string& platform,
                                 double input_bytes) const {
  std::string scratch;
  const std::string_view ce_view = ce_key_view(ce);
  const Key key{ce_view, impl_key_view(ce, version, scratch), platform};
  std::shared_lock lock(mu_);
  if (auto it = histories_.find(key); it != histories_.end()) {
    const History& h = it->second;
    std::lock_guard g(h.mu);
    if (!h.sizes.empty()) {
      if (auto s = h.sizes.find(input_bytes); s != h.sizes.end())
        return {s->second.mean_s, Source::Measured};
      return {h.current_fit()(input_bytes), Source::Regression};
    }
  }
  // No history here: assume what this CE costs elsewhere, so the guess neither hides nor
  // forbids the platform; claim_exploration() is what gets it measured.
  double sum = 0;
  int n = 0;
  for (auto it = histories_.lower_bound(Key{ce_view, {}, {}});
       it != histories_.end() && it->first.ce == ce_view; ++it) {
    {
      std::lock_guard g(it->second.mu);
      if (it->second.sizes.empty()) continue;
    }
    sum += predict_locked(it->second, input_bytes);
    ++n;
  }
  return {n ? sum / n : opts_.default_exec_s, Source::Default};
}

void ProfileStore::record(const CeInfo& ce, int version, const std::string& platform,
                          double input_bytes, double seconds) {
  std::string scratch;
  const Key key{ce_key_view(ce), impl_key_view(ce, version, scratch), platform};
  auto add = [&](History& h) {
    std::lock_guard g(h.mu);
    SizeStats& s = h.sizes[input_bytes];
    s.runs += 1;
    const double delta = seconds - s.mean_s;
    s.mean_s += delta / static_cast<double>(s.runs);
    s.m2 += delta * (seconds - s.mean_s);
    h.total_runs += 1;
    invalidate_fit(h);
  };
  {
    std::shared_lock lock(mu_);
    if (auto it = histories_.find(key); it != histories_.end()) return add(it->second);
  }
  std::unique_lock lock(mu_);  // a first record of this history: insert it
  add(histories_[ProfileKey{std::string(std::get<0>(key)), std::string(std::get<1>(key)),
                            platform}]);
}

bool ProfileStore::claim_exploration(const CeInfo& ce, int version, const std::string& platform) {
  if (opts_.explore_runs <= 0) return false;
  std::string scratch;
  const Key key{ce_key_view(ce), impl_key_view(ce, version, scratch), platform};
  {
    std::shared_lock lock(mu_);
    auto it = histories_.find(key);
    if (it != histories_.end()) {
      std::lock_guard g(it->second.mu);
      if (it->second.total_runs >= static_cast<std::uint64_t>(opts_.explore_runs) ||
          it->second.claims >= opts_.explore_runs)
        return false;
    }
  }
  std::unique_lock lock(mu_);
  History& h = histories_[ProfileKey{std::string(std::get<0>(key)), std::string(std::get<1>(key)),
                                     platform}];
  std::lock_guard g(h.mu);
  if (h.total_runs >= static_cast<std::uint64_t>(opts_.explore_runs) ||
      h.claims >= opts_.explore_runs)
    return false;
  ++h.claims;
  return true;
}

void ProfileStore::record_energy(const std::string& platform, double seconds, double joules) {
  std::unique_lock lock(mu_);
  Energy& e = energy_[platform];
  e.seconds += seconds;
  e.joules += joules;
}

std::optional<double> ProfileStore::measured_watts(const std::string& platform) const {
  std::shared_lock lock(mu_);
  auto it = energy_.find(platform);
  if (it == energy_.end() || it->second.seconds <= 0) return std::nullopt;
  return it->second.joules / it->second.seconds;
}

std::vector<ProfileModel> ProfileStore::models() const {
  std::shared_lock lock(mu_);
  std::vector<ProfileModel> out;
  for (const auto& [key, h] : histories_) {
    std::lock_guard g(h.mu);
    if (h.sizes.empty()) continue;
    ProfileModel m{key, {h.sizes.begin(), h.sizes.end()}, h.current_fit()};
    out.push_back(std::move(m));
  }
  return out;
}

nlohmann::json ProfileStore::to_json() const {
  std::shared_lock lock(mu_);
  nlohmann::json histories = nlohmann::json::array();
  for (const auto& [key, h] : histories_) {
    std::lock_guard g(h.mu);
    if (h.sizes.empty()) continue;
    nlohmann::json sizes = nlohmann::json::array();
    for (const auto& [size, s] : h.sizes)
      sizes.push_back({{"bytes", size}, {"runs", s.runs}, {"mean_s", s.mean_s}, {"m2", s.m2}});
    histories.push_back(
        {{"ce", key.ce}, {"impl", key.impl}, {"platform", key.platform}, {"sizes", sizes}});
  }
  nlohmann::json energy = nlohmann::json::object();
  for (const auto& [platform, e] : energy_)
    energy[platform] = {{"seconds", e.seconds}, {"joules", e.joules}};
  return {{"format", "cei-profile"}, {"version", 1}, {"histories", histories}, {"energy", energy}};
}

void ProfileStore::merge_json(const nlohmann::json& j) {
  try {
    if (j.at("format") != "cei-profile" || j.at("version") != 1)
      throw std::runtime_error("not a cei-profile version 1 document");
    std::unique_lock lock(mu_);
    for (const auto& hj : j.at("histories")) {
      ProfileKey key{hj.at("ce").get<std::string>(), hj.at("impl").get<std::string>(),
                     hj.at("platform").get<std::string>()};
      History& h = histories_[std::move(key)];
      for (const auto& sj : hj.at("sizes")) {
        SizeStats add{sj.at("runs").get<std::uint64_t>(), sj.at("mean_s").get<double>(),
                      sj.at("m2").get<double>()};
        if (add.runs == 0) continue;
        SizeStats& s = h.sizes[sj.at("bytes").get<double>()];
        // Chan's parallel combination of two (runs, mean, m2) summaries.
        const double n = static_cast<double>(s.runs + add.runs);
        const double delta = add.mean_s - s.mean_s;
        s.m2 += add.m2 +
                delta * delta * static_cast<double>(s.runs) * static_cast<double>(add.runs) / n;
        s.mean_s += delta * static_cast<double>(add.runs) / n;
        s.runs += add.runs;
        h.total_runs += add.runs;
      }
      invalidate_fit(h);
    }
    for (const auto& [platform, ej] : j.at("energy").items()) {
      Energy& e = energy_[platform];
      e.seconds += ej.at("seconds").get<double>();
      e.joules += ej.at("joules").get<double>();
    }
  } catch (const nlohmann::json::exception& e) {
    throw std::runtime_error(std::string("malformed profile: ") + e.what());
  }
}

void ProfileStore::save(const std::string& path) const {
  // Write a sibling and rename, so a crash mid-write never leaves half a profile.
  const std::string tmp = path + ".tmp";
  {
    std::ofstream out(tmp);
    if (!out) throw std::runtime_error("cannot write profile " + tmp);
    out << to_json().dump(1) << '\n';
    if (!out) throw std::runtime_error("cannot write profile " + tmp);
  }
  std::filesystem::rename(tmp, path);
}

void ProfileStore::load(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot open profile " + path);
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(in);
  } catch (const nlohmann::json::exception& e) {
    throw std::runtime_error(path + ": " + e.what());
  }
  try {
    merge_json(j);
  } catch (const std::runtime_error& e) {
    throw std::runtime_error(path + ": " + e.what());
  }
}

bool ProfileStore::load_if_exists(const std::string& path) {
  if (path.empty() || !std::filesystem::exists(path)) return false;
  load(path);
  return true;
}

}  // namespace cei::rt
