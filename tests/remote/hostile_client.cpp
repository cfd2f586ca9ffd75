// cei-hostile-client: a program whose node (CEI_REMOTE's node1) is full, hostile, slow, frozen
// or under attack, run by client_hardening_test.cpp. On a vector v of K elements it runs
// fill(v, N) (HostileCEI: N copies of K; its result_size "par1" tells the client the result's
// shape) and then scale(v, 2) (TestCEI: no result_size), and checks both against the same
// computation done here. Without CEI_POLICY every task node1 can run goes there (PreferRemote).
//
//   cei-hostile-client K N     prints "right" (exit status 0) or "wrong" (1)
#include "hostile_app.hpp"
#include "prefer_remote.hpp"
#include "test_app.hpp"

#include <cei/cei.hpp>
#include <cei/rt/api.hpp>
#include <cei/rt/runtime.hpp>

#include <cstdio>
#include <cstdlib>
#include <exception>
#include <memory>
#include <stdexcept>
#include <string>

namespace rt = cei::rt;
using Vec = cei::Vector<float>;

namespace {
const rt::CeInfo& hostile(const std::string& name) {
  for (const rt::CeInfo* ce : remote_test::hostile_ces())
    if (ce->name == name) return *ce;
  throw std::logic_error("no CE " + name);
}
}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: cei-hostile-client K N\n");
    return 2;
  }
  const std::size_t k = std::strtoul(argv[1], nullptr, 10);
  const int n = std::atoi(argv[2]);
  if (!std::getenv("CEI_POLICY"))
    rt::Runtime::instance().set_policy(std::make_unique<remote_test::PreferRemote>());
  try {
    Vec v(k);
    for (std::size_t i = 0; i < k; ++i) v.data()[i] = static_cast<float>(i % 89);
    rt::Scope v_scope(v);  // tasks read v in place: its end waits for them (as ceic writes)
    Vec filled, scaled;
    rt::assign(filled, rt::call<Vec>(hostile("fill"), rt::in<Vec>(v), rt::in<int>(n)));
    rt::assign(scaled, rt::call<Vec>(remote_test::ce_scale, rt::in<Vec>(v), rt::in<float>(2.0f)));
    const Vec& f = rt::sync_read(filled);
    bool right = f.size() == static_cast<std::size_t>(n);
    for (std::size_t i = 0; right && i < f.size(); ++i)
      right = f.data()[i] == static_cast<float>(k);
    right = right && rt::sync_read(scaled) == remote_test::scale(v, 2.0f);
    std::printf(right ? "right\n" : "wrong\n");
    return right ? 0 : 1;
  } catch (const std::exception& e) {
    std::printf("failed: %s\n", e.what());
    return 1;
  }
}
