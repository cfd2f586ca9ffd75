// Core Elements that misbehave, for the node hardening tests (hand-written tables, as
// test_app.hpp's): segv(x) dereferences null, abort_now(x) aborts, quit(x) calls exit(x),
// hang(x) never returns, meet(side) returns only once meet(1 - side) runs at the same time (a
// FIFO named by CEI_TEST_MEET_FIFO: side 0 opens it to write, side 1 to read), and
// fill(v, n) = n copies of v.size(), whose OpenCL expressions ("par0.x"; result "par1") refuse
// an empty v and a negative n.
#pragma once

#include <cei/rt/ce.hpp>

#include <vector>

namespace remote_test {

// The test application's CEs (test_app.hpp), then the ones above.
std::vector<const cei::rt::CeInfo*> hostile_ces();

}  // namespace remote_test
