// The REST API of docs/rest-api.yaml: routes, limits and answers, on the Beast transport of
// http_server.hpp. Uploads of contiguous values go straight into the stored object's memory and
// downloads are sent from it, so a large array crosses this process without a copy of its own.
#include <cei/worker/node.hpp>

#include <cei/rt/requirements.hpp>
#include <cei/rt/task_error.hpp>

#include "../../opencl/src/expr_args.hpp"  // header-only: what work-size expressions read
#include "data_store.hpp"
#include "executor.hpp"
#include "http_server.hpp"
#include "peer_fetch.hpp"
#include "protocol.hpp"
#include "wire_check.hpp"

#include <boost/asio/steady_timer.hpp>

#include <sys/random.h>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <deque>
#include <map>
#include <mutex>
#include <optional>

#include <cerrno>
#include <system_error>

namespace cei::worker {

using nlohmann::json;
using remote::ProtocolError;

namespace {

constexpr const char* kVersion = "0.1.0";
constexpr long kMaxWaitMs = 60000;

struct LongPoll;

struct TaskState {
  std::mutex mu;
  std::string state = "queued";  // queued | running | done | failed
  std::string error;
  bool crashed = false;     // failed: the CE ended its worker process (CeCrashed)
  bool store_full = false;  // failed: its outputs did not fit in the node's data store
  std::vector<std::string> outputs;
  double exec_s = 0;
  std::vector<std::shared_ptr<LongPoll>> waiters;  // long polls answered when it finishes
};

bool finished(const TaskState& s) {
  return s.state == "done" || s.state == "failed";
}

// Per-CE history of execution time per input byte, for POST /v1/forecast.
struct History {
  double seconds = 0, bytes = 0;
  long runs = 0;
};

// Messages may quote what the client sent, which need not be UTF-8.
std::string dump(const json& j) {
  return j.dump(-1, ' ', false, json::error_handler_t::replace);
}

HttpResponse json_response(int status, const json& body) {
  HttpResponse r;
  r.status = status;
  r.headers = {{"Content-Type", "application/json"}};
  r.body = dump(body);
  return r;
}

HttpResponse error_response(int status, const std::string& message) {
  HttpResponse r = json_response(status, {{"error", message}});
  if (status == 401) r.headers.emplace_back("WWW-Authenticate", "Bearer");
  if (status == 503) r.headers.emplace_back("Retry-After", "1");
  return r;
}

// Answers with what `f` returns, or with the error it throws.
template <class F>
HttpResponse guarded(F&& f) {
  try {
    return f();
  } catch (const ProtocolError& e) {
    return error_response(e.status(), e.what());
  } catch (const std::exception& e) {
    return error_response(500, e.what());
  }
}

HttpResponse status_response(const std::string& id, const TaskState& s) {  // s.mu held
  json j{{"id", id}, {"state", s.state}, {"outputs", s.outputs}};
  if (finished(s)) j["exec_s"] = s.exec_s;
  if (!s.error.empty()) j["error"] = s.error;
  if (s.crashed) j["crashed"] = true;
  if (s.store_full) j["store_full"] = true;
  return json_response(200, j);
}

// GET /v1/tasks/{id}?wait_ms=N on a task still running: answered when it finishes or at the
// deadline, whichever is first, without holding a thread. Lives on its connection's strand.
struct LongPoll : std::enable_shared_from_this<LongPoll> {
  LongPoll(HttpReply r, std::shared_ptr<TaskState> s, std::string i)
      : reply(std::move(r)), timer(reply.executor()), state(std::move(s)), id(std::move(i)) {}

  void start(long wait_ms) {
    timer.expires_after(std::chrono::milliseconds(wait_ms));
    timer.async_wait(
        [self = shared_from_this()](const boost::system::error_code&) { self->answer(); });
  }
  void answer() {
    if (answered) return;
    answered = true;
    timer.cancel();
    std::lock_guard lock(state->mu);
    std::erase(state->waiters, shared_from_this());
    reply.send(status_response(id, *state));
  }

  HttpReply reply;
  boost::asio::steady_timer timer;
  std::shared_ptr<TaskState> state;
  std::string id;
  bool answered = false;
};

const char* dir_name(rt::Dir d) {
  return remote::to_string(d);
}

std::optional<std::string> percent_decode(std::string_view s) {
  auto hex = [](char c) -> int {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
  };
  std::string out;
  out.reserve(s.size());
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] != '%') {
      out += s[i];
      continue;
    }
    if (i + 2 >= s.size()) return std::nullopt;
    int hi = hex(s[i + 1]), lo = hex(s[i + 2]);
    if (hi < 0 || lo < 0) return std::nullopt;
    out += static_cast<char>(hi * 16 + lo);
    i += 2;
  }
  return out;
}

std::vector<std::string> split_path(std::string_view path) {
  std::vector<std::string> parts;
  std::size_t at = 0;
  while (at <= path.size()) {
    auto slash = path.find('/', at);
    if (slash == std::string_view::npos) slash = path.size();
    if (slash > at) parts.emplace_back(path.substr(at, slash - at));
    at = slash + 1;
  }
  return parts;
}

