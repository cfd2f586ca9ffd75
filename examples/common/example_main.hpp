// The examples' `main`: it runs the example's `run(argc, argv)` and turns what that throws (a file
// it cannot read or write, a task's error) into one line naming the program, and exit status 2,
// as a bad argument gets the example's usage line: never an abort. The try block is here, around
// the call, not around the example's own code: ceic waits for every CE call written inside a try
// block (so that its exception is thrown where the sequential program throws it), and the tasks
// of `run` stay asynchronous.
//
//   #include "example_main.hpp"
//   int run(int argc, char** argv) {
//     const auto n = examples::positive<std::size_t>(argc, argv, 1, 512);  // 0: not a count
//     if (n == 0) { std::fprintf(stderr, "usage: %s [N]\n", argv[0]); return 2; }
//     ...
//   }
#pragma once

#include <charconv>
#include <cstdio>
#include <exception>
#include <string_view>
#include <system_error>

int run(int argc, char** argv);

namespace examples {

// Argument i as a whole number above 0 (digits only, within T), `fallback` when there is no
// argument i, and 0 for anything else: every example takes a count of 0 as its usage error.
template <typename T>
T positive(int argc, char** argv, int i, T fallback) {
  if (argc <= i) return fallback;
  const std::string_view arg = argv[i];
  T value{};
  const auto [end, ec] = std::from_chars(arg.data(), arg.data() + arg.size(), value);
  // from_chars takes a sign for signed T; a count has none.
  if (ec != std::errc{} || end != arg.data() + arg.size() || arg.front() == '-') return 0;
  return value;
}

}  // namespace examples

int main(int argc, char** argv) {
  try {
    return run(argc, argv);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s: %s\n", argv[0], e.what());
    return 2;
  }
}
