// The node client's path for values (PUT, GET and DELETE of /v1/data): Boost.Beast over a few
// pooled keep-alive connections, http or https. A request goes out as its head and the caller's
// bytes, gathered from where they lie; an answer's body is read into the memory a BodySink names
// (the destination object's own storage; a large one through a cached buffer, stream_copy.hpp).
// cpprest's client copied each body through buffers of its own, which cost more than the
// loopback transfer itself.
//
//   DataChannel data("https://node:8443", "Bearer secret", options);
//   std::string_view parts[] = {framing, payload};
//   auto reply = data.exchange("PUT", "/v1/data/a?type=f", parts);  // reply.status, reply.body
#pragma once

#include "node_client.hpp"

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace cei::remote {

// Where a successful answer's body goes: its size first, then memory to fill, in order, until
// the spans add up to that size. Either may throw to refuse the body (the exception propagates;
// the connection is dropped).
class BodySink {
 public:
  virtual ~BodySink() = default;
  virtual void start(std::size_t bytes) = 0;
  virtual std::span<char> space() = 0;
};

class DataChannel {
 public:
  DataChannel(const std::string& url, std::string authorization, const ClientOptions& options);
  ~DataChannel();
  DataChannel(const DataChannel&) = delete;
  DataChannel& operator=(const DataChannel&) = delete;

  struct Reply {
    int status = 0;
    std::string body;         // unless a 2xx body went to the sink
    std::string retry_after;  // the Retry-After header, empty when absent
  };
  // Throws NodeError(0, ...) when the node does not answer or the connection fails; any HTTP
  // status is a Reply. Each wait (connect, handshake, for room to send or for data; on https
  // every 16 MiB) has the client's timeout, and the whole exchange a deadline: the timeout plus
  // its bytes (sent, and announced by the answer) at the client's minimum rate, so that a node
  // trickling an answer cannot hold it for ever. A body not given to `sink` (JSON, errors) is
  // refused beyond kMaxTextBody (NodeError::malformed) before it is read. Safe from several
  // threads: each exchange holds a connection of its own.
  Reply exchange(std::string_view method, const std::string& target,
                 std::span<const std::string_view> body = {}, BodySink* sink = nullptr,
                 std::string_view content_type = "application/octet-stream");

  // The largest answer body read into a string: /v1/info of an application with thousands of
  // CEs stays far below it.
  static constexpr std::size_t kMaxTextBody = 8 << 20;

  struct Connection;

 private:
  using Clock = std::chrono::steady_clock;
  // When an exchange begun at `from` moving `bytes` must be over.
  Clock::time_point deadline(Clock::time_point from, std::uint64_t bytes) const;
  std::unique_ptr<Connection> connect(Clock::time_point end);
  void release(std::unique_ptr<Connection> c);

  struct Settings;
  std::unique_ptr<Settings> settings_;
  std::mutex mu_;
  std::vector<std::unique_ptr<Connection>> idle_;
};

}  // namespace cei::remote
