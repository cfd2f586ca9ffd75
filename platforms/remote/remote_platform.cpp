// Tasks sent to a worker node: inputs the node lacks are uploaded (a version already there is a
// Replica of this platform), outputs stay on the node as Replicas until the host or another
// platform asks for them. Faults lose nothing:
//  - a node over capacity (503 with Retry-After) is busy, not failed: the task waits as the node
//    says and asks again (forecasts add the wait, so new tasks go elsewhere meanwhile); a node
//    still busy after the request timeout hands the task to another platform;
//  - a node that fails mid-task is marked down (probed again after a doubling backoff) and the
//    task is handed, unfinished, to another platform that can run it;
//  - every output Replica keeps its lineage (the CE and its input versions, so those stay alive
//    until the output is safe on the host): when the node is gone, to_host recomputes the value
//    on the host from them (recursively, if they too lived only on the node).
#include "remote_platform.hpp"

#include "node_client.hpp"

#include <cei/rt/decision/config.hpp>
#include <cei/rt/runtime.hpp>

#include <algorithm>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <future>
#include <mutex>
#include <random>
#include <set>
#include <sstream>
#include <thread>

namespace cei::remote {
namespace {

using rt::Clock;

class RemotePlatform;

// How to recompute an output on the host: the CE, what each argument read, which one it is.
// An input that had a host copy is kept as a copy of its own (`snapshots`), not as its version:
// that version may be the program's variable read in place, and holding it would make the
// program's next write to that variable, or the end of its scope, wait until this output reaches
// the host, which may never happen before (a local of a loop body, its result synced later).
struct Lineage {
  const rt::CeInfo* ce = nullptr;
  // Per argument (params then result): the value read, in one of the two; both null for Out args.
  std::vector<rt::VersionPtr> inputs;
  std::vector<std::shared_ptr<void>> snapshots;
  std::size_t output = 0;  // index of this value among the arguments
};

class RemoteReplica : public rt::Replica {
 public:
  RemoteReplica(RemotePlatform& p, std::string id, const rt::TypeOps& type, std::size_t bytes,
                std::shared_ptr<const Lineage> lineage = nullptr)
      : p_(p), id_(std::move(id)), type_(type), bytes_(bytes), lineage_(std::move(lineage)) {}
  ~RemoteReplica() override;
  rt::Platform& owner() override;
  void to_host(void* dst, std::function<void(std::exception_ptr)> done) override;
  std::size_t bytes() const override { return bytes_; }

 private:
  void fetch(void* dst);

  RemotePlatform& p_;
  std::string id_;
  const rt::TypeOps& type_;
  std::size_t bytes_;
  std::mutex mu_;
  std::shared_ptr<const Lineage> lineage_;  // dropped once a host copy exists
};

void wait_host(rt::Version& v) {
  std::promise<std::exception_ptr> p;
  v.ensure_host([&](std::exception_ptr e) { p.set_value(e); });
  if (auto e = p.get_future().get()) std::rethrow_exception(e);
}

// Runs the CE's first native version on host copies of its inputs; moves output `l.output` to dst.
void recompute(const Lineage& l, void* dst) {
  const rt::CeInfo& ce = *l.ce;
  std::size_t n = ce.nparams + (ce.result ? 1 : 0);
  std::vector<std::shared_ptr<void>> storage(n);
  std::vector<void*> raw(n);
  for (std::size_t i = 0; i < n; ++i) {
    const rt::TypeOps& type = i < ce.nparams ? *ce.params[i].type : *ce.result;
    bool reads = i < ce.nparams && ce.params[i].dir != rt::Dir::Out;
    const void* read = nullptr;
    if (reads && l.snapshots[i]) {
      read = l.snapshots[i].get();
    } else if (reads) {
      wait_host(*l.inputs[i]);
      read = l.inputs[i]->host();
    }
    storage[i] = std::shared_ptr<void>(type.create(), type.destroy);
    if (reads) type.copy(storage[i].get(), read);
    raw[i] = storage[i].get();
  }
  if (ce.nversions == 0)
    throw std::runtime_error(std::string("cannot recompute ") + ce.name + ": no native version");
  ce.versions[0].invoke(raw.data());
  const rt::TypeOps& out = l.output < ce.nparams ? *ce.params[l.output].type : *ce.result;
  out.move(dst, raw[l.output]);
}

class RemotePlatform : public rt::Platform {
 public:
  RemotePlatform(std::string name, std::string url, std::string token, RemoteOptions o)
      : name_(std::move(name)), opt_(o), backoff_(o.retry_after) {
    set_prices({o.price_per_gb, o.price_per_hour});
    ClientOptions c;
    c.timeout = o.timeout;
    c.validate_certificates = o.validate_certificates;
    c.ca_file = o.ca_file;
    client_ = std::make_unique<NodeClient>(url, std::move(token), c);
    std::random_device rd;
    std::ostringstream s;
    s << std::hex << rd() << rd();
    session_ = s.str();
    probe();
    for (std::size_t i = 0; i < std::max<std::size_t>(2, workers_); ++i)
      threads_.emplace_back([this] { loop(); });
  }
  ~RemotePlatform() override { shutdown(); }

