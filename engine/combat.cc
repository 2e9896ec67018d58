// The attack (RULES.md T-7): declare attackers, a neutral state, declare
// blockers (flying, reach, landwalk, protection), another neutral state, then
// damage, first strike first, trample, each with its prevention step.
// Scenarios: tests/scenarios/t7_*.

#include "absl/strings/str_join.h"
#include "engine/game_internal.h"

namespace strata {

bool Game::SomeAttackOwed(Player p) const {
  bool owed = false;
  state_.ForEachPermanent([&](ObjId o) {
    owed = owed ||
           (Has(Chars(o).keywords, kAttacksEachTurn) && Chars(o).controller == p && MayAttack(o));
  });
  return owed;
}

// A combat rule's filters are read from the creature that has it: "you" is
// its controller, its own text changes apply to their words.
static bool AnyFilterMatches(const Game& g, const CombatRule& rule, ObjId o,
                             const FilterContext& ctx) {
  for (FilterId f : rule.filters)
    if (g.Matches(f, o, ctx)) return true;
  return false;
}

bool Game::CombatRulesLetAttack(ObjId o) const {
  const Characteristics& ch = Chars(o);
  const FilterContext ctx = ContextFor(o, ch.controller, kNoWord);
  const Player defender = Opponent(ch.controller);
  for (int k = 0; k < ch.combat_count; ++k) {
    const CombatRule& rule = (*db_)[ch.combat[k].card].combat_rules[ch.combat[k].index];
    if (rule.kind != CombatRule::kAttacksOnlyIf) continue;
    bool found = false;
    state_.ForEachPermanent([&](ObjId p) {
      found = found || (Chars(p).controller == defender && AnyFilterMatches(*this, rule, p, ctx));
    });
    if (!found) return false;
  }
  return true;
}

// T-5.6: "can attack as though it had haste" (Instill Energy), asked only of
// a sick creature with combat rules.
bool Game::AttacksAsThoughHaste(ObjId o) const {
  const Characteristics& ch = Chars(o);
  for (int k = 0; k < ch.combat_count; ++k)
    if ((*db_)[ch.combat[k].card].combat_rules[ch.combat[k].index].kind ==
        CombatRule::kAttacksAsThoughHaste)
      return true;
  return false;
}

bool Game::CombatRulesLetBlock(ObjId b, ObjId a) const {
  const Characteristics &ac = Chars(a), &bc = Chars(b);
  if (ac.combat_count) {
    const FilterContext ctx = ContextFor(a, ac.controller, kNoWord);
    for (int k = 0; k < ac.combat_count; ++k) {
      const CombatRule& rule = (*db_)[ac.combat[k].card].combat_rules[ac.combat[k].index];
      if (rule.kind == CombatRule::kBlockedOnlyBy && !AnyFilterMatches(*this, rule, b, ctx))
        return false;
      if (rule.kind == CombatRule::kNotBlockedBy && AnyFilterMatches(*this, rule, b, ctx))
        return false;
    }
  }
  if (bc.combat_count) {
    const FilterContext ctx = ContextFor(b, bc.controller, kNoWord);
    for (int k = 0; k < bc.combat_count; ++k) {
      const CombatRule& rule = (*db_)[bc.combat[k].card].combat_rules[bc.combat[k].index];
      if (rule.kind == CombatRule::kCantBlockThose && AnyFilterMatches(*this, rule, a, ctx))
        return false;
    }
  }
  return true;
}

ColorMask Game::DefenderLandTypes() const {
  ColorMask lands = 0;
  const Player nap = Opponent(state_.active);
  state_.ForEachPermanent([&](ObjId o) {
    if (Chars(o).controller != nap) return;
    for (int c = 0; c < kColorCount; ++c)
      if (Chars(o).HasSubtype(BasicLandSubtype(c))) lands |= 1u << c;
  });
  return lands;
}

// (Inline: the blockers' list asks it of every blocker and attacker.)
inline bool Game::MayBlock(ObjId b, ObjId a, ColorMask defender_lands) const {
  const Characteristics &ac = Chars(a), &bc = Chars(b);
  if (Has(ac.keywords, kFlying) && !Has(bc.keywords, kFlying) && !Has(bc.keywords, kReach))
    return false;
  if (!RestrictionsLetBlock(b, a)) return false;  // T-7.1
  for (int c = 0; c < kColorCount; ++c)
    if (Has(ac.keywords, kPlainswalk + c) && Has(defender_lands, c)) return false;
  return !ProtectedFrom(ac, bc.colors);
}

// T-7: declare attackers, a neutral-state loop, blockers, another loop, then
// damage (first strike first), each with its prevention step (the frame:
// AttackFrame, whose pc says which).
void Game::RunAttack(Frame& f) {
  GameState& s = state_;
  Player ap = s.active, nap = Opponent(ap);
  timing_.decision.actions.clear();
  if (f.attack.holding == AttackFrame::kDeclareInstead) {
    // The replacements of the declaration happened: one that took it
    // leaves the creature undeclared (and not offered again this attack);
    // else its tap's replacements and its "before" responses come.
    f.attack.holding = AttackFrame::kNotHolding;
    if (TakenAtStepA(f.attack.tap_record)) {
      combat_.replaced.set(f.attack.held);
      Note(LogKind::kInfo, kNoPlayer, kNoObj, kNoObj, 0, [&] {
        return absl::StrCat(ObjectName(f.attack.held),
                            f.attack.held_to == kNoObj ? "'s attack" : "'s block", " is replaced");
      });
      return;
    }
    DeclareAfterItsReplacements(f);
    return;
  }
  if (f.attack.holding == AttackFrame::kTapInstead) {
    // The replacements of its tap happened: its "before" triggers come.
    f.attack.tap_replaced = TakenAtStepA(f.attack.tap_record);
    if (!HoldBeforeDeclaring(f)) DeclareHeld(f);
    return;
  }
  if (f.attack.holding == AttackFrame::kBefore) {
    DeclareHeld(f);
    return;
  }
  if (f.pc == AttackFrame::kBeforeAttackers || f.pc == AttackFrame::kBeforeBlockers) {
    // "Before attackers (blockers) are declared" (E-2: a time point of
    // every attack; blockers' of every attack with an attacker). Without
    // such a response the declaration goes on in this same step.
    const bool attackers = f.pc == AttackFrame::kBeforeAttackers;
    const EventKind kind = attackers ? EventKind::kAttackersDeclared : EventKind::kBlockersDeclared;
    f.pc = attackers ? AttackFrame::kAttackers : AttackFrame::kBlockers;
    if (ListensBefore(kind) && BeforeNow(OccurrenceOf(kind, attackers ? ap : nap, kNoObj))) return;
  }
  switch (f.pc) {
    case AttackFrame::kBeforeAttackers:
    case AttackFrame::kBeforeBlockers:
      return;  // (handled above)
    case AttackFrame::kAttackers: {
      // A creature that attacks each turn if able and may attack must be
      // declared: no "done" until it is (T-7.1).
      bool owed = false;
      s.ForEachPermanent([&](ObjId o) {
        if (!MayAttack(o)) return;
        timing_.decision.actions.push_back({ActionKind::kObject, o});
        owed |= Has(Chars(o).keywords, kAttacksEachTurn);
      });
      if (!owed) timing_.decision.actions.push_back({ActionKind::kDone});
      if (timing_.decision.actions.size() == 1 && !owed) {  // "done" alone
        f.pc = AttackFrame::kAfterAttackers;
        return;
      }
      Decide(DecisionKind::kAttackers, ap);
      return;
    }
    case AttackFrame::kAfterAttackers: {
      // Bands first (T-7.3): the attacking player joins bands until done.
      if (turn_.banding_cards && !combat_.bands_done) {
        if (OfferBands()) {
          Decide(DecisionKind::kBand, ap);
          return;
        }
        combat_.bands_done = true;
      }
      // "After attackers are declared" (E-2): with none declared too. Its
      // triggers come before the neutral-state loop (Step pushes them above
      // it).
      Occur(EventKind::kAttackersDeclared, ap, kNoObj, 0, /*before_done=*/true);
      bool any = false;  // attackers are permanents (a move takes an object out of combat)
      s.ForEachPermanent([&](ObjId o) { any |= combat_.flag[o] == kAttacking; });
      if (!any) {
        f.pc = AttackFrame::kEnd;
        return;
      }
      f.pc = AttackFrame::kBeforeBlockers;
      Push(Frame::NewNeutral(/*in_attack=*/true));
      return;
    }
    case AttackFrame::kBlockers: {
      // Each untapped creature blocks at most one attacker; fliers only by
      // flying or reach; landwalk can't be blocked when the defender has
      // such a land.
      // Permanents alone, in numbering order: the attackers once, then each
      // blocker against them.
      // The defender's basic land types matter only to an attacker with
      // landwalk.
      ColorMask defender_lands = 0;
      absl::InlinedVector<ObjId, 16> attackers;
      bool landwalk = false;
      s.ForEachPermanent([&](ObjId o) {
        if (combat_.flag[o] != kAttacking) return;
        attackers.push_back(o);
        for (int c = 0; c < kColorCount; ++c) landwalk |= Has(Chars(o).keywords, kPlainswalk + c);
      });
      if (landwalk) defender_lands = DefenderLandTypes();
      // A creature able to block an attacker that all creatures able to
      // block must block (Lure) is offered those blocks alone, and there is
      // no "done" while it is undeclared (T-7.1).
      bool lure = false, owed = false;
      for (ObjId a : attackers) lure |= Has(Chars(a).keywords, kLure);
      s.ForEachPermanent([&](ObjId b) {
        if (combat_.flag[b] != kNotInCombat || combat_.replaced[b]) return;
        const Characteristics& bc = Chars(b);
        if (bc.controller != nap || !bc.IsCreature() || s.obj.tapped[b]) return;
        if (lure) {
          bool lured = false;
          for (ObjId a : attackers)
            if (Has(Chars(a).keywords, kLure) && MayBlock(b, a, defender_lands)) {
              timing_.decision.actions.push_back({ActionKind::kBlock, b, 0, a});
              lured = true;
            }
          if (lured) {
            owed = true;
            return;
          }
        }
        for (ObjId a : attackers)
          if (MayBlock(b, a, defender_lands))
            timing_.decision.actions.push_back({ActionKind::kBlock, b, 0, a});
      });
      if (!owed) timing_.decision.actions.push_back({ActionKind::kDone});
      if (timing_.decision.actions.size() == 1 && !owed) {  // "done" alone
        f.pc = AttackFrame::kAfterBlockers;
        return;
      }
      Decide(DecisionKind::kBlockers, nap);
      return;
    }
    case AttackFrame::kAfterBlockers:
      // "After blockers are declared" (E-2): with none declared too. An
      // attacker not blocked from now on is unblocked (T-7.2).
      combat_.blockers_declared = true;
      Occur(EventKind::kBlockersDeclared, nap, kNoObj, 0, /*before_done=*/true);
      f.pc = AttackFrame::kFirstStrikeDamage;
      Push(Frame::NewNeutral(/*in_attack=*/true));
      return;
    case AttackFrame::kFirstStrikeDamage:
    case AttackFrame::kRegularDamage: {
      if (turn_.banding_cards) {  // bands and divided damage (T-7.3)
        BandedDamage(f);
        return;
      }
      const bool first = f.pc == AttackFrame::kFirstStrikeDamage;
      f.pc = first ? AttackFrame::kRegularDamage : AttackFrame::kEndOfCombat;
      int begin = static_cast<int>(damage_.pending.size());
      auto strikes_now = [&](ObjId o) { return Has(Chars(o).keywords, kFirstStrike) == first; };
      // The attackers and blockers on the battlefield, in numbering order
      // (assigning damage moves nothing).
      absl::InlinedVector<ObjId, 16> attackers, blocking;
      s.ForEachPermanent([&](ObjId o) {
        if (combat_.flag[o] == kNotInCombat) return;
        // A permanent that stopped being a creature (Living Lands gone) has
        // left combat: it deals and is dealt no combat damage, and the
        // attacker it blocked stays blocked (docs/rules.md T-7).
        if (!Chars(o).IsCreature()) {
          combat_.flag[o] = kNotInCombat;
          if (combat_.block_target[o] != o) combat_.block_target[o] = kNoObj;
          return;
        }
        if (combat_.flag[o] == kAttacking) attackers.push_back(o);
        if (combat_.flag[o] == kBlocking) blocking.push_back(o);
      });
      for (ObjId a : attackers) {
        const Characteristics& ac = Chars(a);
        int power = ac.power;
        absl::InlinedVector<ObjId, 8> blockers;
        bool was_blocked = combat_.block_target[a] == a;  // marks "was blocked"
        for (ObjId b : blocking)
          if (combat_.block_target[b] == a) blockers.push_back(b);
        for (ObjId b : blockers)
          if (strikes_now(b) && Chars(b).power > 0)
            damage_.pending.push_back(
                {b, Target{Target::kObject, s.Ref(a), kNoPlayer}, Chars(b).power, false, true});
        if (!strikes_now(a) || power <= 0) continue;
        if (!was_blocked) {
          damage_.pending.push_back({a, Target{Target::kPlayer, {}, nap}, power, false, true});
          continue;
        }
        // Blocked: lethal damage to each blocker in order; trample sends the
        // rest to the player.
        bool trample = Has(ac.keywords, kTrample);
        for (size_t i = 0; i < blockers.size() && power > 0; ++i) {
          const Characteristics& bc = Chars(blockers[i]);
          int lethal = std::max(0, bc.toughness - s.obj.damage[blockers[i]]);
          int give = (i + 1 == blockers.size() && !trample) ? power : std::min(power, lethal);
          if (give > 0)
            damage_.pending.push_back(
                {a, Target{Target::kObject, s.Ref(blockers[i]), kNoPlayer}, give, false, true});
          power -= give;
        }
        if (trample && power > 0)
          damage_.pending.push_back({a, Target{Target::kPlayer, {}, nap}, power, false, true});
      }
      Audit(AuditPoint::kCombatDamageAssigned, begin + (first ? kFirstStrikeStep : 0));
      if (static_cast<int>(damage_.pending.size()) > begin) Push(Frame::NewPrevention(begin));
      return;
    }
    case AttackFrame::kEndOfCombat:
      // "At end of combat" (T-7.2): a time point after the combat damage,
      // with the attackers and blockers still in combat, so that its
      // triggers (Step pushes them above this frame) read who blocked whom.
      f.pc = AttackFrame::kEnd;
      Occur(EventKind::kEndOfCombat, ap, kNoObj, 0, /*before_done=*/true);
      return;
    default:  // kEnd
      combat_.blockers_declared = false;
      for (ObjId o = 0; o < s.obj.count; ++o) {
        combat_.flag[o] = kNotInCombat;
        combat_.block_target[o] = kNoObj;
      }
      combat_.replaced.reset();
      if (turn_.banding_cards) {
        combat_.band.fill(kNoObj);
        combat_.bands_done = combat_.dividing = false;
      }
      Note(LogKind::kInfo, kNoPlayer, kNoObj, kNoObj, 0,
           [&] { return std::string("the attack ends"); });
      timing_.frames.pop_back();
      return;
  }
}

void Game::ApplyAttack(Frame& f, const Action& a) {
  if (f.pc == AttackFrame::kAfterAttackers) {  // a band decision (T-7.3)
    if (a.kind == ActionKind::kDone) {
      combat_.bands_done = true;
      return;
    }
    const ObjId into = static_cast<ObjId>(std::min<int32_t>(a.object, a.value));
    const ObjId from = a.object, to = static_cast<ObjId>(a.value);
    const ObjId joined[2] = {BandOf(from), BandOf(to)};
    for (ObjId o = 0; o < state_.obj.count; ++o)
      if (combat_.flag[o] == kAttacking && (BandOf(o) == joined[0] || BandOf(o) == joined[1]))
        combat_.band[o] = into;
    Note(LogKind::kInfo, kNoPlayer, from, to, 0, [&] {
      std::vector<std::string> names;
      for (ObjId o = 0; o < state_.obj.count; ++o)
        if (combat_.flag[o] == kAttacking && combat_.band[o] == into)
          names.push_back(ObjectName(o));
      return absl::StrCat("a band attacks: ", absl::StrJoin(names, ", "));
    });
    return;
  }
  if (f.pc == AttackFrame::kFirstStrikeDamage || f.pc == AttackFrame::kRegularDamage) {
    // A point of a divided damage (T-7.3): to the creature chosen, joined
    // to that source's damage to it this step if there is some.
    const ObjId src = static_cast<ObjId>(a.value);
    bool joined = false;
    for (size_t i = static_cast<size_t>(combat_.div_begin); i < damage_.pending.size(); ++i) {
      PendingDamage& d = damage_.pending[i];
      if (d.source == src && d.to.kind == Target::kObject && d.to.obj.id == a.object) {
        ++d.amount;
        joined = true;
        break;
      }
    }
    if (!joined)
      damage_.pending.push_back(
          {src, Target{Target::kObject, state_.Ref(a.object), kNoPlayer}, 1, false, true});
    ++combat_.div_done;
    return;
  }
  if (a.kind == ActionKind::kDone) {
    ++f.pc;  // kAttackers -> kAfterAttackers, kBlockers -> kAfterBlockers
    return;
  }
  const bool attacks = f.pc == AttackFrame::kAttackers;
  const ObjId to = attacks ? kNoObj : static_cast<ObjId>(a.value);
  f.attack.held = a.object;
  f.attack.held_incarnation = state_.obj.incarnation[a.object];
  f.attack.held_to = to;
  f.attack.tap_replaced = false;
  // The attack (block) itself first: its replacements (E-3 A) may leave
  // the creature undeclared.
  const EventKind kind = attacks ? EventKind::kAttack : EventKind::kBlock;
  if (ListensInstead(kind)) {
    Occurrence e = OccurrenceOf(kind, attacks ? state_.active : Opponent(state_.active), a.object);
    e.phase = state_.phase;
    f.attack.holding = AttackFrame::kDeclareInstead;  // first: a frame pushed can move `f`
    f.attack.tap_record = EventEnd();
    if (InsteadNow(e)) return;
    f.attack.holding = AttackFrame::kNotHolding;
  }
  DeclareAfterItsReplacements(f);
}

// An attacker taps as it is declared (T-7): a replacement of the tap
// applies first (E-3 A), and the attack goes on without it; then the
// "before" responses, then the declaration.
void Game::DeclareAfterItsReplacements(Frame& f) {
  const ObjId o = f.attack.held;
  if (f.attack.held_to == kNoObj && !Has(Chars(o).keywords, kVigilance) &&
      ListensInstead(EventKind::kTap)) {
    Occurrence e = OccurrenceOf(EventKind::kTap, Chars(o).controller, o);
    e.phase = state_.phase;
    f.attack.holding = AttackFrame::kTapInstead;  // first: a frame pushed can move `f`
    f.attack.tap_record = EventEnd();
    if (InsteadNow(e)) return;
    f.attack.holding = AttackFrame::kNotHolding;
  }
  if (HoldBeforeDeclaring(f)) return;
  Declare(o, f.attack.held_to, f.attack.tap_replaced);
}

// "Before a creature attacks (blocks)" and "before it becomes tapped" as it
// attacks (E-1): their triggers resolve first; it is declared after them if
// it still can be (DeclareHeld).
bool Game::HoldBeforeDeclaring(Frame& f) {
  const ObjId o = f.attack.held;
  const bool attacks = f.attack.held_to == kNoObj;
  const EventKind kind = attacks ? EventKind::kAttack : EventKind::kBlock;
  const bool taps = attacks && !f.attack.tap_replaced && !Has(Chars(o).keywords, kVigilance);
  if (!ListensBefore(kind) && !(taps && ListensBefore(EventKind::kTap))) return false;
  if (state_.obj.incarnation[o] != f.attack.held_incarnation ||
      state_.obj.zone[o] != Zone::kBattlefield)
    return false;  // gone meanwhile: DeclareHeld says it no longer attacks
  const int first = static_cast<int>(occ_.queued.size());
  Occurrence e = OccurrenceOf(kind, attacks ? state_.active : Opponent(state_.active), o);
  e.phase = state_.phase;
  e.held = true;
  Before(e);
  if (taps) {
    Occurrence t = OccurrenceOf(EventKind::kTap, Chars(o).controller, o);
    t.phase = state_.phase;
    t.held = true;
    Before(t);
  }
  f.attack.holding = AttackFrame::kBefore;  // first: a frame pushed can move `f`
  if (TriggersNow(first)) return true;
  f.attack.holding = AttackFrame::kNotHolding;
  return false;
}

// An attacker (to == kNoObj) or a blocker of `to` is declared: the
// occurrence happens ("before" responses were collected as it was chosen,
// and its tap's replacements applied: `tap_replaced`).
void Game::Declare(ObjId o, ObjId to, bool tap_replaced) {
  if (to == kNoObj) {
    combat_.flag[o] = kAttacking;
    if (turn_.attack_memory_cards) [[unlikely]]
      RememberAttack(o);  // T-7.5
    if (!tap_replaced && !Has(Chars(o).keywords, kVigilance)) Tap(o, true, /*before_done=*/true);
    Note(LogKind::kAttack, kNoPlayer, o, kNoObj, 0,
         [&] { return std::string(absl::StrCat(ObjectName(o), " attacks")); });
    Occur(EventKind::kAttack, state_.active, o, 0, /*before_done=*/true);
    return;
  }
  combat_.flag[o] = kBlocking;
  combat_.block_target[o] = to;
  combat_.block_target[to] = to;                          // the attacker was blocked
  if (turn_.banding_cards && combat_.band[to] != kNoObj)  // and its band with it (T-7.3)
    for (ObjId m = 0; m < state_.obj.count; ++m)
      if (combat_.flag[m] == kAttacking && combat_.band[m] == combat_.band[to])
        combat_.block_target[m] = m;
  Note(LogKind::kBlock, kNoPlayer, o, to, 0,
       [&] { return std::string(absl::StrCat(ObjectName(o), " blocks ", ObjectName(to))); });
  Occur(EventKind::kBlock, Opponent(state_.active), o, 0, /*before_done=*/true);
}

// "When a creature would block an attacking creature you control, it
// blocks this one instead" (seed 003: the choice indicated, then changed
// before it takes effect): resolving as a before trigger of a block, it
// changes the attacker the held blocker was chosen to block (the innermost
// attack frame holding that blocker, as it was) if that attacker matches
// `from`, to `to` where the blocker may block it; else it stays. The
// declaration then tests the block as changed (DeclareHeld).
void Game::ChangeHeldBlock(const StackItem& trigger, const Occurrence& e, ObjId to, FilterId from) {
  for (auto f = timing_.frames.rbegin(); f != timing_.frames.rend(); ++f) {
    if (f->kind != FrameKind::kAttack) continue;
    AttackFrame& a = f->attack;
    if (a.holding != AttackFrame::kBefore || a.held != e.object || a.held_to == kNoObj ||
        a.held_incarnation != e.incarnation)
      return;
    const ObjId src = trigger.card != kNoObj ? trigger.card : trigger.source;
    const ObjId was = a.held_to;
    if (to == was || state_.obj.zone[was] != Zone::kBattlefield ||
        !Matches(from, was, ContextFor(src, trigger.controller, kNoWord)) ||
        state_.obj.zone[to] != Zone::kBattlefield || combat_.flag[to] != kAttacking ||
        !MayBlock(a.held, to, DefenderLandTypes()))
      return;
    a.held_to = to;
    Note(LogKind::kInfo, kNoPlayer, src, kNoObj, 0, [&] {
      return absl::StrCat(ObjectName(a.held), " is to block ", ObjectName(to), ", not ",
                          ObjectName(was));
    });
    return;
  }
}

// A declaration held for its "before" triggers, which have resolved: it
// happens if the creature still may attack (block) as it was chosen to,
// by the same tests as the choice was offered by (a trigger may have
// tapped it, moved it, taken it or its attacker out of combat, or given
// the attacker flying or a landwalk); else it no longer happens (E-3), and
// the player chooses again.
void Game::DeclareHeld(Frame& f) {
  f.attack.holding = AttackFrame::kNotHolding;
  const ObjId o = f.attack.held, to = f.attack.held_to;
  const GameState& s = state_;
  const bool same =
      s.obj.incarnation[o] == f.attack.held_incarnation && s.obj.zone[o] == Zone::kBattlefield;
  bool still = same && MayAttack(o);
  if (to != kNoObj) {
    const Characteristics& bc = Chars(o);
    still = same && combat_.flag[o] == kNotInCombat && bc.IsCreature() && !s.obj.tapped[o] &&
            bc.controller == Opponent(s.active) && s.obj.zone[to] == Zone::kBattlefield &&
            combat_.flag[to] == kAttacking && MayBlock(o, to, DefenderLandTypes());
  }
  if (!still) {
    Replaced(UsageStats::kNoLongerHappened);
    Note(LogKind::kInfo, kNoPlayer, kNoObj, kNoObj, 0, [&] {
      return absl::StrCat(ObjectName(o), to == kNoObj ? " no longer attacks" : " no longer blocks");
    });
    return;
  }
  Declare(o, to, f.attack.tap_replaced);
}

// T-7.3: the bands the attacking player may join, once attackers are
// declared: two bands (a creature alone is a band of one) whose creatures
// have, together, at most one without banding (as an attacker: banding
// when attacking counts). Each pair once, by the bands' first creatures.
bool Game::OfferBands() {
  absl::InlinedVector<ObjId, 16> bands;
  absl::InlinedVector<int, 16> without;
  state_.ForEachPermanent([&](ObjId o) {
    if (combat_.flag[o] != kAttacking || !Chars(o).IsCreature()) return;
    const ObjId b = BandOf(o);
    size_t i = 0;
    while (i < bands.size() && bands[i] != b) ++i;
    if (i == bands.size()) {
      bands.push_back(b);
      without.push_back(0);
    }
    without[i] += !BandsAsAttacker(o);
  });
  for (size_t i = 0; i < bands.size(); ++i)
    for (size_t j = i + 1; j < bands.size(); ++j)
      if (without[i] + without[j] <= 1)
        timing_.decision.actions.push_back(
            {ActionKind::kBand, std::min(bands[i], bands[j]), 0, std::max(bands[i], bands[j])});
  if (timing_.decision.actions.empty()) return false;
  timing_.decision.actions.push_back({ActionKind::kDone});
  return true;
}

// The combat damage of this step in a game with banding (T-7.3): a blocker
// deals its damage to the creatures of the band it blocks still
// attacking, divided by the attacking player when there are several; an
// attacker blocked deals its damage to the creatures blocking its band,
// divided by the defending player when one of them has banding (all of it:
// trample sends none to the player then), else as T-7 says (lethal damage
// to each in order, trample the rest to the player).
template <typename Direct, typename Division>
void Game::ForEachBandedDamage(bool first, Direct direct, Division division) const {
  const GameState& s = state_;
  const Player ap = s.active, nap = Opponent(ap);
  auto strikes_now = [&](ObjId o) { return Has(Chars(o).keywords, kFirstStrike) == first; };
  absl::InlinedVector<ObjId, 16> attackers, blocking, to;
  s.ForEachPermanent([&](ObjId o) {
    if (combat_.flag[o] == kAttacking) attackers.push_back(o);
    if (combat_.flag[o] == kBlocking) blocking.push_back(o);
  });
  for (ObjId b : blocking) {
    const int power = Chars(b).power;
    const ObjId at = combat_.block_target[b];
    if (!strikes_now(b) || power <= 0 || at == kNoObj) continue;
    to.clear();
    for (ObjId a : attackers)
      if (SameBand(a, at)) to.push_back(a);
    if (to.size() == 1)
      direct(b, Target{Target::kObject, s.Ref(to[0]), kNoPlayer}, power);
    else if (to.size() > 1)
      division(b, ap, power, to);
  }
  for (ObjId a : attackers) {
    int power = Chars(a).power;
    if (!strikes_now(a) || power <= 0) continue;
    if (combat_.block_target[a] != a) {  // unblocked
      direct(a, Target{Target::kPlayer, {}, nap}, power);
      continue;
    }
    to.clear();
    bool banding = false;
    for (ObjId b : blocking)
      if (combat_.block_target[b] != kNoObj && SameBand(combat_.block_target[b], a)) {
        to.push_back(b);
        banding |= Has(Chars(b).keywords, kBanding);
      }
    if (banding) {
      if (to.size() == 1)
        direct(a, Target{Target::kObject, s.Ref(to[0]), kNoPlayer}, power);
      else
        division(a, nap, power, to);
      continue;
    }
    const bool trample = Has(Chars(a).keywords, kTrample);
    for (size_t i = 0; i < to.size() && power > 0; ++i) {
      const int lethal = std::max(0, Chars(to[i]).toughness - s.obj.damage[to[i]]);
      const int give = (i + 1 == to.size() && !trample) ? power : std::min(power, lethal);
      if (give > 0) direct(a, Target{Target::kObject, s.Ref(to[i]), kNoPlayer}, give);
      power -= give;
    }
    if (trample && power > 0) direct(a, Target{Target::kPlayer, {}, nap}, power);
  }
}

void Game::BandedDamage(Frame& f) {
  const bool first = f.pc == AttackFrame::kFirstStrikeDamage;
  if (!combat_.dividing) {
    // A permanent that stopped being a creature has left combat (T-7).
    state_.ForEachPermanent([&](ObjId o) {
      if (combat_.flag[o] == kNotInCombat || Chars(o).IsCreature()) return;
      combat_.flag[o] = kNotInCombat;
      if (combat_.block_target[o] != o) combat_.block_target[o] = kNoObj;
    });
    combat_.dividing = true;
    combat_.div_job = combat_.div_done = 0;
    combat_.div_begin = static_cast<int32_t>(damage_.pending.size());
    ForEachBandedDamage(
        first,
        [&](ObjId src, const Target& t, int amount) {
          damage_.pending.push_back({src, t, amount, false, true});
        },
        [](ObjId, Player, int, const auto&) {});
  }
  // The divisions, point by point: the n-th still has points to place?
  for (;;) {
    int n = 0;
    bool asked = false;
    ForEachBandedDamage(
        first, [](ObjId, const Target&, int) {},
        [&](ObjId src, Player p, int amount, const auto& to) {
          if (asked || n++ != combat_.div_job) return;
          if (combat_.div_done >= amount) return;
          timing_.decision.actions.clear();
          for (ObjId o : to) timing_.decision.actions.push_back({ActionKind::kObject, o, 0, src});
          combat_.div_amount = static_cast<int16_t>(std::min(amount, 32767));
          Decide(DecisionKind::kDivide, p);
          asked = true;
        });
    if (asked) return;
    if (combat_.div_job >= n) break;
    ++combat_.div_job;
    combat_.div_done = 0;
  }
  combat_.dividing = false;
  const int begin = combat_.div_begin;
  f.pc = first ? AttackFrame::kRegularDamage : AttackFrame::kEndOfCombat;
  Audit(AuditPoint::kCombatDamageAssigned, begin + (first ? kFirstStrikeStep : 0));
  if (static_cast<int>(damage_.pending.size()) > begin) Push(Frame::NewPrevention(begin));
}

}  // namespace strata
