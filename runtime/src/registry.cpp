// The process-wide CE registry that generated code fills during static initialisation.
#include <cei/rt/ce.hpp>

#include <map>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

namespace cei::rt {

namespace {
struct Registry {
  std::mutex mu;
  std::map<std::pair<std::string, std::string>, const CeInfo*> ces;
};
Registry& registry() {
  static auto* r = new Registry;  // never destroyed: generated code may register late or early
  return *r;
}
}  // namespace

void register_ce(const CeInfo& ce) {
  auto& r = registry();
  std::lock_guard g(r.mu);
  r.ces[{ce.interface_name, ce.name}] = &ce;
}

const CeInfo* find_ce(const char* interface_name, const char* name) {
  auto& r = registry();
  std::lock_guard g(r.mu);
  auto it = r.ces.find({interface_name, name});
  return it == r.ces.end() ? nullptr : it->second;
}

std::vector<const CeInfo*> registered_ces() {
  auto& r = registry();
  std::lock_guard g(r.mu);
  std::vector<const CeInfo*> out;
  out.reserve(r.ces.size());
  for (const auto& [key, ce] : r.ces) out.push_back(ce);
  return out;
}

}  // namespace cei::rt
