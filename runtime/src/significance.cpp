#include "significance.hpp"

#include <cei/expr.hpp>
#include <cei/rt/trace/log.hpp>

#include <algorithm>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <stdexcept>

namespace cei::rt {

namespace {

// An argument the expression reads is not on the host (yet): the output of a pending task, or a
// value kept on a device.
struct NotOnHost : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// parN is the N-th parameter the CE declares (an instance CE's callee comes first in args).
class TaskArgs : public expr::Args {
 public:
  TaskArgs(const CeInfo& ce, const std::vector<TaskArg>& args)
      : args_(args), first_(ce.is_instance ? 1 : 0), n_(ce.nparams - first_) {}
  std::size_t count() const override { return n_; }
  int rank(std::size_t par) const override { return arg(par).type->rank; }
  std::int64_t scalar(std::size_t par) const override {
    return arg(par).type->element(host(par), 0);
  }
  std::int64_t extent(std::size_t par, int dim) const override {
    return arg(par).type->extent(host(par), dim);
  }
  std::int64_t element(std::size_t par, std::span<const std::int64_t> index) const override {
    const TaskArg& a = arg(par);
    std::int64_t flat = 0;
    for (std::size_t d = 0; d < index.size(); ++d)
      flat = flat * a.type->extent(host(par), static_cast<int>(d)) + index[d];
    return a.type->element(host(par), static_cast<std::size_t>(flat));
  }

 private:
  const TaskArg& arg(std::size_t par) const { return args_.at(first_ + par); }
  const void* host(std::size_t par) const {
    const TaskArg& a = arg(par);
    const void* h = a.in ? a.in->host() : nullptr;
    if (!h) throw NotOnHost("parameter par" + std::to_string(par) + " is not on the host");
    return h;
  }
  const std::vector<TaskArg>& args_;
  std::size_t first_, n_;
};

const expr::ExprList& parsed(const char* source) {
  static std::mutex mu;
  static std::map<const char*, expr::ExprList>
      cache;  // registry strings live as long as the program
  std::lock_guard g(mu);
  auto it = cache.find(source);
  if (it == cache.end()) it = cache.emplace(source, expr::parse(source)).first;
  return it->second;
}

// Throws NotOnHost when the expression reads an argument not on the host; only the arguments it
// reads matter, so an expression over scalar parameters is read whatever else is pending.
int evaluate(const CeInfo& ce, const std::vector<TaskArg>& args) {
  const std::int64_t v = expr::evaluate_value(parsed(ce.significance), TaskArgs(ce, args), ce.name);
  return static_cast<int>(std::clamp<std::int64_t>(v, 0, 100));
}

int unreadable(const CeInfo& ce, const std::exception& e) {
  static std::mutex mu;
  static std::set<const CeInfo*> warned;  // once per CE: a loop of such tasks says it once
  std::lock_guard g(mu);
  if (warned.insert(&ce).second)
    log().warn("CE {}::{}: significance \"{}\" not evaluated ({}): such tasks run accurate",
               ce.interface_name, ce.name, ce.significance, e.what());
  return 100;
}

}  // namespace

int significance_of(const CeInfo& ce, const std::vector<TaskArg>& args) {
  if (!ce.significance) return 100;
  try {
    return evaluate(ce, args);
  } catch (const std::exception& e) {  // checked when the application was built; values were not
    return unreadable(ce, e);
  }
}

std::optional<int> significance_if_readable(const CeInfo& ce, const std::vector<TaskArg>& args) {
  if (!ce.significance) return 100;
  try {
    return evaluate(ce, args);
  } catch (const NotOnHost&) {
    return std::nullopt;
  } catch (const std::exception& e) {
    return unreadable(ce, e);
  }
}

}  // namespace cei::rt
