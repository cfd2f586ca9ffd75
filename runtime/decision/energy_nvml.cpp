// NVML loaded at run time: the runtime must start on machines without NVIDIA's driver, so there
// is no link dependency and no nvml.h; the few entry points used are declared here by their
// documented C signatures.
#include <cei/rt/decision/energy.hpp>

#include <dlfcn.h>

namespace cei::rt {

namespace {

using nvmlDevice_t = struct nvmlDevice_st*;
using nvmlReturn_t = int;  // NVML_SUCCESS = 0
constexpr nvmlReturn_t kNvmlSuccess = 0;

struct NvmlApi {
  void* lib = nullptr;
  nvmlReturn_t (*init)() = nullptr;
  nvmlReturn_t (*shutdown)() = nullptr;
  nvmlReturn_t (*handle_by_index)(unsigned, nvmlDevice_t*) = nullptr;
  nvmlReturn_t (*name)(nvmlDevice_t, char*, unsigned) = nullptr;
  nvmlReturn_t (*total_energy_mj)(nvmlDevice_t, unsigned long long*) = nullptr;
  nvmlReturn_t (*power_mw)(nvmlDevice_t, unsigned*) = nullptr;

  template <typename F>
  bool bind(F& f, const char* symbol) {
    f = reinterpret_cast<F>(dlsym(lib, symbol));
    return f != nullptr;
  }
};

class NvmlMeter final : public EnergyMeter {
 public:
  NvmlMeter(NvmlApi api, nvmlDevice_t dev, std::string name, bool has_counter)
      : api_(api), dev_(dev), name_(std::move(name)), has_counter_(has_counter) {
    if (has_counter_) api_.total_energy_mj(dev_, &origin_mj_);
    last_ = Clock::now();
  }
  ~NvmlMeter() override {
    api_.shutdown();
    dlclose(api_.lib);
  }
  EnergySource source() const override { return EnergySource::Nvml; }
  std::string describe() const override {
    return "NVML " + name_ + (has_counter_ ? " (energy counter)" : " (power integrated)");
  }
  double read_joules() override {
    if (has_counter_) {
      unsigned long long mj = 0;
      if (api_.total_energy_mj(dev_, &mj) == kNvmlSuccess) total_j_ = (mj - origin_mj_) * 1e-3;
      return total_j_;
    }
    // Trapezoids between reads of the instantaneous power.
    unsigned mw = 0;
    auto now = Clock::now();
    if (api_.power_mw(dev_, &mw) == kNvmlSuccess) {
      const double w = mw * 1e-3;
      const double dt = std::chrono::duration<double>(now - last_).count();
      if (last_w_ >= 0) total_j_ += 0.5 * (w + last_w_) * dt;
      last_w_ = w;
      last_ = now;
    }
    return total_j_;
  }

 private:
  NvmlApi api_;
  nvmlDevice_t dev_;
  std::string name_;
  bool has_counter_;
  unsigned long long origin_mj_ = 0;
  double total_j_ = 0;
  double last_w_ = -1;
  Clock::time_point last_;
};

}  // namespace

std::unique_ptr<EnergyMeter> open_nvml_meter(unsigned device_index) {
  NvmlApi api;
  api.lib = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!api.lib) return nullptr;
  const bool bound = api.bind(api.init, "nvmlInit_v2") && api.bind(api.shutdown, "nvmlShutdown") &&
                     api.bind(api.handle_by_index, "nvmlDeviceGetHandleByIndex_v2") &&
                     api.bind(api.name, "nvmlDeviceGetName") &&
                     api.bind(api.power_mw, "nvmlDeviceGetPowerUsage");
  api.bind(api.total_energy_mj, "nvmlDeviceGetTotalEnergyConsumption");  // optional
  if (!bound || api.init() != kNvmlSuccess) {
    dlclose(api.lib);
    return nullptr;
  }
  nvmlDevice_t dev = nullptr;
  unsigned mw = 0;
  if (api.handle_by_index(device_index, &dev) != kNvmlSuccess ||
      api.power_mw(dev, &mw) != kNvmlSuccess) {
    api.shutdown();
    dlclose(api.lib);
    return nullptr;
  }
  char name[96] = {};
  api.name(dev, name, sizeof name);
  unsigned long long mj = 0;
  const bool has_counter = api.total_energy_mj && api.total_energy_mj(dev, &mj) == kNvmlSuccess;
  return std::make_unique<NvmlMeter>(api, dev, name, has_counter);
}

}  // namespace cei::rt
