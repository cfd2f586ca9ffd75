// main() of every NAME-worker: the CEs are the application's registry linked beside it.
#include <cei/worker/node.hpp>

int main(int argc, char** argv) {
  auto ces = cei::rt::registered_ces();
  return cei::worker::node_main(argc, argv, ces, cei::worker::make_runtime_executor);
}
