// Tasks sent to a worker node: inputs the node lacks are uploaded (a version already there is a
// Replica of this platform), outputs stay on the node as Replicas until the host or another
// platform asks for them. The platform never places a task itself: it reports verdicts to the
// scheduler (runtime/src/scheduler.hpp). Faults lose nothing:
//  - a node over capacity (503 with Retry-After) is busy, not failed: the task waits as the node
//    says and asks again (forecasts add the wait, so new tasks go elsewhere meanwhile); a node
//    still busy after the request timeout gives the task back (Failure::Elsewhere): the scheduler
//    places it again through the policy, without this node;
//  - a CE that crashed the node's worker process (the node says `crashed`) fails its task with
//    Failure::Crash: a retry never runs it inside the program's own process;
//  - a node that does not answer within the request timeout (down, frozen, unreachable), or that
//    turns out to be another one (restarted: a new instance; replaced: other CEs) when it answers
//    as if it had lost our values (404, 400), or that misses its health checks, is lost: the
//    runtime re-places its unfinished tasks through the policy, and once the node answers its
//    health checks again (as a node of the same application) it is admitted again, holding
//    none of the values it held before (an admission's epoch marks the replicas it made). Under
//    only:<node> the program stops instead, with a message naming the node and the cause
//    (docs/remote.md);
//  - a value's copy on the node is deleted once no replica of this platform holds its id, never
//    while another upload of the same id (a version named like an earlier one) is in use;
//  - every output Replica keeps its lineage (the CE and its input versions, so those stay alive
//    until the output is safe on the host): when the node is gone, to_host recomputes the value
//    on the host from them (recursively, if they too lived only on the node).
#include "remote_platform.hpp"

#include "../../opencl/src/expr_args.hpp"  // header-only: what result_size expressions read
#include "node_client.hpp"

#include <cei/expr.hpp>
#include <cei/rt/decision/config.hpp>
#include <cei/rt/decision/host_cores.hpp>
#include <cei/rt/native.hpp>
#include <cei/rt/runtime.hpp>
#include <cei/rt/task_context.hpp>
#include <cei/rt/trace/log.hpp>

#include <algorithm>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <filesystem>
#include <fstream>
#include <future>
#include <map>
#include <mutex>
#include <optional>
#include <random>
#include <set>
#include <shared_mutex>
#include <sstream>
#include <thread>
#include <utility>

namespace cei::remote {
namespace {

using rt::Clock;

// CEI_REMOTE_JOIN's folder, looked at from the nodes' health monitors, and the nodes of the start
// that it knows of (defined below).
void poll_join_folder();
void note_start_node(const std::string& name, const std::string& url);

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
  std::size_t depth = 1;   // 1 + the deepest lineage among the inputs
};

// A value whose lineage is this deep is brought to the host once made: a lineage keeps its inputs
// alive until the value is on the host, and a chain of tasks whose values go node to node never
// reaches it (16 nodes, 64 chains: 20,000 tasks held 45 MiB against 16 for 2,000).
constexpr std::size_t kMaxLineageDepth = 32;

// What a node is: the process (its instance, new at every start) and the application it serves
// (its CEs with their types). Another node at the same address holds none of our values.
struct Identity {
  std::string instance;
  std::string ces;  // /v1/info's "ces", serialized
};

Identity identity_of(const nlohmann::json& info) {
  return {info.value("instance", std::string()), info.at("ces").dump()};
}

// Why the node that answers now is not the one the platform started with, or "" if it is.
std::string change(const Identity& was, const Identity& now) {
  if (now.ces != was.ces) return "replaced by a node of another application (its CEs differ)";
  if (now.instance != was.instance)
    return "restarted (instance " + now.instance + ", was " + was.instance +
           "): the values it held are gone";
  return "";
}

// One hold on a value id on the node: the platform deletes the value there once no hold on its
// id is left. Replicas of this platform hold their ids, and a task its outputs' ids from before
// it is submitted, so a delete of an earlier value of that name never meets them.
class NodeRef {
 public:
  NodeRef(RemotePlatform& p, std::string id);
  NodeRef(NodeRef&& o) noexcept : p_(std::exchange(o.p_, nullptr)), id_(std::move(o.id_)) {}
  NodeRef& operator=(NodeRef&&) = delete;
  ~NodeRef();
  const std::string& id() const { return id_; }

 private:
  RemotePlatform* p_;
  std::string id_;
};

class RemoteReplica : public rt::Replica {
 public:
  // `extents`: the value's, when known (an upload, a result of a CE with a result_size): a
  // download of another shape is a malformed answer.
  RemoteReplica(RemotePlatform& p, NodeRef ref, const rt::TypeOps& type, std::size_t bytes,
                std::vector<std::int64_t> extents,
                std::shared_ptr<const Lineage> lineage = nullptr);
  rt::Platform& owner() override;
  // Made in the node's current admission: one from before the node was lost is not trusted.
  bool current() const;
  const std::string& id() const { return ref_.id(); }  // the value's id on the node
  // How to recompute the value: its own lineage, or the one of the replica it was fetched from
  // (that one's, while it still has one); null once a host copy was made.
  std::shared_ptr<const Lineage> lineage() {
    std::lock_guard lock(mu_);
    return lineage_ ? lineage_ : borrowed_.lock();
  }
  // A copy fetched from `source` on another node: its lineage is source's, not kept alive by
  // this one (a host copy made through source ends it for both).
  void borrow_lineage(RemoteReplica& source) {
    auto l = source.lineage();
    std::lock_guard lock(mu_);
    borrowed_ = l;
  }
  void to_host(void* dst, std::function<void(std::exception_ptr)> done) override;
  std::size_t bytes() const override { return bytes_; }
  const std::vector<std::int64_t>& extents() const { return extents_; }
  std::optional<std::vector<std::int64_t>> known_extents() const override {
    if (extents_.empty()) return std::nullopt;  // unknown, or a scalar's or an object's
    return extents_;
  }

 private:
  // Brings the value to dst, or recomputes it from its lineage when the node lost it; then done.
  void fetch(void* dst, std::function<void(std::exception_ptr)> done);

  RemotePlatform& p_;
  NodeRef ref_;
  unsigned epoch_;  // the node's admission it was made in
  const rt::TypeOps& type_;
  std::size_t bytes_;
  const std::vector<std::int64_t> extents_;
  std::mutex mu_;
  std::shared_ptr<const Lineage> lineage_;  // dropped once a host copy exists
  std::weak_ptr<const Lineage> borrowed_;   // borrow_lineage's
};

// A contiguous value's extents (none for scalars and objects).
std::vector<std::int64_t> extents_of(const rt::TypeOps& type, const void* value) {
  std::vector<std::int64_t> e;
  if (type.kind == rt::TypeKind::Object) return e;
  for (int d = 0; d < type.rank; ++d) e.push_back(type.extent(value, d));
  return e;
}

void wait_host(rt::Version& v) {
  std::promise<std::exception_ptr> p;
  v.ensure_host([&](std::exception_ptr e) { p.set_value(e); });
  if (auto e = p.get_future().get()) std::rethrow_exception(e);
}

// The threads that bring the node's values to the host (RemoteReplica::to_host): a fixed set,
// started with the platform, so that a program fetching many values at once does not start a
// thread for each. A job never blocks but on the node's answer: a recomputation waits for its
// inputs through callbacks (recompute() below), so a fetch whose recomputation needs another
// fetch from this set never holds a thread that fetch needs.
class Fetchers {
 public:
  explicit Fetchers(std::size_t threads) : running_(threads) {
    for (std::size_t i = 0; i < threads; ++i) threads_.emplace_back([this] { loop(); });
  }
  ~Fetchers() { stop(); }
  Fetchers(const Fetchers&) = delete;
  Fetchers& operator=(const Fetchers&) = delete;

