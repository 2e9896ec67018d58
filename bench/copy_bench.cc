// Copying a Game: what look-ahead pays for every determinized copy
// (policies/mc.cc), at three points of real games (bench/recorded_games.h):
// early, mid and late, the decisions at 10%, 50% and 90% of each recorded
// game. A copy carries the layer cache with its version stamp, so its first
// query must not recompute anything: BM_CopyThenChars shows it does not,
// against BM_RecomputeLayers, what a recompute of the same states costs.
//
// Each iteration makes one copy; the source changes every kCopiesPerSource
// iterations and goes round the recorded games, so a run copies from many
// states, but from each many times in a row, as look-ahead copies one
// position for every rollout.
#include <cstdint>
#include <map>
#include <memory>
#include <vector>

#include "bench/recorded_games.h"
#include "benchmark/benchmark.h"
#include "engine/game.h"
#include "engine/layers.h"

namespace strata {
namespace {

constexpr int kCopiesPerSource = 64;
constexpr int kStages = 3;
const char* const kStageLabels[kStages] = {"early", "mid", "late"};
constexpr int kStagePercent[kStages] = {10, 50, 90};

// A recorded game with its decision pending, and an object on the
// battlefield to query after copying it (object 0 if none).
struct CopySource {
  Game game;
  ObjId permanent = 0;
};

// One source per recorded game at `stage`, recorded once per process.
const std::vector<CopySource>& Sources(int stage) {
  static std::map<int, std::vector<CopySource>> recorded;
  auto& slot = recorded[stage];
  if (!slot.empty()) return slot;
  const std::vector<int>& lengths = RecordedGameLengths();
  PlayRecordedGames([&](const DecisionPoint& p) {
    if (p.decision_index != lengths[p.game_index] * kStagePercent[stage] / 100) return;
    CopySource source{p.game};
    const GameState& s = p.game.state();
    for (ObjId o = 0; o < s.obj.count; ++o)
      if (s.obj.zone[o] == Zone::kBattlefield) {
        source.permanent = o;
        break;
      }
    source.game.Chars(source.permanent);  // the source's cache current, as a player leaves it
    slot.push_back(std::move(source));
  });
  return slot;
}

const CopySource& SourceFor(const std::vector<CopySource>& sources, int64_t iteration) {
  return sources[static_cast<size_t>(iteration / kCopiesPerSource) % sources.size()];
}

// Counters: `per_second` (copies/s); the mean turn, objects and permanents of the sources;
// sizeof(Game), the part of a copy that is one block (the vectors' contents
// come on top).
void SetCopyCounters(benchmark::State& state, const std::vector<CopySource>& sources,
                     const char* per_second = "copies/s") {
  double turns = 0, objects = 0, permanents = 0;
  for (const CopySource& s : sources) {
    turns += s.game.state().turn;
    objects += s.game.state().obj.count;
    permanents += BattlefieldCount(s.game);
  }
  const double n = static_cast<double>(sources.size());
  state.counters["turn"] = turns / n;
  state.counters["objects"] = objects / n;
  state.counters["permanents"] = permanents / n;
  state.counters["sizeof_game"] = static_cast<double>(sizeof(Game));
  state.counters[per_second] =
      benchmark::Counter(static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
}

// A new Game copied from a state (its buffers allocated afresh).
void BM_CopyConstruct(benchmark::State& state) {
  const auto& sources = Sources(static_cast<int>(state.range(0)));
  state.SetLabel(kStageLabels[state.range(0)]);
  int64_t i = 0;
  for (auto _ : state) {
    auto copy = std::make_unique<Game>(SourceFor(sources, i++).game);
    benchmark::DoNotOptimize(copy.get());
    benchmark::ClobberMemory();
  }
  SetCopyCounters(state, sources);
}

// A state copied into a Game that already exists (its buffers reused, as
// mc's Determinize does).
void BM_CopyAssign(benchmark::State& state) {
  const auto& sources = Sources(static_cast<int>(state.range(0)));
  state.SetLabel(kStageLabels[state.range(0)]);
  Game copy = sources.front().game;
  int64_t i = 0;
  for (auto _ : state) {
    copy = SourceFor(sources, i++).game;
    benchmark::DoNotOptimize(&copy);
    benchmark::ClobberMemory();
  }
  SetCopyCounters(state, sources);
}

// BM_CopyAssign, then the copy's first query of a permanent's
// characteristics: a version compare if the cache came along with the copy,
// a full recomputation of the layers if it did not.
void BM_CopyThenChars(benchmark::State& state) {
  const auto& sources = Sources(static_cast<int>(state.range(0)));
  state.SetLabel(kStageLabels[state.range(0)]);
  Game copy = sources.front().game;
  int64_t i = 0;
  for (auto _ : state) {
    const CopySource& source = SourceFor(sources, i++);
    copy = source.game;
    benchmark::DoNotOptimize(copy.Chars(source.permanent).power);
  }
  SetCopyCounters(state, sources);
}

// What BM_CopyThenChars would add if a copy forced a recompute: every
// object's characteristics computed from scratch (ComputeLayers) for the
// same states, into a separate cache.
void BM_RecomputeLayers(benchmark::State& state) {
  const auto& sources = Sources(static_cast<int>(state.range(0)));
  state.SetLabel(kStageLabels[state.range(0)]);
  auto cache = std::make_unique<LayerCache>();
  int64_t i = 0;
  for (auto _ : state) {
    const Game& g = SourceFor(sources, i++).game;
    ComputeLayers(g.db(), g.state(), *cache);
    benchmark::DoNotOptimize(cache->chars[0]);
    benchmark::ClobberMemory();
  }
  SetCopyCounters(state, sources, "recomputes/s");
}

void Stages(benchmark::internal::Benchmark* b) {
  b->ArgName("stage")->DenseRange(0, kStages - 1)->Unit(benchmark::kMicrosecond);
}
BENCHMARK(BM_CopyConstruct)->Apply(Stages);
BENCHMARK(BM_CopyAssign)->Apply(Stages);
BENCHMARK(BM_CopyThenChars)->Apply(Stages);
BENCHMARK(BM_RecomputeLayers)->Apply(Stages);

}  // namespace
}  // namespace strata

BENCHMARK_MAIN();
