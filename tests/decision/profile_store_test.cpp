#include "scripted.hpp"

#include <cei/rt/decision/profile_store.hpp>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <thread>

namespace cei::rt::test {
namespace {

std::string temp_path(const std::string& name) {
  return (std::filesystem::temp_directory_path() /
          (name + "-" + std::to_string(::getpid()) + ".json"))
      .string();
}

TEST(ProfileStore, SourcesGoDefaultThenMeasuredThenRegression) {
  ProfileStore p({.explore_runs = 1, .default_exec_s = 0.25});
  Prediction d = p.predict(kMultiply, 0, "cpu", 1000);
  EXPECT_EQ(d.source, Source::Default);
  EXPECT_EQ(d.seconds, 0.25);

  p.record(kMultiply, 0, "cpu", 1000, 1.0);
  p.record(kMultiply, 0, "cpu", 1000, 3.0);
  Prediction m = p.predict(kMultiply, 0, "cpu", 1000);
  EXPECT_EQ(m.source, Source::Measured);
  EXPECT_DOUBLE_EQ(m.seconds, 2.0);

  p.record(kMultiply, 0, "cpu", 2000, 3.0);  // means: 2 s at 1000, 3 s at 2000: t = 1 + 0.001x
  Prediction r = p.predict(kMultiply, 0, "cpu", 4000);
  EXPECT_EQ(r.source, Source::Regression);
  EXPECT_NEAR(r.seconds, 5.0, 1e-9);
}

TEST(ProfileStore, VersionsAndPlatformsAreSeparateHistories) {
  ProfileStore p;
  p.record(kMultiply, 0, "cpu", 100, 1.0);
  p.record(kMultiply, -1, "opencl0", 100, 0.1);
  EXPECT_DOUBLE_EQ(p.predict(kMultiply, -1, "opencl0", 100).seconds, 0.1);
  EXPECT_DOUBLE_EQ(p.predict(kMultiply, 0, "cpu", 100).seconds, 1.0);
  // A version never run here borrows the CE's mean elsewhere, marked Default.
  Prediction other = p.predict(kMultiply, 1, "cpu", 100);
  EXPECT_EQ(other.source, Source::Default);
  EXPECT_DOUBLE_EQ(other.seconds, 0.55);
  EXPECT_EQ(ProfileStore::impl_key(kMultiply, 1), "blocked");
  EXPECT_EQ(ProfileStore::impl_key(kMultiply, -1), "opencl");
  // The approximate kernel keeps its own history: the accurate kernel's stays its own.
  EXPECT_EQ(ProfileStore::impl_key(kMultiply, Task::kApproximateKernelVersion),
            "opencl-approximate");
  p.record(kMultiply, Task::kApproximateKernelVersion, "opencl0", 100, 0.02);
  EXPECT_DOUBLE_EQ(p.predict(kMultiply, -1, "opencl0", 100).seconds, 0.1);
  EXPECT_DOUBLE_EQ(p.predict(kMultiply, Task::kApproximateKernelVersion, "opencl0", 100).seconds,
                   0.02);
  EXPECT_EQ(ProfileStore::ce_key(kMultiply), "MatmulCEI.multiply");
  // Another CE's history does not leak in.
  EXPECT_EQ(p.predict(kSort, 0, "cpu", 100).source, Source::Default);
  EXPECT_DOUBLE_EQ(p.predict(kSort, 0, "cpu", 100).seconds, ProfileOptions{}.default_exec_s);
}

TEST(ProfileStore, ExplorationIsBounded) {
  ProfileStore p({.explore_runs = 2});
  EXPECT_TRUE(p.claim_exploration(kMultiply, -1, "opencl0"));
  EXPECT_TRUE(p.claim_exploration(kMultiply, -1, "opencl0"));
  EXPECT_FALSE(p.claim_exploration(kMultiply, -1, "opencl0"));
  EXPECT_TRUE(p.claim_exploration(kMultiply, 0, "opencl0"));  // another version: its own budget

  ProfileStore profiled({.explore_runs = 2});
  profiled.record(kMultiply, 0, "cpu", 10, 1);
  profiled.record(kMultiply, 0, "cpu", 10, 1);
  EXPECT_FALSE(profiled.claim_exploration(kMultiply, 0, "cpu"));  // already measured enough

  ProfileStore off({.explore_runs = 0});
  EXPECT_FALSE(off.claim_exploration(kMultiply, 0, "cpu"));
}

TEST(ProfileStore, ExplorationClaimsAreExactUnderContention) {
  ProfileStore p({.explore_runs = 3});
  std::atomic<int> granted{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 8; ++t)
    threads.emplace_back([&] {
      for (int i = 0; i < 100; ++i) granted += p.claim_exploration(kSort, 0, "cpu");
    });
  for (auto& t : threads) t.join();
  EXPECT_EQ(granted.load(), 3);
}

TEST(ProfileStore, ConcurrentRecordsAreAllCounted) {
  ProfileStore p;
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([&] {
      for (int i = 0; i < 250; ++i) {
        p.record(kSort, 0, "cpu", 64, 2.0);
        (void)p.predict(kSort, 0, "cpu", 64);
      }
    });
  for (auto& t : threads) t.join();
  auto models = p.models();
  ASSERT_EQ(models.size(), 1u);
  EXPECT_EQ(models[0].sizes.at(0).second.runs, 1000u);
  EXPECT_DOUBLE_EQ(models[0].sizes.at(0).second.mean_s, 2.0);
}

// One by one, as record() did before threads gathered runs: the reference for the sums below.
SizeStats one_by_one(const std::vector<double>& runs) {
  SizeStats s;
  for (double x : runs) {
    ++s.runs;
    const double delta = x - s.mean_s;
    s.mean_s += delta / static_cast<double>(s.runs);
    s.m2 += delta * (x - s.mean_s);
  }
  return s;
}

TEST(ProfileStore, RunsThatLiveThreadsGatheredCountInModelsAndSaves) {
  ProfileStore p;
  constexpr int kThreads = 4, kRuns = 1000;  // far past kEagerRuns: most runs are gathered
  std::vector<double> all;
  for (int t = 0; t < kThreads; ++t)
    for (int i = 0; i < kRuns; ++i) all.push_back(1.0 + (t * kRuns + i) % 7);
  std::atomic<int> recorded{0};
  std::atomic<bool> leave{false};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t)
    threads.emplace_back([&, t] {
      for (int i = 0; i < kRuns; ++i) p.record(kSort, 0, "cpu", 64, all[t * kRuns + i]);
      ++recorded;
      while (!leave) std::this_thread::yield();  // alive, holding what it gathered
    });
  while (recorded < kThreads) std::this_thread::yield();
  const SizeStats want = one_by_one(all);
  auto models = p.models();
  ASSERT_EQ(models.size(), 1u);
  const SizeStats got = models[0].sizes.at(0).second;
  EXPECT_EQ(got.runs, want.runs);
  EXPECT_NEAR(got.mean_s, want.mean_s, 1e-12);
  EXPECT_NEAR(got.m2, want.m2, 1e-9 * want.m2);
  // And in what a save writes, with a thread holding fresh runs again.
  const std::string path = temp_path("cei-profile-gathered");
  std::filesystem::remove(path);
  std::thread late([&] {
    for (int i = 0; i < 10; ++i) p.record(kSort, 0, "cpu", 64, 2.0);
    p.save(path);
  });
  late.join();
  ProfileStore saved;
  ASSERT_TRUE(saved.load_if_exists(path));
  EXPECT_EQ(saved.models().at(0).sizes.at(0).second.runs, want.runs + 10);
  leave = true;
  for (auto& t : threads) t.join();
  std::filesystem::remove(path);
}

TEST(ProfileStore, AHistorysFirstRunsAreSeenAtOnce) {
  ProfileStore p({.explore_runs = 2});
  for (std::uint64_t i = 1; i < ProfileStore::kEagerRuns; ++i) {
    p.record(kSort, 0, "cpu", 64, 1.0);
    if (i >= 2) {
      EXPECT_FALSE(p.claim_exploration(kSort, 0, "cpu")) << "after " << i << " runs";
    }
  }
  p.record(kSort, 0, "cpu", 64, 1.0 + static_cast<double>(ProfileStore::kEagerRuns));
  // predict() adds nothing gathered: this run is there because it was added when recorded.
  EXPECT_DOUBLE_EQ(p.predict(kSort, 0, "cpu", 64).seconds, 2.0);
}

TEST(ProfileStore, RunsGatheredForAStoreThatIsGoneAreDropped) {
  auto gone = std::make_unique<ProfileStore>();
  ProfileStore kept;
  std::atomic<int> step{0};
  std::thread worker([&] {
    for (int i = 0; i < 100; ++i) gone->record(kSort, 0, "cpu", 64, 1.0);  // some gathered
    step = 1;
    while (step != 2) std::this_thread::yield();
    for (int i = 0; i < 100; ++i) kept.record(kSort, 0, "cpu", 64, 3.0);
  });
  while (step != 1) std::this_thread::yield();
  gone.reset();  // the worker still holds runs gathered for it
  step = 2;
  worker.join();
  auto models = kept.models();
  ASSERT_EQ(models.size(), 1u);
  EXPECT_EQ(models[0].sizes.at(0).second.runs, 100u);
  EXPECT_DOUBLE_EQ(models[0].sizes.at(0).second.mean_s, 3.0);
}

TEST(ProfileStore, SaveLoadRoundTrip) {
  ProfileStore a;
  a.record(kMultiply, 0, "cpu", 1000, 1.0);
  a.record(kMultiply, 0, "cpu", 1000, 2.0);
  a.record(kMultiply, 0, "cpu", 8000, 8.0);
  a.record(kMultiply, -1, "opencl0", 1000, 0.25);
  a.record_energy("cpu", 2.0, 30.0);
  const std::string path = temp_path("cei-profile-roundtrip");
  a.save(path);

  ProfileStore b;
  ASSERT_TRUE(b.load_if_exists(path));
  EXPECT_EQ(b.to_json(), a.to_json());
  EXPECT_DOUBLE_EQ(b.predict(kMultiply, 0, "cpu", 1000).seconds, 1.5);
  EXPECT_EQ(b.predict(kMultiply, 0, "cpu", 4000).source, Source::Regression);
  EXPECT_DOUBLE_EQ(b.predict(kMultiply, 0, "cpu", 4000).seconds,
                   a.predict(kMultiply, 0, "cpu", 4000).seconds);
  EXPECT_DOUBLE_EQ(*b.measured_watts("cpu"), 15.0);
  EXPECT_FALSE(b.measured_watts("opencl0"));

  // Loading again merges: run counts add, means and variances combine.
  b.load(path);
  auto models = b.models();
  ASSERT_EQ(models.size(), 2u);
  const auto& cpu = models[0].key.platform == "cpu" ? models[0] : models[1];
  EXPECT_EQ(cpu.sizes.at(0).second.runs, 4u);
  EXPECT_DOUBLE_EQ(cpu.sizes.at(0).second.mean_s, 1.5);
  EXPECT_DOUBLE_EQ(cpu.sizes.at(0).second.m2, 1.0);  // runs 1,2,1,2 around 1.5
  std::filesystem::remove(path);
}

TEST(ProfileStore, FilesThatAreNotProfilesAreNamedErrors) {
  ProfileStore p;
  EXPECT_FALSE(p.load_if_exists(temp_path("cei-profile-missing")));
  const std::string path = temp_path("cei-profile-bad");
  for (const char* text : {"not json", R"({"format": "cei-profile", "version": 2})", "[1, 2]"}) {
    std::ofstream(path) << text;
    try {
      p.load(path);
      FAIL() << "loaded: " << text;
    } catch (const std::runtime_error& e) {
      EXPECT_NE(std::string(e.what()).find(path), std::string::npos) << e.what();
    }
  }
  std::filesystem::remove(path);
  // Read before parsing, they would hang or exhaust memory.
  for (const std::string& special :
       {std::string("/dev/zero"), std::filesystem::temp_directory_path().string()})
    try {
      p.load(special);
      FAIL() << "loaded " << special;
    } catch (const std::runtime_error& e) {
      EXPECT_NE(std::string(e.what()).find(special + ": not a regular file"), std::string::npos)
          << e.what();
    }
}

// One valid history among entries that would break the forecasts or the next save (a count of -1
// or 1e308 was accepted, then saved as null, and every later run refused the file).
TEST(ProfileStore, BadEntriesAreDroppedWithAWarningAndTheRestKept) {
  const std::string path = temp_path("cei-profile-entries");
  std::ofstream(path) << R"({"format": "cei-profile", "version": 1, "histories": [
    {"ce": "S.sort", "impl": "sort", "platform": "cpu", "sizes": [
      {"bytes": 100, "runs": 2, "mean_s": 0.5, "m2": 0},
      {"bytes": 200, "runs": -1, "mean_s": 0.5, "m2": 0},
      {"bytes": 300, "runs": 1e308, "mean_s": 0.5, "m2": 0},
      {"bytes": 400, "runs": 1, "mean_s": -2, "m2": 0},
      {"bytes": 500, "runs": 1, "mean_s": 0.5, "m2": "x"},
      {"bytes": -1, "runs": 1, "mean_s": 0.5, "m2": 0}]},
    {"ce": 3, "impl": "sort", "platform": "cpu", "sizes": []},
    "junk"],
    "energy": {"cpu": {"seconds": 2, "joules": 30}, "gpu": {"seconds": -1, "joules": 1}}})";
  ProfileStore p;
  ::testing::internal::CaptureStderr();
  p.load(path);
  const std::string warnings = ::testing::internal::GetCapturedStderr();
  const std::string sizes = "histories[0] (S.sort sort on cpu) sizes";
  for (const std::string& entry :
       {sizes + "[1]: runs -1 is not an integer from 1 to 9007199254740992",
        sizes + "[2]: runs 1e+308 is not an integer",
        sizes + "[3]: mean_s -2 is not a number from 0 to 1e+09",
        sizes + "[4]: m2 \"x\" is not a number", sizes + "[5]: bytes -1 is not a number",
        std::string("histories[1]: ce is not a non-empty string"),
        std::string("histories[2]: not an object"), std::string("energy.gpu: seconds -1")})
    EXPECT_NE(warnings.find(path + ": " + entry), std::string::npos) << entry << "\n" << warnings;
  const auto models = p.models();
  ASSERT_EQ(models.size(), 1u);
  ASSERT_EQ(models[0].sizes.size(), 1u);
  EXPECT_EQ(models[0].sizes[0].first, 100);
  EXPECT_EQ(models[0].sizes[0].second.runs, 2u);
  EXPECT_DOUBLE_EQ(*p.measured_watts("cpu"), 15.0);
  EXPECT_FALSE(p.measured_watts("gpu"));
  // What the next save writes loads again without a word.
  std::filesystem::remove(path);
  p.record(kSort, 0, "cpu", 100, 0.5);
  p.save(path);
  ProfileStore again;
  ::testing::internal::CaptureStderr();
  again.load(path);
  EXPECT_EQ(::testing::internal::GetCapturedStderr(), "");
  EXPECT_EQ(again.models().at(0).sizes.at(0).second.runs, 1u);
  std::filesystem::remove(path);
}