  // Runs job on one of the threads; once they are gone (stop()), on the caller: a job posted by
  // a callback after the platform shut down still runs. Thread-safe.
  void post(std::function<void()> job) {
    {
      std::lock_guard lock(mu_);
      if (running_ > 0) {
        jobs_.push_back(std::move(job));
        cv_.notify_one();
        return;
      }
    }
    job();
  }

  // Runs every job posted so far (and those they post), then joins the threads. Thread-safe,
  // idempotent.
  void stop() {
    std::vector<std::thread> threads;
    {
      std::lock_guard lock(mu_);
      stop_ = true;
      threads.swap(threads_);
    }
    cv_.notify_all();
    for (auto& th : threads) th.join();
  }

 private:
  void loop() {
    std::unique_lock lock(mu_);
    for (;;) {
      cv_.wait(lock, [&] { return stop_ || !jobs_.empty(); });
      if (jobs_.empty()) {
        --running_;  // under mu_: a post() that sees 0 runs its job itself
        return;
      }
      auto job = std::move(jobs_.front());
      jobs_.pop_front();
      lock.unlock();
      job();
      lock.lock();
    }
  }

  std::mutex mu_;
  std::condition_variable cv_;
  std::deque<std::function<void()>> jobs_;
  std::size_t running_;  // threads not yet returned
  bool stop_ = false;
  std::vector<std::thread> threads_;
};

// Runs the CE's first native version on host copies of l's inputs (all on the host by now);
// moves output `l.output` to dst.
void run_lineage(const Lineage& l, void* dst) {
  const rt::CeInfo& ce = *l.ce;
  std::size_t n = ce.nparams + (ce.result ? 1 : 0);
  std::vector<std::shared_ptr<void>> storage(n);
  std::vector<void*> raw(n);
  for (std::size_t i = 0; i < n; ++i) {
    const rt::TypeOps& type = i < ce.nparams ? *ce.params[i].type : *ce.result;
    storage[i] = std::shared_ptr<void>(type.create(), type.destroy);
    if (i < ce.nparams && ce.params[i].dir != rt::Dir::Out)
      type.copy(storage[i].get(), l.snapshots[i] ? l.snapshots[i].get() : l.inputs[i]->host());
    raw[i] = storage[i].get();
  }
  rt::invoke_native(ce, 0, raw.data());
  const rt::TypeOps& out = l.output < ce.nparams ? *ce.params[l.output].type : *ce.result;
  out.move(dst, raw[l.output]);
}

// Recomputes l's output into dst, then calls done. Blocks no thread: it asks for the inputs'
// host copies (fetches, or recomputations of their own when they too lived only on a lost node)
// with callbacks, and runs the CE as a job of `fetchers` once the last one has arrived.
void recompute(std::shared_ptr<const Lineage> l, void* dst, Fetchers& fetchers,
               std::function<void(std::exception_ptr)> done) {
  struct Wait {
    std::mutex mu;
    std::size_t left = 1;      // inputs asked for, and this function until it has asked for all
    std::exception_ptr error;  // the first input's failure
    std::function<void(std::exception_ptr)> done;
  };
  auto wait = std::make_shared<Wait>();
  wait->done = std::move(done);
  auto arrived = [wait, l, dst, &fetchers](std::exception_ptr e) {
    {
      std::lock_guard lock(wait->mu);
      if (e && !wait->error) wait->error = e;
      if (--wait->left > 0) return;
    }
    if (wait->error) return wait->done(wait->error);
    fetchers.post([wait, l, dst] {
      try {
        run_lineage(*l, dst);
      } catch (...) {
        return wait->done(std::current_exception());
      }
      wait->done(nullptr);
    });
  };
  const rt::CeInfo& ce = *l->ce;
  for (std::size_t i = 0; i < ce.nparams; ++i) {
    if (ce.params[i].dir == rt::Dir::Out || l->snapshots[i]) continue;
    {
      std::lock_guard lock(wait->mu);
      ++wait->left;
    }
    l->inputs[i]->ensure_host(arrived);
  }
  arrived(nullptr);
}

// A task in the loops' queue, with what the loop thread reads of it: the attempt opened for this
// platform and a copy of its arguments, taken in submit(). A loss of the node (or a timeout) may
// settle the attempt at any moment and the task may then end on another platform, which resets
// its arguments (TaskImpl::complete): the loop reads this copy, never the task's, and writes the
// task's Timing only once it holds the attempt's claim.
struct Job {
  // What run() builds from the arguments, once: a retry after a failed connection sends it again.
  struct Request {
    TaskRequest task;
    std::vector<NodeRef> outputs;  // one per output, in argument order
    std::vector<std::int64_t> result_extents;
  };
  rt::TaskPtr task;
  int attempt = 0;
  std::vector<rt::TaskArg> args;  // dropped once `request` is built
  std::optional<Request> request;
  rt::Task::Timing timing;  // the attempt's, copied into the task once claimed
  bool gone = false;        // submitted as the node was being lost: its arguments were not read
};

class RemotePlatform : public rt::Platform {
 public:
  RemotePlatform(std::string name, std::string url, std::string token, RemoteOptions o)
      : name_(std::move(name)), url_(url), token_(token), opt_(o) {
    set_prices({o.price_per_gb, o.price_per_hour});
    ClientOptions c;
    c.timeout = o.timeout;
    c.validate_certificates = o.validate_certificates;
    c.ca_file = o.ca_file;
    client_ = std::make_unique<NodeClient>(url, token, c);
    // Its own client: a check waits at most a period, while a task's request waits longer.
    c.timeout = health_timeout_ =
        std::min(o.timeout, std::max(o.health_period, std::chrono::milliseconds(1)));
    health_client_ = std::make_unique<NodeClient>(url, std::move(token), c);
    // The prefix of every id this run gives the node's values: 128 random bits, so that another
    // holder of the token cannot name them (docs/rest-api.yaml).
    std::random_device rd;
    char hex[33];
    std::snprintf(hex, sizeof hex, "%08x%08x%08x%08x", rd(), rd(), rd(), rd());
    session_ = hex;
    if (std::string why = probe(); !why.empty()) {
      start_cause_ = lost_cause_ = std::move(why);
      lost_ = true;
      fetchers_ = std::make_unique<Fetchers>(0);  // holds no value: nothing to fetch
      return;                                     // never offered a task: no threads
    }
    const std::size_t cores = rt::usable_cores();
    // A loop thread carries one task at a time through blocking requests: the upload, the
    // submit, then long polls until the task ends. Blocked, it costs a stack, not a core, so
    // each core of this process may carry several of the node's workers; without a cap, though,
    // a node of 64 workers would give a 2-core program 64 threads. 4 per core keeps a node of up
    // to 4x the program's cores full; a bigger one runs at most that many of this program's
    // tasks at once (the client's long polls are one blocking request per task).
    const std::size_t loops = std::min(std::max<std::size_t>(2, workers_), 4 * cores);
    for (std::size_t i = 0; i < loops; ++i) threads_.emplace_back([this] { loop(); });
    if (o.health_period.count() > 0) threads_.emplace_back([this] { monitor(); });
    // A fetch is a download, or after a loss a recomputation on the host's cores: one thread per
    // core, at least 2 (one download's latency hides behind another's transfer), at most 8
    // (more downloads at once from one node do not share its link any faster).
    fetchers_ = std::make_unique<Fetchers>(std::clamp<std::size_t>(cores, 2, 8));
  }
  ~RemotePlatform() override { shutdown(); }

