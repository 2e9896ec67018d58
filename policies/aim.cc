#include "policies/aim.h"

namespace strata {
namespace {

// -2 takes the object (control), -1 hurts, +1 helps, 0 neither.
int PartSign(const Part& p) {
  if (p.layer == PartLayer::kControl) return -2;
  if (p.remove_all_abilities || p.remove_keywords || p.grant_phase >= 0) return -1;
  if (p.layer == PartLayer::kType) {
    if (Has(p.add_types, kCreature)) return 1;  // animating one's own object
    if (p.has_set_types && !Has(p.set_types, kCreature)) return -1;
    return 0;
  }
  if (p.layer == PartLayer::kPtSet) {
    // Setting a small constant size shrinks; a size from the object itself
    // (mana value) comes with animation.
    bool small = p.has_power && p.power.kind == Value::kConst && p.power.constant <= 1;
    return small ? -1 : 0;
  }
  if (p.layer == PartLayer::kPtModify) {
    int sum = 0;
    if (p.has_power && p.power.kind == Value::kConst) sum += p.power.constant;
    if (p.has_toughness && p.toughness.kind == Value::kConst) sum += p.toughness.constant;
    return sum < 0 ? -1 : sum > 0 ? 1 : 0;
  }
  if (p.add_keywords) {
    // A keyword that takes from combat harms (defender, can't attack, can't
    // block); the others help (T-7.1's unblockable, lure included).
    constexpr KeywordMask kHarm = (KeywordMask{1} << kDefender) | (KeywordMask{1} << kCantAttack) |
                                  (KeywordMask{1} << kCantBlock);
    return (p.add_keywords & kHarm) ? -1 : 1;
  }
  if (p.combat_rule >= 0) return 1;  // a blocking rule of an Aura or a card: its evasion (T-7.1)
  return 0;
}

Aim StepAim(const CardDef& card, const EffectStep& st) {
  switch (st.op) {
    case Op::kDamage:
    case Op::kDestroy:
    case Op::kExile:
    case Op::kBounce:
    case Op::kTap:
    case Op::kCounterSpell:
    case Op::kCounterUnlessPay:
    case Op::kSacrifice:
    case Op::kTurnFaceDown:
    case Op::kLoseLife:
    case Op::kPoison:
    case Op::kDiscard:
    case Op::kMill:
    case Op::kEmptyPool:  // T-10.1: Mana Short, Drain Power at a player
      return Aim::kHarm;
    case Op::kRegenerate:
    case Op::kPrevent:
    case Op::kUntap:
    case Op::kGainLife:
    case Op::kDraw:
    case Op::kExtraTurn:
    case Op::kSearch:
    case Op::kAttach:
    case Op::kReturnToBattlefield:  // G-9: Resurrection
    case Op::kReturnFromGraveyard:  // G-9: Recall
      return Aim::kHelp;
    case Op::kAddCounters:
      // G-8.1: -0/-2 harms, +1/+0 helps, as -1/-1 and +1/+1 do.
      return st.counter_kind == 1 || st.counter_kind == 4   ? Aim::kHarm
             : st.counter_kind == 0 || st.counter_kind == 3 ? Aim::kHelp
                                                            : Aim::kNone;
    case Op::kRemoveCounters:
    case Op::kKeepFewest:  // G-19: both players, whoever has more (heuristic_balance.cc)
      return Aim::kNone;
    case Op::kContinuous:
      // An exchange of control (controller_of) helps or harms by what is
      // given for what: neither here.
      if (st.controller_of > 0 || st.continuous < 0 ||
          st.continuous >= static_cast<int>(card.continuous.size()))
        return Aim::kNone;
      return TemplateAim(card.continuous[st.continuous]);
    case Op::kCantBeRegenerated:
      // Hurr Jackal's mark harms nothing by itself: it readies the creature
      // for the removal or the fight that follows, which must not take it
      // for one already harmed (policies/heuristic_eval.cc).
    default:
      return Aim::kNone;
  }
}

}  // namespace

Aim TemplateAim(const EffectTemplate& t) {
  bool harm = false, help = false;
  for (const Part& p : t.parts) {
    int s = PartSign(p);
    if (s == -2) return Aim::kHarm;
    harm |= s < 0;
    help |= s > 0;
  }
  if (harm && !help) return Aim::kHarm;
  if (help && !harm) return Aim::kHelp;
  return harm ? Aim::kHarm : Aim::kNone;
}

Aim SlotAim(const CardDef& card, const AbilityBody& body, int slot) {
  // G-9: a card in a graveyard returned to a hand or the battlefield helps
  // its owner (Raise Dead, Resurrection).
  if (slot < static_cast<int>(body.targets.size()) && body.targets[slot].what == TargetWhat::kCard)
    return Aim::kHelp;
  bool help = false;
  for (const EffectStep& st : body.steps) {
    if (st.target.kind != Ref::kTarget || st.target.index != slot + 1) continue;
    Aim a = StepAim(card, st);
    if (a == Aim::kHarm) return Aim::kHarm;  // Threaten untaps what it steals
    help |= a == Aim::kHelp;
  }
  return help ? Aim::kHelp : Aim::kNone;
}

Aim AuraAim(const CardDef& card) {
  // G-9: an Aura that returns a creature card from a graveyard (Animate
  // Dead) brings it to its caster, whatever it does to it.
  if (card.enchant_returned != kNoFilter) return Aim::kNone;
  bool harm = false, help = false;
  for (const EffectTemplate& t : card.statics) {
    Aim a = TemplateAim(t);
    harm |= a == Aim::kHarm;
    help |= a == Aim::kHelp;
  }
  if (harm) return Aim::kHarm;
  if (help) return Aim::kHelp;
  // No static effect: what its triggers do (damage when the creature dies).
  for (const TriggeredAbility& tr : card.triggers) {
    for (const EffectStep& st : tr.body.steps)
      if (StepAim(card, st) == Aim::kHarm) return Aim::kHarm;
    // Damage the creature deals replaced by nothing (Gaseous Form, T-4.1):
    // it takes the creature's damage away, on an opponent's creature.
    if (tr.timing == Timing::kInstead && tr.event == EventKind::kDamage && tr.body.steps.empty() &&
        tr.source_filter != kNoFilter)
      return Aim::kHarm;
  }
  // T-12.2: a phase effect or a phase cost's penalty of the enchanted
  // permanent's controller's phase that harms (Cursed Land's damage to
  // that player) goes on an opponent's permanent.
  for (const PhaseAbility& ph : card.phase) {
    if (ph.whose != 1 || (ph.is_cost && ph.reward)) continue;
    if (ph.is_cost) return Aim::kHarm;
    for (const EffectStep& st : ph.body.steps)
      if (StepAim(card, st) == Aim::kHarm) return Aim::kHarm;
  }
  return Aim::kHelp;
}

const AbilityBody* ItemBody(const CardDb& db, const StackItem& item) {
  if (item.body_card == kNoCard) return nullptr;
  const CardDef& c = db[item.body_card];
  switch (item.from) {
    case BodySource::kSpell:
      return c.has_spell ? &c.spell : nullptr;
    case BodySource::kActivated:
      return item.ability >= 0 && item.ability < static_cast<int>(c.activated.size())
                 ? &c.activated[item.ability].body
                 : nullptr;
    case BodySource::kTrigger:
      return item.ability >= 0 && item.ability < static_cast<int>(c.triggers.size())
                 ? &c.triggers[item.ability].body
                 : nullptr;
    case BodySource::kPhase:
      return item.ability >= 0 && item.ability < static_cast<int>(c.phase.size())
                 ? &c.phase[item.ability].body
                 : nullptr;
    case BodySource::kGrantedPhase:
      return item.ability >= 0 && item.ability < static_cast<int>(c.granted_phase.size())
                 ? &c.granted_phase[item.ability].body
                 : nullptr;
    case BodySource::kEnters:
      return &c.enters.body;
    case BodySource::kNextTime:
      return item.ability >= 0 && item.ability < static_cast<int>(c.next_times.size())
                 ? &c.next_times[item.ability].body
                 : nullptr;
    case BodySource::kDelayed:
      return nullptr;
  }
  return nullptr;
}

const AbilityBody* ItemModeBody(const CardDb& db, const StackItem& item) {
  const AbilityBody* b = ItemBody(db, item);
  if (b && !b->modes.empty())
    return item.mode >= 0 && item.mode < static_cast<int>(b->modes.size()) ? &b->modes[item.mode]
                                                                           : nullptr;
  return b;
}

const AbilityBody* ActionBody(const CardDef& card, const Action& a) {
  if (a.kind == ActionKind::kActivate)
    return a.index >= 0 && a.index < static_cast<int>(card.activated.size())
               ? &card.activated[a.index].body
               : nullptr;
  if (a.kind == ActionKind::kCast) return card.has_spell ? &card.spell : nullptr;
  return nullptr;
}

Aim CastingAim(const CardDb& db, const StackItem& item) {
  if (item.body_card == kNoCard) return Aim::kNone;
  const CardDef& c = db[item.body_card];
  if (item.from == BodySource::kSpell && !c.has_spell && c.enchant != kNoFilter) return AuraAim(c);
  const AbilityBody* b = ItemModeBody(db, item);
  return b ? SlotAim(c, *b, item.slot) : Aim::kNone;
}

bool OwnHarm(const Game& g, const Decision& d, const Action& a, bool* avoidable) {
  *avoidable = false;
  if (d.kind != DecisionKind::kTarget) return false;
  const StackItem* item = g.Casting();
  if (!item || CastingAim(g.db(), *item) != Aim::kHarm) return false;
  const GameState& s = g.state();
  auto own = [&](const Action& t) {
    if (t.kind == ActionKind::kTargetPlayer) return t.value == d.player;
    if (t.kind != ActionKind::kTargetObject) return false;
    Player c = s.obj.zone[t.object] == Zone::kBattlefield ? g.Chars(t.object).controller
                                                          : s.obj.controller[t.object];
    return c == d.player;
  };
  if (!own(a)) return false;
  for (const Action& t : d.actions)
    *avoidable |=
        (t.kind == ActionKind::kTargetPlayer || t.kind == ActionKind::kTargetObject) && !own(t);
  return true;
}

int SlotDamage(const AbilityBody& body, int slot, int x) {
  int total = 0;
  for (const EffectStep& st : body.steps) {
    if (st.op != Op::kDamage || st.target.kind != Ref::kTarget || st.target.index != slot + 1)
      continue;
    if (st.amount.kind == Value::kX)
      total += x * st.amount.times + st.amount.plus;
    else if (st.amount.kind == Value::kConst)
      total += st.amount.constant;
  }
  return total;
}

bool OnlyAddsMana(const AbilityBody& body) {
  if (body.steps.empty() || !body.targets.empty() || !body.modes.empty()) return false;
  for (const EffectStep& st : body.steps)
    if (st.op != Op::kAddMana) return false;
  return true;
}

int ManaAdded(const AbilityBody& body) {
  int n = 0;
  for (const EffectStep& st : body.steps)
    if (st.op == Op::kAddMana) n += st.amount.kind == Value::kConst ? st.amount.constant : 1;
  return n;
}

const EffectStep* PreventStep(const AbilityBody& body) {
  for (const EffectStep& st : body.steps)
    if (st.op == Op::kPrevent) return &st;
  return nullptr;
}

const EffectStep* CombatPreventStep(const AbilityBody& body) {
  for (const EffectStep& st : body.steps)
    if (st.op == Op::kPreventCombat) return &st;
  return nullptr;
}

bool PumpOf(const CardDef& card, const AbilityBody& body, int slot, int& power, int& toughness) {
  power = toughness = 0;
  bool any = false;
  for (const EffectStep& st : body.steps) {
    if (st.op != Op::kContinuous || st.continuous < 0 ||
        st.continuous >= static_cast<int>(card.continuous.size()))
      continue;
    bool on = slot < 0 ? st.target.kind == Ref::kSelf
                       : st.target.kind == Ref::kTarget && st.target.index == slot + 1;
    if (!on) continue;
    for (const Part& p : card.continuous[st.continuous].parts) {
      if (p.layer != PartLayer::kPtModify) continue;
      if (p.has_power && p.power.kind == Value::kConst) power += p.power.constant;
      if (p.has_toughness && p.toughness.kind == Value::kConst) toughness += p.toughness.constant;
      any = true;
    }
  }
  return any && (power > 0 || toughness > 0);
}

int PumpToughnessFrom(const CardDef& card, const AbilityBody& body, int slot,
                      int target_toughness) {
  int toughness = 0;
  for (const EffectStep& st : body.steps) {
    if (st.op != Op::kContinuous || st.continuous < 0 ||
        st.continuous >= static_cast<int>(card.continuous.size()) ||
        st.target.kind != Ref::kTarget || st.target.index != slot + 1)
      continue;
    for (const Part& p : card.continuous[st.continuous].parts)
      if (p.layer == PartLayer::kPtModify && p.has_toughness &&
          p.toughness.kind == Value::kTargetToughness)
        toughness += p.toughness.Scale(target_toughness);
  }
  return toughness;
}

}  // namespace strata
