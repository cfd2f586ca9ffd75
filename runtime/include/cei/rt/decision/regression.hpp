// Execution time as a function of input size, fitted to a profile's measured points.
// Two models, the one with the smaller RMS relative error wins (ties go to Linear):
//   Linear: t = a + b*size       (fixed overhead plus streaming work)
//   Power:  t = a * size^b       (b = 1.5 for an n^3 kernel on n^2 data)
// A single distinct size gives Proportional: t = a * size (a guess, still better than nothing).
//
//   cei::rt::Fit f = cei::rt::fit_size_model({{1e3, 0.01}, {1e6, 2.5}});
//   double t = f(4e5);  // f.kind, f.a, f.b, f.rms_rel_error
#pragma once

#include <cstdint>
#include <span>
#include <utility>

namespace cei::rt {

enum class FitKind : std::uint8_t { None, Proportional, Linear, Power };
const char* to_string(FitKind k);

struct Fit {
  FitKind kind = FitKind::None;
  double a = 0, b = 0;
  double rms_rel_error = 0;  // over the points it was fitted to
  // Predicted seconds (never negative); 0 for None.
  double operator()(double size) const;
};

// points: (size, seconds), one per distinct size (the mean of its runs).
Fit fit_size_model(std::span<const std::pair<double, double>> points);

}  // namespace cei::rt
