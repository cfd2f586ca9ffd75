// `[[cei::significance("expr", droppable = true)]]`: the expression over the CE's parameters is
// checked as work sizes are (one value; a constant must lie in 0..100), and droppable is refused
// where a dropped task would leave a value that has no previous one (an `out` parameter, a result).
#pragma once

#include "read_context.hpp"

namespace cei::frontend {

void read_significance(const ReadContext& rc, model::CoreElement& ce, const ReadAttr& a);

}  // namespace cei::frontend
