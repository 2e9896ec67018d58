#include "bench/recorded_games.h"

#include <array>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>

#include "engine/rng.h"
#include "policies/policy.h"
#include "sim/bench.h"
#include "tests/bundled.h"

namespace strata {
namespace {

constexpr uint64_t kRecordedSeed = 0xbe4c4ed5eedull;
constexpr const char* kRecordedPolicy = "heuristic";

std::unique_ptr<Policy> MakeRecordedPolicy() {
  auto p = MakePolicy(kRecordedPolicy, 1);
  if (!p.ok()) {
    std::fprintf(stderr, "%s\n", std::string(p.status().message()).c_str());
    std::abort();
  }
  return *std::move(p);
}

}  // namespace

void PlayRecordedGames(const std::function<void(const DecisionPoint&)>& visit) {
  const CardDb& db = BundledPool();
  std::vector<Deck> decks;
  for (int m = 0; m < kBenchReferenceMatchups; ++m)
    for (const char* name : kBenchMatchups[static_cast<size_t>(m)])
      decks.push_back(BundledDeck(name, db));
  std::array<std::unique_ptr<Policy>, 2> players = {MakeRecordedPolicy(), MakeRecordedPolicy()};
  const int matchups = kBenchReferenceMatchups;
  for (int index = 0; index < kRecordedGames; ++index) {
    const int matchup = index % matchups;
    const bool swapped = (index / matchups) % 2 == 1;
    GameOptions options;
    options.seed = Rng::GameSeed(kRecordedSeed, static_cast<uint64_t>(index));
    options.mulligan = Mulligan::kParis;
    Game g(db, options);
    const Deck& a = decks[2 * matchup];
    const Deck& b = decks[2 * matchup + 1];
    g.Deal(swapped ? b : a, swapped ? a : b, 0);
    for (Player p = 0; p < 2; ++p) players[p]->Reset(Rng::GameSeed(options.seed, 17 + p));
    for (int n = 0;; ++n) {
      const Decision& d = g.Advance();
      if (d.kind == DecisionKind::kNone) break;
      const int chosen = players[d.player]->ChooseFor(g, d);
      visit(DecisionPoint{g, d, chosen, index, n});
      g.Apply(chosen);
    }
  }
}

const std::vector<int>& RecordedGameLengths() {
  static const std::vector<int> lengths = [] {
    std::vector<int> n(kRecordedGames, 0);
    PlayRecordedGames([&](const DecisionPoint& p) { ++n[p.game_index]; });
    return n;
  }();
  return lengths;
}

int BattlefieldCount(const Game& g) {
  const GameState& s = g.state();
  int n = 0;
  for (ObjId o = 0; o < s.obj.count; ++o) n += s.obj.zone[o] == Zone::kBattlefield;
  return n;
}

int BoardSize(const Game& g) {
  const int permanents = BattlefieldCount(g);
  int size = 0;
  while (permanents >= kBoardSizeMin[size + 1]) ++size;
  return size;
}

bool KeepEvenly(int64_t seen, int64_t total, int64_t cap) {
  if (total <= cap) return true;
  return (seen + 1) * cap / total > seen * cap / total;
}

}  // namespace strata
