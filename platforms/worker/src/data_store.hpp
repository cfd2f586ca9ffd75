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

// Thread-safe: every member may be called from any thread.
class DataStore {
 public:
  explicit DataStore(std::size_t max_bytes) : max_bytes_(max_bytes) {}
  // False when storing it would exceed the node's capacity. `reserved` bytes of an earlier
  // reserve() are released at the same time (whether or not it fits).
  bool put(const std::string& id, Value v, std::size_t reserved = 0);
  // Room for a value still arriving, counted against the capacity until put() or unreserve():
  // false when there is none.
  bool reserve(std::size_t bytes);
  void unreserve(std::size_t bytes);
  std::size_t reserved() const;
  std::optional<Value> get(const std::string& id) const;
  bool erase(const std::string& id);
  std::size_t bytes() const;
  std::size_t count() const;

 private:
  mutable std::mutex mu_;
  std::map<std::string, Value, std::less<>> values_;
  std::size_t bytes_ = 0;
  std::size_t reserved_ = 0;
  std::size_t max_bytes_;
};

// Room reserved in a store for an upload while its bytes arrive; given back when the upload
// ends without being stored. Used by one connection at a time.
class Reservation {
 public:
  Reservation() = default;
  ~Reservation() { release(); }
  Reservation(const Reservation&) = delete;
  Reservation& operator=(const Reservation&) = delete;
  bool make(DataStore& store, std::size_t bytes) {
    if (!store.reserve(bytes)) return false;
    store_ = &store;
    bytes_ = bytes;
    return true;
  }
  // The bytes, for DataStore::put to release: this no longer does.
  std::size_t take() {
    store_ = nullptr;
    return bytes_;
  }
  void release() {
    if (store_) store_->unreserve(bytes_);
    store_ = nullptr;
  }

 private:
  DataStore* store_ = nullptr;
  std::size_t bytes_ = 0;
};

}  // namespace cei::worker
