// Registers the test application's CEs with the runtime (what ceic's generated registry does).
#include "test_app.hpp"

namespace remote_test {
namespace {
const cei::rt::Registration r_scale(ce_scale), r_add(ce_add), r_iota(ce_iota), r_bump(ce_bump),
    r_nap(ce_nap), r_boom(ce_boom), r_inc(ce_inc);
}  // namespace
}  // namespace remote_test