  const std::string& name() const override { return name_; }
  const char* kind() const override { return "remote"; }
  // CEs run in the node's processes, never the program's.
  rt::Capabilities capabilities() const override { return {rt::Capabilities::MayBeLost}; }
  bool can_run(const rt::CeInfo& ce) const override {
    std::lock_guard lock(mu_);
    return !lost_ && ces_.count(std::string(ce.interface_name) + "::" + ce.name) > 0;
  }
  std::size_t workers() const override { return workers_; }

  rt::Forecast forecast(const rt::Task& t) const override {
    rt::Forecast f;
    std::lock_guard lock(mu_);
    if (lost_) {
      f.feasible = false;
      return f;
    }
    double to_send = 0, send_s = 0, input = 0;
    for (const auto& a : t.args()) {
      if (!a.in) continue;
      double b = static_cast<double>(a.in->bytes());
      input += b;
      if (current_replica(*a.in)) continue;
      to_send += b;
      send_s += b / source_bandwidth(*a.in);
    }
    f.transfer_s = latency_s_ * 2 + send_s;
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
    auto job = std::make_shared<Job>();
    job->attempt = rt::context(*t).attempt();  // the runtime opened it for this platform
    job->task = t;
    {
      std::lock_guard lock(mu_);
      ++queued_;
    }
    auto enqueue = [this, job] {
      {
        std::lock_guard lock(mu_);
        queue_.push_back(std::move(*job));
      }
      cv_.notify_one();
    };
    // The arguments are read under `reading_`: lose() waits for it before the runtime re-places
    // this node's tasks, so no task ends elsewhere (and loses its arguments) while they are read.
    // Once the node is lost, that may happen at any moment: the loop gives such a task back.
    std::shared_lock reading(reading_);
    if (lost_) {
      job->gone = true;
      return enqueue();
    }
    job->args = t->args();
    // Into the loop's queue only once every input is ready: tasks may reach a platform out of
    // program order (the exploration gate holds some back), and a loop thread waiting there for
    // an input whose producer sits behind it in this queue would wait for ever.
    // A countdown of its own, not the task's: a timeout or the loss of this node may give the
    // task to another platform while these subscriptions still wait.
    auto pending = std::make_shared<rt::InputWaiter>();
    if (!pending->until_ready(*t, [pending, enqueue](rt::Task&) { enqueue(); })) enqueue();
  }

  // Second thoughts: a task in the loops' queue, not sent to the node yet, is given back; one
  // still waiting for its inputs (not in the queue) or sent is not.
  bool withdraw(rt::Task& t) override {
    std::lock_guard lock(mu_);
    auto it = std::find_if(queue_.begin(), queue_.end(),
                           [&t](const Job& job) { return job.task.get() == &t; });
    // The loop that pops an entry begins its attempt under mu_: one still here has not begun.
    if (it == queue_.end() || !rt::context(t).withdraw()) return false;
    queue_.erase(it);
    --queued_;  // the forecasts stop counting it
    return true;
  }

  void shutdown() override {
    {
      std::lock_guard lock(mu_);
      if (stop_) return;
      stop_ = true;
    }
    cv_.notify_all();
    health_cv_.notify_all();
    for (auto& th : threads_) th.join();
    fetchers_->stop();  // after the loops: their tasks' outputs may still be fetched
  }

  NodeClient& client() { return *client_; }    // thread-safe
  Fetchers& fetchers() { return *fetchers_; }  // thread-safe

  // Why the node was never usable (refused, unreachable, the token refused), or "". Set at
  // construction, constant afterwards.
  const std::string& unusable_cause() const { return start_cause_; }
  bool lost() const { return lost_; }  // thread-safe

  // Holds of value ids (NodeRef): the last one gone, a platform thread deletes the value from
  // the node. Thread-safe.
  void hold(const std::string& id) {
    std::lock_guard lock(mu_);
    ++refs_[id];
  }
  void release(const std::string& id) {
    {
      std::lock_guard lock(mu_);
      auto it = refs_.find(id);
      if (--it->second > 0) return;
      refs_.erase(it);
      if (stop_ || lost_) return;  // nothing left to free on a lost node
      garbage_.push_back(id);
    }
    cv_.notify_one();
  }

  // The node does not answer, or is another one: it gets no more tasks, the runtime re-places
  // the unfinished ones, and the values it held are recomputed when needed. Under only:<node>
  // the program stops here. Thread-safe; the first cause is the one reported. `epoch`: the
  // node's admission the failed request began in; one of an earlier admission (a long poll that
  // the node's freeze left hanging) says nothing of the node admitted again since.
  void lose(const std::string& cause) { lose(cause, epoch_.load()); }
  void lose(const std::string& cause, unsigned epoch) {
    {
      std::lock_guard lock(mu_);
      if (lost_ || epoch != epoch_.load()) return;
      lost_cause_ = cause;
      lost_ = true;
    }
    ids_cv_.notify_all();
    { std::unique_lock submits_read(reading_); }  // submit() reads no task's arguments now
    auto* rt = rt::Runtime::if_started();
    if (sole()) stop_sole("lost: " + cause);
    rt::log().warn(
        "node {} ({}) lost: {}; its tasks go to the other platforms, and the values it held are "
        "recomputed where needed",
        name_, url_, cause);
    if (rt) rt->platform_failed(*this);
  }

  unsigned epoch() const { return epoch_.load(); }  // thread-safe

  // This platform's replica of v made in the node's current admission, or null.
  std::shared_ptr<RemoteReplica> current_replica(rt::Version& v) const {
    auto r = std::dynamic_pointer_cast<RemoteReplica>(v.replica_on(*this));
    return r && r->current() ? r : nullptr;
  }

  // Under only:<node>, what this node cannot do ends the program: nothing may run elsewhere.
  [[noreturn]] void stop_sole(const std::string& what) {
    std::fprintf(stderr, "cei: node %s (%s) %s; the policy only:%s runs its tasks nowhere else\n",
                 name_.c_str(), url_.c_str(), what.c_str(), name_.c_str());
    std::fflush(nullptr);  // what the program printed so far
    // Not exit(): its handlers would wait for the tasks this node holds.
    std::_Exit(3);
  }

