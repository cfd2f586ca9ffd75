#include <cei/rt/decision/profile_store.hpp>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <vector>

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

namespace cei::rt {

namespace {

// The CE's key without allocating on the hot path: one buffer per thread, reused.
std::string_view ce_key_view(const CeInfo& ce) {
  thread_local std::string buf;
  buf.assign(ce.interface_name ? ce.interface_name : "");
  buf += '.';
  buf += ce.name;
  return buf;
}

std::string_view impl_key_view(const CeInfo& ce, int version, std::string& scratch) {
  if (version == Task::kApproximateKernelVersion) return "opencl-approximate";
  if (version < 0) return "opencl";
  if (static_cast<std::size_t>(version) < ce.nversions && ce.versions[version].declaring_class)
    return ce.versions[version].declaring_class;
  scratch = "v" + std::to_string(version);
  return scratch;
}

}  // namespace

namespace {
std::atomic<std::uint64_t> store_ids{1};
}  // namespace

ProfileStore::ProfileStore(ProfileOptions opts)
    : opts_(opts), id_(store_ids.fetch_add(1, std::memory_order_relaxed)) {}

std::string ProfileStore::ce_key(const CeInfo& ce) {
  return std::string(ce_key_view(ce));
}

std::string ProfileStore::impl_key(const CeInfo& ce, int version) {
  std::string scratch;
  return std::string(impl_key_view(ce, version, scratch));
}

void ProfileStore::invalidate_fit(History& h) {
  h.fit_stale = true;
}

const Fit& ProfileStore::History::current_fit() const {
  if (fit_stale) {
    std::vector<std::pair<double, double>> points;
    points.reserve(sizes.size());
    for (const auto& [size, s] : sizes) points.emplace_back(size, s.mean_s);
    fit = fit_size_model(points);
    fit_stale = false;
  }
  return fit;
}

double ProfileStore::predict_locked(const History& h, double size) const {
  std::lock_guard g(h.mu);
  if (auto it = h.sizes.find(size); it != h.sizes.end()) return it->second.mean_s;
  return h.current_fit()(size);
}

Prediction ProfileStore::predict(const CeInfo& ce, int version, const std::string& platform,
                                 double input_bytes) const {
  std::string scratch;
  const std::string_view ce_view = ce_key_view(ce);
  const Key key{ce_view, impl_key_view(ce, version, scratch), platform};
  std::shared_lock lock(mu_);
  if (auto it = histories_.find(key); it != histories_.end()) {
    const History& h = it->second;
    std::lock_guard g(h.mu);
    if (!h.sizes.empty()) {
      if (auto s = h.sizes.find(input_bytes); s != h.sizes.end())
        return {s->second.mean_s, Source::Measured};
      return {h.current_fit()(input_bytes), Source::Regression};
    }
  }
  // No history here: assume what this CE costs elsewhere, so the guess neither hides nor
  // forbids the platform; claim_exploration() is what gets it measured.
  double sum = 0;
  int n = 0;
  for (auto it = histories_.lower_bound(Key{ce_view, {}, {}});
       it != histories_.end() && it->first.ce == ce_view; ++it) {
    {
      std::lock_guard g(it->second.mu);
      if (it->second.sizes.empty()) continue;
    }
    sum += predict_locked(it->second, input_bytes);
    ++n;
  }
  return {n ? sum / n : opts_.default_exec_s, Source::Default};
}

// Why a thread gathers runs: thousands of short tasks of one CE ending per second on many cores
// all took the same history's lock, and the lock's and the history's lines crossing cores for
// each task set the pace of the whole program (empty tasks on 16 cores of an H100 machine:
// ~1.1 us per task at 4-16 workers, 0.78 on one).
struct ProfileStore::Gathered {
  std::mutex mu;  // the owner thread; add_all_gathered() and a store's destructor from others
  // The history found last (record()'s cache: a worker records the same CE on the same platform
  // task after task; the names' addresses stand for their text, the same literals, the same key).
  // store_id 0: none; a store's destructor clears what refers to it.
  std::uint64_t store_id = 0;
  ProfileStore* store = nullptr;
  const char *iface = nullptr, *name = nullptr, *impl = nullptr;
  std::string platform;
  History* history = nullptr;
  bool eager = true;  // the history had fewer than kEagerRuns runs at the last look
  // Runs at `size` not added yet.
  double size = 0;
  SizeStats runs;
  std::chrono::steady_clock::time_point since;  // of the first of them
};

struct ProfileStore::Threads {
  std::mutex mu;  // before any Gathered::mu
  std::vector<Gathered*> all;
};

ProfileStore::Threads& ProfileStore::threads() {
  static auto* t = new Threads;  // never destroyed: threads ending after main's exit use it
  return *t;
}

ProfileStore::Gathered& ProfileStore::gathered() {
  // Registered while the thread lives; what it holds at the thread's end is added then.
  struct Owner {
    Gathered g;
    Owner() {
      std::lock_guard l(threads().mu);
      threads().all.push_back(&g);
    }
    ~Owner() {
      std::lock_guard l(threads().mu);
      {
        std::lock_guard gl(g.mu);
        if (g.store_id && g.runs.runs) g.store->add_gathered(g);
      }
      std::erase(threads().all, &g);
    }
  };
  thread_local Owner owner;
  return owner.g;
}

ProfileStore::~ProfileStore() {
  // Locks are taken in the order threads().mu, a Gathered's mu, a store's mu_, a history's mu:
  // a store that no thread recorded into (save()'s merge) has nothing to clear.
  if (!recorded_.load(std::memory_order_acquire)) return;
  std::lock_guard l(threads().mu);
  for (Gathered* g : threads().all) {
    std::lock_guard gl(g->mu);
    if (g->store_id == id_) {
      g->store_id = 0;
      g->runs = {};
    }
  }
}

void ProfileStore::add_gathered(Gathered& g) {
  std::shared_lock lock(mu_);  // save() must not run between the adds and its clearing of fresh
  std::lock_guard hl(g.history->mu);
  History& h = *g.history;
  combine(h.sizes[g.size], g.runs);
  combine(h.fresh[g.size], g.runs);
  h.total_runs += g.runs.runs;
  invalidate_fit(h);
  g.eager = h.total_runs < std::max<std::uint64_t>(kEagerRuns, opts_.explore_runs);
  g.runs = {};
}

void ProfileStore::add_all_gathered() const {
  std::lock_guard l(threads().mu);
  for (Gathered* g : threads().all) {
    std::lock_guard gl(g->mu);
    if (g->store_id == id_ && g->runs.runs) const_cast<ProfileStore*>(this)->add_gathered(*g);
  }
}

void ProfileStore::record(const CeInfo& ce, int version, const std::string& platform,
                          double input_bytes, double seconds) {
  // What load() would refuse is never kept: a saved profile must load again.
  if (!(seconds >= 0 && seconds <= kMaxMeanS && input_bytes >= 0 && input_bytes <= kMaxBytes))
    return;
  std::string scratch;
  const std::string_view impl = impl_key_view(ce, version, scratch);
  Gathered& g = gathered();
  std::lock_guard gl(g.mu);
  const bool same = g.store_id == id_ && g.iface == ce.interface_name && g.name == ce.name &&
                    g.impl == impl.data() && g.platform == platform;
  if (!same || g.size != input_bytes) {
    if (g.store_id && g.runs.runs) g.store->add_gathered(g);
  }
  if (!same) {
    History* h = nullptr;
    {
      std::shared_lock lock(mu_);
      if (auto it = histories_.find(Key{ce_key_view(ce), impl, platform}); it != histories_.end())
        h = &it->second;
    }
    if (!h) {
      std::unique_lock lock(mu_);  // a first record of this history: insert it
      h = &histories_[ProfileKey{std::string(ce_key_view(ce)), std::string(impl), platform}];
    }
    // A key from scratch is this call's own: its address says nothing next time.
    recorded_.store(true, std::memory_order_release);
    g.store_id = id_;
    g.store = this;
    g.iface = ce.interface_name;
    g.name = ce.name;
    g.impl = impl.data() == scratch.data() ? nullptr : impl.data();
    g.platform = platform;
    g.history = h;
    g.eager = true;
  }
  const auto now = std::chrono::steady_clock::now();
  if (g.runs.runs == 0) g.since = now;
  g.size = input_bytes;
  add_run(g.runs, seconds);
  if (g.eager || g.runs.runs >= kGatherRuns || now - g.since >= kGatherAge) add_gathered(g);
}

void ProfileStore::add_run(SizeStats& s, double seconds) {
  s.runs = std::min(s.runs + 1, kMaxRuns);
  const double delta = seconds - s.mean_s;
  s.mean_s += delta / static_cast<double>(s.runs);
  s.m2 = std::min(s.m2 + delta * (seconds - s.mean_s), kMaxM2);
}

bool ProfileStore::claim_exploration(const CeInfo& ce, int version, const std::string& platform) {
  if (opts_.explore_runs <= 0) return false;
  std::string scratch;
  const Key key{ce_key_view(ce), impl_key_view(ce, version, scratch), platform};
  {
    std::shared_lock lock(mu_);
    auto it = histories_.find(key);
    if (it != histories_.end()) {
      std::lock_guard g(it->second.mu);
      if (it->second.total_runs >= static_cast<std::uint64_t>(opts_.explore_runs) ||
          it->second.claims >= opts_.explore_runs)
        return false;
    }
  }
  std::unique_lock lock(mu_);
  History& h = histories_[ProfileKey{std::string(std::get<0>(key)), std::string(std::get<1>(key)),
                                     platform}];
  std::lock_guard g(h.mu);
  if (h.total_runs >= static_cast<std::uint64_t>(opts_.explore_runs) ||
      h.claims >= opts_.explore_runs)
    return false;
  ++h.claims;
  return true;
}

void ProfileStore::record_energy(const std::string& platform, double seconds, double joules) {
  if (!(seconds >= 0 && seconds <= kMaxEnergy && joules >= 0 && joules <= kMaxEnergy)) return;
  std::unique_lock lock(mu_);
  for (auto* energy : {&energy_, &fresh_energy_}) {
    Energy& e = (*energy)[platform];
    e.seconds = std::min(e.seconds + seconds, kMaxEnergy);
    e.joules = std::min(e.joules + joules, kMaxEnergy);
  }
}

std::optional<double> ProfileStore::measured_watts(const std::string& platform) const {
  std::shared_lock lock(mu_);
  auto it = energy_.find(platform);
  if (it == energy_.end() || it->second.seconds <= 0) return std::nullopt;
  return it->second.joules / it->second.seconds;
}

std::vector<ProfileModel> ProfileStore::models() const {
  add_all_gathered();
  std::shared_lock lock(mu_);
  std::vector<ProfileModel> out;
  for (const auto& [key, h] : histories_) {
    std::lock_guard g(h.mu);
    if (h.sizes.empty()) continue;
    ProfileModel m{key, {h.sizes.begin(), h.sizes.end()}, h.current_fit()};
    out.push_back(std::move(m));
  }
  return out;
}

nlohmann::json ProfileStore::to_json() const {
  add_all_gathered();
  std::shared_lock lock(mu_);
  return json_of(false);
}

nlohmann::json ProfileStore::json_of(bool fresh) const {
  nlohmann::json histories = nlohmann::json::array();
  for (const auto& [key, h] : histories_) {
    std::lock_guard g(h.mu);
    const auto& sizes_of = fresh ? h.fresh : h.sizes;
    if (sizes_of.empty()) continue;
    nlohmann::json sizes = nlohmann::json::array();
    for (const auto& [size, s] : sizes_of)
      sizes.push_back({{"bytes", size}, {"runs", s.runs}, {"mean_s", s.mean_s}, {"m2", s.m2}});
    histories.push_back(
        {{"ce", key.ce}, {"impl", key.impl}, {"platform", key.platform}, {"sizes", sizes}});
  }
  nlohmann::json energy = nlohmann::json::object();
  for (const auto& [platform, e] : fresh ? fresh_energy_ : energy_)
    energy[platform] = {{"seconds", e.seconds}, {"joules", e.joules}};
  return {{"format", "cei-profile"}, {"version", 1}, {"histories", histories}, {"energy", energy}};
}

namespace {

// The entries of a profile that cannot be used, each reported once on stderr: the rest of the
// file still counts, and the next save leaves the bad entries out.
class Dropped {
 public:
  explicit Dropped(const std::string& source) : source_(source) {}
  ~Dropped() {
    if (count_ > kShown)
      std::fprintf(stderr, "cei: warning: %s: %zu more bad entries dropped\n", source_.c_str(),
                   count_ - kShown);
  }
  void operator()(const std::string& entry, const std::string& why) {
    if (++count_ <= kShown)
      std::fprintf(stderr, "cei: warning: %s: %s: %s; entry dropped\n", source_.c_str(),
                   entry.c_str(), why.c_str());
  }

