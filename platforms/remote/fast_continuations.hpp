// cpprest chains every 4 KiB of an HTTP body through a pplx continuation, and pplx hands each
// continuation to its threadpool: a thread wake-up per 4 KiB, which capped transfers to a
// loopback node at ~13% of raw TCP. This scheduler runs a continuation on the thread that
// completed its antecedent (a few levels deep, so continuation chains cannot overflow the stack)
// and falls back to the threadpool beyond that. Both the node client and the worker node
// install it; it is process-wide and idempotent.
//
//   cei::remote::use_fast_continuations();  // before the first request or listener
#pragma once

namespace cei::remote {

void use_fast_continuations();

}  // namespace cei::remote
