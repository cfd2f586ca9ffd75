// What a seqfuzz program prints: every value of its data, exactly (they are integers), so that
// the instrumented program and its -seq twin can be compared line by line.
#pragma once

#include "ces.hpp"

#include <cstdio>
#include <map>
#include <string>

namespace dig {
inline void put(const char* name, double x) {
  std::printf(" %s=%.17g", name, x);
}
inline void put(const char* name, int x) {
  std::printf(" %s=%d", name, x);
}
inline void put(const char* name, const DVec& v) {
  std::printf(" %s=[", name);
  for (double x : v) std::printf(" %.17g", x);
  std::printf(" ]");
}
inline void put(const char* name, const DMat& m) {
  std::printf(" %s=%zux%zu[", name, m.extent(0), m.extent(1));
  for (double x : m) std::printf(" %.17g", x);
  std::printf(" ]");
}
inline void put(const char* name, const DArr& a) {
  std::printf(" %s=[", name);
  for (double x : a) std::printf(" %.17g", x);
  std::printf(" ]");
}
inline void put(const char* name, const std::vector<int>& v) {
  std::printf(" %s=[", name);
  for (int x : v) std::printf(" %d", x);
  std::printf(" ]");
}
inline void put(const char* name, const Acc& a) {
  std::printf(" %s.total=%.17g %s.n=%d", name, a.total, name, a.n);
  put((std::string(name) + ".vals").c_str(), a.vals);
}
inline void put(const char* name, const Pack& p) {
  put((std::string(name) + ".v").c_str(), p.v);
  put((std::string(name) + ".x").c_str(), p.x);
  put((std::string(name) + ".n").c_str(), p.n);
  put((std::string(name) + ".m").c_str(), p.m);
}
inline void put(const char* name, const Shape& s) {
  put((std::string(name) + ".v").c_str(), s.v);
  put((std::string(name) + ".size").c_str(), s.size);
}
inline void put(const char* name, const Grid& g) {
  for (int i = 0; i < g.size(); ++i) put((std::string(name) + std::to_string(i)).c_str(), g.row(i));
}
// Containers of the types above (declared last: the element's overload must be visible here).
template <class T>
void put(const char* name, const std::vector<T>& v) {
  for (std::size_t i = 0; i < v.size(); ++i)
    put((std::string(name) + std::to_string(i)).c_str(), v[i]);
}
template <class T>
void put(const char* name, const std::map<int, T>& m) {
  for (const auto& [k, v] : m) put((std::string(name) + "[" + std::to_string(k) + "]").c_str(), v);
}
inline void begin(const char* where) {
  std::printf("%s:", where);
}
inline void end() {
  std::printf("\n");
}
}  // namespace dig
