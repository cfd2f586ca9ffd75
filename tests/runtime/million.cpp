// cei-runtime-million: 1,000,000 tasks of the mixed_tasks.hpp mix with the current RSS printed
// every 100,000 tasks: it must stay flat (within 2 MiB of the first 100,000 tasks' figure).
// (bench/soak's cei-soak does the same over CPU and OpenCL with random dependencies.)
#include "mixed_tasks.hpp"

#include <cei/cei.hpp>
#include <cei/rt/runtime.hpp>

#include <cstdio>

using namespace test_ces;

int main() {
  // Devices open in the background: what they allocate is not the tasks' RSS.
  cei::rt::Runtime::instance().wait_for_platforms();
  MixedData d;
  long first = 0, last = 0;
  constexpr long kStep = 100000, kTasks = 1000000;
  for (long i = 0; i < kTasks; i += kStep) {
    mixed_tasks(i, kStep, d);
    cei::barrier();
    last = resident_kib();
    if (!first) first = last;
    std::printf("%7ld tasks  RSS %ld KiB\n", i + kStep, last);
  }
  // A leak of even 8 bytes per task would add 7 MiB over the last 900,000 tasks.
  const bool flat = last <= first + 2048;
  const std::int64_t expected = increments(0, kTasks);
  std::printf("x = %lld (expected %lld); RSS %s (%ld -> %ld KiB)\n",
              static_cast<long long>(cei::rt::sync(d.x)), static_cast<long long>(expected),
              flat ? "flat" : "GREW", first, last);
  return d.x == expected && flat ? 0 : 1;
}
