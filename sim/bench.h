// `strata bench`: a fixed set of games whose signature says at a glance
// whether a change altered play, and whose speed is the engine's headline
// figure. The games are fixed (seeds, the three reference matchups, random and
// heuristic players, paris mulligans, modern rules, no checks), so the
// signature (a hash of every game's winner, length and every decision taken)
// depends only on the engine, the players and the card and deck data, never
// on the thread count. tests/bench_signature pins it: a commit that changes
// play updates that file and says why. Other players (`--policies`, e.g. mc)
// play the same matchups for their speed; their signature is not pinned.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "engine/card.h"
#include "engine/deck.h"

namespace strata {

// The reference matchups, by deck file stem under data/decks.
inline constexpr std::array<std::array<const char*, 2>, 3> kBenchMatchups = {{
    {"red_burn", "green_stompy"},
    {"white_weenie", "blue_control"},
    {"rg_aggro", "black_removal"},
}};
// The players, each against itself, whose games the signature pins.
inline constexpr std::array<const char*, 2> kBenchPolicies = {"random", "heuristic"};
inline constexpr int kBenchDefaultGames = 600;  // per policy, the pinned signature's

struct BenchOptions {
  int games = kBenchDefaultGames;  // per policy, spread round-robin over the matchups
  int threads = 0;                 // 0: all cores
  // Policy specs (MakePolicy's), each against itself, in this order. A
  // kBenchPolicies spec plays the same games wherever it stands in the list.
  std::vector<std::string> policies{kBenchPolicies.begin(), kBenchPolicies.end()};
};

// One policy's games: totals and wall-clock seconds.
struct BenchRow {
  std::string policy;
  int64_t games = 0, decisions = 0, turns = 0;
  double seconds = 0;
};

struct BenchResult {
  std::vector<BenchRow> rows;  // in BenchOptions::policies order
  uint64_t signature = 0;
  int threads = 0;
};

// `decks` holds the matchups' decks in kBenchMatchups order (A, B, A, B, ...).
BenchResult RunBench(const CardDb& db, const std::vector<Deck>& decks, const BenchOptions& opt);

}  // namespace strata
