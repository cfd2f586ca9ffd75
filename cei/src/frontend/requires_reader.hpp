// `[[cei::requires("expr")]]`: a condition the arguments of every call must meet (shapes the
// implementations take: "par0.y == par1.x"), in the work-size grammar plus comparisons, && || !.
// Checked here as work sizes are (syntax, parameters, dimensions), and that it is a condition and
// reads no out parameter (which has no value before the call). A CE may carry several; each is
// kept, in order, in CoreElement::requirements.
#pragma once

#include "read_context.hpp"

namespace cei::frontend {

void read_requires(const ReadContext& rc, model::CoreElement& ce, const ReadAttr& a);

}  // namespace cei::frontend
