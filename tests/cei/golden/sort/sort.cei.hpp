// Two native versions of one CE, an inout std::vector and a retry policy.
#pragma once
#include <cei/cei.hpp>
#include "sorting.hpp"

struct [[cei::interface]] SortCEI {
  [[cei::method(declaring_class = "sorting::radix")]]
  [[cei::method(declaring_class = "::sorting::merge")]]
  [[cei::on_failure(policy = "retry", retries = 3, timeout_ms = 2500)]]
  static void sort([[cei::inout]] std::vector<int>& values);
};
