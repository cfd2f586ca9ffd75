// The REST API of docs/rest-api.yaml on a cpprest http_listener.
#include <cei/worker/node.hpp>

#include "data_store.hpp"
#include "executor.hpp"
#include "fast_continuations.hpp"
#include "protocol.hpp"
#include "wire_check.hpp"

#include <cpprest/http_listener.h>
#include <cpprest/rawptrstream.h>

#include <boost/asio/ssl.hpp>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <map>
#include <mutex>

namespace cei::worker {

namespace http = web::http;
using nlohmann::json;
using remote::ProtocolError;

namespace {

constexpr const char* kVersion = "0.1.0";
constexpr long kMaxWaitMs = 60000;
constexpr int kMaxLongPolls =
    16;  // beyond it a long poll answers at once: keeps listener threads free

struct TaskState {
  std::mutex mu;
  std::condition_variable cv;
  std::string state = "queued";  // queued | running | done | failed
  std::string error;
  std::vector<std::string> outputs;
  double exec_s = 0;
};

// Per-CE history of execution time per input byte, for POST /v1/forecast.
struct History {
  double seconds = 0, bytes = 0;
  long runs = 0;
};

// Messages may quote what the client sent, which need not be UTF-8.
std::string dump(const json& j) {
  return j.dump(-1, ' ', false, json::error_handler_t::replace);
}

void reply_json(const http::http_request& req, http::status_code code, const json& body) {
  http::http_response r(code);
  r.set_body(dump(body), "application/json");
  req.reply(r);
}

void reply_error(const http::http_request& req, int code, const std::string& message) {
  http::http_response r(static_cast<http::status_code>(code));
  r.set_body(dump(json{{"error", message}}), "application/json");
  if (code == 401) r.headers().add("WWW-Authenticate", "Bearer");
  if (code == 503) r.headers().add("Retry-After", "1");
  req.reply(r);
}

const char* dir_name(rt::Dir d) {
  return remote::to_string(d);
}

}  // namespace

struct Node::Impl {
  NodeOptions opt;
  std::vector<const rt::CeInfo*> ces;
  std::map<std::string, const rt::TypeOps*, std::less<>> types;  // every type the CEs use, by name
  std::unique_ptr<Executor> exec;
  DataStore store;
  std::unique_ptr<http::experimental::listener::http_listener> listener;

  std::mutex tasks_mu;
  std::map<std::string, std::shared_ptr<TaskState>, std::less<>> tasks;
  std::map<const rt::CeInfo*, History> history;
  std::uint64_t next_task = 1;
  std::atomic<std::size_t> active{0};  // queued + running
  std::atomic<int> long_polls{0};

