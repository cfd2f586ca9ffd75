// The valid names listed after a mistaken one, with the one it most likely meant.
//
//   did_you_mean("multipy", "CEs", {"MatmulCEI.add", "MatmulCEI.multiply"})
//     // "(CEs: MatmulCEI.add, MatmulCEI.multiply; did you mean 'MatmulCEI.multiply'?)"
#pragma once

#include <span>
#include <string>
#include <string_view>

namespace cei::rt {

// "(what: a, b<tail>; did you mean 'x'?)": the closest of `valid` by edit distance, compared whole
// and, for dotted names ("Iface.ce"), by their last parts; the hint is left out when none is
// close (a third of the name's letters, at least 2, may differ). `tail` follows the list ("...").
std::string did_you_mean(std::string_view name, std::string_view what,
                         std::span<const std::string> valid, std::string_view tail = "");

}  // namespace cei::rt
