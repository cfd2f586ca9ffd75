#include "ops.hpp"

struct Twice : Counter {
  void run() { bump(2); }
};

int main() {
  Twice t;
  t.run();
  return 0;
}