  Impl(NodeOptions o, std::span<const rt::CeInfo* const> list)
      : opt(std::move(o)), ces(list.begin(), list.end()), store(opt.max_data_bytes) {
    for (const auto* ce : ces) {
      for (std::size_t i = 0; i < ce->nparams; ++i)
        types[ce->params[i].type->name] = ce->params[i].type;
      if (ce->result) types[ce->result->name] = ce->result;
    }
    if (opt.executor) exec = opt.executor();
    if (!exec) exec = make_direct_executor(opt.threads);
  }
  ~Impl() {
    listener.reset();
    exec.reset();  // runs what is queued; completions still use the members below
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

  void handle(http::http_request req) {
    try {
      route(req);
    } catch (const ProtocolError& e) {
      reply_quietly(req, e.status(), e.what());
    } catch (const std::exception& e) {
      reply_quietly(req, 500, e.what());
    }
  }

  // An error answer; a client that has gone away is nobody's concern.
  static void reply_quietly(const http::http_request& req, int code, const std::string& message) {
    try {
      reply_error(req, code, message);
    } catch (const std::exception&) {
    }
  }

  void route(const http::http_request& req) {
    auto auth = req.headers().find(http::header_names::authorization);
    if (auth == req.headers().end() ||
        !remote::token_equals(remote::bearer_token(auth->second), opt.token)) {
      throw ProtocolError(401, "missing or wrong bearer token");
    }
    std::vector<std::string> parts;
    try {
      parts = http::uri::split_path(http::uri::decode(req.relative_uri().path()));
    } catch (const std::exception&) {
      throw ProtocolError(400, "the path is not URL-encoded properly");
    }
    const auto& m = req.method();
    auto only = [&](std::initializer_list<const char*> allowed) {
      for (const char* a : allowed) {
        if (m == a) return;
      }
      std::string list;
      for (const char* a : allowed) list += (list.empty() ? "" : ", ") + std::string(a);
      http::http_response r(http::status_codes::MethodNotAllowed);
      r.headers().add("Allow", list);
      r.set_body(dump(json{{"error", "method " + m + " not allowed; use " + list}}),
                 "application/json");
      req.reply(r);
      throw Replied{};
    };
    try {
      if (parts.size() == 2 && parts[0] == "v1" && parts[1] == "health") {
        only({"GET"});
        return reply_json(req, http::status_codes::OK, {{"status", "ok"}});
      }
      if (parts.size() == 2 && parts[0] == "v1" && parts[1] == "info") {
        only({"GET"});
        return reply_json(req, http::status_codes::OK, info());
      }
      if (parts.size() == 2 && parts[0] == "v1" && parts[1] == "forecast") {
        only({"POST"});
        return forecast(req);
      }
      if (parts.size() == 3 && parts[0] == "v1" && parts[1] == "data") {
        only({"GET", "PUT", "DELETE"});
        if (!remote::valid_id(parts[2]))
          throw ProtocolError(400, "invalid data id '" + parts[2] + "'");
        if (m == http::methods::PUT) return put_data(req, parts[2]);
        if (m == http::methods::GET) return get_data(req, parts[2]);
        return delete_data(req, parts[2]);
      }
      if (parts.size() == 2 && parts[0] == "v1" && parts[1] == "tasks") {
        only({"POST"});
        return submit(req);
      }
      if (parts.size() == 3 && parts[0] == "v1" && parts[1] == "tasks") {
        only({"GET"});
        return status(req, parts[2]);
      }
    } catch (const Replied&) {
      return;
    }
    throw ProtocolError(404, "no endpoint " + req.relative_uri().path());
  }
  struct Replied {};

  // The body, refused with 413 beyond `limit` (announced or actual size).
  static std::string body(const http::http_request& req, std::size_t limit) {
    auto announced = req.headers().content_length();
    if (announced > limit) {
      throw ProtocolError(413, "body of " + std::to_string(announced) +
                                   " bytes exceeds the limit of " + std::to_string(limit));
    }
    std::string bytes;
    auto buf = req.body().streambuf();
    if (announced > 0) {
      // Straight into storage of the announced size: no growing, no second copy.
      bytes.resize(announced);
      std::size_t got = 0;
      while (got < bytes.size()) {
        std::size_t n =
            buf.getn(reinterpret_cast<uint8_t*>(bytes.data()) + got, bytes.size() - got).get();
        if (n == 0) break;
        got += n;
      }
      if (got != bytes.size()) throw ProtocolError(400, "body shorter than its Content-Length");
    } else {
      auto v = req.extract_vector().get();
      if (v.size() > limit)
        throw ProtocolError(413, "body exceeds the limit of " + std::to_string(limit));
      bytes.assign(v.begin(), v.end());
    }
    return bytes;
  }

  json json_body(const http::http_request& req) const {
    auto bytes = body(req, opt.max_json_bytes);
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
            {"ces", list},
            {"platforms", exec->platforms()},
            {"load",
             {{"active_tasks", active.load()},
              {"capacity", opt.max_tasks},
              {"workers", exec->workers()},
              {"stored_bytes", store.bytes()},
              {"stored_values", store.count()}}},
            {"limits",
             {{"max_body_bytes", opt.max_body_bytes},
              {"max_json_bytes", opt.max_json_bytes},
              {"max_data_bytes", opt.max_data_bytes}}}};
  }

  void forecast(const http::http_request& req) {
    json j = json_body(req);
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
    reply_json(req, http::status_codes::OK,
               {{"exec_s", exec_s},
                {"queue_s", queue_s},
                {"source", source},
                {"active_tasks", active.load()},
                {"workers", exec->workers()}});
  }

  void put_data(const http::http_request& req, const std::string& id) {
    auto q = http::uri::split_query(req.relative_uri().query());
    auto t = q.find("type");
    if (t == q.end()) throw ProtocolError(400, "query parameter 'type' is required");
    std::string type_name;
    try {
      type_name = http::uri::decode(t->second);
    } catch (const std::exception&) {
      throw ProtocolError(400, "query parameter 'type' is not URL-encoded properly");
    }
    auto ti = types.find(type_name);
    if (ti == types.end())
      throw ProtocolError(400, "type '" + type_name + "' is not used by any CE of this node");
    const rt::TypeOps& type = *ti->second;
    auto bytes = body(req, opt.max_body_bytes);
    std::string_view view(bytes);
    if (auto err = wire_error(type, view); !err.empty())
      throw ProtocolError(400, "malformed " + type_name + ": " + err);
    Value v{&type, exec->make_object(type), bytes.size()};
    try {
      type.deserialize(v.object.get(), view);
    } catch (const std::exception& e) {
      throw ProtocolError(400, "malformed " + type_name + ": " + e.what());
    }
    bool existed = store.get(id).has_value();
    if (!store.put(id, std::move(v))) throw ProtocolError(503, "the node's data store is full");
    reply_json(req, existed ? http::status_codes::OK : http::status_codes::Created,
               {{"id", id}, {"bytes", bytes.size()}, {"type", type_name}});
  }

