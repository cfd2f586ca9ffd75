// Validates the framing of a contiguous value (int64 rank, rank int64 extents, raw payload) before
// it is deserialized, so hostile extents cannot make the node allocate more than the body holds.
#pragma once

#include <cei/rt/type_ops.hpp>

#include <string>
#include <string_view>

namespace cei::worker {

// "" when `bytes` is a well-formed value of `type`'s framing, else what is wrong.
std::string wire_error(const rt::TypeOps& type, std::string_view bytes);

}  // namespace cei::worker
