// A worker node for the hardening tests: the test application's CEs and the hostile ones.
#include "hostile_app.hpp"

#include <cei/worker/node.hpp>

int main(int argc, char** argv) {
  auto ces = remote_test::hostile_ces();
  return cei::worker::node_main(argc, argv, ces);
}
