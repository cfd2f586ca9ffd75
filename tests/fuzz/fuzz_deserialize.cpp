// Data deserialization (TypeOps::deserialize) as the worker node's PUT /v1/data/{id} and the remote
// platform's result download use it. The first byte picks the type, the rest are its wire bytes.
// Contiguous types: the framing check of the node and the client (wire_error) and deserialize must
// agree, an accepted value must serialize back to the same bytes, and a hostile header must not
// make anything allocate more than the bytes hold. Objects (cereal): only std::exception may come
// out, and what comes back must be a consistent value.
#include <cei/array.hpp>
#include <cei/rt/type_ops.hpp>

#include <cereal/types/string.hpp>
#include <cereal/types/vector.hpp>

#include <cstdint>
#include <exception>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "fuzz_check.hpp"
#include "wire_check.hpp"

namespace {

// A user class as the remote platform ships it: cereal-serializable, with an array inside.
struct Sample {
  std::string label;
  std::vector<double> values;
  cei::Matrix<int> grid;
  template <class Archive>
  void serialize(Archive& ar) {
    ar(label, values, grid);
  }
};

const cei::rt::TypeOps* const kTypes[] = {
    &cei::rt::type_ops<std::int64_t>(),
    &cei::rt::type_ops<double>(),
    &cei::rt::type_ops<std::uint8_t>(),
    &cei::rt::type_ops<cei::Vector<float>>(),
    &cei::rt::type_ops<cei::Matrix<int>>(),
    &cei::rt::type_ops<cei::Array<std::int16_t, 3>>(),
    &cei::rt::type_ops<std::vector<double>>(),
    &cei::rt::type_ops<std::string>(),
    &cei::rt::type_ops<Sample>(),
};

using Object = std::unique_ptr<void, void (*)(void*)>;

void check_contiguous(const cei::rt::TypeOps& type, std::string_view bytes) {
  const std::string wire = cei::remote::wire_error(type, bytes);
  Object obj(type.create(), type.destroy);
  bool accepted = true;
  try {
    type.deserialize(obj.get(), bytes);
  } catch (const std::runtime_error&) {
    accepted = false;
  } catch (const std::invalid_argument&) {
    accepted = false;
  }
  FUZZ_CHECK(accepted == wire.empty(), "wire_error and deserialize disagree");
  if (!accepted) return;
  std::string again;
  type.serialize(obj.get(), again);
  FUZZ_CHECK(again == bytes, "serialize(deserialize(bytes)) != bytes");
  FUZZ_CHECK(type.bytes(obj.get()) <= bytes.size(), "payload larger than the bytes received");
}

void check_object(const cei::rt::TypeOps& type, std::string_view bytes) {
  Object obj(type.create(), type.destroy);
  try {
    type.deserialize(obj.get(), bytes);
  } catch (const std::exception&) {
    return;
  }
  const auto& s = *static_cast<const Sample*>(obj.get());
  FUZZ_CHECK(s.grid.size() == s.grid.extent(0) * s.grid.extent(1),
             "an array whose extents do not match its elements");
  std::string again;
  type.serialize(obj.get(), again);
  FUZZ_CHECK(again.size() <= bytes.size(), "object grew on a round trip");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const auto& type = *kTypes[data[0] % std::size(kTypes)];
  std::string_view bytes(reinterpret_cast<const char*>(data + 1), size - 1);
  if (type.kind == cei::rt::TypeKind::Object)
    check_object(type, bytes);
  else
    check_contiguous(type, bytes);
  return 0;
}