  void get_data(const http::http_request& req, const std::string& id) {
    auto v = store.get(id);
    if (!v) throw ProtocolError(404, "unknown data '" + id + "'");
    auto bytes = std::make_shared<std::string>();
    v->type->serialize(v->object.get(), *bytes);
    http::http_response r(http::status_codes::OK);
    r.headers().add("X-CEI-Type", v->type->name);
    // The response streams straight out of the serialized string (no second copy).
    auto size = bytes->size();
    r.set_body(Concurrency::streams::rawptr_stream<uint8_t>::open_istream(
                   reinterpret_cast<const uint8_t*>(bytes->data()), size),
               size, "application/octet-stream");
    req.reply(r).then([bytes](pplx::task<void> t) {
      try {
        t.get();
      } catch (...) {  // the client went away: nothing to tell anyone
      }
    });
  }

  void delete_data(const http::http_request& req, const std::string& id) {
    if (!store.erase(id)) throw ProtocolError(404, "unknown data '" + id + "'");
    req.reply(http::status_codes::NoContent);
  }

  void submit(const http::http_request& req) {
    auto bytes = body(req, opt.max_json_bytes);
    auto r = remote::parse_task_request(bytes);
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
      id = "t" + std::to_string(next_task++);
      tasks[id] = state;
    }
    auto start = std::chrono::steady_clock::now();
    job.done = [this, state, outputs, ce, in_bytes, start,
                args = job.args](std::exception_ptr error) {
      double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      std::string message;
      if (error) {
        try {
          std::rethrow_exception(error);
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
          if (!store.put(outputs[k++], std::move(v))) message = "the node's data store is full";
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
        std::lock_guard lock(state->mu);
        state->state = message.empty() ? "done" : "failed";
        state->error = message;
        state->exec_s = secs;
      }
      state->cv.notify_all();
    };
    exec->run(std::move(job));
    reply_json(req, http::status_codes::Accepted,
               {{"id", id}, {"state", "queued"}, {"outputs", outputs}});
  }

  void status(const http::http_request& req, const std::string& id) {
    std::shared_ptr<TaskState> state;
    {
      std::lock_guard lock(tasks_mu);
      auto it = tasks.find(id);
      if (it == tasks.end()) throw ProtocolError(404, "unknown task '" + id + "'");
      state = it->second;
    }
    long wait_ms = 0;
    auto q = http::uri::split_query(req.relative_uri().query());
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
    auto finished = [&] { return state->state == "done" || state->state == "failed"; };
    if (wait_ms > 0 && !finished()) {
      if (long_polls.fetch_add(1) < kMaxLongPolls) {
        state->cv.wait_for(lock, std::chrono::milliseconds(wait_ms), finished);
      }
      long_polls.fetch_sub(1);
    }
    json j{{"id", id}, {"state", state->state}, {"outputs", state->outputs}};
    if (finished()) j["exec_s"] = state->exec_s;
    if (!state->error.empty()) j["error"] = state->error;
    lock.unlock();
    reply_json(req, http::status_codes::OK, j);
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
  remote::use_fast_continuations();
  http::experimental::listener::http_listener_config cfg;
  const auto& o = impl_->opt;
  if (!o.tls_cert.empty() || !o.tls_key.empty()) {
    if (o.tls_cert.empty() || o.tls_key.empty()) {
      throw std::invalid_argument("TLS needs both a certificate and a private key");
    }
    cfg.set_ssl_context_callback([cert = o.tls_cert, key = o.tls_key,
                                  dh = o.tls_dh](boost::asio::ssl::context& ctx) {
      ctx.set_options(boost::asio::ssl::context::default_workarounds |
                      boost::asio::ssl::context::no_sslv2 | boost::asio::ssl::context::no_sslv3 |
                      boost::asio::ssl::context::no_tlsv1 | boost::asio::ssl::context::no_tlsv1_1);
      ctx.use_certificate_chain_file(cert);
      ctx.use_private_key_file(key, boost::asio::ssl::context::pem);
      if (!dh.empty()) ctx.use_tmp_dh_file(dh);
    });
  }
  impl_->listener =
      std::make_unique<http::experimental::listener::http_listener>(impl_->url(), cfg);
  auto handle = [this](http::http_request req) { impl_->handle(std::move(req)); };
  impl_->listener->support(handle);
  // cpprest answers TRACE (an echo) and OPTIONS itself unless they have handlers of their own:
  // ours gives them 405 like every method a path lacks.
  impl_->listener->support(http::methods::TRCE, handle);
  impl_->listener->support(http::methods::OPTIONS, handle);
  impl_->listener->open().wait();
}

void Node::close() {
  if (impl_->listener) {
    impl_->listener->close().wait();
    impl_->listener.reset();
  }
}

}  // namespace cei::worker
