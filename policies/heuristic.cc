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
using heuristic_detail::Mana;
using heuristic_detail::MaxX;
using heuristic_detail::Mine;

// Has `o` an optional triggered ability that draws cards (Verduran
// Enchantress)?
static bool OptionalDraw(const PlayerView& v, ObjId o) {
  const Characteristics* ch = o == kNoObj ? nullptr : v.Chars(o);
  if (!ch || ch->card == kNoCard) return false;
  for (const TriggeredAbility& tr : v.db()[ch->card].triggers) {
    if (!tr.has_optional_cost) continue;
    for (const EffectStep& st : tr.body.steps)
      if (st.op == Op::kDraw) return true;
  }
  return false;
}

std::string HeuristicPolicy::Name() const {
  return absl::StrCat(style_ == Style::kAggro ? "heuristic:style=aggro" : "heuristic:style=control",
                      keep_all_ ? ",keep=all" : "");
}

void HeuristicPolicy::Remember(const PlayerView& v, Did did, ObjId o) {
  memory_[next_memory_] = Memory{static_cast<int16_t>(v.turn()), v.phase(), did, o};
  next_memory_ = (next_memory_ + 1) % static_cast<int>(memory_.size());
  memory_objects_ = 0;
  for (const Memory& m : memory_) memory_objects_ |= uint64_t{1} << (m.object & 63);
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
      EvaluateBody(
          v, cx,
          PreventStep(mb) || CombatPreventStep(mb) || heuristic_detail::ChosenSourceStep(*card, mb)
              ? DecisionKind::kPrevention
              : DecisionKind::kRespond,
          a, *card, mb, mode, best);
    }
  }
  if (best.score > 0) plan_ = best;
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
      // (Its first four: T-8.5's targets past them are more_targets'.)
      for (int t = 0; ib && sc != kNoCard && t < std::min<int>(item->target_count, 4); ++t) {
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
              // What its controller must pay: a fixed amount (Force Spike's
              // {1}), or the largest X this player can pay (Power Sink).
              const int demand = st.amount.kind == Value::kConst
                                     ? st.amount.constant * st.amount.times + st.amount.plus
                                     : MaxX(CostOf(c, a), mine);
              if (demand <= opp_mana) effective = false;
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
          // An Aura's "regenerate enchanted creature" is about the creature
          // it is on (Regeneration, The Brute): only when that one is mine.
          ObjId about = a.object;
          for (const EffectStep& st : mb.steps)
            if (st.op == Op::kRegenerate && st.target.kind == Ref::kEnchanted)
              about = v.AttachedTo(a.object);
          if (a.kind == ActionKind::kActivate && about != kNoObj && Mine(v, about)) return i;
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
    case DecisionKind::kSearch:
      return ChooseSearch(v, d);
    case DecisionKind::kSacrifice: {
      // A cost (T-8.1), or Balance's rest (G-19): the permanent worth least
      // to it goes.
      int best = 0, best_worth = INT32_MAX;
      for (int i = 0; i < n; ++i) {
        const int w = heuristic_detail::WorthOf(v, d.actions[i].object);
        if (w < best_worth) best_worth = w, best = i;
      }
      return best;
    }
    case DecisionKind::kMulligan:
      if (keep_all_) return std::max(first_of(ActionKind::kKeep), 0);
      return ChooseOpeningHand(v, d);
    case DecisionKind::kBottom:
      return ChooseOpeningHand(v, d);
    case DecisionKind::kAttackers:
      return ChooseAttacker(v, d);
    case DecisionKind::kBlockers:
      return ChooseBlock(v, d);
    case DecisionKind::kBand:
      return ChooseBand(v, d);
    case DecisionKind::kDivide:
      return ChooseDivide(v, d);
    case DecisionKind::kUntap:
      return ChooseUntap(v, d);  // T-1.8 (heuristic_untap.cc)
    case DecisionKind::kOptionalCost:
    case DecisionKind::kPhaseCost: {
      int yes = first_of(ActionKind::kYes);
      // A phase cost paid for an untap (T-13.1: heuristic_untap.cc).
      if (bool reward = false; yes >= 0 && d.kind == DecisionKind::kPhaseCost) {
        const bool pay = PayForUntap(v, d, yes, &reward);
        if (reward && !pay)
          if (int no = first_of(ActionKind::kNo); no >= 0) return no;
      }
      // T-13.2: a phase cost paid in life in place of its mana (Erosion,
      // offered after the mana) only while the life left is more than it.
      if (yes >= 0 && d.kind == DecisionKind::kPhaseCost && d.actions[yes].value == 1 &&
          v.Life(v.me()) <= 1)
        if (int no = first_of(ActionKind::kNo); no >= 0) return no;
      // "You may draw a card" (Verduran Enchantress: an optional cost of
      // {0}) is declined when the library is nearly out.
      if (yes >= 0 && d.kind == DecisionKind::kOptionalCost && v.LibrarySize(v.me()) <= 2 &&
          OptionalDraw(v, d.actions[yes].object))
        if (int no = first_of(ActionKind::kNo); no >= 0) return no;
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
