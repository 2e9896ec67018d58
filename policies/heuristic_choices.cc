// The heuristic's answers to what to start in a window (ChooseStart: the
// best of Evaluate's plans, remembered), to the choices of a casting under
// way (ChooseTarget, ChooseX, ChooseChoice: the plan's, else harm to the
// other side and help to its own), and to a discard (ChooseDiscard).

#include "engine/words.h"
#include "policies/heuristic_internal.h"

namespace strata {

using heuristic_detail::Available;
using heuristic_detail::CardOfAction;
using heuristic_detail::IsLand;
using heuristic_detail::LandColors;
using heuristic_detail::Mine;
using heuristic_detail::PlayerKey;
using heuristic_detail::ToughnessLeft;
using heuristic_detail::WorthOf;

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
  if (a.kind == ActionKind::kActivate || a.kind == ActionKind::kCast) {
    if (activation_turn_ != v.turn()) activation_turn_ = v.turn(), activations_ = 0, casts_ = 0;
    ++(a.kind == ActionKind::kCast ? casts_ : activations_);
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
    if (d.actions[i].kind == ActionKind::kDone) {
      // T-8.5: exactly X targets take them one by one, "done" from the start.
      if (const int x = heuristic_detail::ChooseXTarget(v, d); x >= 0) [[unlikely]]
        return x;
      return i;
    }
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
  // T-8.4: the basic land type an Aura of mine sets as it enters
  // (Phantasmal Terrain; heuristic_targets.cc).
  if (n > 0 && d.actions[0].kind == ActionKind::kWord && BasicLandColor(d.actions[0].value))
    if (const int i = heuristic_detail::ChooseLandType(v, d); i >= 0) return i;
  // A mode: the planned one.
  if (PlanFor(v) && plan_.mode >= 0)
    for (int i = 0; i < n; ++i)
      if (d.actions[i].kind == ActionKind::kNumber && d.actions[i].value == plan_.mode + 1)
        return i;
  // T-10.2: the color the plan's mana ability makes.
  if (PlanFor(v) && plan_.mana_color >= 0)
    for (int i = 0; i < n; ++i)
      if (d.actions[i].kind == ActionKind::kWord &&
          d.actions[i].value == ColorWord(plan_.mana_color))
        return i;
  // "A source of your choice" (T-4.1): the planned one, else the source of
  // the most damage on its way to this player.
  if (const StackItem* item = v.CastingItem();
      item && item->body_card != kNoCard && ItemBody(v.db(), *item) &&
      heuristic_detail::ChosenSourceStep(v.db()[item->body_card], *ItemBody(v.db(), *item))) {
    int amount = 0;
    ObjId want = PlanFor(v) && plan_.source_choice != kNoObj
                     ? plan_.source_choice
                     : heuristic_detail::BiggestPendingSource(v, v.me(), kNoObj, &amount);
    for (int i = 0; i < n; ++i)
      if (d.actions[i].kind == ActionKind::kObject && d.actions[i].object == want) {
        Remember(v, Did::kShielded, want);
        return i;
      }
  }
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
    // G-13: a copy of a legend in play would go at once.
    if (!exile && heuristic_detail::CopyLostToLegendRule(v, a.object)) [[unlikely]]
      score = -1000 - score;
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

// A card to find in its own library (G-3): a land while it has fewer than
// five in play and hand, of a colour its hand needs and its lands lack
// first; else the most expensive spell it can cast by next turn, then the
// cheapest of those it can't (Demonic Tutor). It always finds one: a
// search's "done" only thins the library less.
int HeuristicPolicy::ChooseSearch(const PlayerView& v, const Decision& d) {
  const int n = static_cast<int>(d.actions.size());
  int lands = 0;
  ColorMask sources = 0, needed = 0;
  for (ObjId o : v.Battlefield())
    if (v.Chars(o) && Mine(v, o) && Has(v.Chars(o)->types, kLand)) {
      ++lands;
      sources |= LandColors(v, o);
    }
  for (ObjId o : v.MyHand()) {
    const CardId c = v.CardOf(o);
    if (c == kNoCard) continue;
    if (IsLand(v, o)) {
      ++lands;
      sources |= LandColors(v, o);
      continue;
    }
    for (int col = 0; col < kColorCount; ++col)
      if (v.db()[c].cost.colored[col] > 0) needed |= 1u << col;
  }
  int best = -1, best_score = INT32_MIN;
  for (int i = 0; i < n; ++i) {
    const ObjId o = d.actions[i].object;
    const CardId c = d.actions[i].kind == ActionKind::kObject ? v.CardOf(o) : kNoCard;
    if (c == kNoCard) continue;
    const CardDef& card = v.db()[c];
    int score;
    if (Has(card.types, kLand)) {
      const ColorMask makes = LandColors(v, o);
      score = (lands < 5 ? 60 : 5) + ((makes & needed & ~sources) ? 25 : 0) +
              ((makes & ~sources) ? 5 : 0);
    } else {
      const int mv = card.cost.ManaValue();
      score = mv <= lands + 1 ? 30 + 4 * mv : 20 - mv;
      if (Has(card.types, kCreature)) score += 3;
    }
    if (score > best_score) best_score = score, best = i;
  }
  if (best >= 0) return best;
  for (int i = 0; i < n; ++i)
    if (d.actions[i].kind == ActionKind::kDone) return i;
  return 0;
}

}  // namespace strata
