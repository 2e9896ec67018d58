// The parallel Monte Carlo runner (`strata sim`): matchups of decks played
// over many games under oneTBB. A game depends only on (run seed, game
// index), decks and policies, and statistics merge exactly, so the result of
// a run is the same whatever the number of threads.
#pragma once

#include <array>
#include <string>
#include <vector>

#include "engine/card.h"
#include "engine/deck.h"
#include "engine/game.h"
#include "sim/card_stats.h"

namespace strata {

struct SimOptions {
  std::vector<Deck> decks;
  std::array<std::string, 2> policies{"heuristic", "heuristic"};
  Edition edition = Edition::kModern;
  uint64_t seed = 1;
  int games = 1000;          // per matchup
  int threads = 0;           // 0: all cores
  bool pair = true;          // play each seed twice, seats swapped
  int gauntlet = -1;         // >= 0: this deck against each of the others only
  double ci_half_width = 0;  // > 0: stop a matchup once its 95% interval is this narrow
  bool progress = false;
};

// Results of one matchup, from the first deck's point of view. Every field
// is a count or a sum, so shards merge exactly.
struct MatchupStats {
  int deck_a = 0, deck_b = 0;
  int64_t games = 0, a_wins = 0, b_wins = 0, draws = 0;
  int64_t first_player_wins = 0;  // games won by the player who started
  int64_t turns = 0;
  std::array<int64_t, 6> end_reasons{};      // by EndReason
  std::array<int64_t, 41> turn_histogram{};  // turns, the last bucket is 40+
  CardStats cards;                           // per card of each deck
  void Merge(const MatchupStats& o);
};

// A 95% Wilson score interval for k successes in n trials.
struct Interval {
  double low = 0, high = 0;
};
Interval Wilson(double successes, double trials, double z = 1.959963984540054);

// Plays every matchup: a round robin of all pairs, or a gauntlet.
std::vector<MatchupStats> RunSimulation(const CardDb& db, const SimOptions& options);

// The seat order and seed of game `index` of a matchup.
struct GameSetup {
  uint64_t seed;
  bool swapped;  // deck B sits in seat 0 (and starts)
};
GameSetup SetupOf(uint64_t run_seed, int matchup, int64_t index, bool pair);

}  // namespace strata
