// A rules-aware player: plays a land and spells on curve, attacks when the
// race favours it, blocks to survive or trade well, points harmful spells at
// the opponent's best creature (or face) and helpful ones at its own,
// counters the opponent's spells, regenerates its own creatures. Two styles:
// `aggro` attacks and burns faces; `control` holds back, attacks only in the
// air and saves burn for creatures. It sees only what its player may see.
#pragma once

#include <string>

#include "engine/rng.h"
#include "policies/policy.h"

namespace strata {

class HeuristicPolicy : public Policy {
 public:
  enum class Style : uint8_t { kAggro, kControl };
  HeuristicPolicy(uint64_t seed, Style style) : rng_(seed), style_(style) {}
  int Choose(const PlayerView& view, const Decision& decision) override;
  std::string Name() const override;
  void Reset(uint64_t seed) override { rng_.Seed(seed); }

 private:
  // What a spell or ability does to what it targets.
  enum class Aim : uint8_t { kHarm, kHelp, kNone };
  Aim AimOf(const CardDef& card, int activated) const;
  int DamageOf(const CardDef& card, int activated) const;
  int ScoreStart(const PlayerView& v, const Decision& d, const Action& a);
  int ChooseTarget(const PlayerView& v, const Decision& d);
  int ChooseBlock(const PlayerView& v, const Decision& d);
  int ChooseAttacker(const PlayerView& v, const Decision& d);
  bool AttackIsGood(const PlayerView& v) const;

  Rng rng_;
  Style style_;
};

}  // namespace strata
