// Plugs the Decision Engine into the runtime when it starts: the launch config (CEI_PLATFORMS and
// the environment), the profiles (CEI_PROFILE loaded now, saved at exit) and the policy. Built
// into cei_runtime only; the runtime calls this factory after its platform factories.
#include <cei/rt/decision/config.hpp>
#include <cei/rt/decision/policies.hpp>
#include <cei/rt/decision/profile_store.hpp>
#include <cei/rt/runtime.hpp>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace cei::rt {
namespace {

ProfileStore* profiles_to_save = nullptr;  // owned by the runtime, which is never destroyed
std::string profile_path;

// The names of the program's CEs, as [policy.static] spells them.
std::vector<std::string> registered_ce_names() {
  std::vector<std::string> names;
  for (const CeInfo* ce : registered_ces())
    names.push_back(std::string(ce->interface_name) + "." + ce->name);
  return names;
}

// A profile that cannot be read, said with where its path came from: CEI_PROFILE or the file.
void load_profiles(ProfileStore& profiles, const Config& cfg) {
  try {
    profiles.load_if_exists(cfg.profile.path);
  } catch (const std::exception& e) {
    const char* env = std::getenv("CEI_PROFILE");
    if (env && *env) throw ConfigError("CEI_PROFILE", 0, "CEI_PROFILE", e.what());
    throw ConfigError(cfg.source, 0, "profile.path", e.what());
  }
}

// Registered after the runtime's own drain handler, so it runs after the last task recorded.
void save_profiles() {
  try {
    profiles_to_save->save(profile_path);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "cei: could not save the profile: %s\n", e.what());
  }
}

const bool registered = register_policy_factory([](Runtime& rt) -> std::unique_ptr<Policy> {
  try {
    const Config& cfg = launch_config();
    auto profiles = std::make_unique<ProfileStore>(
        ProfileOptions{cfg.profile.explore_runs, cfg.profile.default_exec_s});
    if (cfg.policy.name == "static") check_static_map(cfg, registered_ce_names());
    load_profiles(*profiles, cfg);
    ProfileStore* store = profiles.get();
    rt.set_profiles(std::move(profiles));
    if (!cfg.profile.path.empty()) {
      profiles_to_save = store;
      profile_path = cfg.profile.path;
      std::atexit(save_profiles);
    }
    return make_policy(cfg, store);
  } catch (const std::exception& e) {
    // A mistake in the launch config: the program must not run under a policy it did not ask for.
    std::fprintf(stderr, "cei: %s\n", e.what());
    std::exit(2);
  }
});

}  // namespace
}  // namespace cei::rt