std::map<std::string, std::string, std::less<>> split_query(std::string_view query) {
  std::map<std::string, std::string, std::less<>> q;
  std::size_t at = 0;
  while (at < query.size()) {
    auto amp = query.find('&', at);
    if (amp == std::string_view::npos) amp = query.size();
    auto pair = query.substr(at, amp - at);
    auto eq = pair.find('=');
    if (!pair.empty()) {
      q[std::string(pair.substr(0, eq))] =
          eq == std::string_view::npos ? "" : std::string(pair.substr(eq + 1));
    }
    at = amp + 1;
  }
  return q;
}

// A request whose body is wanted whole, in one string, then answered by `answer`.
class Buffered final : public HttpExchange {
 public:
  using Answer = std::function<void(std::string body, const HttpReply& reply)>;
  Buffered(std::size_t limit, Answer answer) : limit_(limit), answer_(std::move(answer)) {}
  std::size_t body_limit() const override { return limit_; }
  void finish(HttpReply reply) override { answer_(std::move(body_), reply); }

 private:
  std::size_t limit_;
  Answer answer_;
};

// 128 bits from the kernel's generator, in hex: an id that nobody can guess or derive from ids
// seen before.
std::string random_hex() {
  unsigned char bytes[16];
  for (std::size_t got = 0; got < sizeof bytes;) {
    ssize_t n = getrandom(bytes + got, sizeof bytes - got, 0);
    if (n < 0 && errno != EINTR)
      throw std::system_error(errno, std::generic_category(), "getrandom");
    if (n > 0) got += static_cast<std::size_t>(n);
  }
  char hex[33];
  for (std::size_t i = 0; i < sizeof bytes; ++i) std::snprintf(hex + 2 * i, 3, "%02x", bytes[i]);
  return hex;
}

}  // namespace

struct Node::Impl final : HttpHandler {
  NodeOptions opt;
  std::vector<const rt::CeInfo*> ces;
  std::map<std::string, const rt::TypeOps*, std::less<>> types;  // every type the CEs use, by name
  std::unique_ptr<Executor> exec;
  DataStore store;

  std::mutex tasks_mu;
  std::map<std::string, std::shared_ptr<TaskState>, std::less<>> tasks;
  // Finished tasks in the order they finished, with when: the oldest are forgotten first.
  std::deque<std::pair<std::string, std::chrono::steady_clock::time_point>> finished_tasks;
  std::map<const rt::CeInfo*, History> history;
  // Fetches from peer nodes under way, at most 64 at once (each holds a thread while it waits).
  PeerFetches peers{64, opt.min_rate_bytes_s};
  std::atomic<std::size_t> active{0};  // queued + running
  // Differs for every start of a node: a client that finds another one at the same address
  // knows that the values and tasks it left there are gone.
  const std::string instance = random_hex();

  std::unique_ptr<HttpServer> server;  // last: it stops before what its handlers use goes

  Impl(NodeOptions o, std::span<const rt::CeInfo* const> list)
      : opt(std::move(o)), ces(list.begin(), list.end()), store(opt.max_data_bytes) {
    for (const auto* ce : ces) {
      for (std::size_t i = 0; i < ce->nparams; ++i)
        types[ce->params[i].type->name] = ce->params[i].type;
      if (ce->result) types[ce->result->name] = ce->result;
    }
    if (opt.executor) exec = opt.executor();
    if (!exec) {
      exec = opt.isolate ? make_process_executor(opt.threads, opt.task_timeout_ms)
                         : make_direct_executor(opt.threads);
    }
  }
  ~Impl() override {
    stop_serving();
    exec.reset();  // runs what is queued; completions still use the members above
  }

  void stop_serving() {
    if (!server) return;
    server->stop();
    peers.stop();  // their replies are dropped now; each ends within its timeout
    // Pending long polls hold connections of the server's io_context: gone before it is.
    std::lock_guard lock(tasks_mu);
    for (auto& [id, state] : tasks) {
      std::lock_guard state_lock(state->mu);
      state->waiters.clear();
    }
    server.reset();
  }

  std::string url() const {
    bool tls = !opt.tls_cert.empty();
    return std::string(tls ? "https://" : "http://") + opt.host + ":" + std::to_string(opt.port);
  }

  const rt::CeInfo* find(std::string_view iface, std::string_view name) const {
    for (const auto* ce : ces) {
      if (iface == ce->interface_name && name == ce->name) return ce;
    }
    return nullptr;
  }

  // ---- dispatch -------------------------------------------------------------------------------

  HttpResponse error(int status, const std::string& message) override {
    return error_response(status, message);
  }

  bool trusted(const HttpHead& head) const override {
    return remote::token_equals(remote::bearer_token(head.header("Authorization")), opt.token);
  }

