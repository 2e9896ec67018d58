// The conformance kit (tests/conformance/README.md): what every player
// policy and every rules edition must pass, checked the same way for each,
// like OpenSpiel's generic random-simulation test. A game is played by the
// policies under test, and at every decision the engine's contract
// (engine/game.h) is checked from outside: every offered action applies, an
// index no action has is refused, a copy fed the same decisions continues
// identically, the policy picks an offered action without touching the
// game. At the end the game must be over within its caps; replayed from its
// seed and decisions, on a new Game and on the same Game after Reset, it
// must end in the same state; and its players, Reset to the same seeds, must
// take the same decisions again. The rules invariants of engine/invariants.h
// run after every action too. The [apply], [copy] and [replay] checks are
// the ones `strata fuzz` runs (engine/invariants.h), not copies of them.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "engine/card.h"
#include "engine/deck.h"
#include "engine/game.h"
#include "engine/invariants.h"
#include "policies/policy.h"

namespace strata::conformance {

// What the kit checks, one name each in failures and counts.
enum class Check : uint8_t {
  kInvariants,  // the rules invariants (engine/invariants.h) after every action
  kOffered,     // every offered action applies (each to a copy of its own)
  kRefused,     // an index no action has is refused and changes nothing
  kChoice,      // the policy picks an offered action and leaves the game as it was
  kCopy,        // a copy given the same decisions continues identically
  kReplay,      // the game replayed from its seed and decisions ends the same
  kReset,       // ... also on the same Game after Reset (Reset is like new)
  kSeeded,      // the players, Reset to the same seeds, take the same decisions
  kEnds,        // the game is over (not stopped, not looping) within its caps
  kCount
};
inline constexpr int kCheckCount = static_cast<int>(Check::kCount);
std::string_view CheckName(Check c);

// Everything one game depends on.
struct GameSetup {
  std::array<std::string, 2> policies;  // MakePolicy specs, seat A and seat B
  Edition edition = Edition::kModern;
  Mulligan mulligan = Mulligan::kNone;
  Deck a, b;
  Player first = 0;
  uint64_t seed = 1;  // the game's; the players' seeds derive from it
  int turn_cap = GameOptions{}.turn_cap;
};

// The game options of a setup: the engine's own invariant checks on.
GameOptions OptionsOf(const GameSetup& setup);

// How hard to look (the defaults are what the kit's suite runs).
struct Options {
  // A copy is made at every decision and compared with the game this many
  // decisions later (0: none).
  int copy_horizon = 4;
  // Copies also made at decisions 8, 32, 128, ... are fed every decision to
  // the game's end and must end where it ended.
  bool copies_to_the_end = true;
};

// Deliberate faults in what a check looks at, to show that it fails: the
// kit's own tests set them; a real run leaves them empty.
struct Faults {
  std::function<void(Game&)> copy;                    // every copy made for [copy]
  std::function<void(Decision&)> decision;            // the decision [offered] and [refused] see
  std::function<void(std::vector<int32_t>&)> record;  // the decisions replayed
  std::function<void(Game&)> reset;                   // the reused Game, after Reset, before Deal
  // Players other than MakePolicy's (seat, seed): a policy that breaks the
  // contract.
  std::function<std::unique_ptr<Policy>(Player, uint64_t)> players;
  // A check beside the rules invariants (InvariantChecker::SetExtra).
  std::string extra_name;
  InvariantChecker::ExtraCheck extra;
};

// One game's counts and its first failure.
struct Report {
  std::array<uint64_t, kCheckCount> checks{};  // checks made, by Check
  std::string failure;                         // "check: detail" of the first failure, or ""
  Check failed = Check::kCount;
  int64_t decisions = 0;
  int turns = 0, winner = -1;
  EndReason end = EndReason::kNone;
  bool ok() const { return failure.empty(); }
  void Record(Check c, bool ok, std::string_view detail);
};

// Plays one game of `setup` with every check; stops at the first failure.
Report PlayGame(const CardDb& db, const GameSetup& setup, const Options& options = {},
                const Faults& faults = {});

// The kit's own checks, on their own so tests can feed them what they must
// reject. Each returns "" or what went wrong.
//
// [choice]: `index`, the policy's pick, names one of `d`'s actions, and the
// game's fingerprint is still `before`, what it was before the policy chose.
std::string CheckChoice(const Game& g, const Decision& d, int index, uint64_t before);
// [ends]: the game is over (not merely stopped), with a reason, within its
// turn cap. (Whether a capped game was a loop is the rules invariant
// [progress], which the kit reports as [ends] too.)
std::string CheckEnds(const Game& g);

}  // namespace strata::conformance
