// An independent reference evaluator of the layer system (RULES.md L-1 to
// L-8), for differential testing of engine/layers.cc: fuzzing, scenarios and
// checked runs compare every object's characteristics with it.
//
// What it shares with the engine: the card data (CardDb, CardDef, Filter,
// EffectTemplate, Part), the game state (GameState, EffectRow, Objects) and
// the result types (Characteristics, PlayerRules), plus the small pure
// helpers of types.h, words.h and CardDef's precomputed printed values
// (printed_mana_value, printed_abilities, printed_land_mana). Nothing else:
// it calls no function of engine/layers.cc and has its own printed values,
// filter matching, value evaluation, ordering and dependency test.
//
// How it works, deliberately simply and slowly: the layers of the game's
// edition are a list of sublayers, each a name and a test "does this part of
// this effect belong here". For each sublayer it takes the effects with a
// part there, CDAs first (L-3), and repeats: drop the effects that no longer
// exist (their source lost the ability, L-5), find by trial which of the
// remaining effects depend on which (L-6: apply Y to the characteristics as
// they stand and see whether X's existence, affected objects, controller,
// words or computed values change; Y changing nothing, or only powers and
// toughnesses that X doesn't read, changes nothing about X), and apply the
// oldest effect (timestamp, then creation order) that waits on no other;
// when every one waits, the oldest that lies on a dependency cycle. By
// default the dependencies are found again after every application, against
// the new partial state (docs/layers.md L-6); DependencyTiming::
// kAtSublayerStart finds them once, at the start of the step. Every filter is
// evaluated against the characteristics as computed so far. An effect's
// affected set is locked when it first applies (L-5).
//
// The sublayers per edition (L-2):
//   modern:  1a copy, 1b face-down, 2 control, 3 text, 4 type, 5 color,
//            6 abilities, 7a CDA P/T, 7b P/T setting, 7c P/T modification
//            and counters, 7d switching.
//   m10:     as modern but 7c modification, 7d counters, 7e switching.
//   classic: 1a..4 as modern, 5 colors and abilities, 6a CDA P/T, 6b P/T
//            setting and spell- or ability-made modification, 6c counters,
//            6d static-ability modification, 6e switching.
// Then player effects and game-rule effects (L-8): in timestamp order, no
// dependency; hand size "last wins", cost increases, then reductions, then
// the minimum.
//
// The judgement calls it takes from docs/layers.md rather than from the
// engine's code: counters on an object are one effect with the timestamp of
// the last placement; equal timestamps go by creation order (the effects
// of entry copies, face-down, rows, then each object's statics in ability
// order and its counters); a Blood Moon land-type setting removes rules-text
// abilities in layer 4; static abilities other than CDAs work only on the
// battlefield, and not on a tapped artifact.
//
// It is slow (every pair of effects in a sublayer tried, every filter over
// every object): a check, not a substitute for the engine.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "engine/card.h"
#include "engine/state.h"

namespace strata {

class Game;

// When the dependencies among a sublayer's effects are found (L-6).
enum class DependencyTiming : uint8_t {
  // Again after every effect applied, against the new partial state
  // (docs/layers.md L-6, "Repeat from step 1 with the rest"): the default.
  kAfterEachEffect,
  // Once, on the state as the sublayer begins (engine/layers.cc did so
  // until it was fixed): a dependency that an earlier application in the
  // same sublayer removed still orders the effects. Kept to show the
  // difference (tests/reference_layers_test.cc).
  kAtSublayerStart,
};

struct ReferenceOptions {
  bool record_effects = false;  // fill ReferenceResult::applied
  DependencyTiming dependencies = DependencyTiming::kAfterEachEffect;
};

// Every object's characteristics and both players' rules, computed from
// scratch. `computed[o]` is false for objects in no zone. With
// `record_effects`, `applied[o]` lists the effects applied to object o
// ("7c: Glorious Anthem static 1 (timestamp 4)"), for messages.
struct ReferenceResult {
  std::vector<Characteristics> chars;
  std::vector<bool> computed;
  std::array<PlayerRules, 2> rules;
  std::vector<std::vector<std::string>> applied;
};
ReferenceResult ReferenceLayers(const CardDb& db, const GameState& s,
                                const ReferenceOptions& options = {});

// "" when every entry of `engine_cache` that holds a result (objects in a
// zone, libraries only when engine_cache.library_done) and both players'
// rules equal the reference's; else the first difference: the object (name
// and id), the characteristic, both values and the effects applied to it.
std::string CompareWithReference(const CardDb& db, const GameState& s,
                                 const LayerCache& engine_cache,
                                 const ReferenceOptions& options = {});

// The same for a game, through what the engine answers (Game::Chars for
// every object in a zone, libraries included; Game::Rules): the one call an
// invariant check makes.
std::string CheckGameAgainstReference(const Game& g, const ReferenceOptions& options = {});

// The same as a check for InvariantChecker::SetExtra or FuzzOptions::extra,
// for one game (each game's checker holds its own copy): it compares only
// when the layers' inputs may have changed since its last comparison (the
// state version, or any object's zone, controller, tapped or face-down flag,
// counters or attachment, or the effect rows), and answers "" otherwise.
// That is at most once per action, about half the points the invariants
// are checked at. `compared`, when given, says whether it compared.
std::function<std::string(const Game&, bool* compared)> ReferenceCheck(
    const ReferenceOptions& options = {});

}  // namespace strata
