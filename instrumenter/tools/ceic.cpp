// ceic: the CEI instrumenter.
//   ceic --dump-cei FILE [-- compiler args]
//   ceic --registry --cei H [--cei H2 ...] -o registry.cpp -H registry.hpp [--depfile FILE]
//        [-- compiler args]
//   ceic --instrument SRC --cei H [--cei H2 ...] -o OUT.cpp [--registry-header NAME] [--no-sync]
//        [-- args]
// An output whose text did not change is left as it was, so that Ninja (which looks at a step's
// outputs again after it ran) compiles nothing more; --always-write writes it anyway, for Make,
// which takes an output older than its inputs as out of date at every build.
// --no-sync leaves out the waits the analysis inserts: only to show what they buy (tests).
// Compiler args are the target's -I / -D / -std. Errors go to stderr as file:line:col: error: ...
// and make the exit status 2. --registry also checks each CE's OpenCL kernel against the CE
// (kernel_check.hpp): it is the one step of a build that reports the CEI headers' mistakes.
// --depfile writes a Make-style depfile: the registry embeds the kernel files, so the build reruns
// it when one changes, whether the application lists it in KERNELS or not. The CEI headers are
// listed too: Ninja takes an empty depfile for a missing one and reran the registry step of an
// application without kernels at every build.
#include <cei/frontend.hpp>
#include <cei/instrument/kernel_check.hpp>
#include <cei/instrument/registry_gen.hpp>
#include <cei/instrument/rewrite.hpp>

#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace {

struct Options {
  std::string mode;  // dump-cei | registry | instrument
  std::string input;
  std::vector<std::string> ceis;
  std::string out, header_out, depfile, registry_header = "cei_registry.hpp";
  bool always_write = false;
  std::vector<std::string> compiler_args;
  cei::instrument::Options instrument;
};

// Bad arguments print this on stderr (exit status 2); --help on stdout (0).
constexpr const char* usage =
    "usage: ceic --dump-cei FILE [-- args]\n"
    "       ceic --registry --cei H [--cei H2] -o registry.cpp -H registry.hpp [--depfile F] "
    "[--always-write] [-- args]\n"
    "       ceic --instrument SRC --cei H [--cei H2] -o OUT.cpp [--registry-header NAME] "
    "[--no-sync] [--always-write] [-- args]\n";

std::optional<Options> parse(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    auto value = [&]() -> std::optional<std::string> {
      if (i + 1 >= argc) return std::nullopt;
      return std::string(argv[++i]);
    };
    std::optional<std::string> v;
    if (a == "--") {
      o.compiler_args.assign(argv + i + 1, argv + argc);
      break;
    } else if (a == "--no-sync") {
      o.instrument.insert_syncs = false;
      continue;
    } else if (a == "--always-write") {
      o.always_write = true;
      continue;
    } else if (a == "--registry") {
      o.mode = "registry";
      continue;
    } else if (a == "--version" || a == "--help" || a == "-h") {
      o.mode = a == "--version" ? "version" : "help";
      return o;
    } else if (a == "--dump-cei" || a == "--instrument") {
      o.mode = a.substr(2);
      if (!(v = value())) return std::nullopt;
      o.input = *v;
      continue;
    }
    if (!(v = value())) return std::nullopt;
    if (a == "--cei")
      o.ceis.push_back(*v);
    else if (a == "-o")
      o.out = *v;
    else if (a == "-H")
      o.header_out = *v;
    else if (a == "--depfile")
      o.depfile = *v;
    else if (a == "--registry-header")
      o.registry_header = *v;
    else
      return std::nullopt;
  }
  if (o.mode.empty()) return std::nullopt;
  if (o.mode == "registry" && (o.ceis.empty() || o.out.empty() || o.header_out.empty()))
    return std::nullopt;
  if (o.mode == "instrument" && (o.ceis.empty() || o.out.empty())) return std::nullopt;
  return o;
}

