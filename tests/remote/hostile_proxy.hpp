// A hostile node for the client-side tests: a proxy on 127.0.0.1 (a free port) in front of a real
// worker node that forwards every request and answer, except what its mode changes:
//   Pass         nothing;
//   ShortVector  the first GET /v1/data answer loses its last float (extent and length fixed up:
//                a well-formed vector one element short);
//   HugeValue    the first GET /v1/data is answered with the head of a 3 GiB vector, then nothing;
//   HugeUnknown  the second one with the head of a 1 GiB vector, then nothing;
//   HugeInfo     GET /v1/info is answered with a 1000 MB Content-Length, then nothing;
//   Trickle      the first GET /v1/data answer goes out one byte per 100 ms;
//   Freeze       from the first PUT /v1/data on, nothing more is read or answered on any
//                connection (what SIGSTOP does to a node, whose kernel still accepts bytes).
#pragma once

#include <atomic>
#include <condition_variable>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace remote_test {

class HostileProxy {
 public:
  enum class Mode { Pass, ShortVector, HugeValue, HugeUnknown, HugeInfo, Trickle, Freeze };
  HostileProxy(int node_port, Mode mode);
  ~HostileProxy();  // closes every connection
  HostileProxy(const HostileProxy&) = delete;
  HostileProxy& operator=(const HostileProxy&) = delete;

  std::string url() const { return "http://127.0.0.1:" + std::to_string(port_); }

 private:
  void accept_loop();
  void serve(int client);
  // Sends the node's answer to `request` on to the client, changed as the mode says; false
  // when the connection is done.
  bool answer(int client, int upstream, const std::string& request);
  bool stopping();
  void hold();  // Freeze: until the proxy is destroyed

  int node_port_, port_ = 0, listener_ = -1;
  Mode mode_;
  std::atomic<bool> stop_{false}, frozen_{false};
  std::atomic<int> data_gets_{0};  // GET /v1/data answers so far
  std::mutex mu_;
  std::condition_variable cv_;
  std::vector<int> sockets_;  // open connections, closed at the end
  std::vector<std::thread> threads_;
};

}  // namespace remote_test
