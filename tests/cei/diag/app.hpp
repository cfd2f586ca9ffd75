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
