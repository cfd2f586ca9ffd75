// Platforms that only have a name: policies see nothing else of a platform, and these tests
// script the forecasts themselves.
#pragma once

#include <cei/rt/policy.hpp>

#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace cei::rt::test {

class NamedPlatform final : public Platform {
 public:
  explicit NamedPlatform(std::string name, const char* kind = "cpu")
      : name_(std::move(name)), kind_(kind) {}
  const std::string& name() const override { return name_; }
  const char* kind() const override { return kind_; }
  // What the real platforms of that kind say.
  Capabilities capabilities() const override {
    const std::string_view k = kind_;
    if (k == "opencl")
      return {Capabilities::InProcess | Capabilities::MayBeLost | Capabilities::Kernels};
    if (k == "remote") return {Capabilities::MayBeLost};
    return {Capabilities::InProcess | Capabilities::PicksVersion};
  }
  bool can_run(const CeInfo&) const override { return true; }
  Forecast forecast(const Task&) const override { throw std::logic_error("scripted"); }
  void submit(TaskPtr) override { throw std::logic_error("scripted"); }
  std::size_t workers() const override { return 1; }
  void shutdown() override {}

 private:
  std::string name_;
  const char* kind_;
};

inline const NativeVersion kVersions[] = {{"matmul", nullptr}, {"blocked", nullptr}};
inline const CeInfo kMultiply{"multiply", "MatmulCEI", false, nullptr, 0,
                              nullptr,    kVersions,   2,     nullptr};
inline const CeInfo kSort{"sort", "SortCEI", false, nullptr, 0, nullptr, kVersions, 1, nullptr};

inline Forecast fc(double end_s, double energy_j, double cost = 0) {
  Forecast f;
  f.end_s = end_s;
  f.exec_s = end_s;
  f.energy_j = energy_j;
  f.cost = cost;
  return f;
}

}  // namespace cei::rt::test
