#include "node_client.hpp"

#include "data_channel.hpp"
#include "wire_check.hpp"

#include <cpprest/base_uri.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <vector>

namespace cei::remote {

namespace {

// The body of GET /v1/data for `type`. A contiguous value's framing is checked as it arrives
// (against the expected extents when the caller knows them) and the payload goes straight into
// the value's own storage. What the node alone vouches for - an object, or a payload of unknown
// shape over kTrusted - is collected in steps as its bytes arrive instead, so that an announced
// size commits no memory that the node does not send; then deserialized, or copied in.
class ValueSink final : public BodySink {
 public:
  static constexpr std::size_t kTrusted = 64 << 20;
  static constexpr std::size_t kStep = 16 << 20;

  ValueSink(const rt::TypeOps& type, void* value, const Expected& expected)
      : type_(type), value_(value), expected_(expected) {}

  // The announced size against the expected extents, before a byte of memory is committed.
  void start(std::size_t bytes) override {
    if (expected_.admit) expected_.admit(bytes);
    total_ = bytes;
    if (expected_.extents.empty()) return;
    std::size_t want = wire_head_bytes(type_) + type_.elem_size * element_count();
    if (bytes != want) {
      throw malformed(std::to_string(bytes) + " bytes where the expected extents (" +
                      listed(expected_.extents) + ") make " + std::to_string(want));
    }
  }
  std::span<char> space() override {
    const bool object = type_.kind == rt::TypeKind::Object;
    if (!object && head_.empty()) {
      head_.resize(std::min(total_, wire_head_bytes(type_)));
      return {head_.data(), head_.size()};
    }
    const std::size_t payload = total_ - head_.size();
    if (object || (expected_.extents.empty() && payload > kTrusted)) {
      if (!object) check_framing();
      const std::size_t at = grown_.size(), step = std::min(payload - at, kStep);
      grown_.resize(at + step);
      return {grown_.data() + at, step};
    }
    make();
    return {static_cast<char*>(type_.data(value_)), payload};
  }
  std::size_t bytes() const { return total_; }
  // Once the whole body is in.
  void finish() {
    if (type_.kind != rt::TypeKind::Object) {
      make();
      if (!grown_.empty()) std::memcpy(type_.data(value_), grown_.data(), grown_.size());
      return;
    }
    try {
      type_.deserialize(value_, grown_);
    } catch (const std::exception& e) {
      throw malformed(e.what());
    }
  }

 private:
  // The framing read so far, checked against the body's size and the expected extents.
  void check_framing() {
    if (!extents_.empty() || type_.rank == 0) return;
    if (auto err = framing_error(type_, head_, total_, &extents_); !err.empty())
      throw malformed(err);
    if (!expected_.extents.empty() && extents_ != expected_.extents) {
      throw malformed("extents (" + listed(extents_) + ") where (" + listed(expected_.extents) +
                      ") were expected");
    }
  }
  // Gives the value the framing's shape.
  void make() {
    if (made_) return;
    made_ = true;
    if (type_.rank == 0) {
      if (auto err = framing_error(type_, head_, total_); !err.empty()) throw malformed(err);
    }
    check_framing();
    type_.reshape_for_overwrite(value_, extents_.data(), static_cast<int>(extents_.size()));
    if (type_.bytes(value_) != total_ - head_.size())
      throw malformed("reshape disagrees with the extents");
  }
  std::runtime_error malformed(const std::string& what) const {
    return std::runtime_error(std::string(type_.name) + ": " + what);
  }
  std::size_t element_count() const {
    std::size_t n = 1;
    for (auto e : expected_.extents) n *= static_cast<std::size_t>(e);
    return n;
  }
  static std::string listed(const std::vector<std::int64_t>& extents) {
    std::string s;
    for (auto e : extents) s += (s.empty() ? "" : ", ") + std::to_string(e);
    return s;
  }

  const rt::TypeOps& type_;
  void* value_;
  const Expected& expected_;
  std::size_t total_ = 0;
  std::string head_;   // a contiguous value's framing
  std::string grown_;  // an object's bytes, or a payload collected before the value is made
  std::vector<std::int64_t> extents_;  // the framing's, once checked
  bool made_ = false;
};

}  // namespace

struct NodeClient::Impl {
  ClientOptions opt;
  std::unique_ptr<DataChannel> data;  // every request: values, JSON, long polls

  // A 503's Retry-After in seconds (the HTTP-date form is not sent by nodes): at least 1 s.
  static std::chrono::seconds retry_after(int status, const std::string& header) {
    if (status != 503) return {};
    long s = 1;
    try {
      s = std::stol(header);
    } catch (const std::exception&) {
    }
    return std::chrono::seconds(std::clamp(s, 1L, 3600L));
  }

  static void check(const DataChannel::Reply& reply, int expected, int also = 0) {
    if (reply.status == expected || (also != 0 && reply.status == also)) return;
    std::string message = reply.body;
    try {
      message = nlohmann::json::parse(reply.body).at("error").get<std::string>();
    } catch (const std::exception&) {
    }
    throw NodeError(reply.status, "node answered " + std::to_string(reply.status) + ": " + message,
                    retry_after(reply.status, reply.retry_after));
  }

  // A JSON request; the answer, which must be a JSON object, parsed.
  nlohmann::json call(std::string_view method, const std::string& path, int expected,
                      const std::string& body = {}, int also = 0) {
    std::string_view parts[] = {body};
    std::span<const std::string_view> sent;
    if (!body.empty()) sent = parts;
    auto reply = data->exchange(method, path, sent, nullptr, "application/json");
    check(reply, expected, also);
    try {
      auto j = nlohmann::json::parse(reply.body);
      if (!j.is_object()) throw std::runtime_error("not a JSON object");
      return j;
    } catch (const std::exception& e) {
      throw NodeError::malformed(std::string(method) + " " + path + ": " + e.what());
    }
  }

