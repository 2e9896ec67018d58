// Random boards for property tests and benchmarks of the layer system
// (RULES.md L-9): a Game built from the whole card pool with random zones,
// owners, controllers, counters, tapped and face-down flags, Aura
// attachments, entry choices and continuous effect rows, plus random
// mutations that go through the Game's own mutators (or MutableState()) so
// the state version moves. Deterministic: the same pool, seed and options
// give the same board. Test support (the strata_test_support library,
// linked by the tests and benchmarks only): the shipped binary has no use
// for it.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "engine/card.h"
#include "engine/game.h"
#include "engine/rng.h"
#include "engine/types.h"

namespace strata {

// The engine's generator with the helpers board building wants.
class BoardRng {
 public:
  explicit BoardRng(uint64_t seed) : rng_(seed) {}
  uint64_t Next() { return rng_.Next(); }
  // Uniform in [0, n); n must be positive.
  int Below(int n) { return static_cast<int>(Next() % static_cast<uint64_t>(n)); }
  // Uniform in [lo, hi].
  int Between(int lo, int hi) { return lo + Below(hi - lo + 1); }
  bool Chance(double p) { return rng_.Unit() < p; }

 private:
  Rng rng_;
};

struct RandomBoardOptions {
  int permanents = 20;  // objects put onto the battlefield
  int others = -1;      // objects in hand, library, graveyard and exile; -1: about permanents / 4
  int effects = 5;      // continuous effect rows made from the pool's spell and ability templates
  std::optional<Edition> edition;  // unset: a random edition
  double tapped = 0.3;             // chance that a permanent is tapped
  double counters = 0.25;          // chance that a permanent has +1/+1 or -1/-1 counters
  double face_down = 0.05;         // chance that a permanent is face down
  double other_controller = 0.15;  // chance that a permanent's base controller is not its owner
  double stale_ref = 0.1;  // chance that a row's source or affected object is a stale reference
  bool checked_layers = false;  // GameOptions::checked_layers of the game built
};

// Builds a game with a random board. permanents + others must stay within
// kMaxObjects (they are clamped to it).
Game MakeRandomBoard(const CardDb& db, uint64_t seed, const RandomBoardOptions& options);

// Adds one random continuous effect row (as MakeRandomBoard does) and returns
// its row index, or -1 if the pool has no continuous templates.
int AddRandomEffectRow(Game& game, BoardRng& rng, double stale_ref = 0.1);

enum class MutationKind : uint8_t {
  kMove,
  kTap,
  kCounters,
  kAttach,
  kAddEffect,
  kEndEffect,
  kControl,
  kFaceDown,
  kCount
};
std::string_view MutationKindName(MutationKind k);

struct Mutation {
  MutationKind kind = MutationKind::kTap;
  ObjId object = kNoObj;
  std::string what;  // a line for failure messages
};

// Applies one random mutation to a game with at least one object. Mutations
// that cannot apply (no Aura, no active row) fall back to another kind.
Mutation ApplyRandomMutation(Game& game, BoardRng& rng);

}  // namespace strata
