// A look-ahead player: for each legal action it plays out N games from a
// copy of the state with another policy (rollouts) and picks the action with
// the best average result. Its budget is a number of rollouts, never a time, so
// its play does not depend on the machine. It does not peek: every rollout
// starts from a determinization that reshuffles what its player can't see
// (the opponent's hand with the opponent's library, and its own library).
#pragma once

#include <memory>
#include <string>

#include "engine/rng.h"
#include "policies/policy.h"

namespace strata {

class McPolicy : public Policy {
 public:
  McPolicy(uint64_t seed, int rollouts, std::string rollout_spec, int depth)
      : rng_(seed), rollouts_(rollouts), rollout_spec_(std::move(rollout_spec)), depth_(depth) {}
  int Choose(const PlayerView& view, const Decision& decision) override;
  std::string Name() const override;
  // It needs the game to copy it, and hides what its player can't see itself.
  bool omniscient() const override { return true; }

 private:
  double Rollout(const Game& start, Player me, Rng& rng);
  Rng rng_;
  int rollouts_;
  std::string rollout_spec_;
  int depth_;  // decisions per rollout before the position is scored
};

// A copy of the game in which everything `me` can't see is reshuffled: the
// opponent's hand and library are dealt again from their union, and `me`'s
// library is shuffled. Depends only on what `me` may know.
Game Determinize(const Game& game, Player me, Rng& rng);

}  // namespace strata
