#include <cei/rt/decision/regression.hpp>

#include <algorithm>
#include <cmath>
#include <optional>
#include <vector>

namespace cei::rt {

const char* to_string(FitKind k) {
  switch (k) {
    case FitKind::None:
      return "none";
    case FitKind::Proportional:
      return "proportional";
    case FitKind::Linear:
      return "linear";
    case FitKind::Power:
      return "power";
  }
  return "?";
}

double Fit::operator()(double size) const {
  double t = 0;
  switch (kind) {
    case FitKind::None:
      return 0;
    case FitKind::Proportional:
      t = a * size;
      break;
    case FitKind::Linear:
      t = a + b * size;
      break;
    case FitKind::Power:
      t = size > 0 ? a * std::pow(size, b) : 0;
      break;
  }
  return std::max(0.0, t);
}

namespace {

// Weighted least squares y = a + b*x; nullopt when every x is the same.
std::optional<std::pair<double, double>> least_squares(std::span<const double> x,
                                                       std::span<const double> y,
                                                       std::span<const double> w) {
  double sw = 0, sx = 0, sy = 0;
  for (std::size_t i = 0; i < x.size(); ++i) sw += w[i], sx += w[i] * x[i], sy += w[i] * y[i];
  const double mx = sx / sw, my = sy / sw;
  double sxx = 0, sxy = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    sxx += w[i] * (x[i] - mx) * (x[i] - mx);
    sxy += w[i] * (x[i] - mx) * (y[i] - my);
  }
  if (sxx <= 0) return std::nullopt;
  const double b = sxy / sxx;
  return std::pair{my - b * mx, b};
}

double rms_rel_error(const Fit& f, std::span<const std::pair<double, double>> points) {
  double sum = 0;
  for (auto [x, y] : points) {
    // A zero time would make every error infinite; measure it against a nanosecond instead.
    double r = (f(x) - y) / std::max(y, 1e-9);
    sum += r * r;
  }
  return std::sqrt(sum / static_cast<double>(points.size()));
}

}  // namespace

Fit fit_size_model(std::span<const std::pair<double, double>> points) {
  Fit best;
  if (points.empty()) return best;
  std::vector<double> xs, ys, relative, equal;
  for (auto [x, y] : points) {
    xs.push_back(x), ys.push_back(y);
    // Weights 1/y^2 make the linear fit minimise relative error, as the choice between models
    // does: sizes span decades, and a millisecond off a 2 ms task matters as much as a second
    // off a 2 s one.
    relative.push_back(1.0 / std::max(y * y, 1e-18));
    equal.push_back(1.0);
  }

  if (auto ab = least_squares(xs, ys, relative)) {
    Fit lin{FitKind::Linear, ab->first, ab->second, 0};
    lin.rms_rel_error = rms_rel_error(lin, points);
    best = lin;
  }
  const bool positive =
      std::all_of(points.begin(), points.end(), [](auto p) { return p.first > 0 && p.second > 0; });
  if (positive) {
    std::vector<double> lx, ly;
    for (auto [x, y] : points) lx.push_back(std::log(x)), ly.push_back(std::log(y));
    if (auto ab = least_squares(lx, ly, equal)) {  // log space is already relative
      Fit pw{FitKind::Power, std::exp(ab->first), ab->second, 0};
      pw.rms_rel_error = rms_rel_error(pw, points);
      // Strictly better by a margin: two points fit both exactly, and Linear extrapolates tamer.
      if (best.kind == FitKind::None || pw.rms_rel_error < best.rms_rel_error * 0.999 - 1e-12)
        best = pw;
    }
  }
  if (best.kind == FitKind::None) {
    // One distinct size: scale its mean time with size.
    double x = 0, y = 0;
    for (auto [px, py] : points) x += px, y += py;
    x /= static_cast<double>(points.size());
    y /= static_cast<double>(points.size());
    best = x > 0 ? Fit{FitKind::Proportional, y / x, 1, 0} : Fit{FitKind::Linear, y, 0, 0};
  }
  return best;
}

}  // namespace cei::rt
