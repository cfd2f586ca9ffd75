#include "storage.hpp"

#include <cctype>
#include <chrono>
#include <thread>

namespace {
void nap() { std::this_thread::sleep_for(std::chrono::milliseconds(5)); }
}  // namespace

namespace store {
void inc(std::vector<int>& v) {
  nap();
  for (int& x : v) x += 1;
}
void scale(std::vector<int>& v, int k) {
  nap();
  for (int& x : v) x *= k;
}
void twice(cei::Matrix<float>& m) {
  nap();
  for (float& x : m) x *= 2;
}
void shout(std::string& s) {
  nap();
  for (char& c : s) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
}
}  // namespace store

long Tally::add(long x) {
  nap();
  total += x;
  return total;
}
