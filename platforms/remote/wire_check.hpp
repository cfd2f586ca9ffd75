// Validates the framing of a contiguous value (int64 rank, rank int64 extents, raw payload) before
// it is deserialized or its storage is made, so hostile extents cannot make the node (an upload)
// or the client (a download) allocate more than the body holds.
#pragma once

#include <cei/rt/type_ops.hpp>

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace cei::remote {

// "" when `bytes` is a well-formed value of `type`'s framing, else what is wrong.
std::string wire_error(const rt::TypeOps& type, std::string_view bytes);

// Bytes of the rank and extents before a contiguous value's payload.
std::size_t wire_head_bytes(const rt::TypeOps& type);

// The same check before the payload has arrived: `head` holds the body's first bytes (at least
// wire_head_bytes, or all of a shorter body), `total` is the body's size. On success `extents`
// receives the value's extents.
std::string framing_error(const rt::TypeOps& type, std::string_view head, std::size_t total,
                          std::vector<std::int64_t>* extents = nullptr);

}  // namespace cei::remote
