// Another application's worker node (node_loss_test.cpp): it serves only some of the test
// application's CEs, as the node of another program that took a node's address would.
#include "test_app.hpp"

#include <cei/worker/node.hpp>

int main(int argc, char** argv) {
  std::vector<const cei::rt::CeInfo*> ces = {&remote_test::ce_nap, &remote_test::ce_inc};
  return cei::worker::node_main(argc, argv, ces);
}
