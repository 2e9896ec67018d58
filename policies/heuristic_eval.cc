// What the heuristic thinks starting each action is worth (Evaluate): a
// land, an attack, a permanent spell, and the body of every spell or
// ability by what its effects do (EvaluateBody: prevention, rituals,
// sweeps, removal and burn, pumps, draws, Equipment, other help). The best
// becomes the plan its later choices follow (heuristic_choices.cc).

#include <algorithm>
#include <vector>

#include "policies/heuristic_internal.h"

namespace strata {

using heuristic_detail::Affords;
using heuristic_detail::BurnReach;
using heuristic_detail::CardOfAction;
using heuristic_detail::CombatDamageTo;
using heuristic_detail::CostOf;
using heuristic_detail::IncomingInFight;
using heuristic_detail::InRange;
using heuristic_detail::IsFast;
using heuristic_detail::IsLand;
using heuristic_detail::LostToStateTrigger;
using heuristic_detail::LostToUniqueRules;
using heuristic_detail::Mana;
using heuristic_detail::ManaColorsOf;
using heuristic_detail::MaxX;
using heuristic_detail::Mine;
using heuristic_detail::MinePermanent;
using heuristic_detail::PhaseSacrificeUnfed;
using heuristic_detail::PlayerKey;
using heuristic_detail::Regenerates;
using heuristic_detail::TargetsCreatures;
using heuristic_detail::ToughnessLeft;
using heuristic_detail::Unblocked;
using heuristic_detail::WorthOf;

namespace {

// More spells than a turn of the era ever casts: past it, a spell comes
// back for free each time (a loop the evaluation does not see).
constexpr int kMaxCastsInATurn = 24;

// The damage a permanent's triggers would deal the opponent now when they
// count the cards in a hand (Black Vise, The Rack: `{ count = { zones =
// ["hand"], owner = ... } }`), the most of them; -1 when it has none. Such
// a permanent is cast while it would hurt, and waits otherwise.
int HandDamageNow(const PlayerView& v, const CardDef& c, Player me) {
  int most = -1;
  for (const TriggeredAbility& tr : c.triggers)
    for (const EffectStep& st : tr.body.steps) {
      if (st.op != Op::kDamage || st.target.kind != Ref::kOpponent ||
          st.amount.kind != Value::kCount)
        continue;
      const Filter& f = v.db().filter(st.amount.filter);
      if (f.zones != (1u << static_cast<int>(Zone::kHand)) || f.owner < 0 || f.types ||
          !f.subtypes.empty())
        continue;
      const Player whose = f.owner == 0 ? me : Opponent(me);
      most = std::max(most, std::max(0, st.amount.Scale(v.HandSize(whose))));
    }
  return most;
}

// T-10.1: a symmetric punisher (Manabarbs, Power Surge): a trigger on any
// player's land tapped for mana, or on each player's upkeep, that damages
// that player.
bool HurtsEachPlayer(const CardDef& c) {
  for (const TriggeredAbility& tr : c.triggers) {
    if (!tr.for_mana && !(tr.event == EventKind::kPhaseBegin && tr.player < 0)) continue;
    for (const EffectStep& st : tr.body.steps)
      if (st.op == Op::kDamage && st.target.kind == Ref::kEventController) return true;
  }
  return false;
}

// E-5.1: a punisher of land entries (Ankh of Mishra: 2 damage to the
// controller of each land that enters) hurts whoever still plays lands.
bool PunishesLandEntries(const CardDef& c) {
  for (const TriggeredAbility& tr : c.triggers) {
    if (tr.event != EventKind::kZoneChange || tr.to != Zone::kBattlefield) continue;
    for (const EffectStep& st : tr.body.steps)
      if (st.op == Op::kDamage && st.target.kind == Ref::kEventController) return true;
  }
  return false;
}

bool LandInHand(const PlayerView& v) {
  const auto& hand = v.MyHand();
  return std::any_of(hand.begin(), hand.end(), [&](ObjId o) { return IsLand(v, o); });
}

int LandsOf(const PlayerView& v, Player p, bool untapped_only) {
  int n = 0;
  for (ObjId o : v.Battlefield()) {
    const Characteristics* ch = v.Chars(o);
    if (ch && ch->controller == p && Has(ch->types, kLand) && !(untapped_only && v.Tapped(o))) ++n;
  }
  return n;
}

// What a pump of +p/+t on my creature o gains in its fight now.
int PumpGain(const PlayerView& v, ObjId o, int p, int t) {
  const Characteristics* ch = v.Chars(o);
  if (!ch || !ch->IsCreature()) return 0;
  ObjId foe;
  int incoming = IncomingInFight(v, o, &foe);
  if (Unblocked(v, o)) {
    const Player opp = Opponent(v.me());
    int dmg = CombatDamageTo(v, opp);
    return p > 0 && dmg < v.Life(opp) && dmg + p >= v.Life(opp) ? 1000 : 0;
  }
  if (foe == kNoObj) return 0;
  int left = ToughnessLeft(v, o), gain = 0;
  bool dies_now = incoming >= left, dies_after = incoming >= left + t;
  if (dies_now && !dies_after) gain += WorthOf(v, o);
  // A pump that lowers toughness (Blood Lust) may kill what survived.
  if (t < 0 && !dies_now && dies_after) gain -= WorthOf(v, o);
  int foe_left = ToughnessLeft(v, foe);
  if (ch->power < foe_left && ch->power + p >= foe_left) gain += WorthOf(v, foe);
  return gain;
}

// The opponent's spell resolving or waiting on the stack that deals damage
// (its newest), and how much (X spells: a guess).
ObjId OpposingDamageSpell(const PlayerView& v, int* amount) {
  ObjId best = kNoObj;
  *amount = 0;
  for (ObjId o : v.Stack()) {
    if (v.ZoneOf(o) != Zone::kStack || Mine(v, o)) continue;
    CardId c = v.CardOf(o);
    if (c == kNoCard || !v.db()[c].has_spell) continue;
    const CardDef& card = v.db()[c];
    const AbilityBody& b = card.spell.modes.empty() ? card.spell : card.spell.modes[0];
    int dmg = b.targets.empty() ? 0 : SlotDamage(b, 0, 4);
    if (dmg <= 0) continue;
    if (best == kNoObj || v.Timestamp(o) > v.Timestamp(best)) best = o, *amount = dmg;
  }
  return best;
}

// The object of mine an opposing damage spell most likely aims at: the most
// valuable creature it would kill (the opponent plays like this player), or
// kNoObj for my face.
ObjId GuessDamageTarget(const PlayerView& v, int amount) {
  ObjId best = kNoObj;
  int best_value = 0;
  for (ObjId o : v.Battlefield()) {
    const Characteristics* ch = v.Chars(o);
    if (!ch || !ch->IsCreature() || !MinePermanent(v, *ch) || ToughnessLeft(v, o) > amount)
      continue;
    if (int value = WorthOf(v, o); value > best_value) best_value = value, best = o;
  }
  return best;
}

}  // namespace

namespace heuristic_detail {

// T-10.1: the largest mana value of a card in my hand that mana `after`
// casts and `now` does not; -1 for none.
int EnabledBy(const PlayerView& v, const Mana& now, const Mana& after, ObjId except) {
  int enabled = -1;
  for (ObjId h : v.MyHand()) {
    if (h == except) continue;
    CardId hc = v.CardOf(h);
    if (hc == kNoCard) continue;
    const CardDef& card = v.db()[hc];
    if (Has(card.types, kLand) || Affords(card.cost, now) || !Affords(card.cost, after)) continue;
    enabled = std::max(enabled, static_cast<int>(card.cost.ManaValue()));
  }
  return enabled;
}

}  // namespace heuristic_detail

using heuristic_detail::EnabledBy;

// Is the opponent low (10 life or less) and behind this player in life?
// Then aggro's burn finishes it rather than trading with its creatures:
// each turn the game goes on is a draw more towards a threat burn can't
// answer. Random black_removal cast a Nightmare in 44 of the 45 games it
// won against heuristic red_burn (seed 1), mostly at 7 to 13 life against
// red_burn's 17 to 20, after red_burn had spent its burn on Black Knights
// and Hypnotic Specters and held only Terrors that can't hit black.
// The colors an Aura's static abilities give the enchanted object
// protection from (the Wards).
static ColorMask GrantedProtection(const CardDef& c) {
  ColorMask colors = 0;
  for (const EffectTemplate& t : c.statics)
    for (const Part& part : t.parts)
      if (part.layer == PartLayer::kAbility) colors |= ProtectionColors(part.add_keywords);
  return colors;
}

// The colors the opponent shows: of their permanents (blockers, removal on
// the table) and of the cards in their graveyard (removal they play).
static ColorMask OpponentColors(const PlayerView& v) {
  ColorMask colors = 0;
  for (ObjId o : v.Battlefield())
    if (const Characteristics* ch = v.Chars(o); ch && !MinePermanent(v, *ch)) colors |= ch->colors;
  for (ObjId g : v.Graveyard(Opponent(v.me())))
    if (CardId id = v.CardOf(g); id != kNoCard) colors |= v.db()[id].colors;
  return colors;
}

// A protection Aura fits a creature that lacks some of that protection and
// wears none of its controller's Auras of those colors (the protection
// would knock it off; an opponent's one going is a gain).
static bool WardFits(const PlayerView& v, ObjId o, const Characteristics& ch, ColorMask guards) {
  if (!ch.IsCreature() || (ProtectionColors(ch.keywords) & guards) == guards) return false;
  for (ObjId a : v.Battlefield()) {
    if (v.AttachedTo(a) != o) continue;
    const Characteristics* ach = v.Chars(a);
    if (ach && MinePermanent(v, *ach) && (ach->colors & guards)) return false;
  }
  return true;
}

// Does the body do nothing but mark its target "can't be regenerated this
// turn" (Hurr Jackal)?
static bool OnlyMarksNoRegeneration(const AbilityBody& body) {
  if (body.steps.empty() || body.targets.empty()) return false;
  for (const EffectStep& st : body.steps)
    if (st.op != Op::kCantBeRegenerated) return false;
  return true;
}

static bool Closing(const PlayerView& v) {
  const int theirs = v.Life(Opponent(v.me()));
  return theirs <= 10 && theirs < v.Life(v.me());
}

// Has the opponent a creature this player can neither block (a flier and
// no flier or reach of its own) nor kill with the burn in its hand? Then
// the game is a race, and burn kept for creatures is burn wasted.
static bool OutOfAnswers(const PlayerView& v, const Mana& mana) {
  bool air = false;
  for (ObjId o : v.Battlefield()) {
    const Characteristics* ch = v.Chars(o);
    if (ch && ch->IsCreature() && MinePermanent(v, *ch) &&
        (Has(ch->keywords, kFlying) || Has(ch->keywords, kReach)))
      air = true;
  }
  const int burn = BurnReach(v, mana, false, /*creatures=*/true);
  for (ObjId o : v.Battlefield()) {
    const Characteristics* ch = v.Chars(o);
    if (!ch || !ch->IsCreature() || MinePermanent(v, *ch) || ch->power < 2) continue;
    if (Has(ch->keywords, kFlying) && !air && ToughnessLeft(v, o) > burn) return true;
  }
  return false;
}

// A refill (G-4: Wheel of Fortune, Timetwister, Winds of Change): every
// hand discarded or shuffled in, then each player draws. -1: not one. It
// pays when it gives this player more new cards than the opponent: with N
// drawn, (N - its hand left) against (N - theirs), so when the opponent
// holds more (or it holds nothing and they no fewer); one that draws as
// many as each put in gives no cards, only new ones, worth it for a hand
// of lands alone with four lands in play. Never when the draws could empty
// its library.
int HeuristicPolicy::RefillScore(const PlayerView& v, const Context& cx, const AbilityBody& body,
                                 bool spell) {
  int draw = -1;
  bool refill = false;
  for (const EffectStep& st : body.steps) {
    if (st.target.kind != Ref::kEachPlayer) continue;
    if (st.op == Op::kDiscardHand) refill = true;
    if (st.op == Op::kShuffleIn && (st.zones & (1u << static_cast<int>(Zone::kHand)))) {
      refill = true;
      draw = st.draw;
    }
    if (st.op == Op::kDraw && st.amount.kind == Value::kConst) draw = st.amount.constant;
  }
  if (!refill) return -1;
  const int mine = v.HandSize(cx.me) - (spell ? 1 : 0);
  const int theirs = v.HandSize(cx.opp);
  if (draw == EffectStep::kDrawAsMany) {
    int lands_in_hand = 0, lands = 0;
    for (ObjId o : v.MyHand()) lands_in_hand += IsLand(v, o);
    for (ObjId o : v.Battlefield())
      lands += v.Chars(o) && Mine(v, o) && Has(v.Chars(o)->types, kLand);
    return mine >= 2 && lands_in_hand >= mine && lands >= 4 ? 15 : 0;
  }
  if (draw <= 0 || v.LibrarySize(cx.me) < draw + 3) return 0;
  const int advantage = theirs - mine;
  if (advantage >= 2 || (mine == 0 && advantage >= 0)) return 20 + 5 * std::min(advantage, 7);
  return 0;
}

// Fog and Maze of Ith (T-7.2), in a prevention step: Fog when the combat
// damage coming would kill this player or takes clearly more from it than
// from the opponent; a targeted one on the attacker whose prevented damage
// is worth most: an opponent's biggest unblocked attacker (or one about to
// kill a blocker of ours), or an attacker of ours about to die.
void HeuristicPolicy::EvaluateCombatPrevention(const PlayerView& v, const Context& cx,
                                               const Action& a, const AbilityBody& body, int mode,
                                               Plan& p, Plan& best) {
  auto offer = [&](int score) {
    p.score = score;
    if (score > best.score) best = p;
  };
  if (body.targets.empty()) {
    const int to_me = CombatDamageTo(v, cx.me);
    // What each side loses in the fights, and the damage to this player.
    int lost = 0, killed = 0;
    for (ObjId o : v.Battlefield()) {
      const Characteristics* ch = v.Chars(o);
      if (!ch || !ch->IsCreature()) continue;
      ObjId foe;
      if (IncomingInFight(v, o, &foe) < ToughnessLeft(v, o) || foe == kNoObj) continue;
      (Mine(v, o) ? lost : killed) += WorthOf(v, o);
    }
    if (to_me >= v.Life(cx.me))
      offer(200);
    else if (to_me * 10 + lost - killed >= 60)
      offer(40 + (to_me * 10 + lost - killed) / 10);
    return;
  }
  PlayerView::TargetsOf could_target(v, a, 0, mode);
  int best_gain = 0;
  ObjId pick = kNoObj;
  for (ObjId o : v.Battlefield()) {
    const Characteristics* ch = v.Chars(o);
    if (!ch || !v.game_attacking(o) || !could_target.Could(o)) continue;
    if (Remembers(v, Did::kHarmed, o) || Remembers(v, Did::kHelped, o)) continue;
    int gain = 0;
    if (!Mine(v, o)) {
      // Its damage to this player, or to a blocker of ours it would kill.
      if (Unblocked(v, o)) gain = std::max<int>(0, ch->power) * 10;
      for (ObjId b : v.Battlefield())
        if (b != o && v.Blocking(b) == o && Mine(v, b) &&
            std::max<int>(0, ch->power) >= ToughnessLeft(v, b))
          gain = std::max(gain, WorthOf(v, b));
    } else {
      ObjId foe;
      if (IncomingInFight(v, o, &foe) >= ToughnessLeft(v, o) && foe != kNoObj) gain = WorthOf(v, o);
    }
    if (gain > best_gain) best_gain = gain, pick = o;
  }
  if (pick == kNoObj || best_gain < 20) return;
  p.target = pick;
  p.target_player = kNoPlayer;
  offer(60 + best_gain / 10);
}

void HeuristicPolicy::EvaluateBody(const PlayerView& v, const Context& cx, DecisionKind window,
                                   const Action& a, const CardDef& c, const AbilityBody& body,
                                   int mode, Plan& best) {
  const bool aggro = style_ == Style::kAggro;
  const bool spell = a.kind == ActionKind::kCast;
  const ObjId source = a.object;
  if (EvaluateGraveyard(v, cx, a, c, &body, mode, best)) return;  // G-9: Raise Dead
  if (EvaluateTokens(v, cx, a, c, body, mode, best)) return;      // G-12: The Hive
  // Rocket Launcher (heuristic_delayed.cc): only a card with "next time"
  // effects may destroy its own source so.
  if (!c.next_times.empty()) {
    if (!spell && EvaluateSelfDoomed(v, cx, a, c, body, mode, best)) return;
    // T-7.5: Nettling Imp, Siren's Call, Stone Giant (heuristic_attacks3.cc).
    if (EvaluateCarriedDoom(v, cx, a, c, body, mode, best)) return;
  }
  // Recall, Reset, Dust to Dust (heuristic_oslist.cc): only a spell that
  // could be one is asked.
  if (spell &&
      (c.cost.x_count > 0 || c.spell_turn >= 0 ||
       (!body.targets.empty() && body.targets[0].min > 1)) &&
      EvaluateOslist(v, cx, a, c, body, mode, best))
    return;
  // G-8.3, G-8.4 (heuristic_counters3.cc): only a card that has such a rule.
  if (!spell && (c.mana_cards & (CardDef::kAnyPlayer | CardDef::kPreventRemoved))) [[unlikely]]
    if (EvaluateCounters3(v, cx, a, c, body, mode, best)) return;
  // Counters as a resource (G-8): heuristic_counters.cc, for the abilities
  // that store or spend them.
  if (!spell &&
      (c.activated[a.index].remove_counter_kind >= 0 ||
       (!body.steps.empty() && body.steps[0].op == Op::kAddCounters)) &&
      EvaluateCounters(v, cx, window, a, c, body, mode, best))
    return;
  const ManaCost& cost = CostOf(c, a);
  const bool tap_ability = !spell && c.activated[a.index].tap;
  Plan p = Plan::For(a, mode);
  auto offer = [&](int score) {
    p.score = score;
    if (score > best.score) best = p;
  };
  // T-1.6: an extra turn (heuristic_power.cc).
  if (spell && !body.steps.empty() && body.steps[0].op == Op::kExtraTurn) {
    if (EvaluateExtraTurn(cx, body, p) && p.score > best.score) best = p;
    return;
  }
  // Mana left for X once the rest of the cost is paid.
  const int x = cost.x_count > 0 ? MaxX(cost, cx.mana) : 0;
  if (cost.x_count > 0) {
    if (x <= 0) return;
    p.x = x;
  }

  // The damage taken this turn as a number (T-4.1: Simulacrum).
  if (c.tallies_damage && EvaluateTally(v, cx, a, c, body, mode, p, best)) return;
  // "A source of your choice" (T-4.1) waits for a prevention step too.
  // (Only a card with "next time" effects may have one: most return here.)
  if (const EffectStep* chosen =
          c.next_times.empty() ? nullptr : heuristic_detail::ChosenSourceStep(c, body)) {
    if (window == DecisionKind::kPrevention)
      EvaluateSourceChoice(v, cx, a, c, body, *chosen, mode, p, best);
    return;
  }
  // "Prevent all combat damage" (T-7.2) waits for a prevention step, where
  // the combat damage is assigned and known.
  if (CombatPreventStep(body)) {
    if (window == DecisionKind::kPrevention)
      EvaluateCombatPrevention(v, cx, a, body, mode, p, best);
    return;
  }
  // Prevention and regeneration wait for their own windows.
  if (window == DecisionKind::kPrevention) {
    const EffectStep* st = PreventStep(body);
    if (!st) return;
    int amount = st->amount.kind == Value::kConst ? st->amount.constant : 0;
    int spell_amount = 0;
    ObjId spell_obj = OpposingDamageSpell(v, &spell_amount);
    if (st->from != kNoFilter) {
      // A shield against a kind of source, for this player: one per source
      // about to deal damage to it.
      for (ObjId s = 0; s < v.ObjectCount(); ++s) {
        bool hits = false;
        if (v.ZoneOf(s) == Zone::kBattlefield && v.game_attacking(s) && !Mine(v, s))
          hits = Unblocked(v, s);
        if (s == spell_obj && spell_obj != kNoObj)
          hits = GuessDamageTarget(v, spell_amount) == kNoObj;
        if (!hits || Remembers(v, Did::kShielded, s) || !v.Matches(st->from, s, source, cx.me))
          continue;
        p.target = s;  // remembered as the source shielded against
        offer(150);
        return;
      }
      return;
    }
    const bool spell_damage = spell_obj != kNoObj;
    const int to_me = spell_damage
                          ? (GuessDamageTarget(v, spell_amount) == kNoObj ? spell_amount : 0)
                          : CombatDamageTo(v, cx.me);
    if (body.targets.empty()) return;
    if (to_me > 0 && v.CouldTargetPlayer(a, 0, cx.me, mode) &&
        !Remembers(v, Did::kHelped, PlayerKey(cx.me))) {
      int life = v.Life(cx.me);
      if (to_me >= life && to_me - amount < life) {
        p.target_player = cx.me;
        offer(200);
      } else if (life <= 8 && to_me >= 2) {
        p.target_player = cx.me;
        offer(20);
      }
    }
    PlayerView::TargetsOf could_target(v, a, 0, mode);
    for (ObjId o : v.Battlefield()) {
      const Characteristics* ch = v.Chars(o);
      if (!ch || !ch->IsCreature() || !MinePermanent(v, *ch) || Remembers(v, Did::kHelped, o))
        continue;
      ObjId foe;
      int incoming = spell_damage ? (GuessDamageTarget(v, spell_amount) == o ? spell_amount : 0)
                                  : IncomingInFight(v, o, &foe);
      int left = ToughnessLeft(v, o);
      if (incoming < left || incoming - amount >= left) continue;
      if (!could_target.Could(o)) continue;
      p.target_player = kNoPlayer;
      p.target = o;
      offer(100 + WorthOf(v, o) / 10);
    }
    return;
  }
  if (body.reaction != Reaction::kNone) return;  // kReaction decisions handle these

  // T-10.1, mana and pools. Drain Power: when the opponent's untapped
  // lands then cast a spell of mine I could not cast now; Mana Short: in
  // the opponent's upkeep, at three or more untapped lands of theirs.
  for (const EffectStep& st : body.steps) {
    if (st.op != Op::kEmptyPool) continue;
    const int theirs = LandsOf(v, cx.opp, true);
    if (st.give) {
      if (!cx.sorcery_time || theirs < 2) return;
      Mana after = cx.mana;
      after.total += theirs - cost.ManaValue();
      if (const int enabled = EnabledBy(v, cx.mana, after, source); enabled >= 0) {
        p.target_player = cx.opp;
        offer(51 + enabled);
      }
      return;
    }
    if (!cx.my_turn && v.phase() == Phase::kUpkeep && theirs >= 3) {
      p.target_player = cx.opp;
      offer(40 + theirs);
    }
    return;
  }
  // Energy Tap: tap my creature for its mana value, like a ritual, and
  // preferably one that can't attack this turn anyway.
  if (body.targets.size() == 1 && body.steps.size() == 2 && body.steps[0].op == Op::kTap &&
      body.steps[1].op == Op::kAddMana && body.steps[1].amount.kind == Value::kTargetManaValue) {
    if (!cx.sorcery_time) return;
    PlayerView::TargetsOf could_target(v, a, 0, mode);
    int best_enabled = -1;
    for (ObjId o : v.Battlefield()) {
      const Characteristics* ch = v.Chars(o);
      if (!ch || !ch->IsCreature() || !MinePermanent(v, *ch) || !could_target.Could(o)) continue;
      Mana after = cx.mana;
      after.total += ch->mana_value - cost.ManaValue();
      const int enabled = EnabledBy(v, cx.mana, after, source);
      if (enabled < 0) continue;
      const int score = enabled * 2 + (v.Sick(o) ? 1 : 0);
      if (score > best_enabled) best_enabled = score, p.target = o;
    }
    if (best_enabled >= 0) offer(51 + best_enabled / 2);
    return;
  }
  // Channel: only for the kill, when life for mana then makes an X damage
  // spell in hand lethal to the opponent.
  for (const EffectStep& st : body.steps) {
    if (st.op != Op::kContinuous || st.continuous < 0 ||
        st.continuous >= static_cast<int>(c.continuous.size()))
      continue;
    bool life_mana = false;
    for (const Part& part : c.continuous[st.continuous].parts)
      life_mana |= part.layer == PartLayer::kRule && part.life_for_mana;
    if (!life_mana) continue;
    if (!cx.sorcery_time || v.RulesOf(cx.me).life_for_mana) return;
    Mana left = cx.mana;
    left.total -= cost.ManaValue();
    for (ObjId h : v.MyHand()) {
      CardId hc = v.CardOf(h);
      if (hc == kNoCard || h == source) continue;
      const CardDef& card = v.db()[hc];
      if (card.cost.x_count != 1 || !card.has_spell || !Affords(card.cost, left)) continue;
      bool burns = false;
      for (const EffectStep& s2 : card.spell.steps)
        burns |= s2.op == Op::kDamage && s2.amount.kind == Value::kX;
      const int x = left.total + std::max(0, v.Life(cx.me) - 1) - card.cost.ManaValue();
      if (burns && x >= v.Life(cx.opp)) {
        offer(300);
        return;
      }
    }
    return;
  }

  // Rituals: only when the mana then casts a spell it could not cast now.
  if (OnlyAddsMana(body)) {
    if (!cx.sorcery_time) return;
    Mana after = cx.mana;
    after.total += ManaAdded(body) - cost.ManaValue();
    for (const EffectStep& st : body.steps)
      for (int col = 0; col < kColorCount; ++col)
        if (st.mana_any || Has(st.mana_colors, col)) after.color[col] += ManaAdded(body);
    const int enabled = EnabledBy(v, cx.mana, after, source);
    if (enabled >= 0) offer(51 + enabled);
    return;
  }

  // "Target creature can't be regenerated this turn" (Hurr Jackal): at an
  // opposing creature that could regenerate, while killing it is at hand:
  // in this player's main phase (its removal and attack follow, and no
  // longer pass the creature by: Regenerates reads the mark) or while the
  // creature fights. Scored above removal, so the mark comes first.
  if (OnlyMarksNoRegeneration(body)) {
    PlayerView::TargetsOf could_target(v, a, 0, mode);
    for (ObjId o : v.Battlefield()) {
      const Characteristics* ch = v.Chars(o);
      if (!ch || !ch->IsCreature() || MinePermanent(v, *ch) || !could_target.Could(o)) continue;
      const bool in_fight = v.game_attacking(o) || v.Blocking(o) != kNoObj;
      if (!(cx.my_turn && cx.main) && !in_fight) continue;
      if (!Regenerates(v, o)) continue;
      p.target = o;
      offer(90 + std::min(WorthOf(v, o), 200) / 20);
    }
    return;
  }

  const int timing_bonus = cx.end_of_their_turn ? 10 : 0;
  const bool instant_time = spell ? IsFast(c) : !c.activated[a.index].sorcery;

  if (body.targets.empty()) {
    // Effects on the source itself (firebreathing) or on everything matching.
    int pp = 0, pt = 0;
    if (!spell && PumpOf(c, body, -1, pp, pt)) {
      if (v.Chars(source) && v.Chars(source)->IsCreature() && PumpGain(v, source, pp, pt) > 0)
        offer(60);
      return;
    }
    // T-5.6 (Instill Energy): an Aura's untap of its creature, when tapped
    // in my turn (heuristic_delayed.cc).
    if (!spell && c.enchant != kNoFilter && heuristic_detail::UntapsEnchanted(c)) {
      if (const int w = heuristic_detail::UntapEnchantedWorth(v, source); w > 0) offer(w);
      return;
    }
    // G-19 (Balance): when it takes clearly more from the opponent; a body
    // that begins with keep_fewest, one test for every other.
    if (!body.steps.empty() && body.steps[0].op == Op::kKeepFewest) [[unlikely]] {
      const int gain = heuristic_detail::KeepFewestGain(v, body, source, cx.me, spell);
      if (gain >= 20 && cx.sorcery_time) offer(40 + gain / 10);
      return;
    }
    // A sweep pays when it takes clearly more from the opponent. An ability
    // it can repeat this turn (Pestilence) is weighed as repeated as often
    // as its mana allows, since damage adds up until the turn ends.
    int draws = 0, best_gain = 0;
    bool sweeps = false;
    const int repeats =
        spell || tap_ability ? 1 : std::min(6, cx.mana.total / std::max(1, cost.ManaValue()));
    auto sweeping = [](const EffectStep& st) {
      return st.affects != kNoFilter && (st.op == Op::kDestroy || st.op == Op::kDamage ||
                                         st.op == Op::kExile || st.op == Op::kBounce);
    };
    // What a sweeping step reaches does not change with the repeats: it is
    // matched once, and weighed for each.
    thread_local std::vector<ObjBits> reached;  // per step; no allocation once warm
    reached.assign(body.steps.size(), ObjBits{});
    for (size_t i = 0; i < body.steps.size(); ++i) {
      if (!sweeping(body.steps[i])) continue;
      for (ObjId o : v.Battlefield())
        if (v.Chars(o) && v.Matches(body.steps[i].affects, o, source, cx.me)) reached[i].Set(o);
    }
    for (int k = 1; k <= std::max(1, repeats); ++k) {
      int gain = 0;
      bool lethal_to_me = false;
      for (size_t i = 0; i < body.steps.size(); ++i) {
        const EffectStep& st = body.steps[i];
        // A search of its own library is a card (or a land) drawn.
        if (k == 1 && (st.op == Op::kDraw || st.op == Op::kSearch) &&
            st.target.kind != Ref::kOpponent)
          ++draws;
        if (!sweeping(st)) continue;
        sweeps = true;
        int amount =
            st.op == Op::kDamage && st.amount.kind == Value::kConst ? k * st.amount.constant : 0;
        for (ObjId o : v.Battlefield()) {
          if (!reached[i].Test(o)) continue;
          const Characteristics* ch = v.Chars(o);
          if (st.op == Op::kDamage && (!ch->IsCreature() || ToughnessLeft(v, o) > amount)) continue;
          gain += Mine(v, o) ? -WorthOf(v, o) : WorthOf(v, o);
        }
        if (st.op == Op::kDamage && st.target.kind == Ref::kEachPlayer) {
          lethal_to_me |= v.Life(cx.me) <= amount;  // never at the cost of the game
          if (v.Life(cx.opp) <= amount) gain += 1000;
        }
      }
      if (!lethal_to_me) best_gain = std::max(best_gain, gain);
    }
    if (sweeps) {
      if (best_gain >= 20) offer(40 + best_gain / 10);
      return;
    }
    if (const int refill = RefillScore(v, cx, body, spell); refill >= 0) {
      if (refill > 0 && cx.sorcery_time) offer(refill);
      return;
    }
    if (draws > 0 && (cx.end_of_their_turn || cx.sorcery_time))
      offer(cx.end_of_their_turn ? 30 : 20);
    return;
  }

  // G-17: a sweep of what a target player owns (Hurkyl's Recall), aimed
  // at the side where it gains most, when that is clearly worth a card.
  if (!body.steps.empty() && body.steps[0].relative_to > 0) [[unlikely]] {
    // One at a time; at the end of the opponent's turn (the mana they spent
    // on them spent), or in my main phase (their artifact blockers gone).
    if (!(cx.end_of_their_turn || (cx.my_turn && cx.main))) return;
    for (ObjId o : v.Stack())
      if (o != source && v.ZoneOf(o) == Zone::kStack && Mine(v, o) && v.CardOf(o) != kNoCard &&
          v.db()[v.CardOf(o)].has_spell && !v.db()[v.CardOf(o)].spell.steps.empty() &&
          v.db()[v.CardOf(o)].spell.steps[0].relative_to > 0)
        return;
    int best_gain = 0;
    Player best_player = kNoPlayer;
    for (Player who : {cx.opp, cx.me}) {
      if (!v.CouldTargetPlayer(a, body.steps[0].relative_to - 1, who, mode)) continue;
      const int gain = heuristic_detail::RelativeSweepGain(v, body, source, who);
      if (gain > best_gain) best_gain = gain, best_player = who;
    }
    if (best_player != kNoPlayer && best_gain >= 20) {
      p.target_player = best_player;
      offer(40 + best_gain / 10);
    }
    return;
  }

  // A targeted effect: what its first target gets.
  const Aim aim = SlotAim(c, body, 0);
  if (body.TargetsSpell()) return;  // counters: kInterrupt decisions
  if (aim == Aim::kHarm) {
    if (cx.harm_pending && spell) return;
    const int dmg = SlotDamage(body, 0, x);
    FilterId condition = kNoFilter;
    bool regenerable = false;  // what it does to its target is undone by regeneration
    for (const EffectStep& st : body.steps) {
      if (st.target.kind != Ref::kTarget || st.target.index != 1) continue;
      if (st.condition != kNoFilter) condition = st.condition;
      regenerable |= (st.op == Op::kDamage || st.op == Op::kDestroy) && !st.cant_regenerate;
    }
    int best_score = -1;
    ObjId best_obj = kNoObj;
    int more_burn = -1;  // the most damage one other burn spell in hand deals now
    PlayerView::TargetsOf could_target(v, a, 0, mode);
    for (ObjId o : v.Battlefield()) {
      const Characteristics* ch = v.Chars(o);
      if (!ch || MinePermanent(v, *ch) || Remembers(v, Did::kHarmed, o)) continue;
      if (condition != kNoFilter && !v.Matches(condition, o, source, cx.me)) continue;
      if (!could_target.Could(o)) continue;
      if (dmg > 0 && (!ch->IsCreature() || ToughnessLeft(v, o) > dmg)) continue;
      if (regenerable && ch->IsCreature() && Regenerates(v, o)) continue;
      const int value = WorthOf(v, o);
      const bool in_fight = v.game_attacking(o) || v.Blocking(o) != kNoObj;
      const bool big =
          ch->IsCreature() && (ch->power >= 3 || (Has(ch->keywords, kFlying) && ch->power >= 2));
      // A good moment: it attacks or blocks, the opponent's turn is ending,
      // or in its own main phase (clearing the way for an attack; waiting
      // for the end of the opponent's turn gave its creatures a turn more
      // and lost games to random players).
      bool now = !instant_time || in_fight || cx.end_of_their_turn || (cx.my_turn && cx.main) ||
                 (tap_ability && dmg > 0);
      if (ch->IsCreature() && ch->power <= 0 && !in_fight && ch->abilities == 0) continue;
      // Removal that kills whatever it hits (destroy, exile) is kept for the
      // big threats burn can't kill (red_burn's Terrors went at Silvercoat
      // Lions and left nothing for the Serra Angel): a small creature goes
      // to the burn in hand if it kills it, and is otherwise removed only in
      // a fight or from a full hand.
      if (spell && dmg == 0 && ch->IsCreature() && !big) {
        if (more_burn < 0) {
          more_burn = 0;
          for (ObjId h : v.MyHand()) {
            if (h == source) continue;
            const CardId hc = v.CardOf(h);
            if (hc == kNoCard) continue;
            const CardDef& hd = v.db()[hc];
            if (!hd.has_spell || Has(hd.types, kLand) || hd.cost.x_count > 0) continue;
            if (!IsFast(hd) && !cx.sorcery_time) continue;
            const AbilityBody& hb = hd.spell.modes.empty() ? hd.spell : hd.spell.modes[0];
            if (!TargetsCreatures(hb) || SlotAim(hd, hb, 0) != Aim::kHarm) continue;
            if (!Affords(hd.cost, cx.mana)) continue;
            more_burn = std::max(more_burn, SlotDamage(hb, 0, 0));
          }
        }
        if (more_burn >= ToughnessLeft(v, o) || (!in_fight && cx.hand < 6)) continue;
      }
      if (!now) continue;
      int score = 35 + value / 5 + (in_fight ? 30 : 0) + timing_bonus;
      if (score > best_score) best_score = score, best_obj = o;
    }
    if (best_obj != kNoObj) {
      p.target = best_obj;
      offer(best_score);
    }
    if (v.CouldTargetPlayer(a, 0, cx.opp, mode)) {
      p.target = kNoObj;
      p.target_player = cx.opp;
      if (dmg > 0 && (dmg >= v.Life(cx.opp) ||
                      (spell && BurnReach(v, cx.mana, cx.sorcery_time) >= v.Life(cx.opp)))) {
        offer(500);
      } else if (dmg > 0) {
        // Burn the face: aggro when pressing, closing or racing a threat it
        // can't answer, a tapping pinger every turn; control keeps burn for
        // creatures. A full hand alone is no reason: the burn waits for a
        // creature (three damage to the face on turn two lost games to the
        // Serra Angel it could have helped kill).
        if (aggro && spell && (cx.end_of_their_turn || cx.sorcery_time) &&
            (InRange(v) || Closing(v)))
          offer(70);  // pressing or closing: the burn goes at the face
        else if (tap_ability && cx.end_of_their_turn)
          offer(25);
        else if (aggro && x > 0 && x >= 4 && cx.sorcery_time)
          offer(25);
        else if (aggro && spell && (cx.end_of_their_turn || cx.sorcery_time) &&
                 OutOfAnswers(v, cx.mana))
          offer(25);  // racing
      } else if (dmg == 0 && (cx.end_of_their_turn || cx.sorcery_time)) {
        // Discard, lose life, mill. A mill that empties the opponent's
        // library wins at their next draw: it comes first.
        int mills = 0;
        for (const EffectStep& st : body.steps)
          if (st.op == Op::kMill && st.target.kind == Ref::kTarget && st.target.index == 1)
            mills += st.amount.kind == Value::kConst ? st.amount.constant : x;
        offer(mills > 0 && v.LibrarySize(cx.opp) <= mills ? 400 : 30);
      }
      p.target_player = kNoPlayer;
    }
    return;
  }
  if (aim == Aim::kHelp) {
    int pp = 0, pt = 0;
    if (PumpOf(c, body, 0, pp, pt)) {
      if (cx.help_pending) return;
      // A pump in a fight it changes, or against damage about to kill.
      int spell_amount = 0;
      ObjId spell_obj = OpposingDamageSpell(v, &spell_amount);
      ObjId guess = spell_obj != kNoObj ? GuessDamageTarget(v, spell_amount) : kNoObj;
      PlayerView::TargetsOf could_target(v, a, 0, mode);
      for (ObjId o : v.Battlefield()) {
        const Characteristics* ch = v.Chars(o);
        if (!ch || !ch->IsCreature() || !MinePermanent(v, *ch) || Remembers(v, Did::kHelped, o))
          continue;
        // Toughness read from the target (Blood Lust: never below 1).
        const int t = pt + PumpToughnessFrom(c, body, 0, ch->toughness);
        int gain = PumpGain(v, o, pp, t);
        if (o == guess && ToughnessLeft(v, o) + t > spell_amount) gain += WorthOf(v, o);
        if (gain <= 0 || !could_target.Could(o)) continue;
        p.target = o;
        offer(60 + std::min(gain, 400) / 10);
      }
      return;
    }
    bool attach = false, draw = false, life = false;
    int cards = 0;  // drawn by the target
    for (const EffectStep& st : body.steps) {
      if (st.target.kind != Ref::kTarget || st.target.index != 1) continue;
      attach |= st.op == Op::kAttach;
      draw |= st.op == Op::kDraw;
      life |= st.op == Op::kGainLife;
      if (st.op == Op::kDraw) cards += st.amount.kind == Value::kConst ? st.amount.constant : 1;
    }
    if (draw) {
      // Drawing from an empty library loses: an opponent with fewer cards
      // left than it would draw is a win, and a short library of its own is
      // not drawn further (a control deck drew itself out against random).
      const Player opp = Opponent(cx.me);
      if (v.LibrarySize(opp) < cards && v.CouldTargetPlayer(a, 0, opp, mode)) {
        p.target_player = opp;
        offer(500);
        return;
      }
      if (v.LibrarySize(cx.me) < cards + 3 && !life) return;
      // Late in a long game the player whose library runs out first loses:
      // it doesn't draw itself below the opponent's library.
      if (!life && v.LibrarySize(opp) <= 15 && v.LibrarySize(cx.me) - cards < v.LibrarySize(opp))
        return;
      // Nor beyond the hand's maximum: what is drawn past it is discarded
      // (a Recall into a full hand threw away its finishers).
      const int most = v.MaxHandSize(cx.me);
      if (!life && most >= 0 && cx.hand - (spell ? 1 : 0) + cards > most) return;
    }
    if (attach) {
      // Equipment: on my best creature, unless already on one of mine.
      ObjId on = v.AttachedTo(source);
      if (on != kNoObj && v.ZoneOf(on) == Zone::kBattlefield && Mine(v, on)) return;
      int best_value = -1;
      PlayerView::TargetsOf could_target(v, a, 0, mode);
      for (ObjId o : v.Battlefield()) {
        const Characteristics* ch = v.Chars(o);
        if (!ch || !ch->IsCreature() || !MinePermanent(v, *ch) || !could_target.Could(o)) continue;
        if (int value = WorthOf(v, o); value > best_value) best_value = value, p.target = o;
      }
      if (best_value >= 0) offer(45);
      return;
    }
    if ((draw || life) && v.CouldTargetPlayer(a, 0, cx.me, mode)) {
      p.target_player = cx.me;
      if (draw && (cx.end_of_their_turn || cx.sorcery_time)) offer(cx.end_of_their_turn ? 30 : 15);
      // Life at the end of the opponent's turn: until then the card may be
      // wanted to prevent damage (its other mode).
      if (life && cx.end_of_their_turn && v.Life(cx.me) <= 12) offer(25);
      return;
    }
    // Other helpful effects (keywords, untap, +1/+1 counters): on my best
    // creature in my main phase. Shields wait for damage.
    if (PreventStep(body) || (!cx.sorcery_time && !cx.end_of_their_turn)) return;
    int best_value = -1;
    PlayerView::TargetsOf could_target(v, a, 0, mode);
    for (ObjId o : v.Battlefield()) {
      const Characteristics* ch = v.Chars(o);
      if (!ch || !ch->IsCreature() || !MinePermanent(v, *ch) || !could_target.Could(o)) continue;
      if (int value = WorthOf(v, o); value > best_value) best_value = value, p.target = o;
    }
    if (best_value >= 0 && spell) offer(15);
    return;
  }
  // Neither: text and colour changes, exchanges. Left alone.
}

HeuristicPolicy::Plan HeuristicPolicy::Evaluate(const PlayerView& v, const Context& cx,
                                                DecisionKind window, const Action& a) {
  Plan best;
  switch (a.kind) {
    case ActionKind::kPlayLand: {
      // Prefer the land that makes a colour the hand lacks.
      best.kind = a.kind;
      best.object = a.object;
      best.score = 100;
      // T-10.1: Fastbond's extra lands cost 1 life each: none at 3 life or less.
      if (v.RulesOf(cx.me).any_number_of_lands && v.Life(cx.me) <= 3) [[unlikely]] {
        best.score = -1;
        return best;
      }
      CardId id = v.CardOf(a.object);
      if (id == kNoCard) return best;
      // G-13: a second legendary land of a name would go at once.
      if (LostToUniqueRules(v, v.db()[id])) [[unlikely]] {
        best.score = -1;
        return best;
      }
      ColorMask makes = 0;
      if (const Characteristics* ch = v.Chars(a.object)) {
        bool any = false;
        makes = ManaColorsOf(v, a.object, *ch, any);
      }
      for (ObjId h : v.MyHand()) {
        CardId hc = v.CardOf(h);
        if (hc == kNoCard) continue;
        const ManaCost& cost = v.db()[hc].cost;
        for (int c = 0; c < kColorCount; ++c)
          if (cost.colored[c] > cx.mana.color[c] && Has(makes, c)) best.score = 101;
      }
      return best;
    }
    case ActionKind::kAttack:
      best.kind = a.kind;
      best.score = AttackIsGood(v) ? 45 : -1;
      return best;
    case ActionKind::kPhaseEffect:
      best.kind = a.kind;
      best.score = 60;
      return best;
    case ActionKind::kCast:
    case ActionKind::kActivate:
      break;
    default:
      return best;
  }
  const bool spell = a.kind == ActionKind::kCast;
  const CardDef* card = CardOfAction(v, a);
  if (!card) return best;
  const CardDef& c = *card;
  if (!spell && c.activated[a.index].manual_mana) [[unlikely]]
    return EvaluateManualMana(v, cx, a, c);  // T-10.2 (heuristic_power.cc)
  if (!spell) {
    const ActivatedAbility& ab = c.activated[a.index];
    // Abilities that cost a card, life or the permanent wait for a reason
    // no simple rule sees; free ones are bounded per turn.
    if (ab.sacrifice_self || ab.sacrifice != kNoFilter || ab.life > 0 || ab.discard > 0)
      return best;
    if (activation_turn_ == v.turn() && activations_ >= 24) return best;
  } else if (activation_turn_ == v.turn() && casts_ >= kMaxCastsInATurn) {
    return best;
  }
  const AbilityBody* body = ActionBody(c, a);
  if (!body) {
    // A permanent spell. An Aura goes on the right side, or waits.
    best.kind = a.kind;
    best.object = a.object;
    // G-13, G-14: not a second legend of a name, nor a World enchantment
    // that would replace its own.
    if (LostToUniqueRules(v, c)) [[unlikely]]
      return best;
    // G-16: nor one its own state trigger would sacrifice at once.
    if (c.state_triggered && LostToStateTrigger(v, c, a.object)) [[unlikely]]
      return best;
    // T-13.3: nor one whose upkeep sacrifice would find nothing to take.
    if (c.phase_sacrifice && PhaseSacrificeUnfed(v, c, a.object)) [[unlikely]]
      return best;
    if (EvaluateGraveyard(v, cx, a, c, nullptr, -1, best)) return best;  // G-9: Animate Dead
    if (c.enchant != kNoFilter && c.enters.choose == ChoiceKind::kBasicLandType) [[unlikely]] {
      // T-8.4 (Phantasmal Terrain, heuristic_targets.cc): the land where a
      // new basic land type takes most, or fixes my colors.
      int best_value = -1, color = -1;
      PlayerView::TargetsOf could_target(v, a, 0);
      for (ObjId o : v.Battlefield())
        if (could_target.Could(o))
          if (const int value = heuristic_detail::TerrainValue(v, o, &color); value > best_value)
            best_value = value, best.target = o;
      best.score = best_value >= 20 ? 40 + std::min(best_value, 200) / 20 : -1;
      return best;
    }
    if (c.enchant != kNoFilter) {
      const Aim aim = AuraAim(c);
      // An Aura that animates does nothing to what is a creature already.
      bool animates = false;
      for (const EffectTemplate& t : c.statics)
        for (const Part& part : t.parts)
          animates |= part.layer == PartLayer::kType && Has(part.add_types, kCreature);
      // An Aura that grants protection (the Wards) waits for a color the
      // opponent shows, and goes where it adds some and knocks off none of
      // its controller's Auras.
      const ColorMask guards = GrantedProtection(c);
      // T-5.6 (Instill Energy): an Aura that untaps its creature fits one
      // with a {T} ability (heuristic_delayed.cc).
      const bool untapper = !c.activated.empty() && heuristic_detail::UntapsEnchanted(c);
      if (guards && !(OpponentColors(v) & guards)) {
        best.score = -1;
        return best;
      }
      int best_value = -1;
      PlayerView::TargetsOf could_target(v, a, 0);
      for (ObjId o : v.Battlefield()) {
        const Characteristics* ch = v.Chars(o);
        if (!ch || (aim == Aim::kHarm) == MinePermanent(v, *ch) || !could_target.Could(o)) continue;
        if (animates && ch->IsCreature()) continue;
        if (guards && !WardFits(v, o, *ch, guards)) continue;
        // Animating: something that is not a creature yet.
        int value = ch->IsCreature() ? WorthOf(v, o) : 8 * std::max<int>(1, ch->mana_value);
        if (untapper) value += heuristic_detail::UntapperFit(v, *ch);
        if (value > best_value) best_value = value, best.target = o;
      }
      best.score = best_value >= 0 ? 40 + std::min(best_value, 200) / 20 : -1;
      return best;
    }
    // E-5.1: Ankh of Mishra waits while its own hand holds a land to play.
    if (PunishesLandEntries(c) && LandInHand(v)) [[unlikely]]
      return best;
    const int hand_damage = HandDamageNow(v, c, cx.me);
    if (hand_damage == 0) return best;  // Black Vise at a small hand: later
    // T-10.1: Manabarbs, Power Surge hurt the player with more lands more.
    if (HurtsEachPlayer(c) && LandsOf(v, cx.opp, false) <= LandsOf(v, cx.me, false)) return best;
    best.score = 50 + c.cost.ManaValue() + std::max(0, hand_damage) + (v.Pool(cx.me) > 0 ? 100 : 0);
    return best;
  }
  if (body->modes.empty()) {
    EvaluateBody(v, cx, window, a, c, *body, -1, best);
  } else {
    for (int m = 0; m < static_cast<int>(body->modes.size()); ++m)
      EvaluateBody(v, cx, window, a, c, body->modes[m], m, best);
  }
  if (best.score > 0 && spell && v.Pool(cx.me) > 0) best.score += 100;  // spend the pool
  return best;
}

}  // namespace strata