  std::variant<HttpResponse, std::unique_ptr<HttpExchange>> admit(const HttpHead& head) override {
    try {
      return route(head);
    } catch (const ProtocolError& e) {
      return error_response(e.status(), e.what());
    }
  }

  // A request answered from its body (at most `limit` bytes) by `f`.
  static std::unique_ptr<HttpExchange> then(std::size_t limit,
                                            std::function<HttpResponse(const std::string&)> f) {
    return std::make_unique<Buffered>(limit,
                                      [f = std::move(f)](std::string body, const HttpReply& reply) {
                                        reply.send(guarded([&] { return f(body); }));
                                      });
  }

  std::variant<HttpResponse, std::unique_ptr<HttpExchange>> route(const HttpHead& head) {
    if (!trusted(head)) throw ProtocolError(401, "missing or wrong bearer token");
    std::string_view target = head.target();
    auto question = target.find('?');
    std::string_view raw_path = target.substr(0, question);
    std::string_view query =
        question == std::string_view::npos ? std::string_view() : target.substr(question + 1);
    auto path = percent_decode(raw_path);
    if (!path) throw ProtocolError(400, "the path is not URL-encoded properly");
    auto parts = split_path(*path);
    std::string m(head.method());
    // 405 with the methods the path has, or nothing when `m` is one of them.
    auto wrong_method =
        [&](std::initializer_list<const char*> allowed) -> std::optional<HttpResponse> {
      for (const char* a : allowed) {
        if (m == a) return std::nullopt;
      }
      std::string list;
      for (const char* a : allowed) list += (list.empty() ? "" : ", ") + std::string(a);
      HttpResponse r = error_response(405, "method " + m + " not allowed; use " + list);
      r.headers.emplace_back("Allow", list);
      return r;
    };
    const std::size_t json_limit = opt.max_json_bytes;
    if (parts.size() == 2 && parts[0] == "v1" && parts[1] == "health") {
      if (auto r = wrong_method({"GET"})) return std::move(*r);
      return then(json_limit, [](const std::string&) {
        return json_response(200, {{"status", "ok"}});
      });
    }
    if (parts.size() == 2 && parts[0] == "v1" && parts[1] == "info") {
      if (auto r = wrong_method({"GET"})) return std::move(*r);
      return then(json_limit, [this](const std::string&) { return json_response(200, info()); });
    }
    if (parts.size() == 2 && parts[0] == "v1" && parts[1] == "forecast") {
      if (auto r = wrong_method({"POST"})) return std::move(*r);
      return then(json_limit, [this](const std::string& body) { return forecast(body); });
    }
    if (parts.size() == 3 && parts[0] == "v1" && parts[1] == "data") {
      if (auto r = wrong_method({"GET", "PUT", "DELETE"})) return std::move(*r);
      std::string id = parts[2];
      if (!remote::valid_id(id)) throw ProtocolError(400, "invalid data id '" + id + "'");
      if (m == "PUT") return put_data(id, query);
      if (m == "GET") {
        return then(json_limit, [this, id](const std::string&) { return get_data(id); });
      }
      return then(json_limit, [this, id](const std::string&) { return delete_data(id); });
    }
    if (parts.size() == 4 && parts[0] == "v1" && parts[1] == "data" && parts[3] == "fetch") {
      if (auto r = wrong_method({"POST"})) return std::move(*r);
      std::string id = parts[2];
      if (!remote::valid_id(id)) throw ProtocolError(400, "invalid data id '" + id + "'");
      return std::make_unique<Buffered>(json_limit,
                                        [this, id](std::string body, const HttpReply& reply) {
                                          try {
                                            fetch_from_peer(id, body, reply);
                                          } catch (const ProtocolError& e) {
                                            reply.send(error_response(e.status(), e.what()));
                                          }
                                        });
    }
    if (parts.size() == 2 && parts[0] == "v1" && parts[1] == "tasks") {
      if (auto r = wrong_method({"POST"})) return std::move(*r);
      return then(json_limit, [this](const std::string& body) { return submit(body); });
    }
    if (parts.size() == 3 && parts[0] == "v1" && parts[1] == "tasks") {
      if (auto r = wrong_method({"GET"})) return std::move(*r);
      return std::make_unique<Buffered>(json_limit, [this, id = parts[2], q = std::string(query)](
                                                        std::string, const HttpReply& reply) {
        try {
          status(id, q, reply);
        } catch (const ProtocolError& e) {
          reply.send(error_response(e.status(), e.what()));
        }
      });
    }
    throw ProtocolError(404, "no endpoint " + std::string(raw_path));
  }

  json parse_json(const std::string& bytes) const {
    try {
      return json::parse(bytes.begin(), bytes.end());
    } catch (const json::exception& e) {  // parse_error, or out_of_range for 1e999
      throw ProtocolError(400, std::string("malformed JSON: ") + e.what());
    }
  }

  // ---- endpoints ------------------------------------------------------------------------------

