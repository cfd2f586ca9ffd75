// A node's fetches from its peers (POST /v1/data/{id}/fetch, docs/remote.md "Node-to-node
// transfers"): each on a thread of its own, since a fetch waits on the peer as long as its
// timeout and the HTTP server's few threads must stay free for health checks and long polls;
// the peers' clients are kept, so that later fetches reuse their connections.
//
//   PeerFetches peers(64, 16 << 10);
//   auto client = peers.client(url, token, 30000);   // throws invalid_argument for a bad URL
//   if (!peers.start([=] { ... client->get(...) ... })) /* 503: too many at once */;
//   peers.stop();  // waits for the fetches under way
#pragma once

#include "node_client.hpp"

#include <atomic>
#include <cstddef>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace cei::worker {

// Thread-safe.
class PeerFetches {
 public:
  PeerFetches(std::size_t max_at_once, std::size_t min_rate_bytes_s)
      : max_at_once_(max_at_once), min_rate_bytes_s_(min_rate_bytes_s) {}
  ~PeerFetches() { stop(); }
  PeerFetches(const PeerFetches&) = delete;
  PeerFetches& operator=(const PeerFetches&) = delete;

  std::size_t max_at_once() const { return max_at_once_; }
  // Runs job on a thread of its own; false when max_at_once() run already.
  bool start(std::function<void()> job);
  // The client of the peer at `url` with `token`: each wait bounded by timeout_ms, a body by
  // the node's own minimum rate (as the node's uploads are). Throws std::invalid_argument for
  // a URL the client cannot use.
  std::shared_ptr<remote::NodeClient> client(const std::string& url, const std::string& token,
                                             long timeout_ms);
  // Waits for every fetch under way (each ends within its timeout). New ones may start after.
  void stop();

 private:
  struct Running {
    std::thread thread;
    std::shared_ptr<std::atomic<bool>> done;
  };
  void reap();  // joins the threads that ended; mu_ held

  const std::size_t max_at_once_;
  const std::size_t min_rate_bytes_s_;
  std::mutex mu_;
  std::vector<Running> running_;
  std::map<std::string, std::shared_ptr<remote::NodeClient>> clients_;  // by url, token, timeout
};

}  // namespace cei::worker
