// cei::Array<T, Rank>: the contiguous, row-major value type that CEs exchange.
//
//   cei::Matrix<float> m(rows, cols);   // zero-filled
//   m(1, 2) = 3.f;
//   auto n = m;                          // deep copy; == compares extents and elements
//   float* p = m.data();                 // rows*cols floats, row-major
//
// In work-size expressions `.x/.y/.z` are extent(0/1/2). Elements live in blocks of
// cei/block_cache.hpp: large arrays reuse memory that earlier arrays freed.
#pragma once

#include <cei/block_cache.hpp>

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <type_traits>
#include <vector>

namespace cei {

template <typename T, std::size_t Rank>
class Array {
  static_assert(Rank >= 1 && Rank <= 3, "cei::Array supports ranks 1 to 3");

 public:
  using value_type = T;
  static constexpr std::size_t rank = Rank;

  Array() { extents_.fill(0); }

  template <typename... E>
  requires(sizeof...(E) == Rank && (std::is_integral_v<E> && ...)) explicit Array(E... extents)
      : extents_{static_cast<std::size_t>(extents)...}, data_(count(extents_), T{}) {}

  explicit Array(const std::array<std::size_t, Rank>& extents)
      : extents_(extents), data_(count(extents_), T{}) {}

  std::size_t extent(std::size_t d) const {
    if (d >= Rank) throw std::out_of_range("cei::Array::extent: dimension out of range");
    return extents_[d];
  }
  const std::array<std::size_t, Rank>& extents() const { return extents_; }
  std::size_t size() const { return data_.size(); }
  bool empty() const { return data_.empty(); }
  T* data() { return data_.data(); }
  const T* data() const { return data_.data(); }
  T* begin() { return data_.data(); }
  T* end() { return data_.data() + data_.size(); }
  const T* begin() const { return data_.data(); }
  const T* end() const { return data_.data() + data_.size(); }

  template <typename... I>
  requires(sizeof...(I) == Rank) T& operator()(I... idx) {
    return data_[offset(static_cast<std::size_t>(idx)...)];
  }
  template <typename... I>
  requires(sizeof...(I) == Rank) const T& operator()(I... idx) const {
    return data_[offset(static_cast<std::size_t>(idx)...)];
  }

  // Reshapes to new extents, zero-filling; used by runtimes that receive raw bytes.
  void resize(const std::array<std::size_t, Rank>& extents) {
    extents_ = extents;
    data_.assign(count(extents_), T{});
  }
  // Reshapes to new extents leaving the elements unspecified (trivial ones are not written):
  // for callers that overwrite every element next, such as received bytes.
  void resize_for_overwrite(const std::array<std::size_t, Rank>& extents) {
    std::size_t n = count(extents);
    extents_ = extents;
    if (n == data_.size()) return;
    data_.clear();  // nothing to keep: growing moves no elements, and adds none written
    data_.resize(n);
  }

  friend bool operator==(const Array& a, const Array& b) {
    return a.extents_ == b.extents_ && a.data_ == b.data_;
  }

  template <class Archive>
  void serialize(Archive& ar) {
    ar(extents_, data_);
    // Loaded bytes come from elsewhere (a worker node): their extents must match their elements.
    if (data_.size() != count(extents_))
      throw std::runtime_error("cei::Array: extents do not match the number of elements");
  }

 private:
  static std::size_t count(const std::array<std::size_t, Rank>& e) {
    std::size_t n = 1;
    for (auto v : e)
      if (__builtin_mul_overflow(n, v, &n)) throw std::length_error("cei::Array: extents overflow");
    return n;
  }
  std::size_t offset(std::size_t i) const { return i; }
  std::size_t offset(std::size_t i, std::size_t j) const { return i * extents_[1] + j; }
  std::size_t offset(std::size_t i, std::size_t j, std::size_t k) const {
    return (i * extents_[1] + j) * extents_[2] + k;
  }

  std::array<std::size_t, Rank> extents_;
  std::vector<T, BlockAllocator<T>> data_;
};

template <typename T>
using Vector = Array<T, 1>;
template <typename T>
using Matrix = Array<T, 2>;

template <typename A>
struct is_array : std::false_type {};
template <typename T, std::size_t R>
struct is_array<Array<T, R>> : std::true_type {};
template <typename A>
inline constexpr bool is_array_v = is_array<A>::value;

}  // namespace cei
