// Type-erased operations on every type a CE may take or return, so that the runtime, the
// OpenCL platform and the remote platform handle values without knowing their C++ types.
//
//   const cei::rt::TypeOps& ops = cei::rt::type_ops<cei::Matrix<float>>();
//   void* p = ops.create();  ops.copy(p, &m);  ops.bytes(p);  ops.destroy(p);
#pragma once

#include <cei/array.hpp>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

namespace cei::rt {

enum class TypeKind : std::uint8_t { Scalar, Array, StdVector, String, Object };

struct TypeOps {
  const char* name;  // C++ spelling, for messages
  TypeKind kind;
  int rank;               // 0 scalar/object, 1 vector/string, 1..3 Array
  std::size_t elem_size;  // bytes per element of contiguous data (0 for objects)
  bool elem_is_integral;
  void* (*create)();  // new T{}
  void (*destroy)(void*);
  void (*copy)(void* dst, const void* src);  // *dst = *src
  void (*move)(void* dst, void* src);        // *dst = std::move(*src)
  // Contiguous data (scalars, arrays, vectors, strings); nullptr for objects.
  void* (*data)(void* obj);
  std::size_t (*bytes)(const void* obj);             // payload size; serialized size for objects
  std::int64_t (*extent)(const void* obj, int dim);  // 0 past the rank
  // Gives obj these extents (zero-filled): results allocated from result_size, received data.
  void (*reshape)(void* obj, const std::int64_t* extents, int n);
  // The same, with the elements left unspecified where the type allows it (cei::Array): for
  // storage that received bytes overwrite in full next, so that it is not written twice.
  void (*reshape_for_overwrite)(void* obj, const std::int64_t* extents, int n);
  std::int64_t (*element)(const void* obj, std::size_t flat_index);  // parN, parN[i] (integral)
  // Remote platform: self-describing bytes (extents + payload, or cereal for objects).
  void (*serialize)(const void* obj, std::string& out);
  void (*deserialize)(void* obj, std::string_view in);  // throws std::runtime_error
};

template <typename T>
const TypeOps& type_ops();

}  // namespace cei::rt

#include <cei/rt/type_ops_impl.hpp>