  // After an answer that a node which lost our values would give (404, 400): whether it is
  // still the node the platform started with. One that is not, or does not answer, is lost.
  // Thread-safe.
  bool still_same_node() {
    std::string why;
    try {
      const Identity now = identity_of(client_->info());
      std::lock_guard lock(mu_);
      why = change(identity_, now);
    } catch (const NodeError& e) {
      why = e.what();
    } catch (const std::exception& e) {
      why = std::string("malformed /v1/info: ") + e.what();
    }
    if (why.empty()) return true;
    lose(why);
    return false;
  }

  // A transfer between the program and the node, or (`peer`) from that node to this one.
  void note_transfer(std::size_t bytes, double seconds, const RemotePlatform* peer = nullptr) {
    if (bytes < (1u << 20) || seconds <= 0)
      return;  // small transfers measure latency, not bandwidth
    const double measured = static_cast<double>(bytes) / seconds;
    std::lock_guard lock(mu_);
    if (!peer) {
      bandwidth_ = 0.7 * bandwidth_ + 0.3 * measured;
      return;
    }
    auto [it, first] = link_bandwidth_.try_emplace(peer, measured);
    if (!first) it->second = 0.7 * it->second + 0.3 * measured;
  }

  // Another node that holds v in its current admission, and its replica there; none when no
  // node does. Thread-safe.
  std::pair<RemotePlatform*, std::shared_ptr<RemoteReplica>> peer_holding(rt::Version& v) const {
    for (const auto& r : v.replicas()) {
      auto* peer = dynamic_cast<RemotePlatform*>(&r->owner());
      if (!peer || peer == this || peer->lost()) continue;
      if (auto held = peer->current_replica(v)) return {peer, held};
    }
    return {nullptr, nullptr};
  }

 private:
  // Whether the program's policy runs every task on this node (only:<node>).
  bool sole() const {
    auto* rt = rt::Runtime::if_started();
    return rt && rt->policy() && rt->policy()->sole_platform() == name_;
  }
  // Seconds until the node said it may take work again (0 when it did not say so).
  double busy_s() const {
    auto left = Clock::duration(busy_until_.load() - Clock::now().time_since_epoch().count());
    return std::max(0.0, std::chrono::duration<double>(left).count());
  }

  // Sends a request that a node over capacity answers with 503: waits its Retry-After and asks
  // again, for at most the request timeout in all (without end under only:<node>, where no other
  // platform may take the task, unless the node's data store is full: that need not pass), then
  // lets the NodeError through.
  template <typename F>
  auto unless_busy(F&& request) {
    const auto deadline = Clock::now() + opt_.timeout;
    for (;;) {
      try {
        return request();
      } catch (const NodeError& e) {
        if (!e.busy() || (Clock::now() >= deadline && (!sole() || e.store_full()))) throw;
        auto until = std::min<Clock::time_point>(Clock::now() + e.retry_after(), deadline);
        busy_until_ = until.time_since_epoch().count();
        std::this_thread::sleep_until(until);
      }
    }
  }

  // The node's identity, the CEs it serves and the latency (a health round trip); the reason it
  // cannot be used, or "".
  std::string probe() {
    try {
      auto info = client_->info();
      auto t0 = Clock::now();
      if (!client_->health()) return "no answer to /v1/health";
      double rtt = std::chrono::duration<double>(Clock::now() - t0).count();
      identity_ = identity_of(info);
      std::lock_guard lock(mu_);
      latency_s_ = rtt / 2;
      for (const auto& ce : info.at("ces")) {
        ces_.insert(ce.at("interface").get<std::string>() +
                    "::" + ce.at("name").get<std::string>());
      }
      workers_ = std::max<std::size_t>(1, info.at("load").at("workers").get<std::size_t>());
      return "";
    } catch (const NodeError& e) {
      return e.what();
    } catch (const std::exception& e) {
      return std::string("malformed /v1/info: ") + e.what();
    }
  }

  // Bytes/s at which v would reach the node: from the program when it holds v (or nobody
  // else does), else from the node that holds it, at the speed this node's fetches from that
  // one measured, or until measured the slower of the two nodes' links with the program. mu_
  // held.
  double source_bandwidth(rt::Version& v) const {
    if (v.host()) return bandwidth_;
    auto [peer, replica] = peer_holding(v);
    if (!peer) return bandwidth_;
    auto it = link_bandwidth_.find(peer);
    return it != link_bandwidth_.end() ? it->second
                                       : std::min(bandwidth_.load(), peer->bandwidth_.load());
  }

  // When the program does not hold v and another node does, this node fetches it from that one
  // (docs/remote.md, "Node-to-node transfers"): true once it holds v as `id` (ref goes to its
  // replica). A fetch the peer failed (gone, the value lost, the token refused, a malformed
  // answer: 502), or that outlasted the request timeout while the node answers its health
  // checks, is a warning and false: v goes through the program. The node's own failures throw,
  // as any request's.
  bool from_peer(Job& job, rt::Version& v, const std::string& id, NodeRef& ref) {
    if (v.host()) return false;
    // `replica` holds the value's id on the peer until the fetch is over: it is not deleted there.
    auto [peer, replica] = peer_holding(v);
    if (!peer) return false;
    const PeerFetch f{v.type().name,      peer->url_,
                      peer->token_,       replica->id(),
                      replica->extents(), std::clamp<long>(opt_.timeout.count(), 1, 600000)};
    Fetched got;
    Clock::time_point t0, t1;
    try {
      unless_busy([&] {
        t0 = Clock::now();
        got = client_->fetch(id, f);
        t1 = Clock::now();
      });
    } catch (const NodeError& e) {
      if (e.status() != 502 && !(e.timed_out() && health_client_->health())) throw;
      rt::log().warn("node {} could not fetch {} from node {}: {}; it goes through the program",
                     name_, data_name(v), peer->name(), e.what());
      return false;
    }
    note_transfer(got.bytes, got.seconds, peer);
    if (rt::observing())
      rt::observe_transfer({this, job.task->id(), data_name(v), got.bytes, true, t0, t1, peer});
    job.timing.bytes_in += got.bytes;
    job.timing.transfer_in_s += std::chrono::duration<double>(t1 - t0).count();
    auto copy = std::make_shared<RemoteReplica>(*this, std::move(ref), v.type(), got.bytes,
                                                replica->extents());
    copy->borrow_lineage(*replica);
    v.drop_replica(*this);  // one of an earlier admission, if any: this one replaces it
    v.add_replica(std::move(copy));
    return true;
  }

  // Waits until no upload or delete of `id` is under way.
  void wait_idle(const std::string& id) {
    std::unique_lock lock(mu_);
    ids_cv_.wait(lock, [&] { return busy_ids_.count(id) == 0 || lost_; });
  }

