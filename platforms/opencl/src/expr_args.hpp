// What the work-size expressions see of a task: parN is the N-th CE parameter, read from its host
// copy or, for values resident on the device, from the replica's recorded extents.
#pragma once

#include <cei/expr.hpp>
#include <cei/rt/type_ops.hpp>

#include <array>
#include <cstdint>
#include <stdexcept>
#include <vector>

namespace cei::opencl {

struct ArgView {
  const rt::TypeOps* type = nullptr;
  void* host = nullptr;  // may be null when the value lives on the device
  std::array<std::int64_t, 3> extents{0, 0, 0};
};

class ExprArgs : public expr::Args {
 public:
  explicit ExprArgs(const std::vector<ArgView>& params) : p_(params) {}
  std::size_t count() const override { return p_.size(); }
  int rank(std::size_t par) const override { return p_.at(par).type->rank; }
  std::int64_t scalar(std::size_t par) const override {
    return p_.at(par).type->element(host(par), 0);
  }
  std::int64_t extent(std::size_t par, int dim) const override {
    return dim >= 0 && dim < 3 ? p_.at(par).extents[dim] : 0;
  }
  std::int64_t element(std::size_t par, std::span<const std::int64_t> index) const override {
    const ArgView& a = p_.at(par);
    std::int64_t flat = 0;
    for (std::size_t d = 0; d < index.size(); ++d) {
      std::int64_t n = d < 3 ? a.extents[d] : 0;
      if (index[d] < 0 || index[d] >= n) throw std::out_of_range("index out of range");
      flat = flat * n + index[d];
    }
    return a.type->element(host(par), static_cast<std::size_t>(flat));
  }

 private:
  void* host(std::size_t par) const {
    if (!p_.at(par).host) throw std::logic_error("parameter value not on the host");
    return p_[par].host;
  }
  const std::vector<ArgView>& p_;
};

}  // namespace cei::opencl
