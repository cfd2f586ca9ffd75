// A known program on the real runtime (CE tables written by hand, as ceic would generate them),
// for trace_tests to run with CEI_TRACE/CEI_GRAPH/CEI_SUMMARY set. Its task graph:
//   t1 scale_add(a, b)  ->  t2 scale_add(b, a)  ->  t3 c = combine(a, b)  ->  t4 scale_add(a, c)
//   with t1 -> t3 (a), t1 -> t4 (a) besides the chain.
#include "../runtime/test_ces.hpp"

#include <cstdio>

int main() {
  namespace rt = cei::rt;
  using test_ces::Vec;
  Vec a(4096, 1), b(4096, 2), c;
  rt::call<void>(test_ces::scale_add, rt::inout<Vec>(a), rt::in<Vec>(b), rt::in<std::int64_t>(1));
  rt::call<void>(test_ces::scale_add, rt::inout<Vec>(b), rt::in<Vec>(a), rt::in<std::int64_t>(2));
  rt::assign(c, rt::call<Vec>(test_ces::combine, rt::in<Vec>(a), rt::in<Vec>(b)));
  rt::call<void>(test_ces::scale_add, rt::inout<Vec>(a), rt::in<Vec>(c), rt::in<std::int64_t>(3));
  std::printf("%lld\n", static_cast<long long>(rt::sync_read(a)[0]));
}
