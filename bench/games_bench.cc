// Whole games: what a balance study costs. BM_Game plays games of one policy
// pair on one thread with a reused study worker (the runner's inner loop);
// BM_Study (heuristic players) and BM_StudyRandom (random players) run
// RunStudy over the same games on 1 thread (the serial baseline), 2, 4, ...
// up to every core: the thread sweep of the parallel runner.
//
// Matchup: red_burn vs green_stompy, seats swapped in pairs, game indices
// from 0, so every run plays the same games.
#include <algorithm>
#include <string>
#include <thread>

#include "benchmark/benchmark.h"
#include "sim/runner.h"
#include "tests/bundled.h"

namespace strata {
namespace {

SimOptions Options(const std::string& policy) {
  SimOptions opt;
  opt.decks = BundledDecks(BundledPool(), {"red_burn", "green_stompy"});
  opt.policies = {policy, policy};
  return opt;
}

// Every policy of the policy table (policies/policy_table.h) once; new rows
// go at the end, so BM_Game/0..2 keep their policies.
const char* const kPolicies[] = {"random", "heuristic", "mc:rollouts=2,depth=14", "passive"};
constexpr int kPolicyCount = static_cast<int>(sizeof(kPolicies) / sizeof(kPolicies[0]));

// Games of one policy pair, one after another on one thread.
void BM_Game(benchmark::State& state) {
  const SimOptions opt = Options(kPolicies[state.range(0)]);
  state.SetLabel(kPolicies[state.range(0)]);
  StudyWorker worker(BundledPool(), opt);
  int64_t index = 0, decisions = 0, turns = 0;
  for (auto _ : state) {
    GameRecord r = PlayStudyGame(opt, 0, index++, worker);
    decisions += r.decisions;
    turns += r.turns;
  }
  state.counters["games/s"] =
      benchmark::Counter(static_cast<double>(index), benchmark::Counter::kIsRate);
  state.counters["decisions/s"] =
      benchmark::Counter(static_cast<double>(decisions), benchmark::Counter::kIsRate);
  state.counters["turns/game"] = static_cast<double>(turns) / static_cast<double>(index);
}
BENCHMARK(BM_Game)->DenseRange(0, kPolicyCount - 1)->Unit(benchmark::kMillisecond);

// A study of 2,048 games of one policy on state.range(0) threads (wall-clock
// time); games/s for the speed-up over the serial baseline.
void RunStudyOn(benchmark::State& state, const std::string& policy) {
  SimOptions opt = Options(policy);
  opt.games = 2048;
  opt.threads = static_cast<int>(state.range(0));
  state.SetLabel(policy);
  int64_t games = 0;
  for (auto _ : state) {
    SimResult r = RunStudy(BundledPool(), opt);
    games += r.matchups[0].games;
    benchmark::DoNotOptimize(r);
  }
  state.counters["games/s"] =
      benchmark::Counter(static_cast<double>(games), benchmark::Counter::kIsRate);
}

void BM_Study(benchmark::State& state) {
  RunStudyOn(state, "heuristic");
}
void BM_StudyRandom(benchmark::State& state) {
  RunStudyOn(state, "random");
}

// Threads 1, 2, 4, ... and every core (at least 2, so BM_Study/1 and
// BM_Study/2 exist on any machine).
void ThreadSweep(benchmark::internal::Benchmark* b) {
  const int cores = std::max(2, static_cast<int>(std::thread::hardware_concurrency()));
  b->RangeMultiplier(2)->Range(1, cores)->Unit(benchmark::kMillisecond)->UseRealTime();
}
BENCHMARK(BM_Study)->Apply(ThreadSweep);
BENCHMARK(BM_StudyRandom)->Apply(ThreadSweep);

}  // namespace
}  // namespace strata

BENCHMARK_MAIN();