// Written only when changed (unless `always`), so that the build does not recompile what did not
// change.
bool write_file(const std::string& path, const std::string& text, bool always) {
  if (!always) {
    std::ifstream in(path, std::ios::binary);
    std::string old((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (in && old == text) return true;
  }
  // Make does not create the folders of a custom command's outputs (Ninja does).
  std::error_code ec;
  const auto dir = std::filesystem::path(path).parent_path();
  if (!dir.empty()) std::filesystem::create_directories(dir, ec);
  std::ofstream out(path, std::ios::binary);
  out << text;
  if (!out) std::cerr << "ceic: error: cannot write '" << path << "'\n";
  return static_cast<bool>(out);
}

std::string depfile_rule(const std::string& target, const std::vector<cei::model::Model>& models) {
  auto escaped = [](const std::string& path) {
    std::string out;
    for (char c : std::filesystem::absolute(path).lexically_normal().string()) {
      if (c == ' ' || c == '#') out += '\\';
      if (c == '$') out += '$';
      out += c;
    }
    return out;
  };
  std::string rule = escaped(target) + ":";
  std::set<std::string> listed;
  auto add = [&](const std::string& path) {
    if (!listed.insert(path).second) return;
    // Two appends, not `" " + escaped(...)`: GCC 12 at -O3 reports that operator+ as an
    // overlapping memcpy (-Wrestrict, a false positive).
    rule += ' ';
    rule += escaped(path);
  };
  for (const auto& m : models) {
    add(m.header);
    for (const auto& ce : m.ces)
      for (const auto* cl : {&ce.opencl, &ce.opencl_approximate})
        if (*cl && (*cl)->function.empty()) add((*cl)->kernel_path);
  }
  return rule + "\n";
}

int report(const cei::frontend::Diagnostics& diags) {
  std::cerr << diags.text();
  return diags.has_errors() ? 2 : 0;
}

}  // namespace

int main(int argc, char** argv) {
  auto opts = parse(argc, argv);
  if (!opts) {
    std::cerr << usage;
    return 2;
  }
  if (opts->mode == "version") {
    std::cout << "ceic (CEI) " CEI_VERSION ", libclang " CEI_LIBCLANG_VERSION "\n";
    return 0;
  }
  if (opts->mode == "help") {
    std::cout << usage << "       ceic --version\n";
    return 0;
  }
  cei::frontend::Diagnostics diags;
  if (opts->mode == "dump-cei") {
    auto model = cei::frontend::parse_cei(opts->input, opts->compiler_args, diags);
    if (!diags.has_errors()) std::cout << cei::model::to_json(model) << "\n";
    return report(diags);
  }
  std::vector<cei::model::Model> models;
  for (const auto& h : opts->ceis)
    models.push_back(cei::frontend::parse_cei(h, opts->compiler_args, diags));
  if (diags.has_errors()) return report(diags);

  if (opts->mode == "registry") {
    cei::instrument::check_kernels(models, diags);
    if (diags.has_errors()) return report(diags);
    try {
      auto include = std::filesystem::path(opts->header_out).filename().string();
      std::string cpp = cei::instrument::registry_source(models, include);
      const bool always = opts->always_write;
      if (!write_file(opts->header_out, cei::instrument::registry_header(models), always)) return 1;
      if (!opts->depfile.empty() &&
          !write_file(opts->depfile, depfile_rule(opts->out, models), always))
        return 1;
      return write_file(opts->out, cpp, always) ? report(diags) : 1;
    } catch (const std::exception& e) {
      std::cerr << "ceic: error: " << e.what() << "\n";
      return 1;
    }
  }
  auto out = cei::instrument::instrument_source(opts->input, models, opts->compiler_args,
                                                opts->registry_header, diags, opts->instrument);
  if (!out) {
    report(diags);
    return 2;
  }
  return write_file(opts->out, *out, opts->always_write) ? report(diags) : 1;
}
