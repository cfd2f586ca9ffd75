// A blocking client of one worker node's REST API (docs/rest-api.yaml), used by the remote
// platform, the tests and the benchmark. Every call throws NodeError on failure; status 0 means
// the node did not answer (refused, reset, timed out).
//
//   cei::remote::NodeClient node("http://127.0.0.1:8080", "secret");
//   node.put("a", cei::rt::type_ops<cei::Vector<float>>().name, bytes);
//   std::string task = node.submit(request);
//   auto st = node.status(task, /*wait_ms=*/1000);   // long poll
//   node.put("v", cei::rt::type_ops<cei::Vector<float>>(), &v);   // from v's own memory
//   node.get("v", cei::rt::type_ops<cei::Vector<float>>(), &w);   // into w's own memory
#pragma once

#include "protocol.hpp"

#include <cei/rt/type_ops.hpp>

#include <nlohmann/json.hpp>

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace cei::remote {

class NodeError : public std::runtime_error {
 public:
  NodeError(int status, const std::string& message,
            std::chrono::seconds retry_after = std::chrono::seconds(0), bool timed_out = false)
      : std::runtime_error(message),
        status_(status),
        retry_after_(retry_after),
        timed_out_(timed_out) {}
  // An answer that breaks the protocol (unparseable, over a bound, another shape than asked
  // for): the node is not to be trusted any more, as one that does not answer.
  static NodeError malformed(const std::string& what) {
    NodeError e(0, "malformed answer from the node: " + what);
    e.malformed_ = true;
    return e;
  }
  int status() const { return status_; }  // the HTTP status, 0 when the node did not answer
  bool unreachable() const { return status_ == 0; }
  // Unreachable because the node was silent past the request timeout (frozen, or the network
  // gone), not because a connection was refused or closed.
  bool timed_out() const { return timed_out_; }
  bool malformed() const { return malformed_; }
  // 503 because the node's data store has no room (kStoreFull), which need not pass by itself.
  bool store_full() const {
    return busy() && std::string_view(what()).find(kStoreFull) != std::string_view::npos;
  }
  // 503: the node is over capacity, not failed; ask again after retry_after() (its Retry-After
  // header, at least 1 s).
  bool busy() const { return status_ == 503; }
  std::chrono::seconds retry_after() const { return retry_after_; }

 private:
  int status_;
  std::chrono::seconds retry_after_;
  bool timed_out_;
  bool malformed_ = false;
};

struct ClientOptions {
  // Per wait (connect, each wait for data or room, an answer's head; long polls included). A
  // whole exchange must also be over within timeout + its bytes / min_rate_bytes_s.
  std::chrono::milliseconds timeout{30000};
  std::size_t min_rate_bytes_s = 64 << 10;
  bool validate_certificates = true;  // https only
  std::string ca_file;                // https: trust this PEM bundle besides the system's
};

struct TaskStatus {
  std::string state;  // queued | running | done | failed
  std::string error;
  bool crashed = false;     // failed: the CE ended the node's worker process (a signal, exit)
  bool store_full = false;  // failed: its outputs did not fit in the node's data store
  double exec_s = 0;
  bool finished() const { return state == "done" || state == "failed"; }
};

// What a download must be, as far as its caller knows: checked against the answer's head before
// any memory is allocated for it, so that a hostile node cannot hand back a value of another
// shape. (Without it, memory is committed as the bytes arrive past 64 MiB, never on the word of
// a Content-Length alone.)
struct Expected {
  std::vector<std::int64_t> extents;  // a contiguous value's exact extents; empty: not known
  // Called with the answer's announced size before any memory is committed for it; throws to
  // refuse it (a node fetching from a peer reserves room in its store here). Null: none.
  std::function<void(std::size_t)> admit = nullptr;
};

// What a node's fetch from its peer moved (POST /v1/data/{id}/fetch), as the node measured it.
struct Fetched {
  std::size_t bytes = 0;
  double seconds = 0;
};

class NodeClient {
 public:
  NodeClient(const std::string& url, std::string token, ClientOptions options = {});
  ~NodeClient();
  NodeClient(const NodeClient&) = delete;
  NodeClient& operator=(const NodeClient&) = delete;

  const std::string& url() const { return url_; }
  bool health();  // false instead of throwing
  nlohmann::json info();
  nlohmann::json forecast(const std::string& interface_name, const std::string& ce,
                          double input_bytes);
  void put(const std::string& id, const std::string& type_name, std::string bytes);
  std::string get(const std::string& id);
  // A value sent from, or received into, the object itself: a contiguous value's framing and
  // payload leave from (arrive in) its own storage with no copy on the way, reshaped for
  // overwrite on arrival; an object travels as its cereal bytes. Both return the bytes moved. A
  // download that is not a well-formed `type`, or not what `expected` says, throws
  // NodeError::malformed.
  std::size_t put(const std::string& id, const rt::TypeOps& type, const void* value);
  std::size_t get(const std::string& id, const rt::TypeOps& type, void* value,
                  const Expected& expected = {});
  void erase(const std::string& id);
  // Asks the node to GET `from.id` from its peer and store it as `id`. A peer that fails (refuses
  // the token, lacks the value, sends a malformed one, does not answer) is NodeError 502 with
  // the node's account; other statuses are the node's own, as for put().
  Fetched fetch(const std::string& id, const PeerFetch& from);
  std::string submit(const TaskRequest& r);  // the task's id
  // A long poll of wait_ms, cut to half the request timeout; a task not finished by then
  // answers its current state.
  TaskStatus status(const std::string& task, long wait_ms = 0);

  struct Impl;

 private:
  std::string url_;
  std::unique_ptr<Impl> impl_;
};

}  // namespace cei::remote
