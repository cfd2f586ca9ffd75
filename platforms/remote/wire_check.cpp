#include "wire_check.hpp"

#include <cstring>
#include <limits>

namespace cei::remote {

namespace {
constexpr std::size_t kWord = sizeof(std::int64_t);
}

std::size_t wire_head_bytes(const rt::TypeOps& type) {
  return kWord * (1 + static_cast<std::size_t>(type.rank));
}

std::string framing_error(const rt::TypeOps& type, std::string_view head, std::size_t total,
                          std::vector<std::int64_t>* extents) {
  if (type.kind == rt::TypeKind::Object) return {};  // cereal checks its own framing
  if (head.size() < kWord) return "truncated header";
  std::int64_t rank = 0;
  std::memcpy(&rank, head.data(), kWord);
  if (rank != type.rank) {
    return "rank " + std::to_string(rank) + " where " + type.name + " has " +
           std::to_string(type.rank);
  }
  std::size_t head_bytes = wire_head_bytes(type);
  if (head.size() < head_bytes || total < head_bytes) return "truncated header";
  std::size_t count = 1;
  if (extents) extents->clear();
  for (std::int64_t d = 0; d < rank; ++d) {
    std::int64_t e = 0;
    std::memcpy(&e, head.data() + kWord * (1 + d), kWord);
    if (e < 0) return "negative extent " + std::to_string(e);
    if (e != 0 && count > std::numeric_limits<std::size_t>::max() / static_cast<std::size_t>(e)) {
      return "extents overflow";
    }
    count *= static_cast<std::size_t>(e);
    if (extents) extents->push_back(e);
  }
  if (count > (total - head_bytes) / type.elem_size ||
      (total - head_bytes) != count * type.elem_size) {
    return "payload of " + std::to_string(total - head_bytes) + " bytes where the extents need " +
           std::to_string(count) + " x " + std::to_string(type.elem_size);
  }
  return {};
}

std::string wire_error(const rt::TypeOps& type, std::string_view bytes) {
  return framing_error(type, bytes, bytes.size());
}

}  // namespace cei::remote
