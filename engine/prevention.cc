// The damage-prevention step (RULES.md T-4, E-3 A): after damage is assigned
// the active player, then the other, may play prevention effects; then
// shields against a kind of source, protection from a color, damage
// reduction and prevention shields apply, and the rest is dealt.
// Scenarios: tests/scenarios/t4_*, t1_prevention_shield_ends_at_cleanup.

#include "engine/game_internal.h"

namespace strata {

// T-4: after damage is assigned, the active player then the other may play
// damage-prevention effects; then the damage is final, damage triggers
// happen, and lethal damage destroys (the frame: PreventionFrame).
void Game::RunPrevention(Frame& f) {
  // A player with nothing to play passes, and the next player (or the
  // final damage) follows in the same step (as in RunNeutral).
  while (f.pc < PreventionFrame::kFinal) {
    Player p = f.pc == PreventionFrame::kActive ? state_.active : Opponent(state_.active);
    timing_.decision.actions.clear();
    timing_.decision.actions.push_back({ActionKind::kPass});
    if (OfferPlays(p, DecisionKind::kPrevention, DecisionKind::kPrevention)) {
      f.prevention.who = p;
      return;
    }
    ++f.pc;  // kActive -> kNonactive -> kFinal
  }
  thread_local std::vector<PendingDamage> pending_buffer;
  Borrowed<PendingDamage> borrowed(pending_buffer);
  std::vector<PendingDamage>& pending = borrowed.v;
  Audit(AuditPoint::kDamageFinal, f.prevention.damage_begin);
  pending.assign(damage_.pending.begin() + f.prevention.damage_begin, damage_.pending.end());
  damage_.pending.resize(f.prevention.damage_begin);
  timing_.frames.pop_back();
  for (PendingDamage& d : pending) {
    if (d.to.kind == Target::kObject && !state_.Alive(d.to.obj)) continue;
    // Shields against a kind of source (E-3 A): all of that damage.
    bool blocked = false;
    for (size_t i = 0; i < damage_.source_shields.size() && !blocked; ++i) {
      const SourceShield& sh = damage_.source_shields[i];
      bool same =
          d.to.kind == sh.to.kind &&
          (d.to.kind == Target::kPlayer ? d.to.player == sh.to.player : d.to.obj == sh.to.obj);
      if (!same || d.source == kNoObj || !Matches(sh.from, d.source, ShieldContext(sh))) continue;
      blocked = true;
      damage_.source_shields.erase(damage_.source_shields.begin() + static_cast<long>(i));
    }
    // Protection from a color prevents damage from sources of that color.
    if (!blocked && d.to.kind == Target::kObject && d.source != kNoObj) {
      const Characteristics& to = Chars(d.to.obj.id);
      blocked = ProtectedFrom(to, Chars(d.source).colors);
    }
    if (blocked) {
      Replaced(UsageStats::kDamagePrevented);
      Note(LogKind::kPrevent, kNoPlayer, d.source, kNoObj, d.amount,
           [&] { return absl::StrCat(d.amount, " damage is prevented"); });
      continue;
    }
    // Damage to a player may be reduced (Urza's Armor), then shields (E-3 A).
    if (d.to.kind == Target::kPlayer)
      d.amount = std::max(0, d.amount - Rules(d.to.player).damage_reduction);
    int16_t* shield = d.to.kind == Target::kPlayer ? &damage_.player_shield[d.to.player]
                                                   : &damage_.prevent_shield[d.to.obj.id];
    if (d.to.kind == Target::kObject && !state_.Alive(d.to.obj)) continue;
    int prevented = std::min<int>(*shield, d.amount);
    *shield = static_cast<int16_t>(*shield - prevented);
    d.amount -= prevented;
    if (prevented) {
      Replaced(UsageStats::kDamagePrevented);
      Note(LogKind::kPrevent, kNoPlayer, d.source, kNoObj, prevented,
           [&] { return std::string(absl::StrCat(prevented, " damage is prevented")); });
    }
    if (d.amount > 0) DealDamage(d);
  }
  Audit(AuditPoint::kDamageDealt);
  CheckState();
}

void Game::ApplyPrevention(Frame& f, const Action& a) {
  if (a.kind == ActionKind::kPass) {
    ++f.pc;  // kActive -> kNonactive -> kFinal
    return;
  }
  StartCast(timing_.decision.player, a, kPlayImmediate, kNoObj);
}

}  // namespace strata
