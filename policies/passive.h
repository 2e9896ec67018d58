// A player that never does anything it may decline: it passes whenever
// passing is legal, declares no attackers or blockers, pays no optional
// cost, keeps every opening hand, and otherwise takes the first legal
// action. A baseline ("what is a deck worth against no resistance?") and a
// fixed point for tests.
#pragma once

#include "policies/policy.h"

namespace strata {

class PassivePolicy : public Policy {
 public:
  int Choose(const PlayerView& view, const Decision& decision) override;
  std::string Name() const override { return "passive"; }
  void Reset(uint64_t) override {}
};

}  // namespace strata
