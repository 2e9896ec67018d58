// Fuzzing the rules engine (`strata fuzz`): many random games over random
// legal decks drawn from the whole pool (steered toward the cards least used
// so far) or over given decks, with random, heuristic and mixed players in
// every edition, the layer cache in checked mode and every rules invariant
// (engine/invariants.h) checked after every action. A failing game is written
// to a small file that `strata fuzz --replay FILE` plays again, with its log.
//
// Games go in fixed blocks; the decks of a block are drawn from the card use
// of the blocks before it, so a run is the same for any thread count.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "engine/card.h"
#include "engine/deck.h"
#include "engine/game.h"
#include "engine/invariants.h"

namespace strata {

struct FuzzOptions {
  int64_t games = 1000;
  uint64_t seed = 1;
  int threads = 0;                                   // 0: every core
  std::string decks = "random";                      // random, bundled, or deck files (deck_files)
  std::vector<Deck> deck_files;                      // for bundled or files: the decks to pair
  std::vector<std::array<std::string, 2>> policies;  // pairs to rotate; empty: the default mix
  std::string rules = "all";                         // all (rotate), classic, m10 or modern
  std::string mulligan = "all";                      // all (rotate), none, paris or london (G-1)
  int copy_every = 97;       // a copy-continues check about every N decisions (0: off)
  int numbering_every = 64;  // a numbering check every N decisions (0: off)
  int replay_every = 1;      // replay every Nth game from its decisions (0: off)
  std::string failures_dir = "fuzz-failures";  // where failing games are written
  int max_failure_files = 20;
  // The engine ends a game at its turn cap or a turn's action cap (a draw);
  // a game that runs past this many decisions escaped both, and is a
  // "progress" failure rather than a fuzz run that never ends.
  int64_t max_decisions = 500000;
  bool progress = false;
  // A check beside the invariants (InvariantChecker::SetExtra): tests and
  // `--canary` only.
  std::string extra_name;
  InvariantChecker::ExtraCheck extra;
};

// `--canary SPEC`: a deliberately false invariant named "canary" that makes
// the failure path (failure files, replay, shrinking) testable end to end
// while no real invariant fails. "power:N": no creature on the battlefield
// has power N or more. An error names what SPEC should be.
absl::StatusOr<InvariantChecker::ExtraCheck> CanaryCheck(const std::string& spec);

// Everything a fuzz game depends on: replayed from this alone.
struct FuzzSetup {
  Deck a, b;
  Edition edition = Edition::kModern;
  Mulligan mulligan = Mulligan::kNone;
  std::array<std::string, 2> policies;
  uint64_t game_seed = 1;
  Player first = 0;
  int64_t index = 0;      // the game's number in its run
  uint64_t run_seed = 1;  // the run's --seed
};

// What a coverage report counts.
struct FuzzCoverage {
  UsageStats usage;
  std::array<uint64_t, kDecisionKindCount> decisions{};  // by DecisionKind
  uint64_t interrupts_cast = 0, prevention_played = 0, reactions_played = 0,
           phase_costs_answered = 0, phase_effects_played = 0, attacks = 0, blocks = 0;
  explicit FuzzCoverage(size_t cards = 0) : usage(cards) {}
  void Merge(const FuzzCoverage& o);
};

struct FuzzGame {
  FuzzSetup setup;
  InvariantTally tally;
  std::string failure;  // "invariant: detail" of the first violation, or ""
  Invariant failed = Invariant::kCount;
  std::vector<int32_t> decisions;  // every action index taken, in order
  int winner = -1;
  EndReason end = EndReason::kNone;
  int turns = 0;
};

// The set-up of game `index` of a run whose earlier games used the cards as
// `use` counts (random decks steer toward the least used).
FuzzSetup FuzzSetupFor(const CardDb& db, const FuzzOptions& opt, int64_t index,
                       const UsageStats& use);
// The options a fuzz game is played with (the engine's own checks on).
GameOptions FuzzGameOptions(const FuzzSetup& setup, bool log);

// Plays one fuzz game with every check on; `log` keeps the game's log.
FuzzGame PlayFuzzGame(const CardDb& db, const FuzzSetup& setup, const FuzzOptions& opt,
                      FuzzCoverage* coverage, std::vector<std::string>* log = nullptr);

// Plays a recorded game again: its decisions instead of its players' (the
// players choose past the end of the record), with the log.
FuzzGame ReplayFuzzGame(const CardDb& db, const FuzzSetup& setup, const FuzzOptions& opt,
                        const std::vector<int32_t>& decisions, std::vector<std::string>* log);

struct FuzzResult {
  int64_t games = 0;
  InvariantTally tally;
  FuzzCoverage coverage;
  std::vector<FuzzGame> failures;  // the first few failing games
  int64_t failing_games = 0;
  std::array<int64_t, kEndReasonCount> ends{};  // by EndReason
  double seconds = 0;
};

FuzzResult RunFuzz(const CardDb& db, const FuzzOptions& opt);

// The failure file of one game (TOML), and reading it back.
std::string FailureFile(const CardDb& db, const FuzzGame& g);
bool ReadFailureFile(const std::string& path, const CardDb& db, FuzzSetup& setup,
                     std::vector<int32_t>& decisions, std::string& error);

}  // namespace strata
