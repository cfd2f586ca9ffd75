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

// -----
// `*this` as an expression (an init capture, a copy) copies the object too: the members that
// tasks write are read first.
struct Snap {
  Vec d = {1, 2};
  long go() {
    ops::scale(d, 5);
    auto f = [self = *this] { return self.d[0]; };
    // CHECK: auto f = [self = ((void)::cei::rt::sync_read(this->d), *this)] { return self.d[0]; };
    const Snap copy = *this;
    // CHECK: const Snap copy = ((void)::cei::rt::sync_read(this->d), *this);
    return f() + copy.d[1];
  }
};
