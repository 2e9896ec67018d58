// The layer system's cost (RULES.md L-9, DESIGN.md "Cached layer results"):
// a full recomputation (ComputeLayers) against a query of the warm cache
// (Game::Chars), on random boards from the whole card pool.
//
// Arguments: permanents on the battlefield, continuous effect rows, edition
// (0 classic, 1 m10, 2 modern). Each board also has permanents / 4 objects
// in other zones (hand, library, graveyard, exile), so the largest board
// (200 + 50 = 250 objects) stays within kMaxObjects.
#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>
#include <string>
#include <tuple>
#include <vector>

#include "benchmark/benchmark.h"
#include "engine/card_loader.h"
#include "engine/game.h"
#include "engine/layers.h"
#include "tests/bundled.h"
#include "tests/support/random_board.h"

namespace strata {
namespace {

// Boards per argument tuple: the cost depends much on which cards a board
// has (a few statics that read other objects dominate), so each benchmark
// covers several boards of the same size, built once (a 250-object
// board takes a while to build: its entry choices read current
// characteristics).
constexpr int kBoardsPerConfig = 4;

const std::vector<std::unique_ptr<Game>>& Boards(const benchmark::State& state) {
  const int permanents = static_cast<int>(state.range(0));
  const int effects = static_cast<int>(state.range(1));
  const int edition = static_cast<int>(state.range(2));
  static std::map<std::tuple<int, int, int>, std::vector<std::unique_ptr<Game>>> boards;
  auto& slot = boards[{permanents, effects, edition}];
  if (slot.empty()) {
    RandomBoardOptions opt;
    opt.permanents = permanents;
    opt.others = -1;  // permanents / 4
    opt.effects = effects;
    opt.edition = static_cast<Edition>(edition);
    for (int i = 0; i < kBoardsPerConfig; ++i) {
      const uint64_t seed = 1000003u * static_cast<uint64_t>(permanents) + 1009u * effects + i;
      slot.push_back(std::make_unique<Game>(MakeRandomBoard(BundledPool(), seed, opt)));
    }
  }
  return slot;
}

// Counters: objects per board, objects/s, and the time per board (one
// iteration covers all kBoardsPerConfig boards).
void SetCounters(benchmark::State& state, const std::vector<std::unique_ptr<Game>>& boards) {
  double objects = 0;
  for (const auto& g : boards) objects += g->state().obj.count;
  const double iterations = static_cast<double>(state.iterations());
  const double n = static_cast<double>(boards.size());
  state.counters["objects"] = objects / n;
  state.counters["objects/s"] =
      benchmark::Counter(objects * iterations, benchmark::Counter::kIsRate);
  state.counters["s/board"] =
      benchmark::Counter(n * iterations, benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}

// Every characteristic of every object from scratch, into a separate cache.
void BM_FullRecompute(benchmark::State& state) {
  const auto& boards = Boards(state);
  auto cache = std::make_unique<LayerCache>();
  for (auto _ : state) {
    for (const auto& g : boards) {
      ComputeLayers(g->db(), g->state(), *cache);
      benchmark::DoNotOptimize(cache->chars[0]);
      benchmark::ClobberMemory();
    }
  }
  SetCounters(state, boards);
}

// Game::Chars of every object on a warm cache (no mutation in between).
void BM_CachedQuery(benchmark::State& state) {
  const auto& boards = Boards(state);
  for (const auto& g : boards) g->Chars(0);  // warm
  for (auto _ : state) {
    for (const auto& g : boards) {
      const int n = g->state().obj.count;
      for (ObjId o = 0; o < n; ++o) benchmark::DoNotOptimize(g->Chars(o).power);
    }
  }
  SetCounters(state, boards);
}

void Grid(benchmark::internal::Benchmark* b) {
  b->ArgNames({"permanents", "effects", "edition"});
  for (int permanents : {10, 50, 200})
    for (int effects : {5, 20, 100}) b->Args({permanents, effects, 2});  // modern
  b->Args({50, 20, 0});                                                  // classic
}

BENCHMARK(BM_FullRecompute)->Apply(Grid)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_CachedQuery)->Apply(Grid)->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace strata

BENCHMARK_MAIN();