  json info() {
    json list = json::array();
    for (const auto* ce : ces) {
      json params = json::array();
      for (std::size_t i = 0; i < ce->nparams; ++i) {
        const auto& p = ce->params[i];
        params.push_back({{"name", p.name}, {"dir", dir_name(p.dir)}, {"type", p.type->name}});
      }
      list.push_back({{"interface", ce->interface_name},
                      {"name", ce->name},
                      {"params", params},
                      {"result", ce->result ? json(ce->result->name) : json(nullptr)},
                      {"opencl", ce->opencl != nullptr}});
    }
    return {{"version", kVersion},
            {"api", "v1"},
            {"instance", instance},
            {"ces", list},
            {"platforms", exec->platforms()},
            {"load",
             {{"active_tasks", active.load()},
              {"capacity", opt.max_tasks},
              {"workers", exec->workers()},
              {"stored_bytes", store.bytes()},
              {"receiving_bytes", store.reserved()},
              {"stored_values", store.count()}}},
            {"limits",
             {{"max_body_bytes", opt.max_body_bytes},
              {"max_json_bytes", opt.max_json_bytes},
              {"max_data_bytes", opt.max_data_bytes}}}};
  }

  HttpResponse forecast(const std::string& body) {
    json j = parse_json(body);
    if (!j.is_object()) throw ProtocolError(400, "forecast: the body must be a JSON object");
    auto ce_it = j.find("ce");
    if (ce_it == j.end() || !ce_it->is_object() || !ce_it->contains("interface") ||
        !ce_it->contains("name") || !(*ce_it)["interface"].is_string() ||
        !(*ce_it)["name"].is_string()) {
      throw ProtocolError(400, "forecast: 'ce' must be {\"interface\": string, \"name\": string}");
    }
    double input_bytes = 0;
    if (auto b = j.find("input_bytes"); b != j.end()) {
      if (!b->is_number() || b->get<double>() < 0) {
        throw ProtocolError(400, "forecast: 'input_bytes' must be a non-negative number");
      }
      input_bytes = b->get<double>();
    }
    const auto* ce =
        find((*ce_it)["interface"].get<std::string>(), (*ce_it)["name"].get<std::string>());
    if (!ce) throw ProtocolError(404, "unknown CE");
    double exec_s = 0;
    std::string source = "default";
    {
      std::lock_guard lock(tasks_mu);
      auto h = history.find(ce);
      if (h != history.end() && h->second.runs > 0) {
        double mean_s = h->second.seconds / h->second.runs,
               mean_b = h->second.bytes / h->second.runs;
        exec_s = mean_b > 0 ? mean_s * (input_bytes / mean_b) : mean_s;
        source = "measured";
      }
    }
    exec_s = std::min(exec_s, 1e12);  // absurd input sizes must not turn into inf (not JSON)
    double workers = static_cast<double>(std::max<std::size_t>(1, exec->workers()));
    double queue_s =
        exec_s * std::max(0.0, static_cast<double>(active.load()) - workers + 1) / workers;
    return json_response(200, {{"exec_s", exec_s},
                               {"queue_s", queue_s},
                               {"source", source},
                               {"active_tasks", active.load()},
                               {"workers", exec->workers()}});
  }

  // PUT /v1/data/{id}: a contiguous value goes straight into the object the store keeps (its
  // framing checked before anything is allocated); objects (cereal) are buffered, then read.
  std::unique_ptr<HttpExchange> put_data(const std::string& id, std::string_view query) {
    auto q = split_query(query);
    auto t = q.find("type");
    if (t == q.end()) throw ProtocolError(400, "query parameter 'type' is required");
    auto type_name = percent_decode(t->second);
    if (!type_name) throw ProtocolError(400, "query parameter 'type' is not URL-encoded properly");
    const rt::TypeOps& type = type_named(*type_name);
    if (type.kind == rt::TypeKind::Object) return std::make_unique<ObjectUpload>(*this, id, type);
    return std::make_unique<ValueUpload>(*this, id, type);
  }

  const rt::TypeOps& type_named(const std::string& name) const {
    auto ti = types.find(name);
    if (ti == types.end())
      throw ProtocolError(400, "type '" + name + "' is not used by any CE of this node");
    return *ti->second;
  }

  // A PUT /v1/data/{id} body: room in the store for its announced size is held from its start
  // until it is stored or abandoned.
  class Upload : public HttpExchange {
   public:
    Upload(Impl& node, std::string id, const rt::TypeOps& type)
        : node_(node), id_(std::move(id)), type_(type) {}
    std::size_t body_limit() const override { return node_.opt.max_body_bytes; }
    void start(std::size_t body_bytes) override {
      if (!reservation_.make(node_.store, body_bytes)) {
        const auto& store = node_.store;
        throw ProtocolError(503, std::string(remote::kStoreFull) + ": " +
                                     std::to_string(body_bytes) + " bytes do not fit beside " +
                                     std::to_string(store.bytes()) + " stored and " +
                                     std::to_string(store.reserved()) + " arriving (limit " +
                                     std::to_string(node_.opt.max_data_bytes) + ")");
      }
      HttpExchange::start(body_bytes);
    }
    void abandon() override { reservation_.release(); }

