// What the rules of issue 39 need beside ops.hpp: an instance CE of a polymorphic class, a CE
// beside a non-CE overload, CEs on class template specializations the CEI header only names.
#pragma once

#include <optional>
#include <utility>
#include <vector>

using Vec = std::vector<long>;

struct Shape {
  long size = 1;
  virtual ~Shape() = default;
  virtual void grow(long by);
};

struct BigShape : Shape {
  void grow(long by) override;
};

struct Tile final {
  long size = 1;
  virtual ~Tile() = default;
  virtual void grow(long by);
};

namespace poly {
void stretch(Vec& v, long k);    // the CE
void stretch(Vec& v, double k);  // not a CE: a call that resolves to it stays a call
std::pair<long, long> minmax(const Vec& v);
void settle(std::optional<long>& o, long v);
}  // namespace poly
