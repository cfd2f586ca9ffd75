// The test application's worker node: node_main with the hand-written CE tables.
#include "test_app.hpp"

#include <cei/worker/node.hpp>

int main(int argc, char** argv) {
  auto ces = remote_test::all_ces();
  return cei::worker::node_main(argc, argv, ces);
}
