#include "attr_spec.hpp"

#include <algorithm>
#include <optional>

namespace cei::frontend {
namespace {
std::optional<std::vector<AttrArg>> read_args(const ReadContext& rc, const RawAttr& r,
                                              const AttrSpec& spec) {
  if (spec.args.empty()) {
    if (r.has_args) rc.diags.error(rc.loc(r.loc), "'cei::" + r.name + "' takes no arguments");
    return std::vector<AttrArg>{};
  }
  std::vector<AttrArg> args;
  try {
    args = parse_attr_args(r.args_text);
  } catch (const AttrArgsError& e) {
    rc.diags.error(rc.loc(r.args_loc.getLocWithOffset(static_cast<int>(e.offset))),
                   "in 'cei::" + r.name + "': " + e.what());
    return std::nullopt;
  }
  bool ok = true;
  std::vector<std::string> valid;
  for (const auto& [name, kind] : spec.args) valid.push_back(name);
  bool unnamed = false;  // then "needs key = ..." would repeat the same mistake
  for (AttrArg& a : args) {
    if (a.key.empty() && spec.positional) a.key = spec.positional;
    if (a.key.empty()) {
      unnamed = true;
      rc.diags.error(rc.loc(r.args_loc.getLocWithOffset(static_cast<int>(a.key_offset))),
                     "'cei::" + r.name + "' takes named arguments: write " + spec.args[0].first +
                         " = \"...\"");
      ok = false;
      continue;
    }
    auto it = std::find_if(spec.args.begin(), spec.args.end(),
                           [&](const auto& s) { return a.key == s.first; });
    const model::Location at = rc.loc(r.args_loc.getLocWithOffset(static_cast<int>(a.key_offset)));
    if (it == spec.args.end()) {
      rc.diags.error(at, "unknown argument '" + a.key + "' of 'cei::" + r.name +
                             "'; valid arguments are: " + join(valid));
      ok = false;
    } else if (it->second != a.kind) {
      static const char* kinds[] = {"a string", "an integer", "true or false"};
      rc.diags.error(at, "argument '" + a.key + "' of 'cei::" + r.name + "' takes " +
                             kinds[static_cast<int>(it->second)]);
      ok = false;
    }
  }
  for (const char* req : spec.required) {
    const bool missing = !unnamed && std::none_of(args.begin(), args.end(),
                                                  [&](const AttrArg& a) { return a.key == req; });
    if (missing && req == spec.positional) {
      rc.diags.error(
          rc.loc(r.loc),
          "'cei::" + r.name + "' needs an expression first, e.g. [[cei::" + r.name + "(\"50\")]]");
      ok = false;
    } else if (missing) {
      rc.diags.error(rc.loc(r.loc), "'cei::" + r.name + "' needs " + req + " = " +
                                        (std::string(req) == "declaring_class"
                                             ? "\"S\" (S::name implements the CE)"
                                             : std::string("\"...\"")));
      ok = false;
    }
  }
  if (!ok) return std::nullopt;
  return args;
}

}  // namespace

const std::vector<AttrSpec>& specs() {
  using K = AttrArg::Kind;
  using On = AttrSpec::On;
  static const std::vector<AttrSpec> s = {
      {"interface", On::Interface, {}, {}},
      {"method", On::Function, {{"declaring_class", K::String}}, {"declaring_class"}},
      {"approximate", On::Function, {{"declaring_class", K::String}}, {"declaring_class"}},
      {"opencl",
       On::Function,
       {{"kernel", K::String},
        {"function", K::String},
        {"global_work_size", K::String},
        {"local_work_size", K::String},
        {"offset", K::String},
        {"result_size", K::String},
        {"name", K::String},
        {"approximate", K::Bool}},
       {}},  // kernel and global_work_size, or function: read_opencl says which is missing
      {"significance",
       On::Function,
       {{"expr", K::String}, {"droppable", K::Bool}},
       {"expr"},
       "expr"},
      {"requires", On::Function, {{"expr", K::String}}, {"expr"}, "expr"},
      {"on_failure",
       On::Function,
       {{"policy", K::String}, {"retries", K::Integer}, {"timeout_ms", K::Integer}},
       {"policy"}},
      {"in", On::Parameter, {}, {}},
      {"out", On::Parameter, {}, {}},
      {"inout", On::Parameter, {}, {}},
  };
  return s;
}

const AttrSpec* spec_of(const std::string& name) {
  for (const auto& s : specs())
    if (name == s.name) return &s;
  return nullptr;
}

// Validates attributes against the spec for their position; returns the good ones.
std::vector<ReadAttr> validate_attrs(const ReadContext& rc, const std::vector<RawAttr>& raw,
                                     AttrSpec::On on, const char* here) {
  std::vector<ReadAttr> out;
  for (const RawAttr& r : raw) {
    const AttrSpec* spec = spec_of(r.name);
    if (!spec) {
      std::vector<std::string> names;
      for (const auto& s : specs()) names.push_back(std::string("cei::") + s.name);
      rc.diags.error(rc.loc(r.loc), "unknown attribute 'cei::" + r.name +
                                        "'; valid attributes are: " + join(names));
      continue;
    }
    if (spec->on != on) {
      static const char* places[] = {"a cei::interface struct", "a member function (a CE)",
                                     "a CE parameter"};
      rc.diags.error(rc.loc(r.loc), "'cei::" + r.name + "' applies to " +
                                        places[static_cast<int>(spec->on)] + ", not to " + here);
      continue;
    }
    if (auto args = read_args(rc, r, *spec)) out.push_back({&r, std::move(*args)});
  }
  return out;
}

}  // namespace cei::frontend
