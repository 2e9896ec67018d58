// Uniform over legal actions, passing with a set probability when passing is
// legal so that random games neither stall nor end at once. An opening hand
// it mulligans one time in four, less often the smaller the hand (G-1).
#pragma once

#include <cstdint>

#include "engine/rng.h"
#include "policies/policy.h"

namespace strata {

class RandomPolicy : public Policy {
 public:
  RandomPolicy(uint64_t seed, double pass_probability)
      : rng_(seed), pass_probability_(pass_probability) {}
  int Choose(const PlayerView& view, const Decision& decision) override;
  std::string Name() const override;
  void Reset(uint64_t seed) override { rng_.Seed(seed); }

 private:
  Rng rng_;
  double pass_probability_;
};

}  // namespace strata