  // Sends version v (ready) as `id` unless the node has it: one upload of an id at a time, so
  // the readers of one version that come together send it once.
  void upload_if_missing(Job& job, rt::Version& v, const std::string& id) {
    NodeRef ref(*this, id);
    for (;;) {
      wait_idle(id);
      if (lost_) throw NodeError(0, "node lost");
      if (current_replica(v)) return;
      std::lock_guard lock(mu_);
      if (busy_ids_.insert(id).second) break;
    }
    struct Done {  // the upload's end, however it ends
      RemotePlatform& p;
      const std::string& id;
      ~Done() {
        {
          std::lock_guard lock(p.mu_);
          p.busy_ids_.erase(id);
        }
        p.ids_cv_.notify_all();
      }
    } done{*this, id};
    if (from_peer(job, v, id, ref)) return;
    wait_host(v);
    std::size_t n = 0;
    Clock::time_point t0, t1;  // the upload that succeeded, not the waits for a busy node
    unless_busy([&] {
      t0 = Clock::now();
      n = client_->put(id, v.type(), v.host());  // from the host copy's memory
      t1 = Clock::now();
    });
    const double s = std::chrono::duration<double>(t1 - t0).count();
    note_transfer(n, s);
    if (rt::observing())
      rt::observe_transfer({this, job.task->id(), data_name(v), n, true, t0, t1});
    job.timing.bytes_in += n;
    job.timing.transfer_in_s += s;
    v.drop_replica(*this);  // one of an earlier admission, if any: this one replaces it
    v.add_replica(std::make_shared<RemoteReplica>(*this, std::move(ref), v.type(), n,
                                                  extents_of(v.type(), v.host())));
  }

  // "<session>-d3v2": the node's key for a version (fetch() reads the version's name back).
  std::string id_of(const rt::Version& v) const { return session_ + "-" + version_name(v); }

  static void wait_ready(rt::Version& v) {
    std::promise<void> p;
    v.on_ready([&] { p.set_value(); });
    p.get_future().wait();
    if (v.state() == rt::Version::State::Failed) std::rethrow_exception(v.error());
  }

  // The job's attempt; its outputs are published only if the attempt is still open then. Until
  // its claim, the task's own arguments are not read (Job says why): the job's copy is, and is
  // dropped once the request is built, so that this thread does not hold the values it names
  // while the node runs the task (a value the program reads in place, held, would hold up the
  // program's next write to it).
  void run(Job& job) {
    if (!job.request) {
      job.request = prepare(job);
      job.args.clear();
    }
    rt::Task& t = *job.task;
    TaskStatus st = run_on_node(t, job.attempt, job.request->task);
    job.timing.end = Clock::now();
    if (st.state == "failed") {
      settle(job, std::make_exception_ptr(std::runtime_error("node " + name_ + ": " + st.error)),
             st.crashed ? rt::Failure::Crash : rt::Failure::Error);
      return;
    }
    // Settled meanwhile (the node was lost, the task timed out): its outputs are someone else's.
    if (!st.finished() || !rt::context(t).claim(job.attempt)) return;
    t.timing() = job.timing;
    publish(t, std::move(job.request->outputs), job.request->result_extents);
    rt::context(t).done();
  }

  // Uploads the inputs the node lacks and builds the job's request from its arguments.
  Job::Request prepare(Job& job) {
    const rt::CeInfo& ce = job.task->ce();
    auto& args = job.args;
    Job::Request r{{ce.interface_name, ce.name, {}, ""}, {}, {}};
    auto& timing = job.timing;
    // The node runs the CE's first native version: the profiles learn its runs as that version,
    // which forecast() reads (recorded as -1, the kernel's slot, they never corrected it).
    timing.version_index = 0;
    timing.start = Clock::now();
    for (std::size_t i = 0; i < args.size(); ++i) {
      auto& a = args[i];
      if (a.out) r.outputs.emplace_back(*this, id_of(*a.out));
      if (a.in) {
        wait_ready(*a.in);
        std::string id = id_of(*a.in);
        upload_if_missing(job, *a.in, id);
        if (i < ce.nparams) r.task.args.push_back({a.dir, id, a.out ? id_of(*a.out) : ""});
      } else if (i < ce.nparams) {
        r.task.args.push_back({a.dir, "", id_of(*a.out)});
      } else {
        r.task.result = id_of(*a.out);
      }
    }
    // Every input is ready and no output is out (Timing::input_bytes).
    timing.input_bytes = 0;
    for (const auto& a : args)
      if (a.in) timing.input_bytes += static_cast<double>(a.in->bytes());
    for (const auto& ref : r.outputs) wait_idle(ref.id());
    r.result_extents = expected_result(ce, args);
    return r;
  }

  // Publishes the outputs of t, whose attempt this platform holds the claim of (so its arguments
  // are its own again), as replicas on the node that remember how to recompute them.
  void publish(rt::Task& t, std::vector<NodeRef> outputs,
               const std::vector<std::int64_t>& result_extents) {
    auto& args = t.args();
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
    for (std::size_t i = 0, o = 0; i < args.size(); ++i) {
      auto& a = args[i];
      if (!a.out) continue;
      auto lineage =
          std::make_shared<Lineage>(Lineage{&t.ce(), inputs, snapshots, i, depth_after(inputs)});
      const bool checkpoint = lineage->depth >= kMaxLineageDepth;
      const bool result = i == t.ce().nparams;
      a.out->publish_replica(std::make_shared<RemoteReplica>(
          *this, std::move(outputs[o++]), a.out->type(), a.out->bytes(),
          result ? result_extents : std::vector<std::int64_t>{}, std::move(lineage)));
      if (checkpoint) a.out->ensure_host([](std::exception_ptr) {});  // a failure: a later read's
    }
  }

  // The depth of a lineage over these inputs: one more than the deepest of their replicas'.
  static std::size_t depth_after(const std::vector<rt::VersionPtr>& inputs) {
    std::size_t depth = 0;
    for (const auto& in : inputs)
      if (in)
        for (const auto& r : in->replicas())
          if (auto* remote = dynamic_cast<RemoteReplica*>(r.get()))
            if (auto l = remote->lineage()) depth = std::max(depth, l->depth);
    return depth + 1;
  }

  // Submits the task and long-polls it until it ends (or the attempt is settled elsewhere). A task
  // whose outputs found the node's store full is sent again as the node empties, as a 503 of a
  // full store is: for at most the request timeout, then that 503 goes to failed().
  TaskStatus run_on_node(rt::Task& t, int attempt, const TaskRequest& req) {
    const auto deadline = Clock::now() + opt_.timeout;
    for (;;) {
      std::string task = unless_busy([&] { return client_->submit(req); });
      TaskStatus st;
      do {
        st = client_->status(task, static_cast<long>(opt_.timeout.count()));
      } while (!st.finished() && rt::context(t).attempt() == attempt);
      if (!st.store_full) return st;
      if (Clock::now() >= deadline || rt::context(t).attempt() != attempt)
        throw NodeError(503, "node answered 503: " + st.error, std::chrono::seconds(1));
      std::this_thread::sleep_for(std::chrono::seconds(1));
    }
  }

