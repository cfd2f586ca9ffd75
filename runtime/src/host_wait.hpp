// Blocking the program thread until the runtime has something: a version produced, a host
// copy fetched. Workers never block; only the program does, through these.
#pragma once

#include <cei/rt/platform.hpp>

#include <exception>

namespace cei::rt {

// Waits until v is Ready or Failed.
void wait_ready(Version& v);
// Waits until v has a host copy; rethrows the version's failure (a TaskError) or a fetch error.
void* wait_host(Version& v);

}  // namespace cei::rt
