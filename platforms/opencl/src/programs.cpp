#include "programs.hpp"

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <regex>
#include <sstream>
#include <vector>

#include <unistd.h>

namespace cei::opencl {

namespace fs = std::filesystem;

namespace {

std::uint64_t fnv1a(std::string_view s, std::uint64_t h = 1469598103934665603ull) {
  for (unsigned char c : s) h = (h ^ c) * 1099511628211ull;
  return h;
}

// A cache entry: this header, then the driver's binary. A driver trusts the binary it is given
// (PoCL segfaults or fails an assertion on a truncated one), so nothing reaches it unless the
// entry is whole (size and checksum) and was made for this device, driver and build options.
constexpr char kMagic[8] = {'C', 'E', 'I', 'K', 'B', 'I', 'N', '1'};
// In the entry's name too: a version that reads headerless entries (before CEIKBIN1) never opens
// one of these, nor this one theirs, when both share a cache.
constexpr std::string_view kEntryFormat = "CEIKBIN1|";
constexpr std::size_t kMaxEntryBytes = std::size_t{1} << 30;

std::string hex(std::uint64_t v) {
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(v));
  return buf;
}

// Compilers name the in-memory source "<source>" (Clang), "input.cl" or a temporary file (PoCL's
// kcache/tempfile_XXX.cl): replace it with the kernel file's path so that "file:line:col" is right.
std::string name_file(const std::string& log, const std::string& path) {
  static const std::regex anon(R"((<source>|<kernel>|[^\s:]*\.cl)(:\d+:))");
  return std::regex_replace(log, anon, path + "$2");
}

}  // namespace

std::string default_cache_dir() {
  if (const char* x = std::getenv("XDG_CACHE_HOME"); x && *x)
    return (fs::path(x) / "cei" / "opencl").string();
  if (const char* home = std::getenv("HOME"); home && *home)
    return (fs::path(home) / ".cache" / "cei" / "opencl").string();
  return {};
}

Programs::Programs(cl_context ctx, cl_device_id dev, const DeviceInfo& info, std::string cache_dir,
                   std::string build_options)
    : ctx_(ctx),
      dev_(dev),
      key_prefix_(info.platform_name + "|" + info.name + "|" + info.driver_version + "|" +
                  build_options + "|"),
      cache_dir_(cache_dir.empty()    ? default_cache_dir()
                 : cache_dir == "off" ? ""
                                      : cache_dir),
      options_(std::move(build_options)) {}

const Programs::Built& Programs::kernel_for(const rt::CeInfo& ce, const rt::OpenCLImpl& cl) {
  std::lock_guard lock(mu_);
  if (auto it = kernels_.find(&cl); it != kernels_.end()) return it->second;
  Built b;
  std::string src = cl.source ? cl.source : "";
  auto prog = by_source_.find(src);
  if (prog == by_source_.end()) {
    if (auto f = failed_.find(src); f != failed_.end()) {
      b.log = f->second;
      return kernels_.emplace(&cl, std::move(b)).first->second;
    }
    std::string log;
    Program p = build(cl, log);
    if (!p) {
      std::fprintf(stderr, "cei: OpenCL build of %s (CE %s::%s) failed:\n%s", cl.source_path,
                   ce.interface_name, ce.name, log.c_str());
      failed_.emplace(src, log);
      b.log = std::move(log);
      return kernels_.emplace(&cl, std::move(b)).first->second;
    }
    prog = by_source_.emplace(src, std::move(p)).first;
  }
  cl_int err = CL_SUCCESS;
  cl_kernel k = clCreateKernel(prog->second.get(), cl.kernel_name, &err);
  if (err != CL_SUCCESS) {
    b.log = std::string(cl.source_path) + ": error: no kernel named '" + cl.kernel_name + "' (" +
            error_name(err) + ")\n";
    std::fprintf(stderr, "cei: %s", b.log.c_str());
  } else {
    b.kernel = Kernel(k);
  }
  return kernels_.emplace(&cl, std::move(b)).first->second;
}

Program Programs::build(const rt::OpenCLImpl& cl, std::string& log) {
  std::string path;
  const std::string key = key_prefix_ + hex(fnv1a(cl.source));
  if (!cache_dir_.empty())
    path = (fs::path(cache_dir_) /
            (hex(fnv1a(cl.source, fnv1a(key_prefix_, fnv1a(kEntryFormat)))) + ".bin"))
               .string();
  std::error_code ec;
  if (!path.empty() && fs::exists(fs::symlink_status(path, ec))) {
    if (Program p = load_binary(path, key)) {
      ++disk_hits_;
      return p;
    }
  }
  const char* src = cl.source;
  std::size_t len = std::string_view(src).size();
  cl_int err = CL_SUCCESS;
  Program p(clCreateProgramWithSource(ctx_, 1, &src, &len, &err));
  check(err, "clCreateProgramWithSource");
  err = clBuildProgram(p.get(), 1, &dev_, options_.c_str(), nullptr, nullptr);
  std::size_t n = 0;
  clGetProgramBuildInfo(p.get(), dev_, CL_PROGRAM_BUILD_LOG, 0, nullptr, &n);
  std::string raw(n, '\0');
  clGetProgramBuildInfo(p.get(), dev_, CL_PROGRAM_BUILD_LOG, n, raw.data(), nullptr);
  if (!raw.empty() && raw.back() == '\0') raw.pop_back();
  if (err != CL_SUCCESS) {
    log = name_file(raw, cl.source_path);
    if (log.find_first_not_of(" \n") == std::string::npos)
      log = std::string(cl.source_path) + ": error: " + error_name(err) + "\n";
    return {};
  }
  if (!path.empty()) save_binary(p.get(), path, key);
  return p;
}

