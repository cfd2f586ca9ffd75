// cereal's binary input format, reading the very bytes cereal::BinaryOutputArchive writes, with one
// guard: a container size read from the bytes may not exceed the bytes left. cereal resizes a
// container before it reads the elements, so without it a 20-byte value from a worker node (or sent
// to one) that claims a 4 GB string makes the reader allocate 4 GB before it finds the input short.
// Every element takes at least one byte, except elements of empty classes: a container of those
// beyond the input's size is refused too.
//
//   std::istringstream s{bytes};
//   cei::rt::BoundedBinaryInputArchive ar(s, bytes.size());
//   ar(value);  // throws cereal::Exception where cereal would, and on a size beyond the input
#pragma once

#include <cereal/archives/binary.hpp>
#include <cereal/cereal.hpp>

#include <cstdint>
#include <istream>
#include <memory>
#include <string>
#include <type_traits>

namespace cei::rt {

class BoundedBinaryInputArchive
    : public cereal::InputArchive<BoundedBinaryInputArchive, cereal::AllowEmptyClassElision> {
 public:
  BoundedBinaryInputArchive(std::istream& stream, std::size_t bytes)
      : InputArchive(this), stream_(stream), left_(bytes) {}

  void loadBinary(void* data, std::streamsize size) {
    auto read = stream_.rdbuf()->sgetn(static_cast<char*>(data), size);
    if (read != size)
      throw cereal::Exception("Failed to read " + std::to_string(size) +
                              " bytes from input stream! Read " + std::to_string(read));
    left_ -= static_cast<std::size_t>(read);
  }

  void check_size(std::uint64_t size) const {
    if (size > left_)
      throw cereal::Exception("a container of " + std::to_string(size) + " elements in the " +
                              std::to_string(left_) + " bytes left");
  }

 private:
  std::istream& stream_;
  std::size_t left_;
};

// The binary format's rules, as cereal/archives/binary.hpp gives them to BinaryInputArchive.
template <class T>
requires std::is_arithmetic_v<T>
void CEREAL_LOAD_FUNCTION_NAME(BoundedBinaryInputArchive& ar, T& t) {
  ar.loadBinary(std::addressof(t), sizeof(t));
}
template <class T>
void CEREAL_SERIALIZE_FUNCTION_NAME(BoundedBinaryInputArchive& ar, cereal::NameValuePair<T>& t) {
  ar(t.value);
}
template <class T>
void CEREAL_SERIALIZE_FUNCTION_NAME(BoundedBinaryInputArchive& ar, cereal::SizeTag<T>& t) {
  ar(t.size);
  ar.check_size(static_cast<std::uint64_t>(t.size));
}
template <class T>
void CEREAL_LOAD_FUNCTION_NAME(BoundedBinaryInputArchive& ar, cereal::BinaryData<T>& bd) {
  ar.loadBinary(bd.data, static_cast<std::streamsize>(bd.size));
}

}  // namespace cei::rt

CEREAL_REGISTER_ARCHIVE(cei::rt::BoundedBinaryInputArchive)

// load_minimal finds its save_minimal through the matching output archive.
namespace cereal::traits::detail {
template <>
struct get_output_from_input<cei::rt::BoundedBinaryInputArchive> {
  using type = cereal::BinaryOutputArchive;
};
}  // namespace cereal::traits::detail