// A store saves only what it recorded since it was made or saved, added to what the file holds
// then: another store's save in between is kept, and a second save adds nothing twice.
TEST(ProfileStore, SaveAddsThisStoresRecordsToWhatTheFileHoldsNow) {
  const std::string path = temp_path("cei-profile-merge");
  std::filesystem::remove(path);
  ProfileStore a, b;
  a.load_if_exists(path);
  b.load_if_exists(path);
  a.record(kSort, 0, "cpu", 100, 1.0);
  b.record(kSort, 0, "cpu", 100, 3.0);
  b.record(kMultiply, 0, "cpu", 100, 2.0);
  a.record_energy("cpu", 1, 10);
  b.record_energy("cpu", 1, 20);
  a.save(path);
  b.save(path);
  b.save(path);
  ProfileStore both;
  both.load(path);
  EXPECT_DOUBLE_EQ(both.predict(kSort, 0, "cpu", 100).seconds, 2.0);
  EXPECT_EQ(both.models().size(), 2u);
  EXPECT_DOUBLE_EQ(*both.measured_watts("cpu"), 15.0);
  for (const auto& m : both.models())
    if (m.key.ce == "SortCEI.sort") {
      EXPECT_EQ(m.sizes.at(0).second.runs, 2u);
    }
  std::filesystem::remove(path);
  std::filesystem::remove(path + ".lock");
}

}  // namespace
}  // namespace cei::rt::test
