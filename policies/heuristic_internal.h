// Private to the heuristic player (policies/heuristic.h): included only by
// the files its work is split into, one kind of decision each, and holding
// what more than one of them uses. In strata::heuristic_detail, the
// readings of the board they all make (the mana a player could make, what
// an object is worth, how a fight ends, the combat damage on its way, the
// burn in hand; defined in heuristic_board.cc, the one-liners here); and
// HeuristicPolicy::Context, where the game stands for one decision. None of
// it is part of the contract in heuristic.h.
//
// The files:
//   heuristic.cc          Choose, the way in: which file answers a decision;
//                         counters and reactions; the plan, and the memory
//   heuristic_board.cc    the readings of the board declared here
//   heuristic_opening.cc  the opening hand: mulligans and london bottoms
//   heuristic_eval.cc     what starting each spell, ability or land is worth
//   heuristic_choices.cc  what to start, and the choices of a casting under
//                         way (target, X, mode); a discard
//   heuristic_combat.cc   attackers and blockers
//   heuristic_banding.cc  bands and divided combat damage (T-7.3)
//   heuristic_legend.cc   the legend and world rules (G-13, G-14)
#pragma once

#include <array>

#include "policies/heuristic.h"

namespace strata {
namespace heuristic_detail {

// Players in the memory ring, beside objects.
inline ObjId PlayerKey(Player p) {
  return static_cast<ObjId>(0xFFF0 + p);
}

// Can card c be cast at instant speed?
inline bool IsFast(const CardDef& c) {
  return Has(c.types, kInstant) || Has(c.types, kInterrupt) || Has(c.keywords, kFlash);
}

// Mana a player could make now: untapped sources (one mana each) and the
// pool; per colour, the sources that can make it.
struct Mana {
  int total = 0;
  std::array<int, kColorCount> color{};
};

// The colours the mana abilities of permanent o (characteristics ch) can
// make, its land mana included; `any`: whether it has a mana ability at all.
ColorMask ManaColorsOf(const PlayerView& v, ObjId o, const Characteristics& ch, bool& any);

// T-10.1: the largest mana value of a card in my hand that mana `after`
// casts and `now` does not; -1 for none (heuristic_eval.cc).
int EnabledBy(const PlayerView& v, const Mana& now, const Mana& after, ObjId except);

// Forgets what the last decision worked out once (the mana of each player,
// whether the opponent is in range; heuristic_board.cc): the game does not
// change while a policy chooses, and HeuristicPolicy::Choose, the only way
// in, calls this first.
void ClearDecisionMemo();

// The mana player p could make now, as this view sees it (worked out once
// a decision, and kept from one decision to the next while p's mana is
// unchanged).
Mana Available(const PlayerView& v, Player p);

// Could this mana pay the cost with X = x and `extra` more generic?
bool Affords(const ManaCost& cost, const Mana& m, int x = 0, int extra = 0);

// The largest X this mana pays for (0 if none).
int MaxX(const ManaCost& cost, const Mana& m);

// How much an object is worth to its controller.
int WorthOf(const PlayerView& v, ObjId o);

// T-5.6 (heuristic_delayed.cc): does this Aura's activated ability untap
// the creature it enchants (Instill Energy)? What such an untap is worth
// now (0: not now): the creature tapped, in its controller's turn.
bool UntapsEnchanted(const CardDef& c);
int UntapEnchantedWorth(const PlayerView& v, ObjId aura);
// What an Aura that untaps its creature adds to creature o (one with a {T}
// ability uses the untap: heuristic_delayed.cc).
int UntapperFit(const PlayerView& v, const Characteristics& ch);

// The toughness o has left, the damage marked on it taken away.
inline int ToughnessLeft(const PlayerView& v, ObjId o) {
  const Characteristics* ch = v.Chars(o);
  return ch ? ch->toughness - v.Damage(o) : 0;
}

// Has `ch` protection from any colour of `colors`?
inline bool Protected(const Characteristics& ch, ColorMask colors) {
  for (int c = 0; c < kColorCount; ++c)
    if (Has(colors, c) && Has(ch.keywords, kProtWhite + c)) return true;
  return false;
}

// How a fight between attacker `a` and blocker `b` ends, one on one:
// first and double strike, deathtouch, protection and damage already marked
// counted (a 2/2 that attacks into a first-striking 2/2 dies alone).
struct FightEnd {
  bool attacker_dies = false, blocker_dies = false;
};
FightEnd Fight(const PlayerView& v, ObjId a, ObjId b);

// The next-time step of a body that waits on the source chosen (T-4.1:
// Reverse Damage), or nullptr (heuristic_damage.cc).
const EffectStep* ChosenSourceStep(const CardDef& c, const AbilityBody& body);
// The source of the most damage waiting for its prevention step to player
// p (to_obj kNoObj) or to object to_obj, and how much; kNoObj when none.
ObjId BiggestPendingSource(const PlayerView& v, Player p, ObjId to_obj, int* amount);

// G-17 (heuristic_targets.cc): what a body whose sweeps read from target
// player p's side (`relative_to`: Hurkyl's Recall) gains me, its harm to
// the opponent less its harm to me, by worth.
int RelativeSweepGain(const PlayerView& v, const AbilityBody& body, ObjId source, Player p);

// T-8.5 (heuristic_xtargets.cc): a spell of exactly X targets, judged (true)
// or not one (false); the next of its targets, or -1 when not casting one.
bool EvaluateXTargets(const PlayerView& v, Player me, bool can_attack, const Mana& mana,
                      const Action& a, const CardDef& c, const AbilityBody& body, int mode,
                      HeuristicPolicy::Plan& best);
int ChooseXTarget(const PlayerView& v, const Decision& d);
// G-19 (heuristic_balance.cc): what a body's keep_fewest steps take from
// the opponent, less what they take from `me` (Balance); `spell`: the body
// is a spell in my hand, which leaves it as it is cast.
int KeepFewestGain(const PlayerView& v, const AbilityBody& body, ObjId source, Player me,
                   bool spell);

// T-8.4 (heuristic_targets.cc): does Aura c set its land's type to a basic
// land type chosen as it enters (Phantasmal Terrain)? What it is worth on
// land o (-1: not worth a card), with the type to choose as a color; the
// choice decision's answer for such an Aura of mine entering (-1: none).
bool ChoosesLandType(const CardDef& c);
int TerrainValue(const PlayerView& v, ObjId land, int* color);
int ChooseLandType(const PlayerView& v, const Decision& d);

// Does this player control o?
inline bool Mine(const PlayerView& v, ObjId o) {
  return v.Controller(o) == v.me();
}

// Mine(v, o) for a permanent whose characteristics `ch` the view shows
// (PlayerView::Controller reads a permanent's controller from them): the
// walks over the battlefield have them already.
inline bool MinePermanent(const PlayerView& v, const Characteristics& ch) {
  return ch.controller == v.me();
}

// The creatures on the other side of o's fight, and the damage they deal it.
int IncomingInFight(const PlayerView& v, ObjId o, ObjId* first_foe);

// Is a attacking and unblocked? (The engine marks a blocked attacker as
// Blocking itself.)
inline bool Unblocked(const PlayerView& v, ObjId a) {
  return v.game_attacking(a) && v.Blocking(a) != a;
}

// Combat damage headed for player p: unblocked attackers, and what a
// trampler has beyond its blockers' toughness.
int CombatDamageTo(const PlayerView& v, Player p);

// Can a body's first target be a creature (a permanent, or a creature or
// player; its filter is not checked against a particular one)?
inline bool TargetsCreatures(const AbilityBody& b) {
  return !b.targets.empty() && (b.targets[0].what == TargetWhat::kPermanent ||
                                b.targets[0].what == TargetWhat::kCreatureOrPlayer);
}

// The damage the burn spells in my hand can deal to a player now, cast one
// after another with the mana I have (the cheapest first; an X spell with
// what is left): when it is at least the opponent's life, every one goes
// at the face. With `creatures`, only the spells that can hit a creature.
int BurnReach(const PlayerView& v, const Mana& mana, bool sorcery_time, bool creatures = false);

// Could creature o regenerate now: an ability of its own that regenerates
// it, which its controller's untapped mana pays? Damage or destruction
// aimed at it then only costs the opponent a mana (random black_removal's
// Drudge Skeletons soaked up a third of red_burn's burn in its losses).
bool Regenerates(const PlayerView& v, ObjId o);

// The card of a cast or activate action (nullptr for other actions or
// what it may not see), and the mana cost the action pays.
const CardDef* CardOfAction(const PlayerView& v, const Action& a);

inline const ManaCost& CostOf(const CardDef& c, const Action& a) {
  return a.kind == ActionKind::kActivate ? c.activated[a.index].cost : c.cost;
}

// Is o a land?
inline bool IsLand(const PlayerView& v, ObjId o) {
  const Characteristics* ch = v.Chars(o);
  return ch && Has(ch->types, kLand);
}

// The colours of mana land (or other mana source) o makes.
ColorMask LandColors(const PlayerView& v, ObjId o);

// G-13, G-14 (heuristic_legend.cc): would permanent card c, put into play
// now by this player, go to the graveyard at once by the legend rule (a
// legend of its name in play, on either side), or, a World enchantment,
// put this player's own World permanent there?
bool LostToUniqueRules(const PlayerView& v, const CardDef& c);
// G-16 (heuristic_combat2.cc): would permanent card c (object `card`, in
// hand), put into play now by this player, trigger a state trigger of its
// own at once ("when you control no Islands, sacrifice it")? Only the
// permanents are read (a condition on other zones is not foreseen).
bool LostToStateTrigger(const PlayerView& v, const CardDef& c, ObjId card);
// T-13.3 (heuristic_costs2.cc): would permanent card c, put into play now,
// find nothing of this player's to sacrifice for a phase cost of its own
// (Lord of the Pit with no other creature), its penalty its only answer?
bool PhaseSacrificeUnfed(const PlayerView& v, const CardDef& c, ObjId card);
// Would an entering copy of o be a second legend of its name (o is a
// legend in play), and so go at once?
bool CopyLostToLegendRule(const PlayerView& v, ObjId o);

// Is the opponent in range: its life no more than the power of my
// creatures that can attack plus the burn in my hand? Then aggro presses:
// every blocker it spends on an attacker is one fewer later, and every
// attacker let through brings the burn closer to lethal.
bool InRange(const PlayerView& v);

}  // namespace heuristic_detail

// Where the game stands for this decision.
struct HeuristicPolicy::Context {
  Player me, opp;
  bool my_turn, main, sorcery_time, combat, end_of_their_turn;
  bool harm_pending, help_pending;
  bool can_attack = false;  // the decision offers to announce an attack
  heuristic_detail::Mana mana;
  int hand;
};

}  // namespace strata
