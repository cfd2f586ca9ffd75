// The data and native Core Elements of the seqfuzz programs (gen.py writes programs over them).
// Every value stays an integer below 1009 (fmod after each operation), so the native and the
// OpenCL versions compute exactly the same doubles and the digests compare with ==.
#pragma once

#include <cei/array.hpp>

#include <vector>

using DVec = std::vector<double>;
using DMat = cei::Matrix<double>;
using DArr = cei::Vector<double>;

namespace fz {
DVec vscale(const DVec& a, double k);          // (a[i] * k + i) mod 1009
void vbump(DVec& v, double k);                 // v[i] = (2 v[i] + k) mod 1009
void vfill(DVec& v, int n, double start);      // v = start, start + 1, ... (n values)
double vsum(const DVec& a);                    // sum of the elements
int icount(const DVec& v, double thr);         // how many elements exceed thr
void sget(double& x, const DVec& v, int i);    // x = v[i mod size]
void iinc(int& x, int by);                     // x = (x + by) mod 1000
double checked(const DVec& v, double d);       // throws std::domain_error when d == 0
void maxpy(DMat& m, const DMat& a, double k);  // m = (m + k a) mod 1009, same extents
DMat mmake(int rows, int cols, double seed);   // (seed + 7 i + 3 j) mod 1009
double mtrace(const DMat& m);                  // sum of the diagonal
void arow(DArr& a, const DVec& v);             // a[i] = (a[i] + v[i mod v.size()]) mod 1009
// Not CEs: overloads beside CEs (a call that resolves to one stays a plain call, issue 39).
void vbump(DVec& v, const DVec& by);  // v[i] = (v[i] + by[i]) mod 1009
void iinc(int& x, double by);         // x = (x + 2 by, truncated) mod 1000
}  // namespace fz

// An instance CE's class: `add` and `absorb` update it in place.
struct Acc {
  DVec vals = DVec(4, 0.0);
  double total = 0;
  int n = 0;
  void add(double x);
  void absorb(const DVec& v);
  template <class Archive>
  void serialize(Archive& ar) {
    ar(vals, total, n);
  }
};

// A polymorphic class with an instance CE (`Shape::grow`) and an override that is not one: a call
// on a reference or pointer is refused (ceic cannot tell which override C++ runs).
struct Shape {
  DVec v = DVec{1, 2, 3, 4};
  double size = 1;
  virtual ~Shape() = default;
  virtual void grow(double k);  // size = (2 size + k), v[i] = v[i] + k, mod 1009
  template <class Archive>
  void serialize(Archive& ar) {
    ar(v, size);
  }
};
struct BigShape : Shape {
  void grow(double k) override;  // size = (3 size + k), v[i] = 2 v[i], mod 1009
};

// A pointer kept in an object, where ceic cannot trace it: a use needs cei::wait_on first.
struct Keep {
  double* p = nullptr;
};

// Plain data the programs reach CE arguments through: struct fields, a user class's accessor.
struct Pack {
  DVec v = DVec{5, 1, 4, 1, 5, 9};
  double x = 3;
  int n = 2;
  DMat m = DMat(3, 4);
};

class Grid {
 public:
  Grid() : rows_(3, DVec{2, 7, 1, 8, 2, 8}) {}
  DVec& row(int i) { return rows_[static_cast<std::size_t>(i)]; }
  const DVec& row(int i) const { return rows_[static_cast<std::size_t>(i)]; }
  int size() const { return static_cast<int>(rows_.size()); }

 private:
  std::vector<DVec> rows_;
};