  const std::string& name() const override { return name_; }
  const char* kind() const override { return "remote"; }
  bool can_run(const rt::CeInfo& ce) const override {
    std::lock_guard lock(mu_);
    return up() && ces_.count(std::string(ce.interface_name) + "::" + ce.name) > 0;
  }
  std::size_t workers() const override { return workers_; }

  rt::Forecast forecast(const rt::Task& t) const override {
    rt::Forecast f;
    std::lock_guard lock(mu_);
    if (!up()) {
      f.feasible = false;
      return f;
    }
    double to_send = 0, input = 0;
    for (const auto& a : const_cast<rt::Task&>(t).args()) {
      if (!a.in) continue;
      double b = static_cast<double>(a.in->bytes());
      input += b;
      if (!a.in->replica_on(*this)) to_send += b;
    }
    f.transfer_s = latency_s_ * 2 + to_send / bandwidth_;
    f.exec_s = 1e-3;
    if (auto* rt = rt::Runtime::if_started(); rt && rt->profiles()) {
      auto p = rt->profiles()->predict(t.ce(), 0, name_, input);
      f.exec_s = p.seconds;
      f.time_source = p.source;
    }
    double now = rt::Runtime::if_started() ? rt::Runtime::if_started()->now_s() : 0;
    double queue = static_cast<double>(queued_) * f.exec_s /
                   static_cast<double>(std::max<std::size_t>(1, workers_));
    f.end_s = now + busy_s() + queue + f.transfer_s + f.exec_s;
    f.energy_j = opt_.power_w * (f.transfer_s + f.exec_s);
    f.cost = opt_.price_per_gb * to_send / 1e9 + opt_.price_per_hour * f.exec_s / 3600;
    f.cost_source = opt_.price_per_gb > 0 || opt_.price_per_hour > 0 ? rt::Source::Measured
                                                                     : rt::Source::Default;
    return f;
  }

  void submit(rt::TaskPtr t) override {
    {
      std::lock_guard lock(mu_);
      queue_.push_back(std::move(t));
      ++queued_;
    }
    cv_.notify_one();
  }

  void shutdown() override {
    {
      std::lock_guard lock(mu_);
      if (stop_) return;
      stop_ = true;
    }
    cv_.notify_all();
    for (auto& th : threads_) th.join();
  }

  NodeClient& client() { return *client_; }

  // A value the program no longer needs: deleted from the node by a platform thread.
  void forget(std::string id) {
    {
      std::lock_guard lock(mu_);
      if (stop_) return;
      garbage_.push_back(std::move(id));
    }
    cv_.notify_one();
  }

  void note_transfer(std::size_t bytes, double seconds) {
    if (bytes < (1u << 20) || seconds <= 0)
      return;  // small transfers measure latency, not bandwidth
    std::lock_guard lock(mu_);
    bandwidth_ = 0.7 * bandwidth_ + 0.3 * (static_cast<double>(bytes) / seconds);
  }

 private:
  bool up() const { return Clock::now().time_since_epoch().count() >= down_until_.load(); }
  // Seconds until the node said it may take work again (0 when it did not say so).
  double busy_s() const {
    auto left = Clock::duration(busy_until_.load() - Clock::now().time_since_epoch().count());
    return std::max(0.0, std::chrono::duration<double>(left).count());
  }

