// What the process executor's fork() leaves out: fork copies the page tables of every mapping,
// and a node storing 1 GiB in 4 KiB pages took 118 ms per task for that alone. Stored values of
// 1 MiB or more are marked MADV_DONTFORK while stored; a task's fork shows its own inputs to the
// child and hides them again, so a fork costs what the task reads, not what the node holds.
//
//   fork_shield::hide(data, bytes);               // a value stored
//   pid_t pid = fork_shield::fork_with(inputs);   // the child sees these (and all unhidden memory)
//   fork_shield::show(data, bytes);               // the value dropped, before its memory is freed
//
// Thread-safe: hide, show and fork_with serialize on one lock, so that no fork sees a range
// half changed. Nested hides of the same range are counted.
#pragma once

#include <cstddef>
#include <span>
#include <utility>

#include <sys/types.h>

namespace cei::worker::fork_shield {

void hide(const void* p, std::size_t bytes);
void show(const void* p, std::size_t bytes);
// fork(), with the hidden parts of `shown` mapped in the child. Returns what fork() returns.
pid_t fork_with(std::span<const std::pair<const void*, std::size_t>> shown);

}  // namespace cei::worker::fork_shield