namespace {

void put_u64(std::string& out, std::uint64_t v) {
  for (int i = 0; i < 8; ++i) out += static_cast<char>((v >> (8 * i)) & 0xff);
}

bool get_u64(std::string_view& in, std::uint64_t& v) {
  if (in.size() < 8) return false;
  v = 0;
  for (int i = 0; i < 8; ++i) v |= std::uint64_t{static_cast<unsigned char>(in[i])} << (8 * i);
  in.remove_prefix(8);
  return true;
}

// The driver's binary inside `entry`, or why the entry cannot be used.
std::string_view check_entry(std::string_view entry, const std::string& key, std::string& why) {
  std::uint64_t key_size = 0, size = 0, sum = 0;
  if (entry.size() < sizeof kMagic ||
      entry.substr(0, sizeof kMagic) != std::string_view(kMagic, sizeof kMagic)) {
    why = "not a CEI program cache entry";
    return {};
  }
  entry.remove_prefix(sizeof kMagic);
  if (!get_u64(entry, key_size) || key_size > entry.size()) {
    why = "truncated";
    return {};
  }
  if (entry.substr(0, key_size) != key) {
    why = "made for another device, driver, build options or source";
    return {};
  }
  entry.remove_prefix(key_size);
  if (!get_u64(entry, size) || !get_u64(entry, sum) || size != entry.size() || size == 0) {
    why = "truncated or of the wrong size";
    return {};
  }
  if (fnv1a(entry) != sum) {
    why = "checksum mismatch (corrupt)";
    return {};
  }
  return entry;
}

}  // namespace

Program Programs::load_binary(const std::string& path, const std::string& key) {
  std::string why;
  std::string entry;
  std::error_code ec;
  if (!fs::is_regular_file(fs::symlink_status(path, ec))) {
    why = "not a regular file";
  } else if (const auto bytes = fs::file_size(path, ec); ec || bytes > kMaxEntryBytes) {
    why = ec ? "unreadable (" + ec.message() + ")" : "larger than 1 GiB";
  } else {
    std::ifstream f(path, std::ios::binary);
    entry.assign(std::istreambuf_iterator<char>(f), {});
  }
  const std::string_view bin = why.empty() ? check_entry(entry, key, why) : std::string_view{};
  if (bin.empty()) {
    std::fprintf(stderr, "cei: warning: OpenCL program cache entry %s: %s; rebuilt from source\n",
                 path.c_str(), why.c_str());
    fs::remove(path, ec);
    return {};
  }
  const auto* data = reinterpret_cast<const unsigned char*>(bin.data());
  std::size_t len = bin.size();
  cl_int status = CL_SUCCESS, err = CL_SUCCESS;
  Program p(clCreateProgramWithBinary(ctx_, 1, &dev_, &len, &data, &status, &err));
  if (err != CL_SUCCESS || status != CL_SUCCESS) return {};
  if (clBuildProgram(p.get(), 1, &dev_, options_.c_str(), nullptr, nullptr) != CL_SUCCESS)
    return {};  // a stale binary: rebuild from source
  return p;
}

void Programs::save_binary(cl_program p, const std::string& path, const std::string& key) {
  std::size_t size = 0;
  if (clGetProgramInfo(p, CL_PROGRAM_BINARY_SIZES, sizeof size, &size, nullptr) != CL_SUCCESS ||
      size == 0)
    return;
  std::vector<unsigned char> bin(size);
  unsigned char* ptr = bin.data();
  if (clGetProgramInfo(p, CL_PROGRAM_BINARIES, sizeof ptr, &ptr, nullptr) != CL_SUCCESS) return;
  const std::string_view payload(reinterpret_cast<const char*>(bin.data()), size);
  std::string entry(kMagic, sizeof kMagic);
  put_u64(entry, key.size());
  entry += key;
  put_u64(entry, size);
  put_u64(entry, fnv1a(payload));
  entry += payload;
  std::error_code ec;
  fs::create_directories(fs::path(path).parent_path(), ec);
  // Write then rename, so that a concurrent run never reads half a binary; the name is the
  // process's and the object's, since two processes may hold the same address.
  std::string tmp = path + ".tmp" + std::to_string(getpid()) + "." +
                    std::to_string(reinterpret_cast<std::uintptr_t>(this));
  {
    std::ofstream f(tmp, std::ios::binary);
    f.write(entry.data(), static_cast<std::streamsize>(entry.size()));
    f.close();
    if (!f) {
      fs::remove(tmp, ec);
      return;
    }
  }
  fs::rename(tmp, path, ec);
}

}  // namespace cei::opencl
