// cei::model::to_json: the stable JSON form of the CE model (`ceic --dump-cei`, golden tests).
// Keys are the struct fields' names; enums are lower-case words.
#include <cei/model.hpp>

#include <nlohmann/json.hpp>

namespace cei::model {
namespace {

using nlohmann::ordered_json;

const char* kind_name(TypeKind k) {
  switch (k) {
    case TypeKind::Void:
      return "void";
    case TypeKind::Scalar:
      return "scalar";
    case TypeKind::Array:
      return "array";
    case TypeKind::StdVector:
      return "std_vector";
    case TypeKind::String:
      return "string";
    case TypeKind::Object:
      return "object";
  }
  return "?";
}

const char* direction_name(Direction d) {
  switch (d) {
    case Direction::In:
      return "in";
    case Direction::Out:
      return "out";
    case Direction::InOut:
      return "inout";
  }
  return "?";
}

ordered_json json_of(const Location& l) {
  return {{"file", l.file}, {"line", l.line}, {"column", l.column}};
}

ordered_json json_of(const Type& t) {
  return {{"spelling", t.spelling},
          {"kind", kind_name(t.kind)},
          {"element", t.element},
          {"rank", t.rank}};
}

ordered_json json_of(const std::optional<OpenCL>& cl) {
  if (!cl) return nullptr;
  const OpenCL& o = *cl;
  if (!o.function.empty())  // the golden files of kernels keep their keys as they were
    return {{"function", o.function},
            {"result_size", o.result_size},
            {"loc", json_of(o.loc)},
            {"function_loc", json_of(o.function_loc)}};
  return {{"kernel", o.kernel},
          {"kernel_path", o.kernel_path},
          {"name", o.name},
          {"global_work_size", o.global_work_size},
          {"local_work_size", o.local_work_size},
          {"offset", o.offset},
          {"result_size", o.result_size},
          {"loc", json_of(o.loc)}};
}

ordered_json json_of(const CoreElement& ce) {
  ordered_json j;
  j["interface_name"] = ce.interface_name;
  j["name"] = ce.name;
  j["is_static"] = ce.is_static;
  j["loc"] = json_of(ce.loc);
  j["result"] = json_of(ce.result);
  j["params"] = ordered_json::array();
  for (const auto& p : ce.params)
    j["params"].push_back({{"name", p.name},
                           {"type", json_of(p.type)},
                           {"direction", direction_name(p.direction)},
                           {"is_const", p.is_const},
                           {"is_reference", p.is_reference},
                           {"loc", json_of(p.loc)}});
  j["versions"] = ordered_json::array();
  for (const auto& v : ce.versions)
    j["versions"].push_back({{"declaring_class", v.declaring_class}, {"loc", json_of(v.loc)}});
  j["opencl"] = json_of(ce.opencl);
  j["on_failure"] = nullptr;
  if (ce.on_failure)
    j["on_failure"] = {{"policy", ce.on_failure->policy},
                       {"retries", ce.on_failure->retries},
                       {"timeout_ms", ce.on_failure->timeout_ms}};
  // Only where written: the models of applications without them stay as they were.
  ordered_json approximate = ordered_json::array();
  for (const auto& v : ce.versions)
    if (v.approximate) approximate.push_back(v.declaring_class);
  if (!approximate.empty()) j["approximate_versions"] = approximate;
  if (ce.opencl_approximate) j["opencl_approximate"] = json_of(ce.opencl_approximate);
  if (!ce.significance.empty()) j["significance"] = ce.significance;
  if (ce.droppable) j["droppable"] = true;
  if (!ce.requirements.empty()) j["requires"] = ce.requirements;
  return j;
}

}  // namespace

std::string to_json(const Model& m, int indent) {
  ordered_json j;
  j["header"] = m.header;
  j["ces"] = ordered_json::array();
  for (const auto& ce : m.ces) j["ces"].push_back(json_of(ce));
  return j.dump(indent);
}

}  // namespace cei::model
