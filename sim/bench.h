// `strata bench`: a fixed set of games whose signature says at a glance
// whether a change altered play, and whose speed is the engine's headline
// figure. The games are fixed (seeds, the bench's matchups, random and
// heuristic players, paris mulligans, modern rules, no checks), so the
// signature (a hash of every game's winner, length and every decision taken)
// depends only on the engine, the players and the card and deck data, never
// on the thread count. tests/bench_signature pins it: a commit that changes
// play updates that file and says why. Other players (`--policies`, e.g. mc)
// play the same matchups for their speed; their signature is not pinned.
// Each matchup's games are timed on their own, so its games/s can be read
// beside the others'.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "engine/card.h"
#include "engine/deck.h"

namespace strata {

// The matchups, by deck file stem under data/decks. The first
// kBenchReferenceMatchups are the reference matchups the bench began with;
// they play the same games as when they were the only ones (game 3r + m of a
// policy's seeds is round r of matchup m), so `--matchups 1,2,3 --games 600`
// is the bench before the classic matchup was added. Matchups added later
// draw their seeds from streams of their own.
inline constexpr std::array<std::array<const char*, 2>, 5> kBenchMatchups = {{
    {"red_burn", "green_stompy"},
    {"white_weenie", "blue_control"},
    {"rg_aggro", "black_removal"},
    {"classic/sligh", "classic/erhnamgeddon"},  // issue 37: two decks of 1995
    {"oldschool/the_deck", "oldschool/zoo"},    // issue 38: Old School 93/94
}};
inline constexpr int kBenchReferenceMatchups = 3;
// The players, each against itself, whose games the signature pins.
inline constexpr std::array<const char*, 2> kBenchPolicies = {"random", "heuristic"};
// Per policy, the pinned signature's: 200 games of each matchup.
inline constexpr int kBenchDefaultGames = 200 * static_cast<int>(kBenchMatchups.size());

struct BenchOptions {
  int games = kBenchDefaultGames;  // per policy, spread round-robin over the matchups
  int threads = 0;                 // 0: all cores
  // The matchups played, as indices into kBenchMatchups, in this order; empty:
  // all of them. Game k of a policy is round k / n of matchups[k % n] (n
  // matchups), and a matchup's round r is the same game whichever matchups
  // stand beside it.
  std::vector<int> matchups;
  // Policy specs (MakePolicy's), each against itself, in this order. A
  // kBenchPolicies spec plays the same games wherever it stands in the list.
  std::vector<std::string> policies{kBenchPolicies.begin(), kBenchPolicies.end()};
};

// Games played: their totals and the wall-clock seconds they took.
struct BenchTally {
  int64_t games = 0, decisions = 0, turns = 0;
  double seconds = 0;
};

// One policy's games, in all and per matchup.
struct BenchRow {
  std::string policy;
  BenchTally total;
  std::vector<BenchTally> by_matchup;  // in BenchResult::matchups order
};

struct BenchResult {
  std::vector<BenchRow> rows;  // in BenchOptions::policies order
  std::vector<int> matchups;   // those played, as indices into kBenchMatchups
  uint64_t signature = 0;
  int threads = 0;
};

// `decks` holds every matchup's decks in kBenchMatchups order (A, B, A, B, ...).
BenchResult RunBench(const CardDb& db, const std::vector<Deck>& decks, const BenchOptions& opt);

}  // namespace strata
