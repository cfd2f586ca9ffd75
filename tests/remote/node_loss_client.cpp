// cei-node-loss-client: a program of the test application, run by node_loss_test.cpp, whose node
// (CEI_REMOTE's node1) the test freezes, restarts or replaces while it runs. It leaves a value
// on the node, prints "ready", waits for a line on stdin, then runs tasks that need that value
// and others, and checks every result against the same computation done here. Without
// CEI_POLICY, every task node1 can run goes there (PreferRemote), so the node holds work when it
// goes.
//
//   cei-node-loss-client        prints "right" (exit status 0) or "wrong" (1)
#include "prefer_remote.hpp"
#include "test_app.hpp"

#include <cei/cei.hpp>
#include <cei/rt/api.hpp>
#include <cei/rt/runtime.hpp>

#include <cstdio>
#include <cstdlib>
#include <exception>
#include <iostream>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace rt = cei::rt;
using remote_test::ce_add;
using remote_test::ce_inc;
using remote_test::ce_nap;
using remote_test::ce_scale;
using Vec = cei::Vector<float>;

int main() {
  if (!std::getenv("CEI_POLICY"))
    rt::Runtime::instance().set_policy(std::make_unique<remote_test::PreferRemote>());
  try {
    Vec a(20000);
    for (std::size_t i = 0; i < a.size(); ++i) a.data()[i] = static_cast<float>(i % 97);
    rt::Scope a_scope(a);  // tasks read a in place: its end waits for them (as ceic writes)
    const Vec twice = remote_test::scale(a, 2.0f);
    Vec v;  // lives only on the node until the end
    rt::assign(v, rt::call<Vec>(ce_scale, rt::in<Vec>(a), rt::in<float>(2.0f)));
    // Once u is here, v's task is over: nothing is under way on the node when the test acts.
    Vec u;
    rt::assign(u, rt::call<Vec>(ce_add, rt::in<Vec>(v), rt::in<Vec>(twice)));
    if (!(rt::sync_read(u) == remote_test::add(twice, twice)))
      throw std::runtime_error("add(scale(a, 2), a * 2) is wrong before the node changed");
    std::printf("ready\n");
    std::fflush(stdout);
    std::string line;
    std::getline(std::cin, line);  // the test has done to the node what it does
    Vec w;
    rt::assign(w, rt::call<Vec>(ce_add, rt::in<Vec>(v), rt::in<Vec>(a)));
    int n = 0;
    rt::assign(n, rt::call<int>(ce_nap, rt::in<int>(300)));
    std::vector<int> incs(8);
    for (int i = 0; i < 8; ++i) rt::assign(incs[i], rt::call<int>(ce_inc, rt::in<int>(i)));
    bool right = rt::sync_read(w) == remote_test::add(twice, a) && rt::sync_read(v) == twice &&
                 rt::sync_read(n) == 300;
    for (int i = 0; i < 8; ++i) right = right && rt::sync_read(incs[i]) == i + 1;
    std::printf(right ? "right\n" : "wrong\n");
    return right ? 0 : 1;
  } catch (const std::exception& e) {
    std::printf("failed: %s\n", e.what());
    return 1;
  }
}
