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

// The seed of round `round` of matchup `matchup`. A reference matchup keeps
// the seed its game had when the bench held only those (game 3 * round +
// matchup of the policy's seeds); a matchup added later has a stream of its
// own, so adding one changes no other matchup's games.
uint64_t BenchGameSeed(uint64_t policy_seed, int matchup, int64_t round) {
  if (matchup < kBenchReferenceMatchups)
    return Rng::GameSeed(policy_seed,
                         static_cast<uint64_t>(kBenchReferenceMatchups * round + matchup));
  const uint64_t stream = Rng::GameSeed(policy_seed, ~static_cast<uint64_t>(matchup));
  return Rng::GameSeed(stream, static_cast<uint64_t>(round));
}

// Game `index` of a run (its place in the signature): round `round` of
// matchup `matchup`, decks swapped on every other round, seeded from the
// policy's seed, the matchup and the round alone.
GameSummary PlayBenchGame(const std::vector<Deck>& decks, uint64_t policy_seed, int matchup,
                          int64_t round, int64_t index, BenchWorker& w) {
  const bool swapped = round % 2 == 1;
  const uint64_t seed = BenchGameSeed(policy_seed, matchup, round);
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

void Add(BenchTally& t, const GameSummary& g) {
  ++t.games;
  t.decisions += g.decisions;
  t.turns += g.turns;
}

}  // namespace

BenchResult RunBench(const CardDb& db, const std::vector<Deck>& decks, const BenchOptions& opt) {
  BenchResult r;
  r.threads = opt.threads > 0 ? opt.threads : static_cast<int>(std::thread::hardware_concurrency());
  r.threads = std::max(1, r.threads);
  r.matchups = opt.matchups;
  if (r.matchups.empty())
    for (int m = 0; m < static_cast<int>(kBenchMatchups.size()); ++m) r.matchups.push_back(m);
  const auto n = static_cast<int64_t>(r.matchups.size());
  tbb::global_control limit(tbb::global_control::max_allowed_parallelism, r.threads);
  uint64_t signature = Mix(0, static_cast<uint64_t>(opt.games));
  std::vector<GameSummary> games(static_cast<size_t>(opt.games));
  for (const std::string& spec : opt.policies) {
    const uint64_t policy_seed = PolicySeed(spec);
    tbb::enumerable_thread_specific<BenchWorker> workers([&] { return BenchWorker(db, spec); });
    BenchRow row;
    row.policy = spec;
    row.by_matchup.resize(static_cast<size_t>(n));
    // Game k is round k / n of the matchup in slot k % n of r.matchups;
    // each matchup's games are played, and timed, together.
    const auto start = std::chrono::steady_clock::now();
    for (int64_t slot = 0; slot < n; ++slot) {
      const int matchup = r.matchups[static_cast<size_t>(slot)];
      const int64_t rounds = opt.games > slot ? (opt.games - slot + n - 1) / n : 0;
      const auto matchup_start = std::chrono::steady_clock::now();
      tbb::parallel_for(int64_t{0}, rounds, [&](int64_t round) {
        const int64_t k = round * n + slot;
        games[static_cast<size_t>(k)] =
            PlayBenchGame(decks, policy_seed, matchup, round, k, workers.local());
      });
      row.by_matchup[static_cast<size_t>(slot)].seconds =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - matchup_start).count();
    }
    row.total.seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    for (size_t k = 0; k < games.size(); ++k) {  // in game order: the same for any thread count
      Add(row.total, games[k]);
      Add(row.by_matchup[k % static_cast<size_t>(n)], games[k]);
      signature = Mix(signature, games[k].hash);
    }
    r.rows.push_back(row);
  }
  r.signature = signature;
  return r;
}

}  // namespace strata
