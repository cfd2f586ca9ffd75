// type_ops<T>() for every type a CE may take or return: arithmetic scalars, cei::Array<T, R>,
// std::vector<T>, std::string, and copyable user classes (serialized with cereal when they are
// serializable). Included by type_ops.hpp; not meant to be included alone.
//
//   const cei::rt::TypeOps& ops = cei::rt::type_ops<std::vector<double>>();
//   std::string bytes;  ops.serialize(&v, bytes);  ops.deserialize(&w, bytes);
#pragma once

#include <cei/array.hpp>
#include <cei/rt/bounded_binary_archive.hpp>

#include <cereal/archives/binary.hpp>
#include <cereal/types/array.hpp>
#include <cereal/types/string.hpp>
#include <cereal/types/vector.hpp>

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

namespace cei::rt {

namespace type_ops_detail {

template <typename T>
struct is_std_vector : std::false_type {};
template <typename T, typename A>
struct is_std_vector<std::vector<T, A>> : std::bool_constant<!std::is_same_v<T, bool>> {};

// The C++ spelling of T, read out of the compiler's function signature.
template <typename T>
const char* type_name() {
  // Read here, not inside the lambda: the lambda's own signature does not name T.
  static const std::string name = [f = std::string_view(__PRETTY_FUNCTION__)] {
    auto b = f.find("T = ");
    if (b == std::string_view::npos) return std::string("?");
    b += 4;
    auto e = f.find_first_of(";]", b);
    return std::string(f.substr(b, e - b));
  }();
  return name.c_str();
}

template <typename T>
constexpr bool serializable =
    cereal::traits::is_output_serializable<T, cereal::BinaryOutputArchive>::value&&
        cereal::traits::is_input_serializable<T, cereal::BinaryInputArchive>::value;

// Contiguous types travel as: int64 rank, rank int64 extents, raw payload.
template <typename T>
struct Contiguous;

template <typename T>
requires std::is_arithmetic_v<T>
struct Contiguous<T> {
  using Elem = T;
  static constexpr int rank = 0;
  static constexpr TypeKind kind = TypeKind::Scalar;
  static Elem* data(T& x) { return &x; }
  static std::size_t count(const T&) { return 1; }
  static std::int64_t extent(const T&, int) { return 0; }
  static void reshape(T&, const std::int64_t*, int) {}
  static void reshape_for_overwrite(T&, const std::int64_t*, int) {}
};

template <typename E, std::size_t R>
struct Contiguous<cei::Array<E, R>> {
  using T = cei::Array<E, R>;
  using Elem = E;
  static constexpr int rank = static_cast<int>(R);
  static constexpr TypeKind kind = TypeKind::Array;
  static Elem* data(T& x) { return x.data(); }
  static std::size_t count(const T& x) { return x.size(); }
  static std::int64_t extent(const T& x, int d) {
    return d >= 0 && d < rank ? static_cast<std::int64_t>(x.extent(static_cast<std::size_t>(d)))
                              : 0;
  }
  static void reshape(T& x, const std::int64_t* ext, int n) { x.resize(extents(ext, n)); }
  static void reshape_for_overwrite(T& x, const std::int64_t* ext, int n) {
    x.resize_for_overwrite(extents(ext, n));
  }
  static std::array<std::size_t, R> extents(const std::int64_t* ext, int n) {
    std::array<std::size_t, R> e{};
    for (std::size_t d = 0; d < R; ++d) {
      std::int64_t v = static_cast<int>(d) < n ? ext[d] : 1;
      if (v < 0) throw std::invalid_argument("reshape: negative extent");
      e[d] = static_cast<std::size_t>(v);
    }
    return e;
  }
};

template <typename E, typename A>
requires is_std_vector<std::vector<E, A>>::value struct Contiguous<std::vector<E, A>> {
  using T = std::vector<E, A>;
  using Elem = E;
  static constexpr int rank = 1;
  static constexpr TypeKind kind = TypeKind::StdVector;
  static Elem* data(T& x) { return x.data(); }
  static std::size_t count(const T& x) { return x.size(); }
  static std::int64_t extent(const T& x, int d) {
    return d == 0 ? static_cast<std::int64_t>(x.size()) : 0;
  }
  static void reshape(T& x, const std::int64_t* ext, int n) {
    if (n < 1 || ext[0] < 0) throw std::invalid_argument("reshape: bad extent for a vector");
    x.assign(static_cast<std::size_t>(ext[0]), E{});
  }
  // std::allocator value-initialises whatever a resize adds.
  static void reshape_for_overwrite(T& x, const std::int64_t* ext, int n) { reshape(x, ext, n); }
};

template <>
struct Contiguous<std::string> {
  using T = std::string;
  using Elem = char;
  static constexpr int rank = 1;
  static constexpr TypeKind kind = TypeKind::String;
  static Elem* data(T& x) { return x.data(); }
  static std::size_t count(const T& x) { return x.size(); }
  static std::int64_t extent(const T& x, int d) {
    return d == 0 ? static_cast<std::int64_t>(x.size()) : 0;
  }
  static void reshape(T& x, const std::int64_t* ext, int n) {
    if (n < 1 || ext[0] < 0) throw std::invalid_argument("reshape: bad extent for a string");
    x.assign(static_cast<std::size_t>(ext[0]), '\0');
  }
  static void reshape_for_overwrite(T& x, const std::int64_t* ext, int n) { reshape(x, ext, n); }
};

template <typename T>
concept contiguous = requires {
  Contiguous<T>::rank;
};

template <typename T>
void* create() {
  return new T{};
}
template <typename T>
void destroy(void* p) {
  delete static_cast<T*>(p);
}
template <typename T>
void copy(void* dst, const void* src) {
  *static_cast<T*>(dst) = *static_cast<const T*>(src);
}
template <typename T>
void move(void* dst, void* src) {
  *static_cast<T*>(dst) = std::move(*static_cast<T*>(src));
}

template <contiguous T>
TypeOps make_contiguous() {
  using C = Contiguous<T>;
  using E = typename C::Elem;
  TypeOps ops{};
  ops.name = type_name<T>();
  ops.kind = C::kind;
  ops.rank = C::rank;
  ops.elem_size = sizeof(E);
  ops.elem_is_integral = std::is_integral_v<E>;
  ops.create = &create<T>;
  ops.destroy = &destroy<T>;
  ops.copy = &copy<T>;
  ops.move = &move<T>;
  ops.data = [](void* o) -> void* { return C::data(*static_cast<T*>(o)); };
  ops.bytes = [](const void* o) { return C::count(*static_cast<const T*>(o)) * sizeof(E); };
  ops.extent = [](const void* o, int d) { return C::extent(*static_cast<const T*>(o), d); };
  ops.reshape = [](void* o, const std::int64_t* e, int n) {
    C::reshape(*static_cast<T*>(o), e, n);
  };
  ops.reshape_for_overwrite = [](void* o, const std::int64_t* e, int n) {
    C::reshape_for_overwrite(*static_cast<T*>(o), e, n);
  };
  ops.element = [](const void* o, std::size_t i) -> std::int64_t {
    auto& x = *static_cast<const T*>(o);
    if (i >= C::count(x)) throw std::out_of_range("element index out of range");
    return static_cast<std::int64_t>(C::data(const_cast<T&>(x))[i]);
  };
  ops.serialize = [](const void* o, std::string& out) {
    auto& x = const_cast<T&>(*static_cast<const T*>(o));
    std::int64_t header[4] = {C::rank, 0, 0, 0};
    for (int d = 0; d < C::rank; ++d) header[1 + d] = C::extent(x, d);
    std::size_t payload = C::count(x) * sizeof(E);
    out.resize(sizeof(std::int64_t) * (1 + C::rank) + payload);
    std::memcpy(out.data(), header, sizeof(std::int64_t) * (1 + C::rank));
    if (payload)
      std::memcpy(out.data() + sizeof(std::int64_t) * (1 + C::rank), C::data(x), payload);
  };
  ops.deserialize = [](void* o, std::string_view in) {
    auto& x = *static_cast<T*>(o);
    std::int64_t header[4] = {};
    if (in.size() < sizeof(std::int64_t)) throw std::runtime_error("deserialize: truncated header");
    std::memcpy(header, in.data(), sizeof(std::int64_t));
    if (header[0] != C::rank) throw std::runtime_error("deserialize: rank mismatch");
    std::size_t head = sizeof(std::int64_t) * (1 + C::rank);
    if (in.size() < head) throw std::runtime_error("deserialize: truncated header");
    std::memcpy(header, in.data(), head);
    // Sizes before reshape: hostile extents must neither wrap around nor allocate beyond `in`.
    std::size_t count = 1;
    for (int d = 0; d < C::rank; ++d) {
      if (header[1 + d] < 0) throw std::runtime_error("deserialize: negative extent");
      if (__builtin_mul_overflow(count, static_cast<std::size_t>(header[1 + d]), &count))
        throw std::runtime_error("deserialize: extents overflow");
    }
    if (count > (in.size() - head) / sizeof(E) || in.size() != head + count * sizeof(E))
      throw std::runtime_error("deserialize: payload size mismatch");
    if constexpr (C::rank > 0) C::reshape_for_overwrite(x, header + 1, C::rank);
    std::size_t payload = C::count(x) * sizeof(E);
    if (payload) std::memcpy(C::data(x), in.data() + head, payload);
  };
  return ops;
}

template <typename T>
TypeOps make_object() {
  TypeOps ops{};
  ops.name = type_name<T>();
  ops.kind = TypeKind::Object;
  ops.rank = 0;
  ops.elem_size = 0;
  ops.elem_is_integral = false;
  ops.create = &create<T>;
  ops.destroy = &destroy<T>;
  ops.copy = &copy<T>;
  ops.move = &move<T>;
  ops.data = nullptr;
  ops.extent = [](const void*, int) -> std::int64_t { return 0; };
  ops.reshape = [](void*, const std::int64_t*, int) {};
  ops.reshape_for_overwrite = ops.reshape;
  ops.element = [](const void*, std::size_t) -> std::int64_t {
    throw std::invalid_argument("an object has no integral elements");
  };
  if constexpr (serializable<T>) {
    ops.serialize = [](const void* o, std::string& out) {
      std::ostringstream s;
      {
        cereal::BinaryOutputArchive ar(s);
        ar(*static_cast<const T*>(o));
      }
      out = std::move(s).str();
    };
    ops.deserialize = [](void* o, std::string_view in) {
      std::istringstream s{std::string(in)};
      try {
        // Bounded: sizes in the bytes cannot allocate more than the bytes hold. A class whose
        // load() names cereal::BinaryInputArchive itself gets the plain archive.
        if constexpr (cereal::traits::is_input_serializable<T, BoundedBinaryInputArchive>::value) {
          BoundedBinaryInputArchive ar(s, in.size());
          ar(*static_cast<T*>(o));
        } else {
          cereal::BinaryInputArchive ar(s);
          ar(*static_cast<T*>(o));
        }
      } catch (const cereal::Exception& e) {
        throw std::runtime_error(std::string("deserialize: ") + e.what());
      }
    };
    ops.bytes = [](const void* o) {
      std::string s;
      type_ops<T>().serialize(o, s);
      return s.size();
    };
  } else {
    ops.serialize = [](const void*, std::string&) {
      throw std::runtime_error(std::string(type_name<T>()) + " is not serializable (cereal)");
    };
    ops.deserialize = [](void*, std::string_view) {
      throw std::runtime_error(std::string(type_name<T>()) + " is not serializable (cereal)");
    };
    ops.bytes = [](const void*) { return sizeof(T); };
  }
  return ops;
}

}  // namespace type_ops_detail

template <typename T>
const TypeOps& type_ops() {
  static_assert(std::is_same_v<T, std::remove_cvref_t<T>>, "type_ops takes a plain type");
  static_assert(std::is_default_constructible_v<T> && std::is_copy_assignable_v<T>,
                "a CE's parameter and result types must be default-constructible and copyable");
  static const TypeOps ops = [] {
    if constexpr (type_ops_detail::contiguous<T>)
      return type_ops_detail::make_contiguous<T>();
    else
      return type_ops_detail::make_object<T>();
  }();
  return ops;
}

}  // namespace cei::rt
