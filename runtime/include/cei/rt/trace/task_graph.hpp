// The task graph in Graphviz DOT: a node per task, colored by the platform that ran it, and an
// edge per dependency labeled with the data version that carries it ("d3v2").
//
//   std::ofstream out("graph.dot");
//   cei::rt::trace::write_dot(recorder.snapshot(), out);   // then: dot -Tsvg graph.dot
#pragma once

#include <cei/rt/trace/run_record.hpp>

#include <ostream>

namespace cei::rt::trace {

void write_dot(const RunRecord& run, std::ostream& out);

}  // namespace cei::rt::trace