  // Sends a request that a node over capacity answers with 503: waits its Retry-After and asks
  // again, for at most the request timeout in all, then lets the NodeError through.
  template <typename F>
  auto unless_busy(F&& request) {
    const auto deadline = Clock::now() + opt_.timeout;
    for (;;) {
      try {
        return request();
      } catch (const NodeError& e) {
        if (!e.busy() || Clock::now() >= deadline) throw;
        auto until = std::min<Clock::time_point>(Clock::now() + e.retry_after(), deadline);
        busy_until_ = until.time_since_epoch().count();
        std::this_thread::sleep_until(until);
      }
    }
  }

  // Latency (a health round trip) and the CEs the node serves; marks the node down on failure.
  void probe() {
    try {
      auto t0 = Clock::now();
      bool ok = client_->health();
      double rtt = std::chrono::duration<double>(Clock::now() - t0).count();
      if (!ok) throw NodeError(0, "no answer");
      auto info = client_->info();
      std::lock_guard lock(mu_);
      latency_s_ = rtt / 2;
      ces_.clear();
      for (const auto& ce : info.at("ces")) {
        ces_.insert(ce.at("interface").get<std::string>() +
                    "::" + ce.at("name").get<std::string>());
      }
      workers_ = std::max<std::size_t>(1, info.at("load").at("workers").get<std::size_t>());
      backoff_ = opt_.retry_after;
      down_until_ = 0;
    } catch (const std::exception&) {
      mark_down();
    }
  }

  void mark_down() {
    std::lock_guard lock(mu_);
    down_until_ = (Clock::now() + backoff_).time_since_epoch().count();
    backoff_ = std::min(backoff_ * 2, std::chrono::milliseconds(60000));
  }

  // "<session>-d3v2": the node's key for a version (fetch() reads the version's name back).
  std::string id_of(const rt::Version& v) const { return session_ + "-" + version_name(v); }

  static void wait_ready(rt::Version& v) {
    std::promise<void> p;
    v.on_ready([&] { p.set_value(); });
    p.get_future().wait();
    if (v.state() == rt::Version::State::Failed) std::rethrow_exception(v.error());
  }

  void run(rt::Task& t) {
    auto& args = t.args();
    TaskRequest req{t.ce().interface_name, t.ce().name, {}, ""};
    auto& timing = t.timing();
    timing.start = Clock::now();
    for (std::size_t i = 0; i < args.size(); ++i) {
      auto& a = args[i];
      if (a.in) {
        wait_ready(*a.in);
        std::string id = id_of(*a.in);
        if (!a.in->replica_on(*this)) {
          wait_host(*a.in);
          std::size_t n = 0;
          Clock::time_point t0, t1;  // the upload that succeeded, not the waits for a busy node
          unless_busy([&] {
            t0 = Clock::now();
            n = client_->put(id, a.in->type(), a.in->host());  // from the host copy's memory
            t1 = Clock::now();
          });
          const double s = std::chrono::duration<double>(t1 - t0).count();
          note_transfer(n, s);
          if (rt::observing())
            rt::observe_transfer({this, t.id(), data_name(*a.in), n, true, t0, t1});
          timing.bytes_in += n;
          timing.transfer_in_s += s;
          a.in->add_replica(std::make_shared<RemoteReplica>(*this, id, a.in->type(), n));
        }
        if (i < t.ce().nparams) req.args.push_back({a.dir, id, a.out ? id_of(*a.out) : ""});
      } else if (i < t.ce().nparams) {
        req.args.push_back({a.dir, "", id_of(*a.out)});
      } else {
        req.result = id_of(*a.out);
      }
    }
    std::string task = unless_busy([&] { return client_->submit(req); });
    TaskStatus st;
    do {
      st = client_->status(task, 30000);
    } while (!st.finished());
    timing.end = Clock::now();
    if (st.state == "failed") {
      t.finish(std::make_exception_ptr(std::runtime_error(st.error)));
      return;
    }
    std::vector<rt::VersionPtr> inputs(args.size());
    std::vector<std::shared_ptr<void>> snapshots(args.size());
    for (std::size_t i = 0; i < args.size(); ++i) {
      const auto& in = args[i].in;
      if (!in) continue;
      if (void* host = in->host()) {
        snapshots[i] = std::shared_ptr<void>(in->type().create(), in->type().destroy);
        in->type().copy(snapshots[i].get(), host);
      } else {
        inputs[i] = in;
      }
    }
    for (std::size_t i = 0; i < args.size(); ++i) {
      auto& a = args[i];
      if (!a.out) continue;
      auto lineage = std::make_shared<Lineage>(Lineage{&t.ce(), inputs, snapshots, i});
      a.out->publish_replica(std::make_shared<RemoteReplica>(*this, id_of(*a.out), a.out->type(),
                                                             a.out->bytes(), std::move(lineage)));
    }
    {
      std::lock_guard lock(mu_);
      backoff_ = opt_.retry_after;  // the node answers again: the next failure starts afresh
    }
    t.finish();
  }