  // PUT /v1/data/{id} of these parts.
  void upload(const std::string& id, const std::string& type_name,
              std::span<const std::string_view> parts) {
    check(data->exchange(
              "PUT", "/v1/data/" + id + "?type=" + web::uri::encode_data_string(type_name), parts),
          201, 200);
  }
};

NodeClient::NodeClient(const std::string& url, std::string token, ClientOptions options)
    : url_(url), impl_(std::make_unique<Impl>()) {
  impl_->opt = options;
  impl_->data = std::make_unique<DataChannel>(url, "Bearer " + token, options);
}

NodeClient::~NodeClient() = default;

bool NodeClient::health() {
  try {
    impl_->call("GET", "/v1/health", 200);
    return true;
  } catch (const NodeError&) {
    return false;
  }
}

nlohmann::json NodeClient::info() {
  return impl_->call("GET", "/v1/info", 200);
}

nlohmann::json NodeClient::forecast(const std::string& interface_name, const std::string& ce,
                                    double input_bytes) {
  nlohmann::json j{{"ce", {{"interface", interface_name}, {"name", ce}}},
                   {"input_bytes", input_bytes}};
  return impl_->call("POST", "/v1/forecast", 200, j.dump());
}

void NodeClient::put(const std::string& id, const std::string& type_name, std::string bytes) {
  std::string_view parts[] = {bytes};
  impl_->upload(id, type_name, parts);
}

std::string NodeClient::get(const std::string& id) {
  // Into a string of the announced size: a value's bytes are not bounded as JSON is.
  struct Bytes final : BodySink {
    std::string s;
    void start(std::size_t bytes) override { s.resize(bytes); }
    std::span<char> space() override { return {s.data(), s.size()}; }
  } bytes;
  Impl::check(impl_->data->exchange("GET", "/v1/data/" + id, {}, &bytes), 200);
  return std::move(bytes.s);
}

std::size_t NodeClient::put(const std::string& id, const rt::TypeOps& type, const void* value) {
  std::string bytes;  // an object's cereal bytes, or a contiguous value's framing
  if (type.kind == rt::TypeKind::Object) {
    type.serialize(value, bytes);
    std::string_view parts[] = {bytes};
    impl_->upload(id, type.name, parts);
    return bytes.size();
  }
  std::int64_t framing[4] = {type.rank};
  for (int d = 0; d < type.rank; ++d) framing[1 + d] = type.extent(value, d);
  bytes.assign(reinterpret_cast<const char*>(framing), sizeof(std::int64_t) * (1 + type.rank));
  std::string_view parts[] = {
      bytes, {static_cast<const char*>(type.data(const_cast<void*>(value))), type.bytes(value)}};
  impl_->upload(id, type.name, parts);
  return parts[0].size() + parts[1].size();
}

std::size_t NodeClient::get(const std::string& id, const rt::TypeOps& type, void* value,
                            const Expected& expected) {
  ValueSink sink(type, value, expected);
  DataChannel::Reply reply;
  try {
    reply = impl_->data->exchange("GET", "/v1/data/" + id, {}, &sink);
    Impl::check(reply, 200);
    sink.finish();
  } catch (const NodeError&) {
    throw;
  } catch (const std::exception& e) {  // the sink's: the body is not the value asked for
    throw NodeError::malformed("GET /v1/data/" + id + ": " + e.what());
  }
  return sink.bytes();
}

void NodeClient::erase(const std::string& id) {
  Impl::check(impl_->data->exchange("DELETE", "/v1/data/" + id), 204);
}

Fetched NodeClient::fetch(const std::string& id, const PeerFetch& from) {
  const std::string path = "/v1/data/" + id + "/fetch";
  auto j = impl_->call("POST", path, 201, to_json(from).dump(), 200);
  try {
    Fetched f{j.at("bytes").get<std::size_t>(), j.at("seconds").get<double>()};
    if (!(f.seconds >= 0)) throw std::runtime_error("seconds < 0");
    return f;
  } catch (const std::exception& e) {
    throw NodeError::malformed("POST " + path + ": " + e.what());
  }
}

std::string NodeClient::submit(const TaskRequest& req) {
  auto j = impl_->call("POST", "/v1/tasks", 202, to_json(req).dump());
  try {
    auto id = j.at("id").get<std::string>();
    if (!valid_id(id)) throw std::runtime_error("task id '" + id + "'");
    return id;
  } catch (const std::exception& e) {
    throw NodeError::malformed(std::string("POST /v1/tasks: ") + e.what());
  }
}

TaskStatus NodeClient::status(const std::string& task, long wait_ms) {
  // At most half the request timeout: the node answers within the other half or is down, so a
  // frozen node is noticed within the timeout, as with any other request.
  wait_ms = std::min<long>(wait_ms, static_cast<long>(impl_->opt.timeout.count() / 2));
  std::string path =
      "/v1/tasks/" + task + (wait_ms > 0 ? "?wait_ms=" + std::to_string(wait_ms) : "");
  auto j = impl_->call("GET", path, 200);
  TaskStatus s;
  try {
    s.state = j.at("state").get<std::string>();
    if (s.state != "queued" && s.state != "running" && s.state != "done" && s.state != "failed")
      throw std::runtime_error("state '" + s.state + "'");
    s.error = j.value("error", std::string());
    s.crashed = j.value("crashed", false);
    s.store_full = j.value("store_full", false);
    s.exec_s = j.value("exec_s", 0.0);
  } catch (const std::exception& e) {
    throw NodeError::malformed("GET " + path + ": " + e.what());
  }
  return s;
}

}  // namespace cei::remote
