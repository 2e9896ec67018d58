// Whole games: what a balance study costs. BM_Game plays games of one policy
// pair on one thread with a reused study worker (the runner's inner loop);
// BM_Study runs RunStudy on 1 and 2 threads over the same games, the serial
// baseline and the thread sweep of the parallel runner.
//
// Matchup: red_burn vs green_stompy, seats swapped in pairs, game indices
// from 0, so every run plays the same games.
#include <string>

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

const char* const kPolicies[] = {"random", "heuristic", "mc:rollouts=2,depth=14"};

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
BENCHMARK(BM_Game)->DenseRange(0, 2)->Unit(benchmark::kMillisecond);

// A study of 2,048 heuristic games with 1 and 2 threads (wall-clock time).
void BM_Study(benchmark::State& state) {
  SimOptions opt = Options("heuristic");
  opt.games = 2048;
  opt.threads = static_cast<int>(state.range(0));
  int64_t games = 0;
  for (auto _ : state) {
    SimResult r = RunStudy(BundledPool(), opt);
    games += r.matchups[0].games;
    benchmark::DoNotOptimize(r);
  }
  state.counters["games/s"] =
      benchmark::Counter(static_cast<double>(games), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_Study)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace
}  // namespace strata

BENCHMARK_MAIN();
