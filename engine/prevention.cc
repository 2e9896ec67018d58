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
  while (f.pc < PreventionFrame::kInstead) {
    Player p = f.pc == PreventionFrame::kActive ? state_.active : Opponent(state_.active);
    timing_.decision.actions.clear();
    timing_.decision.actions.push_back({ActionKind::kPass});
    if (OfferPlays(p, DecisionKind::kPrevention, DecisionKind::kPrevention)) {
      f.prevention.who = p;
      return;
    }
    ++f.pc;  // kActive -> kNonactive -> kInstead
  }
  if (f.pc == PreventionFrame::kInstead) {
    // E-3 A: replacements of each damage as the players' plays left it,
    // ordered by the active player with the prevention that would stop
    // some of it (a damage redirected is then prevented, or not, as damage
    // to what now takes it).
    f.pc = PreventionFrame::kFinal;
    if (ListensInstead(EventKind::kDamage)) {
      f.pc = PreventionFrame::kReplaced;  // first: a frame pushed can move `f`
      f.prevention.instead_begin = EventEnd();
      if (InsteadOfDamage(f.prevention.damage_begin)) return;
    }
  }
  if (f.pc == PreventionFrame::kReplaced) {
    // What a replacement took is not dealt; what it redirected is, to
    // what now takes it.
    f.pc = PreventionFrame::kFinal;
    const int begin = f.prevention.damage_begin;
    int kept = begin;
    for (int i = begin; i < static_cast<int>(damage_.pending.size()); ++i) {
      const int record = f.prevention.instead_begin + (i - begin);
      if (TakenAtStepA(record) && !damage_.pending[i].replaced) continue;
      damage_.pending[kept++] = damage_.pending[i];
    }
    damage_.pending.resize(kept);
  }
  if (f.pc == PreventionFrame::kFinal) {
    // "Before" responses to the damage that prevention leaves (E-1, E-3 B)
    // happen now, before any of it is dealt.
    f.pc = PreventionFrame::kDeal;
    f.prevention.before_begin = EventEnd();
    if (ListensBefore(EventKind::kDamage) && BeforeDamage(f.prevention.damage_begin)) return;
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
    // What prevention leaves, with its before triggers' changes added
    // (E-7): brought to zero or below, it is no damage.
    d.amount = std::max(0, SaturatedAdd<int32_t>(Prevent(d, damage_, /*real=*/true), d.change));
    if (d.amount > 0) DealDamage(d);
  }
  Audit(AuditPoint::kDamageDealt);
  CheckState();
}

// Combat damage that "prevent all combat damage" effects stop (T-7.2): all
// of it this turn, or that dealt to or by a creature they named (the same
// object still: one that left the battlefield lost the mark).
bool Game::CombatDamagePrevented(const PendingDamage& d) const {
  if (damage_.no_combat_damage) return true;
  if (d.source != kNoObj && damage_.no_combat_damage_of[d.source]) return true;
  return d.to.kind == Target::kObject && state_.Alive(d.to.obj) &&
         damage_.no_combat_damage_of[d.to.obj.id];
}

