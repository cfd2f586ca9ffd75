#pragma once
#include <cei/cei.hpp>
#include "app.hpp"

struct [[cei::interface]] AppCEI {
  [[cei::method(declaring_class = "app")]]
  [[cei::on_failure(policy = "retry_forever", retries = -2)]]
  static void scale(cei::Vector<int>& v, int factor);
};
