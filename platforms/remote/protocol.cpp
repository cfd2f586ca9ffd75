#include "protocol.hpp"

namespace cei::remote {

const char* to_string(rt::Dir d) {
  switch (d) {
    case rt::Dir::In:
      return "in";
    case rt::Dir::Out:
      return "out";
    case rt::Dir::InOut:
      return "inout";
  }
  return "?";
}

bool valid_id(std::string_view id) {
  if (id.empty() || id.size() > 128) return false;
  for (char c : id) {
    bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
              c == '.' || c == '_' || c == '-';
    if (!ok) return false;
  }
  return true;
}

bool token_equals(std::string_view given, std::string_view expected) {
  // Every byte of the longer string is visited whatever the content.
  std::size_t n = std::max(given.size(), expected.size());
  unsigned diff = given.size() == expected.size() ? 0u : 1u;
  for (std::size_t i = 0; i < n; ++i) {
    unsigned char a = i < given.size() ? static_cast<unsigned char>(given[i]) : 0;
    unsigned char b = i < expected.size() ? static_cast<unsigned char>(expected[i]) : 0;
    diff |= static_cast<unsigned>(a ^ b);
  }
  return diff == 0 && !expected.empty();
}

std::string_view bearer_token(std::string_view authorization) {
  constexpr std::string_view prefix = "Bearer ";
  if (authorization.substr(0, prefix.size()) != prefix) return {};
  return authorization.substr(prefix.size());
}

nlohmann::json to_json(const TaskRequest& r) {
  nlohmann::json args = nlohmann::json::array();
  for (const auto& a : r.args) {
    nlohmann::json j{{"dir", to_string(a.dir)}};
    if (a.dir != rt::Dir::Out) j["data"] = a.data;
    if (a.dir != rt::Dir::In) j["out"] = a.out;
    args.push_back(std::move(j));
  }
  nlohmann::json j{{"ce", {{"interface", r.interface_name}, {"name", r.ce}}}, {"args", args}};
  if (!r.result.empty()) j["result"] = r.result;
  return j;
}

namespace {

const nlohmann::json& member(const nlohmann::json& obj, const char* key, const std::string& where) {
  auto it = obj.find(key);
  if (it == obj.end()) throw ProtocolError(400, where + ": missing '" + key + "'");
  return *it;
}

std::string string_member(const nlohmann::json& obj, const char* key, const std::string& where) {
  const auto& v = member(obj, key, where);
  if (!v.is_string()) throw ProtocolError(400, where + ": '" + key + "' must be a string");
  return v.get<std::string>();
}

std::string id_member(const nlohmann::json& obj, const char* key, const std::string& where) {
  std::string id = string_member(obj, key, where);
  if (!valid_id(id)) throw ProtocolError(400, where + ": '" + key + "' is not a valid data id");
  return id;
}

// A request body that must be a JSON object (`what` names it in the error).
nlohmann::json parse_object(std::string_view body, const char* what) {
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(body);
  } catch (const nlohmann::json::exception& e) {  // parse_error, or out_of_range for 1e999
    throw ProtocolError(400, std::string("malformed JSON: ") + e.what());
  }
  if (!j.is_object())
    throw ProtocolError(400, std::string(what) + ": the body must be a JSON object");
  return j;
}

}  // namespace

TaskRequest parse_task_request(std::string_view body) {
  const nlohmann::json j = parse_object(body, "task");
  TaskRequest r;
  const auto& ce = member(j, "ce", "task");
  if (!ce.is_object()) throw ProtocolError(400, "task: 'ce' must be an object");
  r.interface_name = string_member(ce, "interface", "task.ce");
  r.ce = string_member(ce, "name", "task.ce");
  const auto& args = member(j, "args", "task");
  if (!args.is_array()) throw ProtocolError(400, "task: 'args' must be an array");
  for (std::size_t i = 0; i < args.size(); ++i) {
    const auto& a = args[i];
    std::string where = "task.args[" + std::to_string(i) + "]";
    if (!a.is_object()) throw ProtocolError(400, where + ": must be an object");
    std::string dir = string_member(a, "dir", where);
    ArgRef ref;
    if (dir == "in")
      ref.dir = rt::Dir::In;
    else if (dir == "out")
      ref.dir = rt::Dir::Out;
    else if (dir == "inout")
      ref.dir = rt::Dir::InOut;
    else
      throw ProtocolError(400, where + ": 'dir' must be in, out or inout");
    if (ref.dir != rt::Dir::Out) ref.data = id_member(a, "data", where);
    if (ref.dir != rt::Dir::In) ref.out = id_member(a, "out", where);
    r.args.push_back(std::move(ref));
  }
  if (auto it = j.find("result"); it != j.end() && !it->is_null()) {
    r.result = id_member(j, "result", "task");
  }
  return r;
}

nlohmann::json to_json(const PeerFetch& f) {
  nlohmann::json j{{"type", f.type},
                   {"from", {{"url", f.url}, {"token", f.token}, {"id", f.id}}},
                   {"timeout_ms", f.timeout_ms}};
  if (!f.extents.empty()) j["extents"] = f.extents;
  return j;
}

PeerFetch parse_peer_fetch(std::string_view body) {
  const nlohmann::json j = parse_object(body, "fetch");
  PeerFetch f;
  f.type = string_member(j, "type", "fetch");
  const auto& from = member(j, "from", "fetch");
  if (!from.is_object()) throw ProtocolError(400, "fetch: 'from' must be an object");
  f.url = string_member(from, "url", "fetch.from");
  f.token = string_member(from, "token", "fetch.from");
  if (f.token.empty()) throw ProtocolError(400, "fetch.from: 'token' must not be empty");
  f.id = id_member(from, "id", "fetch.from");
  if (auto it = j.find("extents"); it != j.end()) {
    if (!it->is_array() || it->size() > 3)
      throw ProtocolError(400, "fetch: 'extents' must be an array of at most 3 integers");
    for (const auto& e : *it) {
      if (!e.is_number_integer() || e.get<std::int64_t>() < 0)
        throw ProtocolError(400, "fetch: 'extents' must hold integers >= 0");
      f.extents.push_back(e.get<std::int64_t>());
    }
  }
  if (auto it = j.find("timeout_ms"); it != j.end()) {
    if (!it->is_number_integer() || it->get<std::int64_t>() < 1 || it->get<std::int64_t>() > 600000)
      throw ProtocolError(400, "fetch: 'timeout_ms' must be an integer from 1 to 600000");
    f.timeout_ms = it->get<long>();
  }
  return f;
}

}  // namespace cei::remote