// What prevention leaves of one pending damage (E-3 A): none when a shield
// against its source or protection from its colour stops it all; else
// what damage reduction and prevention shields leave. It uses up the
// shields it uses in `shields`: the game's own (`real`, which notes and
// counts what it prevents) or a copy that looks ahead.
int Game::Prevent(const PendingDamage& d, DamageState& shields, bool real) {
  if (d.prevented) return d.amount;  // at step A, first of its replacements
  // All combat damage this turn, or all dealt to or by a creature (T-7.2:
  // Fog, Maze of Ith): nothing is spent, and no shield below is used.
  bool blocked = d.combat && CombatDamagePrevented(d);
  // Shields against a kind of source (E-3 A): all of that damage.
  for (size_t i = 0; i < shields.source_shields.size() && !blocked; ++i) {
    const SourceShield& sh = shields.source_shields[i];
    bool same =
        d.to.kind == sh.to.kind &&
        (d.to.kind == Target::kPlayer ? d.to.player == sh.to.player : d.to.obj == sh.to.obj);
    if (!same || d.source == kNoObj || !Matches(sh.from, d.source, ShieldContext(sh))) continue;
    blocked = true;
    shields.source_shields.erase(shields.source_shields.begin() + static_cast<long>(i));
  }
  // Protection from a color prevents damage from sources of that color.
  if (!blocked && d.to.kind == Target::kObject && d.source != kNoObj) {
    const Characteristics& to = Chars(d.to.obj.id);
    blocked = ProtectedFrom(to, Chars(d.source).colors);
  }
  if (blocked) {
    if (real) {
      Replaced(UsageStats::kDamagePrevented);
      Note(LogKind::kPrevent, kNoPlayer, d.source, kNoObj, d.amount,
           [&] { return absl::StrCat(d.amount, " damage is prevented"); });
    }
    return 0;
  }
  // Damage to a player may be reduced (Urza's Armor), then shields (E-3 A).
  int amount = d.amount;
  if (d.to.kind == Target::kPlayer)
    amount = std::max(0, amount - Rules(d.to.player).damage_reduction);
  int16_t* shield = d.to.kind == Target::kPlayer ? &shields.player_shield[d.to.player]
                                                 : &shields.prevent_shield[d.to.obj.id];
  int prevented = std::min<int>(*shield, amount);
  *shield = static_cast<int16_t>(*shield - prevented);
  amount -= prevented;
  if (prevented && real) {
    Replaced(UsageStats::kDamagePrevented);
    Note(LogKind::kPrevent, kNoPlayer, d.source, kNoObj, prevented,
         [&] { return std::string(absl::StrCat(prevented, " damage is prevented")); });
  }
  return amount;
}

// The "before" responses to the damage of a prevention step (E-1): a
// before-record for each pending damage in order (a change_amount step
// finds its damage by it), all of one group (dealt together), as
// prevention will leave it (looked ahead on a copy of the shields); only
// damage that prevention leaves and that still has something to hit sets
// triggers off (damage prevented in full no longer happens, E-3). True
// when triggers were set off: they happen before the damage.
bool Game::BeforeDamage(int begin) {
  const int first = static_cast<int>(occ_.queued.size());
  DamageState ahead;
  ahead.prevent_shield = damage_.prevent_shield;
  ahead.player_shield = damage_.player_shield;
  ahead.source_shields = damage_.source_shields;
  const int group = EventEnd();
  for (size_t i = begin; i < damage_.pending.size(); ++i) {
    const PendingDamage& d = damage_.pending[i];
    const bool there =
        d.to.kind == Target::kPlayer ||
        (state_.Alive(d.to.obj) && state_.obj.zone[d.to.obj.id] == Zone::kBattlefield);
    const int left = there ? Prevent(d, ahead, /*real=*/false) : 0;
    Occurrence e;
    e.kind = EventKind::kDamage;
    e.source = d.source;
    e.amount = left;
    e.combat = d.combat;
    e.before = true;
    e.held = true;
    e.group = group;
    if (d.to.kind == Target::kPlayer) {
      e.player = d.to.player;
    } else if (there) {
      e.object = d.to.obj.id;
      e.last = Chars(e.object);
      e.player = e.last.controller;
      e.incarnation = state_.obj.incarnation[e.object];
    }
    // A record with nothing to respond to names nobody: no invariant
    // takes it for a damage's own.
    if (left <= 0) e.player = kNoPlayer, e.object = kNoObj;
    const int record = Record(e);
    if (left > 0) CollectTriggers(record, Timing::kBefore);
  }
  return TriggersNow(first);
}

