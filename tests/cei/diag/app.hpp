// The application the malformed CEI headers of this folder describe.
#pragma once
#include <cei/array.hpp>
#include <string>
#include <vector>

namespace app {
void scale(cei::Vector<int>& v, int factor);
int sum(const cei::Vector<int>& v);
void label(std::string& s, const std::string& text);
}  // namespace app

class Counter {
 public:
  void add(int n);
  static Counter make(int start);
};

// Cheaper versions of app's functions, for [[cei::approximate]].
namespace app_fast {
void scale(cei::Vector<int>& v, int factor);
void fill(cei::Vector<int>& v, int value);
}  // namespace app_fast
namespace app_rough {
void scale(cei::Vector<int>& v, int factor);
}  // namespace app_rough

// A free function named like Counter's member, for a CEI that declares both as CEs.
namespace app_more {
void add(Counter& c, int n);
}  // namespace app_more
