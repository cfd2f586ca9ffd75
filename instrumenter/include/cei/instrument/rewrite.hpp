// Source-to-source instrumentation of one translation unit: every call of a CE's native version
// becomes a task submission (cei/rt/api.hpp), and every other host use of a variable that tasks
// touch goes through ::cei::rt::sync / sync_read. docs/instrumenter.md lists what is rewritten,
// what is refused, and what the analysis cannot see.
//
//   cei::frontend::Diagnostics diags;
//   auto out = cei::instrument::instrument_source("main.cpp", models, {"-I.", "-std=c++20"},
//                                                 "app_registry.hpp", diags);
//   if (!diags.has_errors()) write_file("main.cei.cpp", *out);
#pragma once

#include <cei/frontend.hpp>
#include <cei/model.hpp>

#include <optional>
#include <string>
#include <vector>

namespace cei::instrument {

struct Options {
  // Off only to show what the analysis buys: a program rewritten without its waits reads host
  // copies that tasks have not brought up to date (tests/instrumenter checks that it then fails).
  bool insert_syncs = true;
};

// Returns the rewritten source (with #line directives pointing at `source`), or nullopt when the
// source does not parse or uses a construct the instrumenter refuses (reported in `diags`).
std::optional<std::string> instrument_source(const std::string& source,
                                             const std::vector<model::Model>& models,
                                             const std::vector<std::string>& compiler_args,
                                             const std::string& registry_header,
                                             frontend::Diagnostics& diags,
                                             const Options& options = {});

}  // namespace cei::instrument
