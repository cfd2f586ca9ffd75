#include "data_store.hpp"

#include "fork_shield.hpp"

namespace cei::worker {

namespace {

// A contiguous value stays out of the process executor's forks while it is stored, and its
// memory is shown again before it is freed (a block reused later must be in every child).
void shield(Value& v) {
  if (v.type->kind == rt::TypeKind::Object || !v.object) return;
  void* data = v.type->data(v.object.get());
  std::size_t bytes = v.type->bytes(v.object.get());
  fork_shield::hide(data, bytes);
  auto inner = std::move(v.object);
  void* raw = inner.get();
  v.object = std::shared_ptr<void>(raw, [inner = std::move(inner), data, bytes](void*) mutable {
    fork_shield::show(data, bytes);
    inner.reset();
  });
}

}  // namespace

bool DataStore::put(const std::string& id, Value v, std::size_t reserved) {
  shield(v);
  std::lock_guard lock(mu_);
  reserved_ -= reserved;
  auto it = values_.find(id);
  std::size_t replaced = it == values_.end() ? 0 : it->second.bytes;
  if (bytes_ + reserved_ - replaced + v.bytes > max_bytes_) return false;
  bytes_ = bytes_ - replaced + v.bytes;
  values_[id] = std::move(v);
  return true;
}

std::optional<Value> DataStore::get(const std::string& id) const {
  std::lock_guard lock(mu_);
  auto it = values_.find(id);
  if (it == values_.end()) return std::nullopt;
  return it->second;
}

bool DataStore::erase(const std::string& id) {
  std::lock_guard lock(mu_);
  auto it = values_.find(id);
  if (it == values_.end()) return false;
  bytes_ -= it->second.bytes;
  values_.erase(it);
  return true;
}

bool DataStore::reserve(std::size_t bytes) {
  std::lock_guard lock(mu_);
  if (bytes > max_bytes_ || bytes_ + reserved_ > max_bytes_ - bytes) return false;
  reserved_ += bytes;
  return true;
}

void DataStore::unreserve(std::size_t bytes) {
  std::lock_guard lock(mu_);
  reserved_ -= bytes;
}

std::size_t DataStore::reserved() const {
  std::lock_guard lock(mu_);
  return reserved_;
}

std::size_t DataStore::bytes() const {
  std::lock_guard lock(mu_);
  return bytes_;
}

std::size_t DataStore::count() const {
  std::lock_guard lock(mu_);
  return values_.size();
}

}  // namespace cei::worker