  // The node failed this task (or stayed busy too long): another platform that can run it takes
  // it over, unfinished.
  void fail_over(const rt::TaskPtr& t, const NodeError& why) {
    if (!why.busy()) mark_down();
    if (auto* rt = rt::Runtime::if_started()) {
      for (auto* p : rt->platforms()) {
        if (p != this && p->can_run(t->ce())) {
          rt->task_moved(*t, *p);
          p->submit(t);
          return;
        }
      }
    }
    t->finish(
        std::make_exception_ptr(std::runtime_error("node " + name_ + " failed: " + why.what())));
  }

  void loop() {
    for (;;) {
      rt::TaskPtr t;
      std::vector<std::string> garbage;
      {
        std::unique_lock lock(mu_);
        cv_.wait(lock, [&] { return stop_ || !queue_.empty() || !garbage_.empty(); });
        garbage.swap(garbage_);
        if (queue_.empty() && garbage.empty()) return;
        if (!queue_.empty()) {
          t = std::move(queue_.front());
          queue_.pop_front();
        }
      }
      if (up()) {
        for (const auto& id : garbage) {
          try {
            client_->erase(id);
          } catch (const NodeError&) {  // already gone, or the node is: nothing left to free
          }
        }
      }
      if (!t) continue;
      try {
        run(*t);
      } catch (const NodeError& e) {
        if (e.unreachable() || e.busy()) {
          fail_over(t, e);
        } else {
          t->finish(std::current_exception());
        }
      } catch (...) {
        t->finish(std::current_exception());
      }
      std::lock_guard lock(mu_);
      --queued_;
    }
  }

