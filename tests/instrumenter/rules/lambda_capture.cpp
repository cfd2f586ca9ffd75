// RULE: lambda_capture
// A lambda that captures a tracked variable by copy takes the copy after a sync_read where the
// lambda is created; uses of by-reference captures inside its body are synced where they run.
#include "ops.hpp"

// -----
void captures() {
  Vec v = {1, 2};
  ops::scale(v, 2);
  auto f = [v] { return v[0]; };
  // CHECK: auto f = ((void)::cei::rt::sync_read(v), [v] { return v[0]; });
  auto g = [&v] { return v[1]; };
  // CHECK: auto g = [&v] { return ::cei::rt::sync_read(v)[1]; };
  auto h = [&] { v.push_back(3); };
  // CHECK: auto h = [&] { ::cei::rt::sync(v).push_back(3); };
  (void)f, (void)g, (void)h;
}

// -----
// Near form: a lambda copying a variable no task uses is left as written.
void not_this_rule() {
  Vec w = {1, 2};
  auto f = [w] { return w[0]; };
  // CHECK: auto f = [w] { return w[0]; };
  (void)f;
}
