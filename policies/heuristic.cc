#include "policies/heuristic.h"

#include <algorithm>

namespace strata {
namespace {

bool IsPermanentSpell(const CardDef& c) {
  return !c.has_spell && !Has(c.types, kLand);
}

// The steps of a body, or of its first mode.
const AbilityBody* MainBody(const CardDef& c, int activated) {
  if (activated >= 0) return &c.activated[activated].body;
  if (!c.has_spell) return nullptr;
  return c.spell.modes.empty() ? &c.spell : &c.spell.modes[0];
}

}  // namespace

std::string HeuristicPolicy::Name() const {
  return style_ == Style::kAggro ? "heuristic:style=aggro" : "heuristic:style=control";
}

HeuristicPolicy::Aim HeuristicPolicy::AimOf(const CardDef& c, int activated) const {
  // An Aura helps or harms what it enchants by its static abilities.
  if (activated < 0 && c.enchant != kNoFilter) {
    for (const EffectTemplate& t : c.statics)
      for (const Part& p : t.parts) {
        if (p.layer == PartLayer::kControl || p.remove_all_abilities) return Aim::kHarm;
        if (p.layer == PartLayer::kPtModify && p.has_power && p.power.kind == Value::kConst)
          return p.power.constant < 0 ? Aim::kHarm : Aim::kHelp;
        if (p.add_keywords) return Aim::kHelp;
        if (p.remove_keywords) return Aim::kHarm;
      }
    return Aim::kHelp;
  }
  const AbilityBody* b = MainBody(c, activated);
  if (!b) return Aim::kNone;
  for (const EffectStep& st : b->steps) {
    switch (st.op) {
      case Op::kDamage:
      case Op::kDestroy:
      case Op::kExile:
      case Op::kBounce:
      case Op::kCounterSpell:
      case Op::kCounterUnlessPay:
      case Op::kTap:
      case Op::kTurnFaceDown:
      case Op::kSacrifice:
        return Aim::kHarm;
      case Op::kRegenerate:
      case Op::kPrevent:
      case Op::kUntap:
      case Op::kGainLife:
        return Aim::kHelp;
      case Op::kAddCounters:
        return st.counter_kind == 1 ? Aim::kHarm : Aim::kHelp;
      case Op::kContinuous: {
        const EffectTemplate& t =
            (activated >= 0 || c.has_spell) ? c.continuous[st.continuous] : c.continuous[0];
        for (const Part& p : t.parts) {
          if (p.layer == PartLayer::kControl || p.remove_all_abilities ||
              p.layer == PartLayer::kPtSet)
            return Aim::kHarm;
          if (p.layer == PartLayer::kPtModify && p.has_power && p.power.kind == Value::kConst)
            return p.power.constant < 0 || (p.has_toughness && p.toughness.constant < 0)
                       ? Aim::kHarm
                       : Aim::kHelp;
          if (p.add_keywords) return Aim::kHelp;
        }
        return Aim::kNone;
      }
      default:
        break;
    }
  }
  return Aim::kNone;
}

int HeuristicPolicy::DamageOf(const CardDef& c, int activated) const {
  const AbilityBody* b = MainBody(c, activated);
  int total = 0;
  if (b)
    for (const EffectStep& st : b->steps)
      if (st.op == Op::kDamage) total += st.amount.kind == Value::kX ? 5 : st.amount.constant;
  return total;
}

// Is attacking with this creature sensible? Aggro attacks unless a blocker
// would kill it and survive; control only when nothing can block it well.
bool AttackWorth(const PlayerView& v, ObjId o, bool aggro) {
  const Characteristics* ch = v.Chars(o);
  if (!ch || ch->power <= 0) return false;
  int bad = 0, blockers = 0;
  for (ObjId b : v.Battlefield()) {
    const Characteristics* bc = v.Chars(b);
    if (!bc || !bc->IsCreature() || bc->controller == v.me() || v.Tapped(b)) continue;
    if (Has(ch->keywords, kFlying) && !Has(bc->keywords, kFlying) && !Has(bc->keywords, kReach))
      continue;
    ++blockers;
    if (bc->power >= ch->toughness && bc->toughness > ch->power) ++bad;
  }
  return aggro ? bad == 0 : blockers == 0;
}

bool HeuristicPolicy::AttackIsGood(const PlayerView& v) const {
  for (ObjId o : v.Battlefield()) {
    const Characteristics* ch = v.Chars(o);
    if (!ch || !ch->IsCreature() || ch->controller != v.me() || v.Tapped(o)) continue;
    if (v.Sick(o) && !Has(ch->keywords, kHaste)) continue;
    if (Has(ch->keywords, kDefender)) continue;
    if (AttackWorth(v, o, style_ == Style::kAggro)) return true;
  }
  return false;
}

int HeuristicPolicy::ScoreStart(const PlayerView& v, const Decision& d, const Action& a) {
  const bool aggro = style_ == Style::kAggro;
  const bool main = v.phase() == Phase::kMain && v.active() == v.me();
  switch (a.kind) {
    case ActionKind::kPlayLand:
      return 100;
    case ActionKind::kAttack:
      return AttackIsGood(v) ? 45 : -1;
    case ActionKind::kPhaseEffect:
      return 60;
    case ActionKind::kCast:
    case ActionKind::kActivate: {
      int activated = a.kind == ActionKind::kActivate ? a.index : -1;
      CardId id = a.kind == ActionKind::kCast
                      ? v.CardOf(a.object)
                      : (v.Chars(a.object) ? v.Chars(a.object)->card : kNoCard);
      if (id == kNoCard) return -1;
      const CardDef& c = v.db()[id];
      if (activated < 0 && IsPermanentSpell(c) && c.enchant == kNoFilter)
        return main ? 50 + c.cost.ManaValue() : -1;
      Aim aim = AimOf(c, activated);
      // Does the opponent have a creature worth hitting?
      int dmg = DamageOf(c, activated), best = -1;
      for (ObjId o : v.Battlefield()) {
        const Characteristics* ch = v.Chars(o);
        if (!ch || !ch->IsCreature() || ch->controller == v.me()) continue;
        bool dies = dmg > 0 && ch->toughness - v.Damage(o) <= dmg;
        if (dmg == 0 || dies) best = std::max<int>(best, ch->power);
      }
      bool have_creature = false;
      for (ObjId o : v.Battlefield())
        if (v.Chars(o) && v.Chars(o)->IsCreature() && v.Chars(o)->controller == v.me())
          have_creature = true;
      if (activated < 0 && c.enchant != kNoFilter)
        return main && (aim == Aim::kHarm ? best >= 0 : have_creature) ? 40 : -1;
      if (aim == Aim::kHarm) {
        if (best >= 2 || (best >= 0 && aggro)) return 35;
        if (dmg > 0 && aggro && d.kind == DecisionKind::kNeutral) return 25;  // face
        return -1;
      }
      if (aim == Aim::kNone) return activated >= 0 ? -1 : 30;  // card draw and the like
      return -1;  // help spells wait for a reason (regeneration, prevention)
    }
    default:
      return -1;
  }
}

int HeuristicPolicy::ChooseTarget(const PlayerView& v, const Decision& d) {
  Aim aim = Aim::kNone;
  int dmg = 0;
  if (CardId casting = v.CastingCard(); casting != kNoCard) {
    aim = AimOf(v.db()[casting], v.CastingAbility());
    dmg = DamageOf(v.db()[casting], v.CastingAbility());
  }
  int best = 0, best_score = -1000000;
  for (int i = 0; i < static_cast<int>(d.actions.size()); ++i) {
    const Action& a = d.actions[i];
    int score = 0;
    if (a.kind == ActionKind::kTargetPlayer) {
      bool mine = a.value == v.me();
      score = aim == Aim::kHarm ? (mine ? -100 : (style_ == Style::kAggro ? 30 : 5))
                                : (mine ? 20 : -100);
    } else if (a.kind == ActionKind::kTargetObject) {
      const Characteristics* ch = v.Chars(a.object);
      bool mine = v.Controller(a.object) == v.me();
      int value = ch ? ch->power * 10 + ch->toughness : 0;
      if (v.ZoneOf(a.object) == Zone::kStack) value = 100;  // a spell: counter theirs
      if (aim == Aim::kHarm) {
        score = mine ? -100 - value : value;
        if (ch && dmg > 0 && ch->toughness - v.Damage(a.object) <= dmg) score += 50;
      } else {
        score = mine ? value : -100 - value;
      }
    } else if (a.kind == ActionKind::kDone) {
      score = -50;
    }
    if (score > best_score) best_score = score, best = i;
  }
  return best;
}

int HeuristicPolicy::ChooseAttacker(const PlayerView& v, const Decision& d) {
  int best = -1, best_power = -1;
  for (int i = 0; i < static_cast<int>(d.actions.size()); ++i) {
    const Action& a = d.actions[i];
    if (a.kind != ActionKind::kObject) continue;
    if (!AttackWorth(v, a.object, style_ == Style::kAggro)) continue;
    int power = v.Chars(a.object) ? v.Chars(a.object)->power : 0;
    if (power > best_power) best_power = power, best = i;
  }
  if (best >= 0) return best;
  for (int i = 0; i < static_cast<int>(d.actions.size()); ++i)
    if (d.actions[i].kind == ActionKind::kDone) return i;
  return 0;
}

int HeuristicPolicy::ChooseBlock(const PlayerView& v, const Decision& d) {
  int incoming = 0;
  for (ObjId o : v.Battlefield())
    if (v.game_attacking(o) && v.Chars(o)) incoming += v.Chars(o)->power;
  const bool desperate = incoming >= v.Life(v.me());
  int best = -1, best_score = 0;
  for (int i = 0; i < static_cast<int>(d.actions.size()); ++i) {
    const Action& a = d.actions[i];
    if (a.kind != ActionKind::kBlock) continue;
    const Characteristics* b = v.Chars(a.object);
    const Characteristics* at = v.Chars(static_cast<ObjId>(a.value));
    if (!b || !at) continue;
    bool survives = b->toughness > at->power;
    bool kills = b->power >= at->toughness;
    int score = 0;
    if (survives && kills)
      score = 100 + at->power;
    else if (survives)
      score = 50 + at->power;
    else if (kills && b->power + b->toughness <= at->power + at->toughness)
      score = 40;
    else if (desperate)
      score = 10 + at->power - b->power;
    if (score > best_score) best_score = score, best = i;
  }
  if (best >= 0) return best;
  for (int i = 0; i < static_cast<int>(d.actions.size()); ++i)
    if (d.actions[i].kind == ActionKind::kDone) return i;
  return 0;
}

int HeuristicPolicy::Choose(const PlayerView& v, const Decision& d) {
  const int n = static_cast<int>(d.actions.size());
  if (n <= 1) return 0;
  auto first_of = [&](ActionKind k) {
    for (int i = 0; i < n; ++i)
      if (d.actions[i].kind == k) return i;
    return -1;
  };
  switch (d.kind) {
    case DecisionKind::kNeutral:
    case DecisionKind::kRespond: {
      int best = 0, best_score = 0;
      bool can_pass = d.actions[0].kind == ActionKind::kPass;
      for (int i = 0; i < n; ++i) {
        int s = ScoreStart(v, d, d.actions[i]);
        if (s > best_score) best_score = s, best = i;
      }
      if (!can_pass && best_score <= 0) best = 0;  // a forced phase effect
      return best;
    }
    case DecisionKind::kInterrupt: {
      // Counter the opponent's spell: the newest object on the stack.
      ObjId newest = kNoObj;
      for (ObjId o = 0; o < v.ObjectCount(); ++o)
        if (v.ZoneOf(o) == Zone::kStack &&
            (newest == kNoObj || v.Timestamp(o) > v.Timestamp(newest)))
          newest = o;
      if (newest == kNoObj || v.Controller(newest) == v.me()) return 0;
      for (int i = 0; i < n; ++i) {
        const Action& a = d.actions[i];
        if (a.kind != ActionKind::kCast) continue;
        CardId c = v.CardOf(a.object);
        if (c != kNoCard && AimOf(v.db()[c], -1) == Aim::kHarm) return i;
      }
      return 0;
    }
    case DecisionKind::kReaction: {
      // Regenerate one of our own creatures headed to the graveyard.
      for (ObjId o : v.Battlefield()) {
        const Characteristics* ch = v.Chars(o);
        if (ch && ch->IsCreature() && ch->controller == v.me() && v.Damage(o) >= ch->toughness)
          return 1;
      }
      return 0;
    }
    case DecisionKind::kPrevention:
    case DecisionKind::kTriggerOrder:
      return 0;
    case DecisionKind::kTarget:
      return ChooseTarget(v, d);
    case DecisionKind::kX: {
      int best = 0;
      for (int i = 0; i < n; ++i)
        if (d.actions[i].value > d.actions[best].value) best = i;
      return best;
    }
    case DecisionKind::kChoice: {
      // Copy the strongest creature; otherwise the first option.
      int best = 0, best_power = -100;
      for (int i = 0; i < n; ++i) {
        const Action& a = d.actions[i];
        if (a.kind != ActionKind::kObject || !v.Chars(a.object)) continue;
        if (v.Chars(a.object)->power > best_power) best_power = v.Chars(a.object)->power, best = i;
      }
      return best;
    }
    case DecisionKind::kDiscard: {
      int best = 0, best_mv = -1;
      for (int i = 0; i < n; ++i) {
        CardId c = v.CardOf(d.actions[i].object);
        int mv = c == kNoCard ? 0 : v.db()[c].cost.ManaValue();
        if (mv > best_mv) best_mv = mv, best = i;
      }
      return best;
    }
    case DecisionKind::kAttackers:
      return ChooseAttacker(v, d);
    case DecisionKind::kBlockers:
      return ChooseBlock(v, d);
    case DecisionKind::kOptionalCost:
    case DecisionKind::kPhaseCost: {
      int yes = first_of(ActionKind::kYes);
      return yes >= 0 ? yes : 0;
    }
    default:
      return static_cast<int>(rng_.Below(static_cast<uint32_t>(n)));
  }
}

}  // namespace strata
