// The contract every player obeys (DESIGN.md "Policies"): given the game and
// the decision the engine returned, pick one legal action by index. Policies
// draw randomness only from the generator they are given, so games stay
// reproducible from their seed.
#pragma once

#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "engine/game.h"

namespace strata {

class Policy {
 public:
  virtual ~Policy() = default;
  // Returns an index into decision.actions.
  virtual int Choose(const Game& game, const Decision& decision) = 0;
  virtual std::string Name() const = 0;
};

// Builds a policy from a spec such as "random" or "random:pass=0.3".
absl::StatusOr<std::unique_ptr<Policy>> MakePolicy(const std::string& spec, uint64_t seed);
// One line per policy with its parameters, for --help.
std::string PolicyHelp();

}  // namespace strata