 private:
  static constexpr std::size_t kShown = 10;
  const std::string& source_;
  std::size_t count_ = 0;
};

std::string number_text(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", v);
  return buf;
}

// A JSON number from min to max, or why not.
std::optional<std::string> bad_number(const nlohmann::json& j, const char* field, double min,
                                      double max) {
  auto it = j.find(field);
  if (it == j.end()) return std::string(field) + " missing";
  if (!it->is_number() || !(it->get<double>() >= min && it->get<double>() <= max))
    return std::string(field) + " " + it->dump() + " is not a number from " + number_text(min) +
           " to " + number_text(max);
  return std::nullopt;
}

std::optional<std::string> bad_name(const nlohmann::json& j, const char* field) {
  auto it = j.find(field);
  if (it == j.end() || !it->is_string() || it->get_ref<const std::string&>().empty())
    return std::string(field) + " is not a non-empty string";
  return std::nullopt;
}

}  // namespace

void ProfileStore::merge_json(const nlohmann::json& j, const std::string& source) {
  if (!j.is_object() || j.value("format", nlohmann::json()) != "cei-profile" ||
      j.value("version", nlohmann::json()) != 1)
    throw std::runtime_error("not a cei-profile version 1 document");
  Dropped dropped(source);
  std::unique_lock lock(mu_);
  const auto hs = j.find("histories");
  if (hs != j.end() && !hs->is_array()) dropped("histories", "not an array");
  for (std::size_t i = 0; hs != j.end() && hs->is_array() && i < hs->size(); ++i) {
    const nlohmann::json& hj = (*hs)[i];
    std::string where = "histories[" + std::to_string(i) + "]";
    std::optional<std::string> why;
    if (!hj.is_object())
      why = "not an object";
    else if (!(why = bad_name(hj, "ce")) && !(why = bad_name(hj, "impl")) &&
             !(why = bad_name(hj, "platform")) && !(hj.contains("sizes") && hj["sizes"].is_array()))
      why = "sizes is not an array";
    if (why) {
      dropped(where, *why);
      continue;
    }
    ProfileKey key{hj["ce"].get<std::string>(), hj["impl"].get<std::string>(),
                   hj["platform"].get<std::string>()};
    where += " (" + key.ce + " " + key.impl + " on " + key.platform + ")";
    History& h = histories_[std::move(key)];
    const nlohmann::json& sizes = hj["sizes"];
    for (std::size_t k = 0; k < sizes.size(); ++k) {
      const nlohmann::json& sj = sizes[k];
      const auto runs = sj.is_object() ? sj.find("runs") : sj.end();
      if (!sj.is_object())
        why = "not an object";
      else if (runs == sj.end() || !(runs->is_number_unsigned() || runs->is_number_integer()) ||
               runs->get<std::int64_t>() < 1 || runs->get<std::uint64_t>() > kMaxRuns)
        why = "runs " + (runs == sj.end() ? std::string("missing") : runs->dump()) +
              " is not an integer from 1 to " + std::to_string(kMaxRuns);
      else
        why = bad_number(sj, "bytes", 0, kMaxBytes)
                  .value_or(bad_number(sj, "mean_s", 0, kMaxMeanS)
                                .value_or(bad_number(sj, "m2", 0, kMaxM2).value_or("")));
      if (why && !why->empty()) {
        dropped(where + " sizes[" + std::to_string(k) + "]", *why);
        continue;
      }
      const SizeStats add{runs->get<std::uint64_t>(), sj["mean_s"].get<double>(),
                          sj["m2"].get<double>()};
      combine(h.sizes[sj["bytes"].get<double>()], add);
      h.total_runs += add.runs;
    }
    invalidate_fit(h);
  }
  const auto es = j.find("energy");
  if (es != j.end() && !es->is_object()) dropped("energy", "not an object");
  if (es != j.end() && es->is_object())
    for (const auto& [platform, ej] : es->items()) {
      std::optional<std::string> why =
          !ej.is_object() ? "not an object"
                          : bad_number(ej, "seconds", 0, kMaxEnergy)
                                .value_or(bad_number(ej, "joules", 0, kMaxEnergy).value_or(""));
      if (!why->empty()) {
        dropped("energy." + platform, *why);
        continue;
      }
      Energy& e = energy_[platform];
      e.seconds = std::min(e.seconds + ej["seconds"].get<double>(), kMaxEnergy);
      e.joules = std::min(e.joules + ej["joules"].get<double>(), kMaxEnergy);
    }
}

// Chan's parallel combination of two (runs, mean, m2) summaries, kept within what load() accepts.
void ProfileStore::combine(SizeStats& s, const SizeStats& add) {
  const double n = static_cast<double>(s.runs) + static_cast<double>(add.runs);
  const double delta = add.mean_s - s.mean_s;
  s.m2 =
      std::min(s.m2 + add.m2 +
                   delta * delta * static_cast<double>(s.runs) * static_cast<double>(add.runs) / n,
               kMaxM2);
  s.mean_s += delta * static_cast<double>(add.runs) / n;
  s.runs = std::min(s.runs + add.runs, kMaxRuns);
}

namespace {

// Holds an exclusive flock on `path` while it lives. A sibling file, not the profile itself: the
// profile is replaced by rename, and a lock on the replaced inode would exclude nobody.
class FileLock {
 public:
  explicit FileLock(const std::string& path)
      : fd_(::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644)) {
    if (fd_ < 0) throw std::runtime_error("cannot open " + path + ": " + std::strerror(errno));
    while (::flock(fd_, LOCK_EX) != 0)
      if (errno != EINTR) {
        const int err = errno;
        ::close(fd_);
        throw std::runtime_error("cannot lock " + path + ": " + std::strerror(err));
      }
  }
  ~FileLock() { ::close(fd_); }  // closing releases the lock
  FileLock(const FileLock&) = delete;
  FileLock& operator=(const FileLock&) = delete;

