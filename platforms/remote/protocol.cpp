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

}  // namespace

TaskRequest parse_task_request(std::string_view body) {
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(body);
  } catch (const nlohmann::json::exception& e) {  // parse_error, or out_of_range for 1e999
    throw ProtocolError(400, std::string("malformed JSON: ") + e.what());
  }
  if (!j.is_object()) throw ProtocolError(400, "task: the body must be a JSON object");
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

}  // namespace cei::remote
