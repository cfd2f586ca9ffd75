#include "peer_fetch.hpp"

#include <utility>

namespace cei::worker {

namespace {
// Clients kept at most: a node has few peers; past it they are all dropped (those in use live on
// with their fetches).
constexpr std::size_t kMaxClients = 64;
}  // namespace

bool PeerFetches::start(std::function<void()> job) {
  std::lock_guard lock(mu_);
  reap();
  if (running_.size() >= max_at_once_) return false;
  auto done = std::make_shared<std::atomic<bool>>(false);
  running_.push_back({std::thread([job = std::move(job), done]() mutable {
                        job();
                        job = nullptr;  // what it holds (the reply) goes before it counts as done
                        done->store(true);
                      }),
                      done});
  return true;
}

void PeerFetches::reap() {
  std::erase_if(running_, [](Running& r) {
    if (!r.done->load()) return false;
    r.thread.join();
    return true;
  });
}

std::shared_ptr<remote::NodeClient> PeerFetches::client(const std::string& url,
                                                        const std::string& token, long timeout_ms) {
  const std::string key = url + '\n' + token + '\n' + std::to_string(timeout_ms);
  std::lock_guard lock(mu_);
  if (auto it = clients_.find(key); it != clients_.end()) return it->second;
  if (clients_.size() >= kMaxClients) clients_.clear();
  remote::ClientOptions o;
  o.timeout = std::chrono::milliseconds(timeout_ms);
  o.min_rate_bytes_s = min_rate_bytes_s_;
  auto c = std::make_shared<remote::NodeClient>(url, token, o);
  clients_.emplace(key, c);
  return c;
}

void PeerFetches::stop() {
  std::vector<Running> all;
  {
    std::lock_guard lock(mu_);
    all.swap(running_);
  }
  for (auto& r : all) r.thread.join();
}

}  // namespace cei::worker
