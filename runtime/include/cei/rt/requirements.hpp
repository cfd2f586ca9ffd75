// [[cei::requires("expr")]] at run time: the conditions a CE states over its parameters (shapes
// its implementations take), evaluated on the arguments of a call before anything runs. The
// runtime checks every task before its first placement (whatever the platform); a worker node
// checks every task request and answers 400. Both give the same text:
//
//   std::string broken = cei::rt::broken_requirement(ce, args);  // "" when all hold
//   if (!broken.empty()) throw cei::rt::TaskError(cei::rt::qualified_name(ce), broken);
//   // "CE MatmulCEI::multiply failed: its arguments break requires \"par0.y == par1.x\":
//   //  par0.y = 1, par1.x = 20000"
//
// Header-only: the worker node's server links the expressions but not the runtime.
#pragma once

#include <cei/expr.hpp>
#include <cei/rt/ce.hpp>

#include <cstdint>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

namespace cei::rt {

// The requirements read a parameter that is not on the host: the output of a task still
// pending, or a value kept on a device.
struct NotOnHost : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// One argument of a call as requirements read it: its host object, or, where it lives only in
// a replica, the extents the replica knows (parN.x without a copy; parN and parN[i] need the host).
struct CallArg {
  const void* host = nullptr;
  std::optional<std::vector<std::int64_t>> extents;
};

// parN over a call's arguments: args[i] is CeInfo::params[i]'s (the callee first for an instance
// CE, which parN skips).
class CallArgs : public expr::Args {
 public:
  CallArgs(const CeInfo& ce, std::span<const CallArg> args)
      : ce_(ce), args_(args), first_(ce.is_instance ? 1 : 0) {}
  std::size_t count() const override { return ce_.nparams - first_; }
  int rank(std::size_t par) const override { return ce_.params[first_ + par].type->rank; }
  std::int64_t scalar(std::size_t par) const override { return type(par).element(host(par), 0); }
  std::int64_t extent(std::size_t par, int dim) const override {
    const CallArg& a = args_[first_ + par];
    if (!a.host && a.extents)
      return dim >= 0 && static_cast<std::size_t>(dim) < a.extents->size() ? (*a.extents)[dim] : 0;
    return type(par).extent(host(par), dim);
  }
  std::int64_t element(std::size_t par, std::span<const std::int64_t> index) const override {
    std::int64_t flat = 0;  // the evaluator has checked each subscript against its extent
    for (std::size_t d = 0; d < index.size(); ++d)
      flat = flat * extent(par, static_cast<int>(d)) + index[d];
    return type(par).element(host(par), static_cast<std::size_t>(flat));
  }

 private:
  const TypeOps& type(std::size_t par) const { return *ce_.params[first_ + par].type; }
  const void* host(std::size_t par) const {
    const void* h = args_[first_ + par].host;
    if (!h) throw NotOnHost("par" + std::to_string(par) + " is not on the host");
    return h;
  }
  const CeInfo& ce_;
  std::span<const CallArg> args_;
  std::size_t first_;
};

inline std::string qualified_name(const CeInfo& ce) {
  return std::string(ce.interface_name) + "::" + ce.name;
}

// "" when the arguments meet every requirement of ce, else why not: the first broken one and the
// values it read, or the error that stopped its evaluation (a division by zero). Throws
// NotOnHost when a requirement reads what an argument has only on the host.
inline std::string broken_requirement(const CeInfo& ce, std::span<const CallArg> call) {
  const CallArgs args(ce, call);
  for (std::size_t i = 0; i < ce.nrequirements; ++i) {
    const std::string source = ce.requirements[i];
    try {
      const expr::Verdict v =
          expr::evaluate_condition(expr::parse_condition(source), args, ce.name);
      if (!v.holds) return "its arguments break requires \"" + source + "\": " + v.values;
    } catch (const expr::EvalError& e) {
      return "requires \"" + source + "\" cannot be evaluated: " + e.what();
    } catch (const expr::Error& e) {  // checked when the application was built
      return "requires \"" + source + "\" does not parse: " + e.what();
    }
  }
  return {};
}

}  // namespace cei::rt
