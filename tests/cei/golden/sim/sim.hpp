#pragma once
#include <string>
#include <vector>

namespace physics {
struct Params {
  double gravity = 9.8;
  std::vector<double> masses;
};

class Sim {
 public:
  void step(double dt, const Params& p);
  long checkpoint(const std::string& path) const;
  static Params defaults(int bodies);

 private:
  std::vector<double> state_;
};
}  // namespace physics
