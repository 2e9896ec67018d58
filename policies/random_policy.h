// Uniform over legal actions, passing with a set probability when passing is
// legal so that random games neither stall nor end at once.
#pragma once

#include <cstdint>

#include "policies/policy.h"

namespace strata {

// xoshiro256** (Blackman and Vigna): small, fast and well tested.
class Rng {
 public:
  explicit Rng(uint64_t seed = 1) { Seed(seed); }
  void Seed(uint64_t seed);
  uint64_t Next();
  // Uniform in [0, n).
  uint32_t Below(uint32_t n) { return static_cast<uint32_t>((Next() >> 32) * n >> 32); }
  double Unit() { return static_cast<double>(Next() >> 11) * 0x1.0p-53; }

 private:
  uint64_t s_[4];
};

class RandomPolicy : public Policy {
 public:
  RandomPolicy(uint64_t seed, double pass_probability)
      : rng_(seed), pass_probability_(pass_probability) {}
  int Choose(const Game& game, const Decision& decision) override;
  std::string Name() const override;

 private:
  Rng rng_;
  double pass_probability_;
};

}  // namespace strata