 private:
  int fd_;
};

void write_fully(int fd, const std::string& text, const std::string& path) {
  for (std::size_t done = 0; done < text.size();) {
    const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) throw std::runtime_error("cannot write " + path + ": " + std::strerror(errno));
    done += static_cast<std::size_t>(n);
  }
}

}  // namespace

void ProfileStore::save(const std::string& path) {
  // Under the lock: what the other runs sharing the file saved since this one loaded it, plus
  // this run's own records; written to a sibling and renamed, so that a crash mid-write never
  // leaves half a profile and a reader sees the old file or the new one.
  add_all_gathered();
  FileLock file_lock(path + ".lock");
  ProfileStore merged(opts_);  // dies after the lock below is released (~ProfileStore: lock order)
  std::unique_lock lock(mu_);  // records wait: a run saves at exit
  merged.load_if_exists(path);
  merged.merge_json(json_of(true), "this run's records");
  const std::string tmp = path + ".tmp" + std::to_string(::getpid());
  const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) throw std::runtime_error("cannot write profile " + tmp + ": " + std::strerror(errno));
  try {
    write_fully(fd, merged.json_of(false).dump(1) + "\n", tmp);
    if (::fsync(fd) != 0)
      throw std::runtime_error("cannot write " + tmp + ": " + std::strerror(errno));
  } catch (...) {
    ::close(fd);
    ::unlink(tmp.c_str());
    throw;
  }
  ::close(fd);
  if (::rename(tmp.c_str(), path.c_str()) != 0) {
    const int err = errno;
    ::unlink(tmp.c_str());
    throw std::runtime_error("cannot replace profile " + path + ": " + std::strerror(err));
  }
  // Saved: a later save must not add these records a second time.
  for (auto& [key, h] : histories_) {
    std::lock_guard g(h.mu);
    h.fresh.clear();
  }
  fresh_energy_.clear();
}

void ProfileStore::load(const std::string& path) {
  // Refused before reading, as the platform config: a directory, a FIFO or /dev/zero.
  std::error_code ec;
  const auto status = std::filesystem::status(path, ec);
  if (ec || !std::filesystem::exists(status))
    throw std::runtime_error("cannot open profile " + path);
  if (!std::filesystem::is_regular_file(status))
    throw std::runtime_error(path + ": not a regular file");
  if (std::filesystem::file_size(path, ec) > kMaxFileBytes)
    throw std::runtime_error(path + ": larger than " + std::to_string(kMaxFileBytes >> 20) +
                             " MiB: not a profile");
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot open profile " + path);
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(in);
  } catch (const nlohmann::json::exception& e) {
    throw std::runtime_error(path + ": " + e.what());
  }
  try {
    merge_json(j, path);
  } catch (const std::runtime_error& e) {
    throw std::runtime_error(path + ": " + e.what());
  }
}

bool ProfileStore::load_if_exists(const std::string& path) {
  std::error_code ec;
  if (path.empty() || !std::filesystem::exists(std::filesystem::symlink_status(path, ec)))
    return false;
  load(path);
  return true;
}

}  // namespace cei::rt
