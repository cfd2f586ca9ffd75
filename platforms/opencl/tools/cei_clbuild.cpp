// cei-clbuild: compiles OpenCL kernel files at build time with the OpenCL compiler of a device
// found then (PoCL's on a machine without a GPU), so that a mistake inside a kernel body stops
// the build at its line instead of failing the first run that uses a device. cei_add_application
// runs it on its KERNELS.
//
//   cei-clbuild [--device NAME] [--options "-cl-fast-relaxed-math"] kernel.cl ...
//   saxpy.cl:4:12: error: expected ';' at end of declaration (OpenCL C, pthread-...)
//
// Exit status 2 when a kernel does not compile (or a file cannot be read); 0 otherwise, and when
// no OpenCL device is found (said on stdout: nothing could compile them).
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>

#include <fmt/format.h>
#include <CLI/CLI.hpp>

#include <filesystem>
#include <fstream>
#include <optional>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

namespace {

std::string device_name(cl_device_id d) {
  std::size_t n = 0;
  clGetDeviceInfo(d, CL_DEVICE_NAME, 0, nullptr, &n);
  std::string s(n, '\0');
  clGetDeviceInfo(d, CL_DEVICE_NAME, n, s.data(), nullptr);
  while (!s.empty() && s.back() == '\0') s.pop_back();
  return s;
}

// The first device of the ICD's order whose name contains `match` ("" : the first).
std::optional<cl_device_id> find_device(const std::string& match) {
  cl_uint np = 0;
  if (clGetPlatformIDs(0, nullptr, &np) != CL_SUCCESS || np == 0) return std::nullopt;
  std::vector<cl_platform_id> platforms(np);
  clGetPlatformIDs(np, platforms.data(), nullptr);
  for (cl_platform_id p : platforms) {
    cl_uint nd = 0;
    if (clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, 0, nullptr, &nd) != CL_SUCCESS || nd == 0) continue;
    std::vector<cl_device_id> ids(nd);
    clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, nd, ids.data(), nullptr);
    for (cl_device_id d : ids)
      if (device_name(d).find(match) != std::string::npos) return d;
  }
  return std::nullopt;
}

std::string build_log(cl_program program, cl_device_id d) {
  std::size_t n = 0;
  clGetProgramBuildInfo(program, d, CL_PROGRAM_BUILD_LOG, 0, nullptr, &n);
  std::string log(n, '\0');
  clGetProgramBuildInfo(program, d, CL_PROGRAM_BUILD_LOG, n, log.data(), nullptr);
  while (!log.empty() && log.back() == '\0') log.pop_back();
  return log;
}

// Each diagnostic of the driver's log at the kernel file's own line and column, in the
// compiler's format. Drivers name the source by a temporary file (PoCL: "error:
// /root/.cache/pocl/kcache/tempfile_x.cl:2:12: expected ';'") or "<source>:2:12: error: ...".
int report(const std::string& file, const std::string& log, const std::string& device) {
  static const std::regex diagnostic(
      R"(^(?:(error|warning): )?\S*?:(\d+):(\d+): (?:(error|warning): )?(.*)$)");
  int errors = 0;
  std::istringstream lines(log);
  for (std::string line; std::getline(lines, line);) {
    std::smatch m;
    if (!std::regex_match(line, m, diagnostic)) continue;
    const std::string kind = m[1].matched ? m[1].str() : m[4].matched ? m[4].str() : "error";
    errors += kind == "error" ? 1 : 0;
    fmt::print(stderr, "{}:{}:{}: {}: {} (OpenCL C, {})\n", file, m[2].str(), m[3].str(), kind,
               m[5].str(), device);
  }
  return errors;
}

// 0: compiled; otherwise the number of errors (at least 1 when the log names none).
int compile(cl_context context, cl_device_id d, const std::string& file,
            const std::string& options) {
  std::ifstream in(file, std::ios::binary);
  if (!in) {
    fmt::print(stderr, "{}: error: cannot read the kernel file\n", file);
    return 1;
  }
  const std::string source((std::istreambuf_iterator<char>(in)), {});
  const char* text = source.c_str();
  cl_int err = CL_SUCCESS;
  cl_program program = clCreateProgramWithSource(context, 1, &text, nullptr, &err);
  if (err != CL_SUCCESS) return 1;
  // Kernels #include what lies beside them.
  const std::string dir = std::filesystem::absolute(file).parent_path().string();
  const std::string opts = options + " -I \"" + dir + "\"";
  err = clBuildProgram(program, 1, &d, opts.c_str(), nullptr, nullptr);
  const std::string device = device_name(d);
  int errors = report(file, build_log(program, d), device);
  if (err != CL_SUCCESS && errors == 0) {
    fmt::print(stderr, "{}: error: the OpenCL compiler of {} refused it:\n{}\n", file, device,
               build_log(program, d));
    errors = 1;
  }
  clReleaseProgram(program);
  return err == CL_SUCCESS ? 0 : errors;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"Compiles OpenCL kernel files with the OpenCL compiler of a device found now"};
  std::vector<std::string> files;
  std::string match, options;
  app.add_option("kernels", files, "OpenCL C files")->required();
  app.add_option("--device", match, "the first device whose name contains this (default: the "
                                    "first device)");
  app.add_option("--options", options, "clBuildProgram options, as CEI_OPENCL_BUILD_OPTIONS");
  app.set_version_flag("--version", "cei-clbuild (CEI) " CEI_VERSION);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e) == 0 ? 0 : 2;
  }
  const auto device = find_device(match);
  if (!device) {
    fmt::print("cei-clbuild: no OpenCL device{}: kernels not compiled at build time\n",
               match.empty() ? "" : " named like '" + match + "'");
    return 0;
  }
  cl_int err = CL_SUCCESS;
  cl_context context = clCreateContext(nullptr, 1, &*device, nullptr, nullptr, &err);
  if (err != CL_SUCCESS) {
    fmt::print("cei-clbuild: cannot open {}: kernels not compiled at build time\n",
               device_name(*device));
    return 0;
  }
  int errors = 0;
  for (const std::string& f : files) errors += compile(context, *device, f, options);
  clReleaseContext(context);
  return errors == 0 ? 0 : 2;
}