   protected:
    Impl& node_;
    std::string id_;
    const rt::TypeOps& type_;
    Reservation reservation_;
  };

  // An object (cereal) body: buffered as it arrives, then read into a new object.
  class ObjectUpload final : public Upload {
   public:
    using Upload::Upload;
    void finish(HttpReply reply) override {
      reply.send(guarded([&] {
        Value v{&type_, node_.exec->make_object(type_), body_.size()};
        try {
          type_.deserialize(v.object.get(), body_);
        } catch (const std::exception& e) {
          throw ProtocolError(400, std::string("malformed ") + type_.name + ": " + e.what());
        }
        return node_.store_value(id_, std::move(v), reservation_.take());
      }));
    }
  };

  // The body of a contiguous value: its framing into `head_`, then the payload straight into
  // the new object's memory. A large payload's first kStage bytes go to a small buffer first:
  // the object's memory is mapped in full when it is made, which an upload that stalls after its
  // framing must not be able to make the node do (four stalled 1 GiB PUTs mapped 4 GiB and held
  // the node's threads for seconds).
  class ValueUpload final : public Upload {
   public:
    using Upload::Upload;
    static constexpr std::size_t kStage = 1 << 20;
    std::span<char> space() override {
      if (!head_done_) {
        head_done_ = true;
        head_.resize(std::min(body_total_, remote::wire_head_bytes(type_)));
        return {head_.data(), head_.size()};
      }
      const std::size_t payload = body_total_ - head_.size();
      if (!object_ && stage_.empty() && payload > kStage) {
        if (auto err = remote::framing_error(type_, head_, body_total_); !err.empty())
          throw ProtocolError(400, std::string("malformed ") + type_.name + ": " + err);
        stage_.resize(kStage);
        return {stage_.data(), stage_.size()};
      }
      make();
      char* data = static_cast<char*>(type_.data(object_.get()));
      std::memcpy(data, stage_.data(), stage_.size());
      const std::size_t staged = std::exchange(stage_, {}).size();
      return {data + staged, payload - staged};
    }
    void finish(HttpReply reply) override {
      reply.send(guarded([&] {
        if (!head_done_) space();  // an empty body: the framing check refuses it
        make();
        return node_.store_value(id_, Value{&type_, std::move(object_), body_total_},
                                 reservation_.take());
      }));
    }

   private:
    void make() {
      if (object_) return;
      std::vector<std::int64_t> extents;
      if (auto err = remote::framing_error(type_, head_, body_total_, &extents); !err.empty())
        throw ProtocolError(400, std::string("malformed ") + type_.name + ": " + err);
      object_ = node_.exec->make_object(type_);
      type_.reshape_for_overwrite(object_.get(), extents.data(), static_cast<int>(extents.size()));
      if (type_.bytes(object_.get()) != body_total_ - head_.size())
        throw ProtocolError(500, std::string("reshape of ") + type_.name + " disagrees");
    }

    bool head_done_ = false;
    std::string head_;
    std::string stage_;  // a large payload's first bytes, until the object is made
    std::shared_ptr<void> object_;
  };

  // `more`: members added to the answer.
  HttpResponse store_value(const std::string& id, Value v, std::size_t reserved,
                           json more = json::object()) {
    std::size_t bytes = v.bytes;
    const char* type_name = v.type->name;
    bool existed = store.get(id).has_value();
    if (!store.put(id, std::move(v), reserved))
      throw ProtocolError(503, std::string(remote::kStoreFull));
    more.update(json{{"id", id}, {"bytes", bytes}, {"type", type_name}});
    return json_response(existed ? 200 : 201, more);
  }

  // POST /v1/data/{id}/fetch: the request checked here, the GET from the peer on a thread of
  // PeerFetches, answered when it ends.
  void fetch_from_peer(const std::string& id, const std::string& body, const HttpReply& reply) {
    auto f = remote::parse_peer_fetch(body);
    const rt::TypeOps& type = type_named(f.type);
    std::shared_ptr<remote::NodeClient> client;
    try {
      if (!f.url.starts_with("http://") && !f.url.starts_with("https://"))
        throw std::invalid_argument("not http:// or https://");
      client = peers.client(f.url, f.token, f.timeout_ms);
    } catch (const std::exception& e) {
      throw ProtocolError(400, "fetch.from: 'url' '" + f.url + "' cannot be used: " + e.what());
    }
    auto job = [this, id, f = std::move(f), &type, client, reply] {
      reply.send(guarded([&] { return fetch_value(id, f, type, *client); }));
    };
    if (!peers.start(std::move(job)))
      throw ProtocolError(503, "the node fetches " + std::to_string(peers.max_at_once()) +
                                   " values from peers already");
  }

