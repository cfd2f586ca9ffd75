// The node's data: immutable values keyed by the client's ids, held as host objects of their
// C++ types (TypeOps create + deserialize), so tasks use them in place.
#pragma once

#include <cei/rt/type_ops.hpp>

#include <cstddef>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

namespace cei::worker {

struct Value {
  const rt::TypeOps* type = nullptr;
  std::shared_ptr<void> object;  // destroyed through type->destroy
  std::size_t bytes = 0;         // serialized size (what a download sends)
};

class DataStore {
 public:
  explicit DataStore(std::size_t max_bytes) : max_bytes_(max_bytes) {}
  // False when storing it would exceed the node's capacity.
  bool put(const std::string& id, Value v);
  std::optional<Value> get(const std::string& id) const;
  bool erase(const std::string& id);
  std::size_t bytes() const;
  std::size_t count() const;

 private:
  mutable std::mutex mu_;
  std::map<std::string, Value, std::less<>> values_;
  std::size_t bytes_ = 0;
  std::size_t max_bytes_;
};

}  // namespace cei::worker
