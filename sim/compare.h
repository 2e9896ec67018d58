// Paired studies (`strata compare`, `strata ablate`): several versions of
// one deck play the same opponents on the same games. Version v's matchup
// m is the gauntlet matchup of its SimOptions (the tested deck, decks[0],
// against decks[m + 1]), so every version's game i of matchup m has the
// same seed and seats (SetupOf): common random numbers. The difference of
// each version's score with version 0's is then measured game by game,
// which is far more precise than two independent studies.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "engine/card.h"
#include "sim/runner.h"

namespace strata {

// The difference of one version's score with version 0's, summed by unit:
// a seed (two games, seats swapped, when paired; else one game). A unit's
// difference is a multiple of 1/2, so every sum is exact and merges in any
// order.
struct PairedStats {
  int64_t units = 0, games = 0;
  double sum = 0, sum2 = 0;  // of the units' differences, and of their squares
  void Merge(const PairedStats& o) {
    units += o.units, games += o.games, sum += o.sum, sum2 += o.sum2;
  }
  // The units' sample variance (NaN with fewer than two units).
  double Variance() const;
};

// A difference in win rate per game with its 95% interval (normal, from
// the variance of the units' differences).
struct PairedDiff {
  double diff = 0, low = 0, high = 0;  // NaN bounds with fewer than two units
  int64_t games = 0;
};
PairedDiff DiffOf(const PairedStats& p);
// Over several matchups: each matchup's units are a stratum, so the
// variance is the sum of the strata's (the rate is over all their games).
PairedDiff DiffOf(const std::vector<PairedStats>& strata);

struct PairedResult;

struct PairedOptions {
  // One per version, identical but for decks[0]: the version of the tested
  // deck; decks[1..] the opponents; gauntlet 0.
  std::vector<SimOptions> versions;
  // > 0: stop a matchup once every version's paired interval is narrower
  // than +/- this (checked after each block of kBlockGames games; the
  // versions' games field is the cap).
  double ci_half_width = 0;
  int threads = 0;
  bool progress = false;  // a progress line on stderr
  const char* what = "compare";
  // Set (by a signal handler) to stop: the wave under way is dropped, and
  // the result is where the last whole wave left it (complete false).
  const std::atomic<bool>* stop = nullptr;
  // Tests: stop as if interrupted once this many waves are done (-1: never).
  int64_t stop_after_waves = -1;
  // Called after each wave (the next block of every opponent not yet done,
  // for every version) with every version as it stands: where a run with
  // --out checkpoints. Returning false stops the run as if interrupted.
  std::function<bool(const PairedResult&)> after_wave;
};

// A version's games against one opponent, in counts: what every version
// needs (a MatchupStats, with its per-card counts, is 100 kB: kept only for
// the versions whose cards are reported).
struct VersionScore {
  int64_t games = 0, wins = 0, losses = 0, draws = 0, turns = 0, first_player_wins = 0;
  void Add(const GameRecord& r);  // a game of the tested deck (deck A)
  void Merge(const VersionScore& o);
  double WinRate() const;  // a draw counts 1/2 (NaN without games)
};

struct PairedResult {
  // [version][matchup]: version v's games against opponent m + 1.
  std::vector<std::vector<VersionScore>> score;
  // The same in full, with per-card counts, for the versions asked for
  // (`card_versions` of RunPaired; empty for the others).
  std::vector<std::vector<MatchupStats>> stats;
  // [version][matchup]: version v minus version 0 (version 0's are zero).
  std::vector<std::vector<PairedStats>> paired;
  // False when stopped before every matchup was done (a resume goes on).
  bool complete = true;
};

// Plays every version against every opponent, the same games for any
// thread count. Card statistics are kept for the versions listed in
// `card_versions` only (they take memory). With `resume` (an earlier
// result of the same run, stopped between waves), it goes on from there
// and ends with the same numbers as an uninterrupted run.
PairedResult RunPaired(const CardDb& db, const PairedOptions& options,
                       const std::vector<int>& card_versions, const PairedResult* resume = nullptr);

// True when matchup m needs no more games.
bool PairedDone(const PairedOptions& options, const PairedResult& r, int matchup);

}  // namespace strata