  // The peer's value, under the limits of an upload: at most --max-body-mb, room reserved in
  // the store for its announced size before memory is committed, its framing checked (against
  // the extents the client knows). A peer that fails is 502; no room is 503, as for a PUT.
  HttpResponse fetch_value(const std::string& id, const remote::PeerFetch& f,
                           const rt::TypeOps& type, remote::NodeClient& peer) {
    Reservation room;
    std::optional<ProtocolError> refused;  // the node's own refusal, not the peer's failure
    remote::Expected expected{
        f.extents, [&](std::size_t n) {
          if (n > opt.max_body_bytes)
            throw std::runtime_error(std::to_string(n) + " bytes, over the node's limit of " +
                                     std::to_string(opt.max_body_bytes) + " for a value");
          if (room.make(store, n)) return;
          refused.emplace(503, std::string(remote::kStoreFull) + ": " + std::to_string(n) +
                                   " bytes from a peer");
          throw *refused;
        }};
    auto object = exec->make_object(type);
    const auto t0 = std::chrono::steady_clock::now();
    std::size_t n = 0;
    try {
      n = peer.get(f.id, type, object.get(), expected);
    } catch (const remote::NodeError& e) {
      if (refused) throw *refused;
      throw ProtocolError(502,
                          "fetch of '" + f.id + "' from peer " + f.url + " failed: " + e.what());
    }
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return store_value(id, Value{&type, std::move(object), n}, room.take(), {{"seconds", s}});
  }

  // GET /v1/data/{id}: the framing, then a contiguous payload sent from the stored object.
  HttpResponse get_data(const std::string& id) {
    auto v = store.get(id);
    if (!v) throw ProtocolError(404, "unknown data '" + id + "'");
    HttpResponse r;
    r.headers = {{"Content-Type", "application/octet-stream"}, {"X-CEI-Type", v->type->name}};
    const rt::TypeOps& type = *v->type;
    if (type.kind == rt::TypeKind::Object) {
      type.serialize(v->object.get(), r.body);
      return r;
    }
    std::vector<std::int64_t> head{type.rank};
    for (int d = 0; d < type.rank; ++d) head.push_back(type.extent(v->object.get(), d));
    r.body.assign(reinterpret_cast<const char*>(head.data()), head.size() * sizeof(std::int64_t));
    r.more.push_back(boost::asio::buffer(type.data(v->object.get()), type.bytes(v->object.get())));
    r.keep = v->object;
    return r;
  }

  HttpResponse delete_data(const std::string& id) {
    if (!store.erase(id)) throw ProtocolError(404, "unknown data '" + id + "'");
    HttpResponse r;
    r.status = 204;
    return r;
  }

  // [[cei::requires]]: a request whose arguments break the CE's requirements is refused before
  // anything runs, with the text the program would see had its runtime checked them
  // (cei/rt/requirements.hpp). Out parameters are never read: the CEI reader refuses that.
  static void check_requirements(const rt::CeInfo& ce,
                                 const std::vector<std::shared_ptr<void>>& args) {
    std::vector<rt::CallArg> call;
    for (const auto& a : args) call.push_back({a.get(), std::nullopt});
    const std::string broken = rt::broken_requirement(ce, call);
    if (!broken.empty())
      throw ProtocolError(400, rt::TaskError(rt::qualified_name(ce), broken).what());
  }

  // A CE with an OpenCL version states in its work-size and result-size expressions which shapes
  // its implementations take: inputs those refuse, or a result larger than the node may store,
  // are refused before anything runs. Out parameters have no shape yet: such CEs are not checked.
  void check_shapes(const rt::CeInfo& ce, const std::vector<std::shared_ptr<void>>& args) const {
    if (!ce.opencl) return;
    std::vector<opencl::ArgView> views(ce.nparams);
    for (std::size_t i = 0; i < ce.nparams; ++i) {
      if (ce.params[i].dir == rt::Dir::Out) return;
      const rt::TypeOps& t = *ce.params[i].type;
      views[i].type = &t;
      views[i].host = args[i].get();
      for (int d = 0; d < t.rank && d < 3; ++d) views[i].extents[d] = t.extent(args[i].get(), d);
    }
    const rt::OpenCLImpl& cl = *ce.opencl;
    std::string who = std::string("CE ") + ce.interface_name + "::" + ce.name;
    auto refuse = [&](const std::string& why) {
      throw ProtocolError(400, who + " cannot take these inputs: " + why);
    };
    opencl::ExprArgs expr_args(views);
    auto evaluate = [&](const char* what, const char* source) {
      std::vector<std::int64_t> v;
      try {
        v = expr::evaluate(expr::parse(source), expr_args, ce.name);
      } catch (const expr::Error& e) {  // checked when the application was built
        throw ProtocolError(500,
                            who + ": " + what + " \"" + source + "\" does not parse: " + e.what());
      } catch (const std::exception& e) {
        refuse(std::string(what) + " \"" + source + "\": " + e.what());
      }
      std::string list;
      for (auto x : v) list += (list.empty() ? "" : ", ") + std::to_string(x);
      return std::pair(v, std::string(what) + " \"" + source + "\" is (" + list + ")");
    };
    auto [global, global_text] = evaluate("global_work_size", cl.global_work_size);
    for (auto g : global)
      if (g <= 0) refuse(global_text + "; every dimension must be positive");
    if (*cl.local_work_size) {
      auto [local, local_text] = evaluate("local_work_size", cl.local_work_size);
      if (local.size() != global.size()) refuse(local_text + ", " + global_text);
      for (std::size_t d = 0; d < local.size(); ++d)
        if (local[d] <= 0 || global[d] % local[d] != 0)
          refuse(global_text + ", not divisible by " + local_text);
    }
    if (!ce.result || !*cl.result_size) return;
    auto [result, result_text] = evaluate("result_size", cl.result_size);
    if (static_cast<int>(result.size()) != std::max(ce.result->rank, 1))
      refuse(result_text + " for a result of rank " + std::to_string(ce.result->rank));
    double bytes = static_cast<double>(ce.result->elem_size);
    for (auto n : result) bytes *= static_cast<double>(n);  // the evaluator refuses negatives
    if (bytes > static_cast<double>(opt.max_data_bytes)) {
      char amount[64];
      std::snprintf(amount, sizeof amount, "%.0f", bytes);
      refuse(result_text + ": " + amount + " bytes, more than the node stores (max_data_bytes " +
             std::to_string(opt.max_data_bytes) + ")");
    }
  }

