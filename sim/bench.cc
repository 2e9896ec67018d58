#include "sim/bench.h"

#include <algorithm>
#include <chrono>
#include <memory>
#include <thread>

#include "engine/game.h"
#include "engine/rng.h"
#include "oneapi/tbb/enumerable_thread_specific.h"
#include "oneapi/tbb/global_control.h"
#include "oneapi/tbb/parallel_for.h"
#include "policies/policy.h"

namespace strata {
namespace {

constexpr uint64_t kBenchSeed = 0x5712a7a5eedull;

// One step of a 64-bit hash (splitmix64's finalizer over the running value).
uint64_t Mix(uint64_t h, uint64_t v) {
  uint64_t z = h ^ (v + 0x9E3779B97F4A7C15ull + (h << 6) + (h >> 2));
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

// What a thread reuses from game to game.
struct BenchWorker {
  BenchWorker(const CardDb& db, const std::string& policy) : game(db, GameOptions{}) {
    for (auto& p : players) p = *MakePolicy(policy, 1);
  }
  Game game;
  std::array<std::unique_ptr<Policy>, 2> players;
};

struct GameSummary {
  uint64_t hash = 0;
  int64_t decisions = 0;
  int turns = 0;
};

// A policy's seeds: kBenchPolicies' own by their place there (the pinned
// games), any other spec's by a hash of its text (FNV-1a), so a spec plays
// the same games wherever it stands in --policies.
uint64_t PolicySeed(const std::string& spec) {
  for (size_t k = 0; k < kBenchPolicies.size(); ++k)
    if (spec == kBenchPolicies[k]) return kBenchSeed + k;
  uint64_t h = 0xcbf29ce484222325ull;
  for (unsigned char c : spec) h = (h ^ c) * 0x100000001b3ull;
  return kBenchSeed + h;
}

// Game `index` of a policy: matchup index % 3, decks swapped on every other
// round, both seeded from the policy's seed and the index alone.
GameSummary PlayBenchGame(const std::vector<Deck>& decks, uint64_t policy_seed, int64_t index,
                          BenchWorker& w) {
  const int matchup = static_cast<int>(index % kBenchMatchups.size());
  const bool swapped = (index / static_cast<int64_t>(kBenchMatchups.size())) % 2 == 1;
  const uint64_t seed = Rng::GameSeed(policy_seed, static_cast<uint64_t>(index));
  GameOptions go;
  go.seed = seed;
  go.mulligan = Mulligan::kParis;
  Game& g = w.game;
  g.Reset(go);
  const Deck& a = decks[2 * matchup];
  const Deck& b = decks[2 * matchup + 1];
  g.Deal(swapped ? b : a, swapped ? a : b, 0);
  for (Player p = 0; p < 2; ++p) w.players[p]->Reset(Rng::GameSeed(seed, 17 + p));
  GameSummary s;
  uint64_t h = Mix(0, static_cast<uint64_t>(index));
  for (;;) {
    const Decision& d = g.Advance();
    if (d.kind == DecisionKind::kNone) break;
    const int chosen = w.players[d.player]->ChooseFor(g, d);
    h = Mix(h, static_cast<uint64_t>(chosen));
    g.Apply(chosen);
    ++s.decisions;
  }
  s.turns = g.state().turn;
  h = Mix(h, static_cast<uint64_t>(g.Winner() + 1));
  h = Mix(h, static_cast<uint64_t>(s.turns));
  h = Mix(h, static_cast<uint64_t>(g.end_reason()));
  s.hash = Mix(h, static_cast<uint64_t>(s.decisions));
  return s;
}

}  // namespace

BenchResult RunBench(const CardDb& db, const std::vector<Deck>& decks, const BenchOptions& opt) {
  BenchResult r;
  r.threads = opt.threads > 0 ? opt.threads : static_cast<int>(std::thread::hardware_concurrency());
  r.threads = std::max(1, r.threads);
  tbb::global_control limit(tbb::global_control::max_allowed_parallelism, r.threads);
  uint64_t signature = Mix(0, static_cast<uint64_t>(opt.games));
  std::vector<GameSummary> games(static_cast<size_t>(opt.games));
  for (const std::string& spec : opt.policies) {
    const uint64_t policy_seed = PolicySeed(spec);
    tbb::enumerable_thread_specific<BenchWorker> workers([&] { return BenchWorker(db, spec); });
    const auto start = std::chrono::steady_clock::now();
    tbb::parallel_for(int64_t{0}, static_cast<int64_t>(opt.games), [&](int64_t i) {
      games[static_cast<size_t>(i)] = PlayBenchGame(decks, policy_seed, i, workers.local());
    });
    BenchRow row;
    row.policy = spec;
    row.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    for (const GameSummary& g : games) {  // in game order: the same for any thread count
      ++row.games;
      row.decisions += g.decisions;
      row.turns += g.turns;
      signature = Mix(signature, g.hash);
    }
    r.rows.push_back(row);
  }
  r.signature = signature;
  return r;
}

}  // namespace strata
