// States from the middle of real games, for the benchmarks that measure one
// step of the engine rather than whole games (actions_bench, copy_bench).
//
// The games are fixed: the three reference matchups of `strata bench`
// (sim/bench.h: kBenchReferenceMatchups; not the classic matchup added
// since), game g on matchup g % 3 with the seats swapped on every
// other round, heuristic players on both sides, paris mulligans, modern
// rules and seeds from the game index alone. Every run therefore visits the
// same decisions in the same order, and a benchmark that keeps copies of
// some of them measures the same states every time (as long as the engine
// plays the same games: tests/bench_signature).
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "engine/game.h"

namespace strata {

// Games played by the benchmarks that record states.
inline constexpr int kRecordedGames = 24;

// One decision of a recorded game, as its player faced it.
struct DecisionPoint {
  const Game& game;  // with the decision pending
  const Decision& decision;
  int chosen;          // the index of the action the player chose
  int game_index;      // 0 .. kRecordedGames - 1
  int decision_index;  // 0 for the game's first decision (a mulligan)
};

// Plays the recorded games one after another and calls `visit` at every
// decision, before the chosen action is applied. `visit` may copy the game,
// never change it.
void PlayRecordedGames(const std::function<void(const DecisionPoint&)>& visit);

// The decisions each recorded game takes, by game index.
const std::vector<int>& RecordedGameLengths();

// Permanents on the battlefield, both players'.
int BattlefieldCount(const Game& g);

// Board sizes the benchmarks group their states by: permanents on the
// battlefield from kBoardSizeMin[size] to kBoardSizeMin[size + 1] - 1.
inline constexpr int kBoardSizes = 3;
inline constexpr int kBoardSizeMin[kBoardSizes + 1] = {0, 8, 16, 1 << 30};
int BoardSize(const Game& g);

// Which of `total` candidates, taken in order, to keep so that at most
// `cap` are kept, spread evenly: true for the candidate numbered `seen`
// (from 0).
bool KeepEvenly(int64_t seen, int64_t total, int64_t cap);

}  // namespace strata