  // Forgets finished tasks past their time or count (docs/remote.md). tasks_mu held.
  void forget_finished(std::chrono::steady_clock::time_point now) {
    auto ttl = std::chrono::seconds(opt.finished_task_ttl_s);
    while (!finished_tasks.empty() && (finished_tasks.size() > opt.max_finished_tasks ||
                                       now - finished_tasks.front().second >= ttl)) {
      tasks.erase(finished_tasks.front().first);
      finished_tasks.pop_front();
    }
  }

  HttpResponse submit(const std::string& body) {
    auto r = remote::parse_task_request(body);
    const auto* ce = find(r.interface_name, r.ce);
    if (!ce) throw ProtocolError(404, "unknown CE " + r.interface_name + "::" + r.ce);
    if (r.args.size() != ce->nparams) {
      throw ProtocolError(400, "CE " + r.ce + " takes " + std::to_string(ce->nparams) +
                                   " arguments, got " + std::to_string(r.args.size()));
    }
    if (ce->result && r.result.empty())
      throw ProtocolError(400, "CE " + r.ce + " returns a value: 'result' is required");
    if (!ce->result && !r.result.empty())
      throw ProtocolError(400, "CE " + r.ce + " returns nothing: drop 'result'");
    Job job;
    job.ce = ce;
    std::vector<std::string> outputs;
    std::size_t in_bytes = 0;
    for (std::size_t i = 0; i < ce->nparams; ++i) {
      const auto& p = ce->params[i];
      const auto& a = r.args[i];
      if (a.dir != p.dir) {
        throw ProtocolError(400, "argument " + std::to_string(i) + " of " + r.ce + " is " +
                                     dir_name(p.dir) + ", not " + dir_name(a.dir));
      }
      std::shared_ptr<void> obj;
      if (p.dir != rt::Dir::Out) {
        auto v = store.get(a.data);
        if (!v) throw ProtocolError(404, "unknown data '" + a.data + "'");
        if (v->type != p.type) {
          throw ProtocolError(400, "data '" + a.data + "' is " + v->type->name + ", parameter " +
                                       p.name + " takes " + p.type->name);
        }
        in_bytes += v->bytes;
        obj = v->object;
        if (p.dir == rt::Dir::InOut) {  // stored values are immutable: the task updates a copy
          auto copy = exec->make_object(*p.type);
          p.type->copy(copy.get(), obj.get());
          obj = std::move(copy);
        }
      } else {
        obj = exec->make_object(*p.type);
      }
      if (p.dir != rt::Dir::In) outputs.push_back(a.out);
      job.args.push_back(std::move(obj));
    }
    check_requirements(*ce, job.args);
    check_shapes(*ce, job.args);
    if (ce->result) {
      job.args.push_back(exec->make_object(*ce->result));
      outputs.push_back(r.result);
    }
    if (active.fetch_add(1) >= opt.max_tasks) {
      active.fetch_sub(1);
      throw ProtocolError(503, "the node runs " + std::to_string(opt.max_tasks) + " tasks already");
    }
    auto state = std::make_shared<TaskState>();
    state->outputs = outputs;
    std::string id;
    {
      std::lock_guard lock(tasks_mu);
      forget_finished(std::chrono::steady_clock::now());
      // Unguessable: another holder of the token cannot read or follow this client's tasks, nor
      // learn from their statuses the ids of its values (docs/rest-api.yaml).
      id = "t" + random_hex();
      tasks[id] = state;
    }
    auto start = std::chrono::steady_clock::now();
    job.started = [state] {
      std::lock_guard lock(state->mu);
      state->state = "running";
    };
    job.done = [this, id, state, outputs, ce, in_bytes, start,
                args = job.args](std::exception_ptr error) {
      double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      std::string message;
      bool crashed = false, store_full = false;
      if (error) {
        try {
          std::rethrow_exception(error);
        } catch (const CeCrashed& e) {
          message = e.what();
          crashed = true;
        } catch (const std::exception& e) {
          message = e.what();
        } catch (...) {
          message = "unknown exception";
        }
      } else {
        // Outputs are the Out/InOut storage in parameter order, then the result.
        std::size_t k = 0;
        for (std::size_t i = 0; i <= ce->nparams && k < outputs.size(); ++i) {
          bool is_result = i == ce->nparams;
          if (!is_result && ce->params[i].dir == rt::Dir::In) continue;
          const rt::TypeOps* t = is_result ? ce->result : ce->params[i].type;
          Value v{t, args[i], t->bytes(args[i].get())};
          const std::size_t bytes = v.bytes;
          if (store.put(outputs[k++], std::move(v)) || !message.empty()) continue;
          message = std::string(remote::kStoreFull) + ": output '" + outputs[k - 1] + "' of " +
                    std::to_string(bytes) + " bytes does not fit beside " +
                    std::to_string(store.bytes()) + " stored (limit " +
                    std::to_string(opt.max_data_bytes) + ")";
          store_full = true;
        }
      }
      {
        std::lock_guard lock(tasks_mu);
        auto& h = history[ce];
        h.seconds += secs;
        h.bytes += static_cast<double>(in_bytes);
        ++h.runs;
      }
      active.fetch_sub(1);  // before anyone learns it finished: a new task may take its place
      {
        // Counted finished before anyone learns it is: a GET right after the answer finds it
        // already subject to the finished tasks' limits.
        auto now = std::chrono::steady_clock::now();
        std::lock_guard lock(tasks_mu);
        finished_tasks.emplace_back(id, now);
        forget_finished(now);
      }
      std::lock_guard lock(state->mu);
      state->state = message.empty() ? "done" : "failed";
      state->error = message;
      state->crashed = crashed;
      state->store_full = store_full;
      state->exec_s = secs;
      // Under the lock: Node::close clears the waiters under it before the server goes.
      for (auto& w : state->waiters) w->reply.post([w] { w->answer(); });
      state->waiters.clear();
    };
    exec->run(std::move(job));
    return json_response(202, {{"id", id}, {"state", "queued"}, {"outputs", outputs}});
  }

