// The contract every player obeys (DESIGN.md "Policies"): given the game and
// the decision the engine returned, pick one legal action by index. Policies
// draw randomness only from the generator they are given, so games stay
// reproducible from their seed.
#pragma once

#include <array>
#include <memory>
#include <string>
#include <vector>

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
  // Starts afresh with a new seed, as if just constructed with it, so one
  // policy object can play many games (or rollouts) without allocating.
  virtual void Reset(uint64_t seed) = 0;
  // Convenience: choose for the player the decision is for.
  int ChooseFor(const Game& game, const Decision& decision) {
    return Choose(PlayerView(game, decision.player, omniscient()), decision);
  }
};

// Builds a policy from a spec: a name, then optionally ':' and parameters
// name=value separated by ',' (or ';'), e.g. "random:pass=0.3" or
// "mc:rollouts=16,depth=40,rollout=heuristic:style=control".
absl::StatusOr<std::unique_ptr<Policy>> MakePolicy(const std::string& spec, uint64_t seed);
// The specs of a list "P1,P2,...". A ',' followed by name=value continues
// a spec's parameters, so "mc:rollouts=8,depth=20,heuristic" is mc, then
// heuristic. Every spec is checked with MakePolicy.
absl::StatusOr<std::vector<std::string>> ParsePolicyList(const std::string& text);
// The two players' specs of a --policies flag, "P1,P2" (ParsePolicyList's
// form) or one spec for both.
absl::StatusOr<std::array<std::string, 2>> ParsePolicyPair(const std::string& text);
// One line per policy with its parameters, for --help.
std::string PolicyHelp();

}  // namespace strata
