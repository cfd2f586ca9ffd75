// Linux powercap: /sys/class/powercap/intel-rapl:N/energy_uj, a microjoule counter that wraps
// at max_energy_range_uj. Only the top-level (package) domains: subdomains are inside them.
#include <cei/rt/decision/energy.hpp>

#include <filesystem>
#include <fstream>
#include <optional>
#include <regex>
#include <vector>

namespace cei::rt {

namespace {

std::optional<double> read_number(const std::filesystem::path& p) {
  std::ifstream in(p);
  double v = 0;
  if (!(in >> v)) return std::nullopt;
  return v;
}

class RaplMeter final : public EnergyMeter {
 public:
  struct Domain {
    std::filesystem::path counter;
    std::string name;
    double range_uj;
    double last_uj;
  };
  explicit RaplMeter(std::vector<Domain> domains) : domains_(std::move(domains)) {}

  EnergySource source() const override { return EnergySource::Rapl; }
  std::string describe() const override {
    std::string s = "RAPL";
    for (std::size_t i = 0; i < domains_.size(); ++i) s += (i ? "," : " ") + domains_[i].name;
    return s;
  }
  double read_joules() override {
    for (auto& d : domains_) {
      auto now = read_number(d.counter);
      if (!now) continue;  // a transient read failure: keep the previous total
      double delta = *now - d.last_uj;
      if (delta < 0) delta += d.range_uj;  // the counter wrapped
      total_uj_ += delta;
      d.last_uj = *now;
    }
    return total_uj_ * 1e-6;
  }

 private:
  std::vector<Domain> domains_;
  double total_uj_ = 0;
};

}  // namespace

std::unique_ptr<EnergyMeter> open_rapl_meter(const std::string& root) {
  std::error_code ec;
  std::vector<RaplMeter::Domain> domains;
  static const std::regex top_level(R"(intel-rapl:\d+)");
  for (const auto& entry : std::filesystem::directory_iterator(root, ec)) {
    const std::string dir = entry.path().filename().string();
    if (!std::regex_match(dir, top_level)) continue;
    auto now = read_number(entry.path() / "energy_uj");
    if (!now) continue;
    auto range = read_number(entry.path() / "max_energy_range_uj");
    std::ifstream name_file(entry.path() / "name");
    std::string name;
    if (!(name_file >> name)) name = dir;
    domains.push_back({entry.path() / "energy_uj", name, range.value_or(0), *now});
  }
  if (domains.empty()) return nullptr;
  return std::make_unique<RaplMeter>(std::move(domains));
}

}  // namespace cei::rt
