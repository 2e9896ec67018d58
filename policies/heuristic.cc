// The heuristic player's way in (HeuristicPolicy::Choose): which file
// answers each kind of decision (heuristic_internal.h lists them); the
// kinds answered here (counters in an interrupt window, regeneration and
// draws in a reaction window, optional and phase costs); the plan made when
// it starts a spell or ability, for the choices of its casting (PlanFor,
// Replan); the context of a decision; and what it did to which object
// lately (Remember), so two spells don't go at one target in one window.
#include "policies/heuristic.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "policies/heuristic_internal.h"

namespace strata {

using heuristic_detail::Available;
using heuristic_detail::CardOfAction;
using heuristic_detail::ClearDecisionMemo;
using heuristic_detail::CostOf;
using heuristic_detail::IsLand;
using heuristic_detail::LandColors;
using heuristic_detail::Mana;
using heuristic_detail::MaxX;
using heuristic_detail::Mine;
using heuristic_detail::PlayerKey;
using heuristic_detail::ToughnessLeft;
using heuristic_detail::WorthOf;

std::string HeuristicPolicy::Name() const {
  return absl::StrCat(style_ == Style::kAggro ? "heuristic:style=aggro" : "heuristic:style=control",
                      keep_all_ ? ",keep=all" : "");
}

void HeuristicPolicy::Remember(const PlayerView& v, Did did, ObjId o) {
  memory_[next_memory_] = Memory{static_cast<int16_t>(v.turn()), v.phase(), did, o};
  next_memory_ = (next_memory_ + 1) % static_cast<int>(memory_.size());
}

bool HeuristicPolicy::Remembers(const PlayerView& v, Did did, ObjId o) const {
  for (const Memory& m : memory_)
    if (m.did == did && m.object == o && m.turn == v.turn() && m.phase == v.phase()) return true;
  return false;
}

bool HeuristicPolicy::PlanFor(const PlayerView& v) const {
  const StackItem* item = v.CastingItem();
  if (!item || item->controller != v.me()) return false;
  if (plan_.kind == ActionKind::kCast)
    return item->from == BodySource::kSpell && item->card == plan_.object;
  if (plan_.kind == ActionKind::kActivate)
    return item->from == BodySource::kActivated && item->source == plan_.object &&
           item->ability == plan_.index;
  return false;
}

HeuristicPolicy::Context HeuristicPolicy::MakeContext(const PlayerView& v,
                                                      DecisionKind window) const {
  Context cx;
  cx.me = v.me();
  cx.opp = Opponent(cx.me);
  cx.my_turn = v.active() == cx.me;
  cx.main = v.phase() == Phase::kMain;
  cx.combat = false;
  for (ObjId o : v.Battlefield()) cx.combat |= v.game_attacking(o);
  cx.sorcery_time = cx.my_turn && cx.main && window == DecisionKind::kNeutral && !cx.combat;
  cx.end_of_their_turn = !cx.my_turn && v.phase() == Phase::kDiscard;
  cx.mana = Available(v, cx.me);
  cx.hand = static_cast<int>(v.MyHand().size());
  // Its own targeted spells still on the stack: one at a time of a kind,
  // since their targets are not in the view (nor, after a Reset, in memory).
  cx.harm_pending = cx.help_pending = false;
  const ObjId casting = v.CastingItem() ? v.CastingItem()->card : kNoObj;
  for (ObjId o : v.Stack()) {
    if (v.ZoneOf(o) != Zone::kStack || o == casting || !Mine(v, o) || v.CardOf(o) == kNoCard)
      continue;
    const CardDef& c = v.db()[v.CardOf(o)];
    if (!c.has_spell) continue;
    const AbilityBody& b = c.spell.modes.empty() ? c.spell : c.spell.modes[0];
    if (b.targets.empty() || b.TargetsSpell()) continue;
    Aim aim = SlotAim(c, b, 0);
    cx.harm_pending |= aim == Aim::kHarm;
    cx.help_pending |= aim == Aim::kHelp;
  }
  return cx;
}

// A casting of its own without a plan (another player chose to start it,
// as a look-ahead does, or a window it did not see): plan it now, for its
// mode, first target and X, as if it had chosen to start it.
void HeuristicPolicy::Replan(const PlayerView& v) {
  const StackItem* item = v.CastingItem();
  if (!item || item->controller != v.me() || PlanFor(v)) return;
  Action a;
  if (item->from == BodySource::kSpell)
    a = Action{ActionKind::kCast, item->card};
  else if (item->from == BodySource::kActivated)
    a = Action{ActionKind::kActivate, item->source, item->ability};
  else
    return;
  const CardDef* card = CardOfAction(v, a);
  if (!card) return;
  const Context cx = MakeContext(v, DecisionKind::kNeutral);
  const AbilityBody* body = ActionBody(*card, a);
  Plan best;
  if (!body) {
    best = Evaluate(v, cx, DecisionKind::kNeutral, a);
  } else {
    const int modes = body->modes.empty() ? 1 : static_cast<int>(body->modes.size());
    for (int m = 0; m < modes; ++m) {
      const int mode = body->modes.empty() ? -1 : m;
      if (item->mode >= 0 && mode != item->mode) continue;
      const AbilityBody& mb = body->modes.empty() ? *body : body->modes[m];
      // A shield is meant for damage on its way.
      EvaluateBody(v, cx, PreventStep(mb) ? DecisionKind::kPrevention : DecisionKind::kRespond, a,
                   *card, mb, mode, best);
    }
  }
  if (best.score > 0) plan_ = best;
}

int HeuristicPolicy::ChooseStart(const PlayerView& v, const Decision& d) {
  Context cx = MakeContext(v, d.kind);
  const int n = static_cast<int>(d.actions.size());
  for (const Action& a : d.actions) cx.can_attack |= a.kind == ActionKind::kAttack;
  int best = -1;
  Plan best_plan;
  for (int i = 0; i < n; ++i) {
    Plan p = Evaluate(v, cx, d.kind, d.actions[i]);
    if (p.score > best_plan.score) best_plan = p, best = i;
  }
  if (best < 0 || best_plan.score <= 0) {
    // Pass when passing is legal; otherwise (a forced phase effect) the first.
    for (int i = 0; i < n; ++i)
      if (d.actions[i].kind == ActionKind::kPass) return i;
    return 0;
  }
  plan_ = best_plan;
  const Action& a = d.actions[best];
  if (a.kind == ActionKind::kActivate) {
    if (activation_turn_ != v.turn()) activation_turn_ = v.turn(), activations_ = 0;
    ++activations_;
  }
  if (const CardDef* card = CardOfAction(v, a)) {
    const CardDef& c = *card;
    const AbilityBody* body = ActionBody(c, a);
    const AbilityBody* mb =
        body && !body->modes.empty() && plan_.mode >= 0 ? &body->modes[plan_.mode] : body;
    Aim aim = mb ? (mb->targets.empty() ? Aim::kNone : SlotAim(c, *mb, 0))
                 : (c.enchant != kNoFilter ? AuraAim(c) : Aim::kNone);
    if (d.kind == DecisionKind::kPrevention && mb && PreventStep(*mb) &&
        PreventStep(*mb)->from != kNoFilter)
      Remember(v, Did::kShielded, plan_.target);
    else if (plan_.target != kNoObj)
      Remember(v, aim == Aim::kHarm ? Did::kHarmed : Did::kHelped, plan_.target);
    else if (plan_.target_player != kNoPlayer && aim == Aim::kHelp)
      Remember(v, Did::kHelped, PlayerKey(plan_.target_player));
  }
  return best;
}

int HeuristicPolicy::ChooseTarget(const PlayerView& v, const Decision& d) {
  const int n = static_cast<int>(d.actions.size());
  // One target is enough: more only split the damage and cost more.
  for (int i = 0; i < n; ++i)
    if (d.actions[i].kind == ActionKind::kDone) return i;
  const StackItem* item = v.CastingItem();
  if (PlanFor(v) && item->slot == 0) {
    for (int i = 0; i < n; ++i) {
      const Action& a = d.actions[i];
      if (plan_.target != kNoObj && a.kind == ActionKind::kTargetObject && a.object == plan_.target)
        return i;
      if (plan_.target_player != kNoPlayer && a.kind == ActionKind::kTargetPlayer &&
          a.value == plan_.target_player)
        return i;
    }
  }
  // No plan (a trigger, an entering permanent's choice, a later target):
  // harm goes to the other side, help to this one.
  Aim aim = item ? CastingAim(v.db(), *item) : Aim::kNone;
  int dmg = 0;
  if (item && item->body_card != kNoCard) {
    if (const AbilityBody* b = ItemModeBody(v.db(), *item))
      dmg = SlotDamage(*b, item->slot, item->x);
  }
  const bool aggro = style_ == Style::kAggro;
  int best = 0, best_score = -1000000;
  for (int i = 0; i < n; ++i) {
    const Action& a = d.actions[i];
    int score = 0;
    if (a.kind == ActionKind::kTargetPlayer) {
      bool mine = a.value == v.me();
      if (aim == Aim::kHarm)
        score = mine ? -1000 : (dmg > 0 && dmg >= v.Life(a.value) ? 1000 : aggro ? 40 : 20);
      else if (aim == Aim::kHelp)
        score = mine ? 20 : -1000;
    } else if (a.kind == ActionKind::kTargetObject) {
      const Characteristics* ch = v.Chars(a.object);
      bool mine = Mine(v, a.object);
      int value = WorthOf(v, a.object);
      if (v.ZoneOf(a.object) == Zone::kStack) value = 100;  // a spell
      if (aim == Aim::kHarm) {
        if (mine) {
          score = -1000 - value;
        } else if (dmg > 0 && ch && ch->IsCreature()) {
          score = ToughnessLeft(v, a.object) <= dmg ? 100 + value : value / 10;
        } else {
          score = value;
        }
      } else if (aim == Aim::kHelp) {
        score = mine ? value : -1000 - value;
      }
    }
    if (score > best_score) best_score = score, best = i;
  }
  return best;
}

int HeuristicPolicy::ChooseX(const PlayerView& v, const Decision& d) {
  const int n = static_cast<int>(d.actions.size());
  int target_x = 1 << 20;  // as large as it can pay
  const StackItem* item = v.CastingItem();
  if (item && item->controller == v.me()) {
    if (const AbilityBody* b = ItemModeBody(v.db(), *item)) {
      for (const EffectStep& st : b->steps)
        if (st.op == Op::kCounterUnlessPay) {
          // Just more than the opponent can pay.
          target_x = Available(v, Opponent(v.me())).total + 1;
        }
    }
  }
  int best = 0;
  for (int i = 0; i < n; ++i) {
    int x = d.actions[i].value;
    if (x <= target_x && x > d.actions[best].value) best = i;
  }
  return best;
}

int HeuristicPolicy::ChooseChoice(const PlayerView& v, const Decision& d) {
  const int n = static_cast<int>(d.actions.size());
  // A mode: the planned one.
  if (PlanFor(v) && plan_.mode >= 0)
    for (int i = 0; i < n; ++i)
      if (d.actions[i].kind == ActionKind::kNumber && d.actions[i].value == plan_.mode + 1)
        return i;
  // An object: an entering copy takes the best creature; an exile the
  // opponent's best.
  bool exile = false;
  for (ObjId o : v.Stack())
    if (v.ZoneOf(o) == Zone::kStack && Mine(v, o) && v.CardOf(o) != kNoCard &&
        v.db()[v.CardOf(o)].enters.choose == ChoiceKind::kExile)
      exile = true;
  int best = 0, best_score = -1000000;
  bool any_object = false;
  for (int i = 0; i < n; ++i) {
    const Action& a = d.actions[i];
    if (a.kind != ActionKind::kObject || !v.Chars(a.object)) continue;
    any_object = true;
    int score = WorthOf(v, a.object);
    if (exile && Mine(v, a.object)) score = -1000 - score;
    if (score > best_score) best_score = score, best = i;
  }
  return any_object ? best : 0;
}

// A discard keeps what wins the game: spare lands go first once there are
// five, then a spell whose colours no land of its (in play or in hand)
// makes, then the dearest, where a second copy of a spell counts as dearer
// and a creature as cheaper (a control deck that threw away its Serra
// Angels to keep four Counterspells decked itself).
int HeuristicPolicy::ChooseDiscard(const PlayerView& v, const Decision& d) {
  const int n = static_cast<int>(d.actions.size());
  int lands = 0;
  ColorMask sources = 0;
  for (ObjId o : v.Battlefield())
    if (v.Chars(o) && Mine(v, o) && Has(v.Chars(o)->types, kLand)) {
      ++lands;
      sources |= LandColors(v, o);
    }
  for (ObjId o : v.MyHand())
    if (IsLand(v, o)) sources |= LandColors(v, o);
  int best = 0, best_score = -1000;
  for (int i = 0; i < n; ++i) {
    const ObjId o = d.actions[i].object;
    CardId c = v.CardOf(o);
    if (c == kNoCard) continue;
    const CardDef& card = v.db()[c];
    int score;
    if (Has(card.types, kLand)) {
      score = lands >= 5 ? 100 : -10;
    } else {
      score = card.cost.ManaValue();
      for (int col = 0; col < kColorCount; ++col)
        if (card.cost.colored[col] > 0 && !Has(sources, col)) score += 20;
      if (Has(card.types, kCreature)) score -= 3;
      for (ObjId h : v.MyHand())
        if (h != o && v.CardOf(h) == c) {
          score += 3;
          break;
        }
    }
    if (score > best_score) best_score = score, best = i;
  }
  return best;
}

int HeuristicPolicy::Choose(const PlayerView& v, const Decision& d) {
  ClearDecisionMemo();
  const int n = static_cast<int>(d.actions.size());
  if (n <= 1) return 0;
  auto first_of = [&](ActionKind k) {
    for (int i = 0; i < n; ++i)
      if (d.actions[i].kind == k) return i;
    return -1;
  };
  switch (d.kind) {
    case DecisionKind::kInterrupt: {
      // Counter the opponent's spell being cast when it is worth a card:
      // mana value 2 or more, or it harms this player's side.
      const StackItem* item = v.CastingItem();
      if (!item || item->controller == v.me() || item->card == kNoObj) break;
      // One counter is enough: a second on the same spell is a card thrown away.
      if (Remembers(v, Did::kHarmed, item->card)) break;
      CardId sc = v.CardOf(item->card);
      int worth = sc == kNoCard ? 0 : v.db()[sc].cost.ManaValue() + item->x;
      // Each target of it the spell harms on this player's side adds to it
      // (its targets are chosen before the interrupt window).
      const AbilityBody* ib = ItemModeBody(v.db(), *item);
      for (int t = 0; ib && sc != kNoCard && t < item->target_count; ++t) {
        const Target& tg = item->targets[t];
        if (SlotAim(v.db()[item->body_card], *ib, item->target_slot[t]) != Aim::kHarm) continue;
        if ((tg.kind == Target::kPlayer && tg.player == v.me()) ||
            (tg.kind == Target::kObject && tg.obj.id < v.ObjectCount() &&
             v.ZoneOf(tg.obj.id) != Zone::kNone && Mine(v, tg.obj.id)))
          worth += 3;
      }
      if (worth < 2) break;
      const Mana mine = Available(v, v.me());
      const int opp_mana = Available(v, Opponent(v.me())).total;
      for (int i = 0; i < n; ++i) {
        const Action& a = d.actions[i];
        const CardDef* card = CardOfAction(v, a);
        const AbilityBody* body = card ? ActionBody(*card, a) : nullptr;
        if (!body) continue;
        const CardDef& c = *card;
        const int modes = body->modes.empty() ? 1 : static_cast<int>(body->modes.size());
        for (int m = 0; m < modes; ++m) {
          const AbilityBody& mb = body->modes.empty() ? *body : body->modes[m];
          const int mode = body->modes.empty() ? -1 : m;
          if (!mb.TargetsSpell() || SlotAim(c, mb, 0) != Aim::kHarm) continue;
          if (!v.CouldTarget(a, 0, item->card, mode)) continue;
          bool effective = true;
          for (const EffectStep& st : mb.steps) {
            if (st.target.kind != Ref::kTarget || st.target.index != 1) continue;
            if (st.condition != kNoFilter && !v.Matches(st.condition, item->card, a.object, v.me()))
              effective = false;
            if (st.op == Op::kCounterUnlessPay) {
              if (MaxX(CostOf(c, a), mine) <= opp_mana) effective = false;
            }
          }
          if (!effective) continue;
          plan_ = Plan{a.kind, a.object, a.index, mode, item->card, kNoPlayer, -1, 1};
          Remember(v, Did::kHarmed, item->card);
          return i;
        }
      }
      break;
    }
    case DecisionKind::kReaction: {
      // Regenerate a creature of mine headed for the graveyard; look
      // further on a draw when the X is worth it.
      int lethal_mine = 0, lethal_theirs = 0;
      for (ObjId o : v.Battlefield()) {
        const Characteristics* ch = v.Chars(o);
        if (ch && ch->IsCreature() && v.Damage(o) >= ch->toughness)
          ++(Mine(v, o) ? lethal_mine : lethal_theirs);
      }
      const Mana mine = Available(v, v.me());
      for (int i = 0; i < n; ++i) {
        const Action& a = d.actions[i];
        const CardDef* card = CardOfAction(v, a);
        const AbilityBody* body = card ? ActionBody(*card, a) : nullptr;
        if (!body) continue;
        const CardDef& c = *card;
        const AbilityBody& mb = body->modes.empty() ? *body : body->modes[0];
        if (mb.reaction == Reaction::kDraw) {
          if (CostOf(c, a).x_count == 0 || MaxX(CostOf(c, a), mine) >= 2) return i;
          continue;
        }
        if (mb.reaction != Reaction::kDestroy) continue;
        bool helps = false;
        for (const EffectStep& st : mb.steps) helps |= st.op == Op::kRegenerate;
        if (!helps) continue;
        // Its own ability is about itself (the engine offers it only then);
        // a targeted one only when the creature dying is surely mine.
        if (mb.targets.empty()) {
          if (a.kind == ActionKind::kActivate && Mine(v, a.object)) return i;
        } else if (lethal_mine == 1 && lethal_theirs == 0) {
          return i;
        }
      }
      break;
    }
    case DecisionKind::kNeutral:
    case DecisionKind::kRespond:
    case DecisionKind::kPrevention:
      return ChooseStart(v, d);
    case DecisionKind::kTriggerOrder:
      return 0;
    case DecisionKind::kTarget:
      Replan(v);
      return ChooseTarget(v, d);
    case DecisionKind::kX:
      Replan(v);
      if (PlanFor(v) && plan_.x >= 0) {
        int best = 0;
        for (int i = 0; i < n; ++i)
          if (d.actions[i].value <= plan_.x && d.actions[i].value > d.actions[best].value) best = i;
        return best;
      }
      return ChooseX(v, d);
    case DecisionKind::kChoice:
      Replan(v);
      return ChooseChoice(v, d);
    case DecisionKind::kDiscard:
      return ChooseDiscard(v, d);
    case DecisionKind::kMulligan:
      if (keep_all_) return std::max(first_of(ActionKind::kKeep), 0);
      return ChooseOpeningHand(v, d);
    case DecisionKind::kBottom:
      return ChooseOpeningHand(v, d);
    case DecisionKind::kAttackers:
      return ChooseAttacker(v, d);
    case DecisionKind::kBlockers:
      return ChooseBlock(v, d);
    case DecisionKind::kOptionalCost:
    case DecisionKind::kPhaseCost: {
      int yes = first_of(ActionKind::kYes);
      return yes >= 0 ? yes : 0;
    }
    default: {
      // A decision this player does not know: weigh what may be started
      // like any window, otherwise decline.
      bool starts = false;
      for (const Action& a : d.actions)
        starts |= a.kind == ActionKind::kCast || a.kind == ActionKind::kActivate;
      if (starts) return ChooseStart(v, d);
      break;
    }
  }
  for (ActionKind k : {ActionKind::kPass, ActionKind::kNo, ActionKind::kDone})
    if (int i = first_of(k); i >= 0) return i;
  return 0;
}

}  // namespace strata
