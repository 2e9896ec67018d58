// The contract every player obeys (DESIGN.md "Policies"): given the game and
// the decision the engine returned, pick one legal action by index. Policies
// draw randomness only from the generator they are given, so games stay
// reproducible from their seed.
#pragma once

#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "engine/game.h"
#include "policies/view.h"

namespace strata {

class Policy {
 public:
  virtual ~Policy() = default;
  // Returns an index into decision.actions. The view hides what the player
  // may not see unless the policy is omniscient.
  virtual int Choose(const PlayerView& view, const Decision& decision) = 0;
  virtual std::string Name() const = 0;
  virtual bool omniscient() const { return false; }
  // Convenience: choose for the player the decision is for.
  int ChooseFor(const Game& game, const Decision& decision) {
    return Choose(PlayerView(game, decision.player, omniscient()), decision);
  }
};

// Builds a policy from a spec such as "random" or "random:pass=0.3".
absl::StatusOr<std::unique_ptr<Policy>> MakePolicy(const std::string& spec, uint64_t seed);
// One line per policy with its parameters, for --help.
std::string PolicyHelp();

}  // namespace strata
