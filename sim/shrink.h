// `strata fuzz --shrink`: a failing fuzz game turned into a small scenario
// file (SCENARIOS.md, docs/scenarios.md) that fails the same invariant under
// `strata scenario`. The game is replayed to the start of the phase where the
// invariant first failed (the latest phase start before it whose state a
// scenario can say, Game::ScenarioGaps), the board there is written down
// exactly (every object in its object-number order, timestamps, zone orders,
// the generator), the decisions from there become steps, and then cards and
// steps are removed one group at a time, delta-debugging style, for as long
// as the scenario still fails the same invariant and the budget of tries
// lasts.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "engine/card.h"
#include "engine/game.h"
#include "engine/invariants.h"
#include "sim/fuzz.h"

namespace strata {

// One [[object]] of a written scenario: the object's state at the start of
// the phase, with the id steps refer to it by ("grizzly_bears_12": the card
// and its object number, so ids are unique and never a card's name).
struct ScenarioObject {
  std::string id, card;
  Player owner = 0, controller = 0;
  Zone zone = Zone::kBattlefield;
  int position = -1;       // library (top first), hand, graveyard (bottom first)
  int64_t timestamp = -1;  // battlefield: the original timestamp (only its order matters)
  bool tapped = false, sick = false, face_down = false;
  int damage = 0, p1p1 = 0, m1m1 = 0, other = 0, p1p0 = 0, m0m2 = 0, shields = 0;
  std::string attached_to;  // an object id
  std::string choice;       // a TOML value: "\"black\"", "2", "\"clone_3\""
  std::string choice_ref;   // the object id the choice names, if any
};

// One [[step]]: its keys as TOML values in order, and the object ids it
// names (a step naming a removed object can't stay).
struct ScenarioStepSpec {
  Player player = 0;
  std::vector<std::pair<std::string, std::string>> keys;
  std::vector<std::string> refs;
};

// A scenario as data: what the shrinker removes from and writes out.
struct ScenarioSpec {
  std::string name, source, comment;
  std::string rules = "modern", phase = "main", until = "resolved", rng;
  Player active = 0;
  int turn = 1;
  std::array<int, 2> life{20, 20};
  std::array<int, 2> poison{0, 0};  // G-11, written only when some
  std::vector<ScenarioObject> objects;
  std::vector<ScenarioStepSpec> steps;
  std::string ToToml() const;
};

// The board of `g`, stopped at the end of a phase (SetStop(kPhaseEnd)), as a
// scenario that starts at the beginning of the next phase; an error says
// what a scenario can't express there (Game::ScenarioGaps).
absl::StatusOr<ScenarioSpec> BoardOf(const Game& g);

// Appends the steps that make the scripted players take these decisions
// (each `decisions[i]` answered by action `choices[i]`), in order. `g` is
// any game holding every object they name (for card names): the game at
// their end. False when a step names a token (G-12: "token:NAME", the
// first of that name, which may not be the one chosen) or an object `g`
// does not hold: the steps may then not replay the decisions exactly.
bool AddSteps(const Game& g, const std::vector<Decision>& decisions,
              const std::vector<int>& choices, ScenarioSpec& spec);

// A readable account of a game's state that a scenario can reproduce: zones
// in order, each object's state and characteristics, life, turn and phase,
// the battlefield's timestamp order, continuous effects. Two games that play
// the same from equal boards describe the same (round-trip tests).
std::string DescribeState(const Game& g);

struct ShrinkOptions {
  int budget = 400;        // scenario runs the shrinking may try (not seconds: deterministic)
  std::string source;      // the failure file, for the scenario's `source`
  std::string extra_name;  // a check beside the invariants (tests, --canary)
  InvariantChecker::ExtraCheck extra;
};

struct ShrinkResult {
  std::string invariant;  // the name of the invariant the game and the scenario fail
  std::string failure;    // the scenario's failure line
  std::string toml;       // the shrunk scenario
  int objects_before = 0, steps_before = 0, lines_before = 0;
  int objects_after = 0, steps_after = 0, lines_after = 0;
  int tries = 0;
  int start_turn = 0;
  std::string start_phase;
  double seconds = 0;
};

// Replays a fuzz game, writes the scenario and shrinks it.
absl::StatusOr<ShrinkResult> ShrinkFuzzGame(const CardDb& db, const FuzzSetup& setup,
                                            const std::vector<int32_t>& decisions,
                                            const ShrinkOptions& opt);

// The scenario-run check the shrinker keeps a removal by: the scenario fails
// the invariant named `invariant` (with the same extra check, if any).
bool ScenarioFails(const CardDb& db, const std::string& toml, const std::string& invariant,
                   const ShrinkOptions& opt, std::string* failure = nullptr);

}  // namespace strata