  std::string name_;
  RemoteOptions opt_;
  std::unique_ptr<NodeClient> client_;
  std::string session_;
  mutable std::mutex mu_;
  std::condition_variable cv_;
  std::deque<rt::TaskPtr> queue_;
  std::vector<std::string> garbage_;
  std::size_t queued_ = 0;
  bool stop_ = false;
  std::set<std::string> ces_;
  std::size_t workers_ = 1;
  double latency_s_ = 1e-3;
  double bandwidth_ = 100e6;  // bytes/s until measured
  std::chrono::milliseconds backoff_;
  std::atomic<Clock::rep> down_until_{0};  // the node is not offered tasks before this
  std::atomic<Clock::rep> busy_until_{0};  // the node's last Retry-After ends then
  std::vector<std::thread> threads_;
};

RemoteReplica::~RemoteReplica() {
  p_.forget(std::move(id_));
}

rt::Platform& RemoteReplica::owner() {
  return p_;
}

void RemoteReplica::fetch(void* dst) {
  std::shared_ptr<const Lineage> lineage;
  {
    std::lock_guard lock(mu_);
    lineage = lineage_;
  }
  try {
    const auto t0 = Clock::now();
    std::size_t n = p_.client().get(id_, type_, dst);  // straight into dst's memory
    const auto t1 = Clock::now();
    p_.note_transfer(n, std::chrono::duration<double>(t1 - t0).count());
    // The task that asked for it is not known here: the host's own fetches and other platforms'
    // tasks alike show as task 0.
    if (rt::observing())
      rt::observe_transfer({&p_, 0, id_.substr(id_.find('-') + 1), n, false, t0, t1});
  } catch (const NodeError& e) {
    if (!lineage || !(e.unreachable() || e.status() == 404)) throw;
    recompute(*lineage, dst);  // the node is gone (or lost the value): rebuild it here
  }
  std::lock_guard lock(mu_);
  lineage_.reset();  // the value is safe on the host now
}

void RemoteReplica::to_host(void* dst, std::function<void(std::exception_ptr)> done) {
  // On a thread of its own: the caller must not block, and a recomputation may wait for inputs.
  // The version holds this replica until done() is called.
  std::thread([this, dst, done = std::move(done)] {
    try {
      fetch(dst);
      done(nullptr);
    } catch (...) {
      done(std::current_exception());
    }
  }).detach();
}

// A number of CEI_REMOTE's `key`, the whole text of `v` and at least 0, or an invalid_argument
// that names the key.
double remote_number(const std::string& k, const std::string& v) {
  char* end = nullptr;
  const double x = std::strtod(v.c_str(), &end);
  if (v.empty() || *end != '\0' || !(x >= 0))
    throw std::invalid_argument("CEI_REMOTE: " + k + ": expected a number >= 0, got '" + v + "'");
  return x;
}

// CEI_REMOTE="name=url,token=T[,timeout_ms=N][,retry_ms=N][,per_gb=P][,per_hour=P];name2=..."
void add_from_env(rt::Runtime& rt) {
  const char* env = std::getenv("CEI_REMOTE");
  if (!env) return;
  std::stringstream all(env);
  std::string entry;
  while (std::getline(all, entry, ';')) {
    if (entry.empty()) continue;
    std::stringstream fields(entry);
    std::string field, name, url, token;
    RemoteOptions o;
    while (std::getline(fields, field, ',')) {
      auto eq = field.find('=');
      if (eq == std::string::npos)
        throw std::invalid_argument("CEI_REMOTE: '" + field + "' is not key=value");
      std::string k = field.substr(0, eq), v = field.substr(eq + 1);
      if (name.empty()) {
        name = k;
        url = v;
      } else if (k == "token") {
        token = v;
      } else if (k == "timeout_ms") {
        o.timeout =
            std::chrono::milliseconds(static_cast<long>(std::min(remote_number(k, v), 1e12)));
      } else if (k == "retry_ms") {
        o.retry_after =
            std::chrono::milliseconds(static_cast<long>(std::min(remote_number(k, v), 1e12)));
      } else if (k == "per_gb") {
        o.price_per_gb = remote_number(k, v);
      } else if (k == "per_hour") {
        o.price_per_hour = remote_number(k, v);
      } else {
        throw std::invalid_argument("CEI_REMOTE: unknown key '" + k + "'");
      }
    }
    try {
      rt.add_platform(make_remote_platform(name, url, token, o));
    } catch (const std::invalid_argument& e) {  // the URL
      throw std::invalid_argument("CEI_REMOTE: " + name + ": " + e.what());
    }
  }
}

// Every platform of type "remote" in the launch config (CEI_PLATFORMS), then CEI_REMOTE's. The
// config has no per-node timeouts: those keep RemoteOptions' defaults (CEI_REMOTE can set them).
void add_remote_platforms(rt::Runtime& rt) {
  const rt::Config* config = nullptr;
  try {
    config = &rt::launch_config();
  } catch (const rt::ConfigError&) {
    // The policy factory reports a broken launch config and stops the program; nothing to add.
    return;
  }
  for (const auto& p : config->platforms) {
    if (p.type != rt::PlatformType::Remote) continue;
    RemoteOptions o;
    o.price_per_gb = p.prices.per_gb;
    o.price_per_hour = p.prices.per_hour;
    if (p.power_configured) o.power_w = p.power.idle_w;  // the host idles while the node works
    rt.add_platform(make_remote_platform(p.name, p.url, p.token, o));
  }
  try {
    add_from_env(rt);
  } catch (const std::invalid_argument& e) {
    // As a mistake in the launch config (docs/policies.md): the program must not run without the
    // nodes the user asked for.
    std::fprintf(stderr, "cei: %s\n", e.what());
    std::exit(2);
  }
}

const bool registered = rt::register_platform_factory("remote", add_remote_platforms);

}  // namespace

std::unique_ptr<rt::Platform> make_remote_platform(const std::string& name, const std::string& url,
                                                   const std::string& token,
                                                   RemoteOptions options) {
  return std::make_unique<RemotePlatform>(name, url, token, options);
}

}  // namespace cei::remote
