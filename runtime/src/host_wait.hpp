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
// Writes ready v's value into `dst`, an existing object of its type (the program's), which keeps
// its storage where the sizes allow: copy-assigned from the host copy, else (contiguous data)
// read from a replica straight into it: one transfer, no second copy. Rethrows a fetch error
// (dst is then unspecified).
void write_into(Version& v, void* dst);

}  // namespace cei::rt
