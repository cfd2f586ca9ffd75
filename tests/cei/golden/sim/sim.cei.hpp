// Instance-method CEs (the callee is an implicit inout), objects and strings as parameters, a
// static member function of a class as a version, and the on_failure policies without numbers.
#pragma once
#include <cei/cei.hpp>
#include "sim.hpp"

namespace app {
struct [[cei::interface]] SimCEI {
  [[cei::method(declaring_class = "physics::Sim")]]
  [[cei::on_failure(policy = "ignore")]]
  void step(double dt, [[cei::in]] const physics::Params& p);

  [[cei::method(declaring_class = "physics::Sim")]]
  long checkpoint(const std::string& path) const;

  [[cei::method(declaring_class = "physics::Sim")]]
  [[cei::on_failure(policy = "fail")]]
  static physics::Params defaults(int bodies);
};
}  // namespace app
