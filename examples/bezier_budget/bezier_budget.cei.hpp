// The Core Element Interface of the bezier_budget example: one block of the surface per task,
// exact or coarse, with the block's weight as its significance (docs/language.md, "Energy budgets
// and accuracy ratios").
#pragma once
#include <cei/cei.hpp>

#include "budget_patch.hpp"

// clang-format off
struct [[cei::interface]] BezierBudgetCEI {
  [[cei::method(declaring_class = "exact")]]
  [[cei::approximate(declaring_class = "coarse")]]
  [[cei::significance("par6")]]
  static cei::Matrix<float> patch([[cei::in]] const cei::Matrix<float>& control, int side,
                                  int resolution, int row0, int col0, int block, int weight);
};
// clang-format on
