// The wire vocabulary shared by the worker node (server) and the remote platform (client):
// task requests as JSON, data ids, the bearer-token check. docs/rest-api.yaml is the reference.
//
//   cei::remote::TaskRequest r{"MatmulCEI", "multiply", {{Dir::In, "a", ""}, {Dir::In, "b", ""}},
//   "c"}; std::string body = cei::remote::to_json(r).dump();        // POST /v1/tasks
//   cei::remote::TaskRequest back = cei::remote::parse_task_request(body);  // throws ProtocolError
#pragma once

#include <cei/rt/ce.hpp>

#include <nlohmann/json.hpp>

#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace cei::remote {

// A request the node refuses: the HTTP status it answers and the message it puts in the body.
class ProtocolError : public std::runtime_error {
 public:
  ProtocolError(int status, const std::string& message)
      : std::runtime_error(message), status_(status) {}
  int status() const { return status_; }

 private:
  int status_;
};

struct ArgRef {
  rt::Dir dir = rt::Dir::In;
  std::string data;  // In, InOut: the id of the value read
  std::string out;   // Out, InOut: the id the produced value gets
};

struct TaskRequest {
  std::string interface_name;
  std::string ce;
  std::vector<ArgRef> args;  // the CE's parameters in order (callee first for instance CEs)
  std::string result;        // id of the returned value ("" for void CEs)
};

nlohmann::json to_json(const TaskRequest& r);
// Checks shape and ids only; whether the CE and the data exist is the node's business.
TaskRequest parse_task_request(std::string_view body);

// POST /v1/data/{id}/fetch: the node GETs a value from the peer node that holds it, instead of the
// program sending it (docs/remote.md, "Node-to-node transfers").
struct PeerFetch {
  std::string type;                   // the value's type name, as PUT's ?type=
  std::string url;                    // the peer's base URL
  std::string token;                  // the peer's bearer token
  std::string id;                     // the value's id on the peer
  std::vector<std::int64_t> extents;  // a contiguous value's exact extents; empty: not known
  long timeout_ms = 30000;            // the peer's requests' timeout (1 to 600000)
};

nlohmann::json to_json(const PeerFetch& f);
// Checks shape, ids and ranges (400 naming the field); whether the type is the node's, and the
// URL well formed, is the node's business.
PeerFetch parse_peer_fetch(std::string_view body);

const char* to_string(rt::Dir d);

// How a node's message begins when its data store has no room (a 503 of PUT /v1/data, or a task
// whose outputs did not fit): the client tells it from a node busy with tasks, since a full store
// need not empty by itself.
inline constexpr std::string_view kStoreFull = "the node's data store is full";

// Data ids: 1..128 characters of [A-Za-z0-9._-], so they travel in URLs unescaped.
bool valid_id(std::string_view id);

// Compares in time that depends only on the lengths, so a caller cannot guess a token byte by byte.
bool token_equals(std::string_view given, std::string_view expected);

// "Bearer <token>" -> "<token>", or "" when the header has another form.
std::string_view bearer_token(std::string_view authorization);

}  // namespace cei::remote
