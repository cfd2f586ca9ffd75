// The process-wide list behind cei::rt::add_observer. Observers are added at start and read for
// every event from many threads, so readers take an immutable snapshot (copy-on-write).
#include <cei/rt/trace/observers.hpp>

#include <atomic>

namespace cei::rt {
namespace {

std::atomic<std::shared_ptr<const ObserverList>>& current() {
  static std::atomic<std::shared_ptr<const ObserverList>> list{std::make_shared<ObserverList>()};
  return list;
}

}  // namespace

void add_observer(std::shared_ptr<Observer> o) {
  auto& list = current();
  auto old = list.load();
  std::shared_ptr<const ObserverList> next;
  do {
    auto grown = std::make_shared<ObserverList>(*old);
    grown->push_back(o);
    next = std::move(grown);
  } while (!list.compare_exchange_weak(old, next));
}

std::shared_ptr<const ObserverList> observers() {
  return current().load();
}

void clear_observers() {
  current().store(std::make_shared<ObserverList>());
}

}  // namespace cei::rt
