// RULE: star_this_capture
// `[*this]` copies the object where the lambda is made: its members that tasks write are read
// there first, as a by-copy capture of a variable is (issue 39, item 10).
#include "ops.hpp"

// -----
struct Box {
  Vec d = {1, 2};
  long go() {
    ops::scale(d, 5);
    auto f = [*this] { return d[0]; };
    // CHECK: auto f = ((void)::cei::rt::sync_read(this->d), [*this] {
    return f();
  }
};

// -----
// Near form: `[this]` refers to the object; its uses in the body wait where they run.
struct Ref {
  Vec d = {1, 2};
  long go() {
    ops::scale(d, 5);
    auto f = [this] { return d[0]; };
    // CHECK: auto f = [this] { return ::cei::rt::sync_read(d)[0]; };
    return f();
  }
};