  // The extents of t's result, when its CE states them (an OpenCL result_size) and the
  // expression can be evaluated here (the inputs it reads are on the host, or their shape known
  // from this node); else none. What the node sends back is checked against them.
  std::vector<std::int64_t> expected_result(const rt::CeInfo& ce,
                                            const std::vector<rt::TaskArg>& args) {
    if (!ce.result || ce.result->kind == rt::TypeKind::Object || ce.result->rank == 0 ||
        !ce.opencl || !*ce.opencl->result_size)
      return {};
    std::vector<opencl::ArgView> views(ce.nparams);
    for (std::size_t i = 0; i < ce.nparams; ++i) {
      const auto& in = args[i].in;
      if (!in) return {};  // an Out parameter: no shape yet
      views[i].type = &in->type();
      views[i].host = in->host();
      std::vector<std::int64_t> e;
      if (views[i].host) {
        e = extents_of(in->type(), views[i].host);
      } else if (auto r = std::dynamic_pointer_cast<RemoteReplica>(in->replica_on(*this))) {
        e = r->extents();
      }
      if (static_cast<int>(e.size()) < std::min(in->type().rank, 3) &&
          in->type().kind != rt::TypeKind::Scalar)
        return {};
      std::copy_n(e.begin(), std::min<std::size_t>(e.size(), 3), views[i].extents.begin());
    }
    try {
      opencl::ExprArgs args(views);
      auto v = expr::evaluate(expr::parse(ce.opencl->result_size), args, ce.name);
      if (static_cast<int>(v.size()) != ce.result->rank) return {};
      return v;
    } catch (const std::exception&) {  // an element of a value only on the node, say
      return {};
    }
  }

  // The verdict on the job's attempt, unless the runtime settled it already (moved, timed out).
  static void settle(Job& job, std::exception_ptr error, rt::Failure how = rt::Failure::Error) {
    auto& c = rt::context(*job.task);
    if (!c.claim(job.attempt)) return;
    job.task->timing() = job.timing;
    c.failed(std::move(error), how);
  }

  // The node kept this task busy too long, or is lost: the scheduler places it again through the
  // policy, without this node (the task fails with `why` if no other platform can run it).
  void give_back(Job& job, const std::string& why) {
    settle(job, std::make_exception_ptr(std::runtime_error("node " + name_ + " failed: " + why)),
           rt::Failure::Elsewhere);
  }

  // A request failed without an answer: whether the node still answers as itself, so that the
  // failure was its connection's (one the node closed, or one left from before a restart) and
  // the task may be sent again. A node silent past the timeout is not asked again: it is lost.
  bool connection_only(const NodeError& e) {
    return e.unreachable() && !e.timed_out() && !e.malformed() && still_same_node();
  }

  // A request of t's attempt, begun in admission `epoch`, failed.
  void failed(Job& job, const NodeError& e, unsigned epoch) {
    if (e.store_full() && sole()) stop_sole(std::string("has no room for this run: ") + e.what());
    if (e.busy()) return give_back(job, e.what());
    if (e.unreachable())
      lose(e.what(), epoch);
    else if (e.status() == 404 || e.status() == 400)
      still_same_node();
    if (lost_) return give_back(job, e.what());
    settle(job, std::make_exception_ptr(e));
  }

  // Deletes from the node the values no hold names any more, but none that an upload or a new
  // hold of the same id has taken back meanwhile.
  void delete_unused(const std::vector<std::string>& ids) {
    const unsigned epoch = epoch_;
    for (const auto& id : ids) {
      {
        std::lock_guard lock(mu_);
        if (lost_ || refs_.count(id) > 0 || !busy_ids_.insert(id).second) continue;
      }
      try {
        client_->erase(id);
      } catch (const NodeError& e) {  // already gone, or the node is: nothing left to free
        // Silent past the request timeout, as for any other request: the next delete would
        // wait as long, and a shutdown after it.
        if (e.timed_out()) lose(e.what(), epoch);
      }
      {
        std::lock_guard lock(mu_);
        busy_ids_.erase(id);
      }
      ids_cv_.notify_all();
    }
  }

  // Every health_period, GET /v1/health: health_failures misses in a row lose the node (found
  // within (health_failures + 1) periods, whatever the task requests wait for); a lost node that
  // answers is admitted again (readmit()). A check starts a period after the one before started:
  // a miss, which waits at most a period, does not stretch the next period.
  void monitor() {
    int misses = 0;
    auto next = Clock::now() + opt_.health_period;
    std::unique_lock lock(mu_);
    while (!health_cv_.wait_until(lock, next, [&] { return stop_; })) {
      next = std::max(next + opt_.health_period, Clock::now());
      lock.unlock();
      const unsigned epoch = epoch_;
      const bool ok = health_client_->health();
      if (lost_) {
        misses = 0;
        if (ok) readmit();
      } else if (ok) {
        misses = 0;
      } else if (++misses >= opt_.health_failures) {
        lose("no answer to /v1/health within " + std::to_string(health_timeout_.count()) + " ms, " +
                 std::to_string(misses) + " times in a row",
             epoch);
        misses = 0;
      }
      poll_join_folder();  // a node that appeared in CEI_REMOTE_JOIN's folder joins the run
      lock.lock();
    }
  }

  // The lost node answers its health checks again: as a node of the same application (the same
  // instance, thawed; or another, restarted), it may be given tasks again, but none of the
  // values it held is trusted: the replicas of the earlier admission are not used (current()).
  // A node of another application stays lost.
  void readmit() {
    Identity now;
    try {
      now = identity_of(health_client_->info());
    } catch (const std::exception&) {
      return;  // asked again at the next check
    }
    std::string as;
    {
      std::lock_guard lock(mu_);
      if (stop_ || !lost_ || now.ces != identity_.ces) return;
      as = now.instance == identity_.instance
               ? "the same instance"
               : "instance " + now.instance + " (was " + identity_.instance + ")";
      identity_ = now;
      ++epoch_;
      lost_ = false;
    }
    rt::log().warn(
        "node {} ({}) re-admitted: it answers its health checks again as {}; the values it held "
        "before are not used",
        name_, url_, as);
    if (auto* rt = rt::Runtime::if_started()) rt->platform_readmitted(*this);
  }

  void loop() {
    for (;;) {
      Job job;
      std::vector<std::string> garbage;
      {
        std::unique_lock lock(mu_);
        cv_.wait(lock, [&] { return stop_ || !queue_.empty() || !garbage_.empty(); });
        garbage.swap(garbage_);
        if (queue_.empty() && garbage.empty()) return;
        if (!queue_.empty()) {
          job = std::move(queue_.front());
          queue_.pop_front();
          // Settled while it waited here (timed out, the node lost): nothing of it runs, and
          // whoever settled it gave the verdict.
          if (!rt::context(*job.task).begin(job.attempt)) {
            job.task = nullptr;
            --queued_;
          }
        }
      }
      delete_unused(garbage);
      if (!job.task) continue;
      if (job.gone || lost_) {
        std::string cause;
        {
          std::lock_guard lock(mu_);
          cause = lost_cause_;
        }
        give_back(job, cause);  // one the runtime submitted as the node was being lost
      } else {
        bool again = true;  // once, after a failed connection to a node that is still itself
        const unsigned epoch = epoch_;
        for (;;) {
          try {
            run(job);
          } catch (const NodeError& e) {
            if (std::exchange(again, false) && connection_only(e)) continue;
            failed(job, e, epoch);
          } catch (...) {
            settle(job, std::current_exception());
          }
          break;
        }
      }
      std::lock_guard lock(mu_);
      --queued_;
    }
  }