// Step A's records of a prevention step's damage, one for each in order
// (all of one group: dealt together), and the replacements that fit the
// damage no replacement has touched yet, to a player or to a creature still
// on the battlefield. True when some apply: they happen now.
bool Game::InsteadOfDamage(int begin) {
  const int first = static_cast<int>(occ_.queued.size());
  const int group = EventEnd();
  for (size_t i = begin; i < damage_.pending.size(); ++i) {
    const PendingDamage& d = damage_.pending[i];
    Occurrence e;
    e.kind = EventKind::kDamage;
    e.source = d.source;
    e.amount = d.amount;
    e.combat = d.combat;
    e.before = e.instead = e.held = true;
    e.group = group;
    const bool there =
        d.to.kind == Target::kPlayer ||
        (state_.Alive(d.to.obj) && state_.obj.zone[d.to.obj.id] == Zone::kBattlefield);
    if (d.to.kind == Target::kPlayer) {
      e.player = d.to.player;
    } else if (there) {
      e.object = d.to.obj.id;
      e.last = Chars(e.object);
      e.player = e.last.controller;
      e.incarnation = state_.obj.incarnation[e.object];
    }
    const int record = Record(e);
    if (!there || d.replaced || d.amount <= 0) continue;
    const auto own = static_cast<std::ptrdiff_t>(occ_.queued.size());
    CollectTriggers(record, Timing::kInstead);
    // Prevention is one more way to stop it (E-3 A: "effects that negate,
    // prevent or substitute"): where a replacement fits and prevention
    // would stop some of it, the active player orders the two, prevention
    // offered first. (Without a replacement, prevention applies as the
    // damage is dealt, as always.)
    if (static_cast<std::ptrdiff_t>(occ_.queued.size()) > own) {
      DamageState ahead = damage_;
      // Named in the order decision by the creature dealt the damage, or
      // for a player by the damage's source.
      const ObjId named = e.object != kNoObj ? e.object : d.source;
      if (named != kNoObj && Prevent(d, ahead, /*real=*/false) < d.amount) {
        QueuedTrigger q;
        q.source = named;
        q.card = Chars(named).card;
        q.controller = e.player;
        q.event = record;
        q.shield = true;
        occ_.queued.insert(occ_.queued.begin() + own, q);
      }
    }
  }
  return TriggersNow(first);
}

// E-3 A: prevention of a damage ordered with its replacements
// (InsteadOfDamage). Picked first, it applies now: what it stops is
// stopped, and a damage it stops in full is gone (no replacement after it
// applies); what it leaves may still be replaced. Picked after a
// replacement that took the damage, it has nothing left to stop, and its
// shields stay.
void Game::PreventFirst(const QueuedTrigger& q) {
  Occurrence& e = Event(q.event);
  for (auto it = timing_.frames.rbegin(); it != timing_.frames.rend(); ++it) {
    if (it->kind != FrameKind::kPrevention || it->pc != PreventionFrame::kReplaced) continue;
    const int i = it->prevention.damage_begin + (q.event - it->prevention.instead_begin);
    if (q.event < it->prevention.instead_begin || i >= static_cast<int>(damage_.pending.size()))
      continue;
    PendingDamage& d = damage_.pending[i];
    if (e.replaced || d.replaced || d.prevented) break;
    d.amount = Prevent(d, damage_, /*real=*/true);
    d.prevented = true;
    e.amount = d.amount;  // what its replacements now see (event_amount)
    if (d.amount == 0) {
      e.replaced = true;
      Audit(AuditPoint::kReplacing, q.event);
    }
    return;
  }
  Note(LogKind::kInfo, kNoPlayer, q.source, kNoObj, 0, [&] {
    return absl::StrCat(TriggerName(q), " does not apply: another replacement took the damage");
  });
}

void Game::ApplyPrevention(Frame& f, const Action& a) {
  if (a.kind == ActionKind::kPass) {
    ++f.pc;  // kActive -> kNonactive -> kFinal
    return;
  }
  StartCast(timing_.decision.player, a, kPlayImmediate, kNoObj);
}

}  // namespace strata
