#include "wire_check.hpp"

#include <cstdint>
#include <cstring>
#include <limits>

namespace cei::worker {

std::string wire_error(const rt::TypeOps& type, std::string_view bytes) {
  if (type.kind == rt::TypeKind::Object) return {};  // cereal checks its own framing
  constexpr std::size_t word = sizeof(std::int64_t);
  if (bytes.size() < word) return "truncated header";
  std::int64_t rank = 0;
  std::memcpy(&rank, bytes.data(), word);
  if (rank != type.rank) {
    return "rank " + std::to_string(rank) + " where " + type.name + " has " +
           std::to_string(type.rank);
  }
  std::size_t head = word * (1 + static_cast<std::size_t>(rank));
  if (bytes.size() < head) return "truncated header";
  std::size_t count = 1;
  for (std::int64_t d = 0; d < rank; ++d) {
    std::int64_t e = 0;
    std::memcpy(&e, bytes.data() + word * (1 + d), word);
    if (e < 0) return "negative extent " + std::to_string(e);
    if (e != 0 && count > std::numeric_limits<std::size_t>::max() / static_cast<std::size_t>(e)) {
      return "extents overflow";
    }
    count *= static_cast<std::size_t>(e);
  }
  if (count > (bytes.size() - head) / type.elem_size ||
      (bytes.size() - head) != count * type.elem_size) {
    return "payload of " + std::to_string(bytes.size() - head) + " bytes where the extents need " +
           std::to_string(count) + " x " + std::to_string(type.elem_size);
  }
  return {};
}

}  // namespace cei::worker