  friend class NodeRef;

  std::string name_, url_, token_;
  RemoteOptions opt_;
  std::unique_ptr<NodeClient> client_;
  std::unique_ptr<NodeClient> health_client_;    // monitor()'s
  std::chrono::milliseconds health_timeout_{0};  // its requests' timeout
  std::string session_;
  Identity identity_;        // under mu_: set by the first probe and each re-admission
  std::string start_cause_;  // why the first probe failed
  mutable std::mutex mu_;
  std::condition_variable cv_;
  std::deque<Job> queue_;
  // Shared by submit() while it reads a task's arguments, taken by lose() before the runtime
  // re-places the node's tasks.
  std::shared_mutex reading_;
  std::vector<std::string> garbage_;
  std::map<std::string, int> refs_;  // holds per value id (NodeRef)
  std::set<std::string> busy_ids_;   // ids with an upload or a delete under way
  std::condition_variable ids_cv_;   // busy_ids_ lost one, or the node was lost
  std::atomic<bool> lost_{false};
  std::atomic<unsigned> epoch_{0};     // admissions since the first one
  std::condition_variable health_cv_;  // monitor()'s wait for the next check, or stop_
  std::string lost_cause_;
  std::size_t queued_ = 0;
  bool stop_ = false;
  std::set<std::string> ces_;
  std::size_t workers_ = 1;
  double latency_s_ = 1e-3;
  std::atomic<double> bandwidth_{100e6};  // bytes/s until measured; written under mu_
  // Bytes/s of this node's fetches from each other node (under mu_).
  std::map<const RemotePlatform*, double> link_bandwidth_;
  std::atomic<Clock::rep> busy_until_{0};  // the node's last Retry-After ends then
  std::vector<std::thread> threads_;
  std::unique_ptr<Fetchers> fetchers_;  // RemoteReplica::to_host's
};

NodeRef::NodeRef(RemotePlatform& p, std::string id) : p_(&p), id_(std::move(id)) {
  p.hold(id_);
}

NodeRef::~NodeRef() {
  if (p_) p_->release(id_);
}

RemoteReplica::RemoteReplica(RemotePlatform& p, NodeRef ref, const rt::TypeOps& type,
                             std::size_t bytes, std::vector<std::int64_t> extents,
                             std::shared_ptr<const Lineage> lineage)
    : p_(p),
      ref_(std::move(ref)),
      epoch_(p.epoch()),
      type_(type),
      bytes_(bytes),
      extents_(std::move(extents)),
      lineage_(std::move(lineage)) {}

bool RemoteReplica::current() const {
  return epoch_ == p_.epoch();
}

rt::Platform& RemoteReplica::owner() {
  return p_;
}

void RemoteReplica::fetch(void* dst, std::function<void(std::exception_ptr)> done) {
  std::shared_ptr<const Lineage> lineage = this->lineage();
  auto arrived = [this, done = std::move(done)](std::exception_ptr e) {
    if (!e) {
      std::lock_guard lock(mu_);
      lineage_.reset();  // the value is safe on the host now
      borrowed_.reset();
    }
    done(e);
  };
  // Made before the node was lost and admitted again: what the node holds under its id is not
  // trusted (docs/remote.md, "A lost node").
  if (lineage && !current())
    return recompute(std::move(lineage), dst, p_.fetchers(), std::move(arrived));
  std::exception_ptr error;
  bool rebuild = false;
  try {
    if (p_.lost()) throw NodeError(0, "node lost");
    const auto t0 = Clock::now();
    // Straight into dst's memory, once the answer's head says it is the value expected.
    std::size_t n = p_.client().get(ref_.id(), type_, dst, {extents_});
    const auto t1 = Clock::now();
    p_.note_transfer(n, std::chrono::duration<double>(t1 - t0).count());
    // The task that asked for it is not known here: the host's own fetches and other platforms'
    // tasks alike show as task 0.
    if (rt::observing())
      rt::observe_transfer({&p_, 0, ref_.id().substr(ref_.id().find('-') + 1), n, false, t0, t1});
  } catch (const NodeError& e) {
    if (e.unreachable())
      p_.lose(e.what(), epoch_);
    else if (e.status() == 404)
      p_.still_same_node();
    // The node is gone (or lost the value): rebuild it here.
    rebuild = lineage && (e.unreachable() || e.status() == 404);
    if (!rebuild) error = std::current_exception();
  } catch (...) {
    error = std::current_exception();
  }
  if (rebuild) return recompute(std::move(lineage), dst, p_.fetchers(), std::move(arrived));
  arrived(error);
}

void RemoteReplica::to_host(void* dst, std::function<void(std::exception_ptr)> done) {
  // On the platform's fetch threads: the caller must not block. The version holds this replica
  // until done() is called.
  p_.fetchers().post(
      [this, dst, done = std::move(done)]() mutable { fetch(dst, std::move(done)); });
}

// A node that was never usable: a warning says why, and that its tasks run elsewhere.
void warn_unusable(const RemotePlatform& p, const std::string& url) {
  rt::log().warn("node {} ({}) not used: {}; its tasks run on the other platforms", p.name(), url,
                 p.unusable_cause());
}

// A node of the launch config or CEI_REMOTE. One that cannot be used (refused, unreachable, the
// token refused) stops the program with status 2 when the launch policy is only:<node>: nothing
// may run elsewhere, and nothing would run there.
void add_node(rt::Runtime& rt, const std::string& name, const std::string& url,
              const std::string& token, RemoteOptions o) {
  auto p = std::make_unique<RemotePlatform>(name, url, token, o);
  if (!p->unusable_cause().empty()) {
    std::string policy;
    try {
      policy = rt::launch_config().policy.name;
    } catch (const rt::ConfigError&) {  // reported by the policy factory
    }
    if (policy == "only:" + name) {
      std::fprintf(stderr,
                   "cei: node %s (%s) cannot be used: %s; the policy only:%s runs its tasks "
                   "nowhere else\n",
                   name.c_str(), url.c_str(), p->unusable_cause().c_str(), name.c_str());
      std::exit(2);
    }
    warn_unusable(*p, url);
  }
  note_start_node(name, url);
  rt.add_platform(std::move(p));
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

// One node of CEI_REMOTE (or of a file of CEI_REMOTE_JOIN's folder): its name, URL, token and
// options.
struct NodeEntry {
  std::string name, url, token;
  RemoteOptions o;
};

std::chrono::milliseconds remote_ms(const std::string& k, const std::string& v) {
  return std::chrono::milliseconds(static_cast<long>(std::min(remote_number(k, v), 1e12)));
}

// "name=url,token=T[,timeout_ms=N][,retry_ms=N][,health_ms=N][,health_failures=N][,per_gb=P]
// [,per_hour=P]", or an invalid_argument naming what is wrong.
NodeEntry parse_entry(const std::string& entry) {
  std::stringstream fields(entry);
  std::string field;
  NodeEntry e;
  while (std::getline(fields, field, ',')) {
    auto eq = field.find('=');
    if (eq == std::string::npos)
      throw std::invalid_argument("CEI_REMOTE: '" + field + "' is not key=value");
    std::string k = field.substr(0, eq), v = field.substr(eq + 1);
    if (e.name.empty()) {
      e.name = k;
      e.url = v;
    } else if (k == "token") {
      e.token = v;
    } else if (k == "timeout_ms") {
      e.o.timeout = remote_ms(k, v);
    } else if (k == "retry_ms") {
      e.o.retry_after = remote_ms(k, v);
    } else if (k == "health_ms") {  // both checked at launch (check_cei_remote)
      e.o.health_period = remote_ms(k, v);
    } else if (k == "health_failures") {
      e.o.health_failures = std::max(1, static_cast<int>(std::min(remote_number(k, v), 1e9)));
    } else if (k == "per_gb") {
      e.o.price_per_gb = remote_number(k, v);
    } else if (k == "per_hour") {
      e.o.price_per_hour = remote_number(k, v);
    } else {
      throw std::invalid_argument("CEI_REMOTE: unknown key '" + k + "'");
    }
  }
  if (e.name.empty()) throw std::invalid_argument("CEI_REMOTE: an empty entry");
  return e;
}

// CEI_REMOTE="entry;entry2;...", each as parse_entry reads it.
void add_from_env(rt::Runtime& rt) {
  const char* env = std::getenv("CEI_REMOTE");
  if (!env) return;
  std::stringstream all(env);
  std::string entry;
  while (std::getline(all, entry, ';')) {
    if (entry.empty()) continue;
    NodeEntry e = parse_entry(entry);
    try {
      add_node(rt, e.name, e.url, e.token, e.o);
    } catch (const std::invalid_argument& ex) {  // the URL
      throw std::invalid_argument("CEI_REMOTE: " + e.name + ": " + ex.what());
    }
  }
}

// The nodes that appear during the run in CEI_REMOTE_JOIN's folder (docs/remote.md, "Nodes that
// join"): each new `*.url` file holds one CEI_REMOTE entry; a usable node joins the run as a
// platform named as the entry names it. Looked at from the health monitors of the nodes, at most
// once per kJoinPoll whatever their health_ms; each file is read once.
class JoinWatch {
 public:
  static constexpr auto kJoinPoll = std::chrono::milliseconds(250);
  static constexpr std::uintmax_t kMaxFile = 4096;

  explicit JoinWatch(std::string dir) : dir_(std::move(dir)) {}
  // A node of the start (CEI_REMOTE, the launch config): its file in the folder is no news.
  void known(const std::string& name, const std::string& url) {
    std::lock_guard lock(mu_);
    nodes_.emplace(name, url);
  }
  void poll() {
    std::unique_lock lock(mu_, std::try_to_lock);  // one look at a time; the others skip it
    if (!lock || Clock::now() < last_ + kJoinPoll) return;
    last_ = Clock::now();
    rt::Runtime* rt = rt::Runtime::if_started();
    if (!rt || rt->stopping()) return;
    for (const std::filesystem::path& f : new_files()) look(*rt, f);
  }

 private:
  std::vector<std::filesystem::path> new_files() {
    std::vector<std::filesystem::path> files;
    std::error_code ec;  // a folder gone (the job ending) is no news
    for (const auto& e : std::filesystem::directory_iterator(dir_, ec))
      if (e.path().extension() == ".url" && seen_.insert(e.path().filename()).second)
        files.push_back(e.path());
    std::sort(files.begin(), files.end());
    return files;
  }

  // The file's node joins, or a warning names the file and says why not; never an exception.
  void look(rt::Runtime& rt, const std::filesystem::path& file) {
    try {
      const std::string text = read(file);
      if (text.find(';') != std::string::npos)
        throw std::invalid_argument("one entry expected, got several (';')");
      rt::check_remote_entries(rt::launch_config(), text);  // as CEI_REMOTE's, at launch
      const NodeEntry e = parse_entry(text);
      if (auto it = nodes_.find(e.name); it != nodes_.end()) {
        if (it->second != e.url) ignore(file, e.name + " is already the node at " + it->second);
        return;  // the same node: one of the start
      }
      if (rt.find_platform(e.name)) return ignore(file, e.name + " is already a platform");
      auto p = std::make_unique<RemotePlatform>(e.name, e.url, e.token, e.o);
      if (!p->unusable_cause().empty())
        return ignore(file, "node " + e.name + " (" + e.url + ") not used: " + p->unusable_cause());
      if (rt.stopping()) return;  // the program is ending: nothing to join
      nodes_.emplace(e.name, e.url);
      rt::log().warn("node {} ({}) joined the run ({})", e.name, e.url, file.string());
      rt::Platform& joined = *p;
      rt.add_platform(std::move(p));
      rt.platform_joined(joined);
      // Added as the runtime began shutting its platforms down: it may have been missed.
      if (rt.stopping()) joined.shutdown();
    } catch (const std::exception& ex) {
      ignore(file, ex.what());
    }
  }

  static std::string read(const std::filesystem::path& file) {
    std::error_code ec;
    if (std::filesystem::file_size(file, ec) > kMaxFile || ec)
      throw std::invalid_argument("not a readable file of at most 4096 bytes");
    std::ifstream in(file);
    std::string text;
    std::getline(in, text);  // one entry, on the first line
    if (!in && !in.eof()) throw std::invalid_argument("cannot be read");
    return text;
  }

  static void ignore(const std::filesystem::path& file, const std::string& why) {
    rt::log().warn("CEI_REMOTE_JOIN: {}: {}; the file is ignored", file.string(), why);
  }

  const std::string dir_;
  std::mutex mu_;
  Clock::time_point last_{};
  std::set<std::filesystem::path> seen_;      // files looked at
  std::map<std::string, std::string> nodes_;  // name -> URL of the run's nodes
};

// Made from CEI_REMOTE_JOIN when the platforms are added; never destroyed (the monitors may look
// while the program exits).
JoinWatch* join_watch = nullptr;

void poll_join_folder() {
  if (join_watch) join_watch->poll();
}

void note_start_node(const std::string& name, const std::string& url) {
  if (join_watch) join_watch->known(name, url);
}

// CEI_REMOTE_JOIN=<folder>, when set (and a folder: the launch check stops the program with
// status 2 otherwise, once the platforms are added).
void watch_join_folder() {
  const char* dir = std::getenv("CEI_REMOTE_JOIN");
  std::error_code ec;
  if (dir && *dir && std::filesystem::is_directory(dir, ec)) join_watch = new JoinWatch(dir);
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
  watch_join_folder();
  for (const auto& p : config->platforms) {
    if (p.type != rt::PlatformType::Remote) continue;
    RemoteOptions o;
    o.price_per_gb = p.prices.per_gb;
    o.price_per_hour = p.prices.per_hour;
    if (p.power_configured) o.power_w = p.power.idle_w;  // the host idles while the node works
    add_node(rt, p.name, p.url, p.token, o);
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
  auto p = std::make_unique<RemotePlatform>(name, url, token, options);
  if (!p->unusable_cause().empty()) warn_unusable(*p, url);
  return p;
}

}  // namespace cei::remote