  void status(const std::string& id, const std::string& query, const HttpReply& reply) {
    std::shared_ptr<TaskState> state;
    {
      std::lock_guard lock(tasks_mu);
      forget_finished(std::chrono::steady_clock::now());
      auto it = tasks.find(id);
      if (it == tasks.end()) {
        throw ProtocolError(404, "unknown task '" + id + "' (finished tasks are kept " +
                                     std::to_string(opt.finished_task_ttl_s) + " s, the last " +
                                     std::to_string(opt.max_finished_tasks) + " at most)");
      }
      state = it->second;
    }
    long wait_ms = 0;
    auto q = split_query(query);
    if (auto w = q.find("wait_ms"); w != q.end()) {
      try {
        std::size_t used = 0;
        wait_ms = std::stol(w->second, &used);
        if (used != w->second.size() || wait_ms < 0) throw std::invalid_argument("");
      } catch (const std::exception&) {
        throw ProtocolError(400, "wait_ms must be a non-negative integer");
      }
      wait_ms = std::min(wait_ms, kMaxWaitMs);
    }
    std::unique_lock lock(state->mu);
    if (wait_ms == 0 || finished(*state)) return reply.send(status_response(id, *state));
    auto poll = std::make_shared<LongPoll>(reply, state, id);
    state->waiters.push_back(poll);
    lock.unlock();
    poll->start(wait_ms);
  }
};

Node::Node(NodeOptions options, std::span<const rt::CeInfo* const> ces)
    : impl_(std::make_unique<Impl>(std::move(options), ces)) {
  if (impl_->opt.token.empty())
    throw std::invalid_argument("a worker node needs a non-empty token");
}

Node::~Node() {
  close();
}

std::string Node::url() const {
  return impl_->url();
}

void Node::open() {
  const auto& o = impl_->opt;
  HttpServerOptions h;
  h.host = o.host;
  h.port = o.port;
  h.tls_cert = o.tls_cert;
  h.tls_key = o.tls_key;
  h.tls_dh = o.tls_dh;
  h.min_rate_bytes_s = o.min_rate_bytes_s;
  h.rate_window_s = o.rate_window_s;
  h.max_connections = o.max_connections;
  h.max_peer_connections = o.max_peer_connections;
  h.head_timeout_s = o.head_timeout_s;
  impl_->server = std::make_unique<HttpServer>(*impl_, h);
}

void Node::close() {
  impl_->stop_serving();
}

}  // namespace cei::worker
