// A worker node: serves the REST API of docs/rest-api.yaml for one application's Core Elements
// and runs the tasks it receives on its own platforms. `NAME-worker` (built by
// cei_add_application) is this with the application's registry:
//
//   NAME-worker --host 127.0.0.1 --port 8080 --token-file token.txt [--platforms platforms.toml]
//
// Embedding it (tests do, with hand-written CE tables):
//   cei::worker::NodeOptions o;  o.port = 8080;  o.token = "secret";
//   cei::worker::Node node(o, ces);  node.open();  ...  node.close();
#pragma once

#include <cei/rt/ce.hpp>

#include <cstddef>
#include <memory>
#include <span>
#include <string>

namespace cei::worker {

class Executor;
// Builds the executor that runs tasks through the CEI runtime (linked by CEI::worker), inside the
// node's process. Without one a node runs each CE's first native version: in a child process per
// task (isolate; NAME-worker's default, --executor process) or on its own threads.
using ExecutorFactory = std::unique_ptr<Executor> (*)();
std::unique_ptr<Executor> make_runtime_executor();

struct NodeOptions {
  std::string host = "127.0.0.1";
  int port = 8080;
  std::string token;                        // required: every request carries it as a bearer token
  std::size_t max_body_bytes = 1ull << 30;  // PUT /v1/data bodies; larger ones get 413
  std::size_t max_json_bytes = 1u << 20;    // JSON bodies
  std::size_t max_tasks = 1024;             // queued + running; beyond it POST /v1/tasks gets 503
  std::size_t max_data_bytes = 8ull << 30;  // everything stored; beyond it PUT gets 503
  unsigned threads = 0;                     // tasks at once, native executors: 0 = every core
  ExecutorFactory executor = nullptr;       // null: native execution (isolated or direct)
  // Native execution in a child process per task. Off for embedders, whose whole process a fork
  // would copy the page tables of (docs/remote.md, "Task isolation"); node_main turns it on.
  bool isolate = false;
  long task_timeout_ms = 0;  // isolated tasks running longer are killed (0: only CE timeouts)
  // Finished tasks are forgotten (GET /v1/tasks/{id} then 404) after this long, or when more
  // than max_finished_tasks have finished since, whichever comes first.
  long finished_task_ttl_s = 600;
  std::size_t max_finished_tasks = 10000;
  // A body moving slower than this over any window of rate_window_s (upload or download) is
  // cut off, its connection closed and whatever it had reserved released.
  std::size_t min_rate_bytes_s = 16 << 10;
  int rate_window_s = 10;
  // Open at once: past it a newcomer takes the place of the oldest connection that has not sent
  // the token yet, or is closed unanswered when every connection has.
  std::size_t max_connections = 4096;
  // Connections from one address that have not sent the token yet: past it a newcomer takes the
  // place of that address's oldest.
  std::size_t max_peer_connections = 64;
  int head_timeout_s = 10;  // a request head must arrive whole within this (docs/remote.md)
  std::string tls_cert;                // PEM files; both set: serve https
  std::string tls_key;
  std::string tls_dh;  // optional DH parameters (PEM)
};

class Node {
 public:
  Node(NodeOptions options, std::span<const rt::CeInfo* const> ces);
  ~Node();
  Node(const Node&) = delete;
  Node& operator=(const Node&) = delete;

  void open();   // starts listening; throws when the address is taken
  void close();  // stops listening (tasks in flight finish)
  std::string url() const;

  struct Impl;

 private:
  std::unique_ptr<Impl> impl_;
};

// Parses the command line (CLI11), opens the node and serves until SIGINT/SIGTERM.
int node_main(int argc, char** argv, std::span<const rt::CeInfo* const> ces,
              ExecutorFactory runtime_executor = nullptr);

}  // namespace cei::worker
