// Colors shared by the graph writer and the timeline renderer, so a platform or a CE looks the
// same in every picture. Tableau-10: distinct, readable with black text.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

namespace cei::rt::trace {

inline constexpr std::array<std::uint32_t, 10> kPalette = {0x4e79a7, 0xf28e2b, 0x59a14f, 0xe15759,
                                                           0x76b7b2, 0xedc948, 0xb07aa1, 0xff9da7,
                                                           0x9c755f, 0xbab0ac};

inline std::uint32_t palette_color(std::size_t i) {
  return kPalette[i % kPalette.size()];
}

}  // namespace cei::rt::trace
