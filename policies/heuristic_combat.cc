// The heuristic in combat: whether to announce an attack (AttackIsGood),
// which creatures attack (ChooseAttacker), and blocks, one at a time
// (ChooseBlock; ChooseSurvivalBlock when the damage on its way is lethal).
// Each is judged by the fights one on one (Fight), the race on the swing
// back and the damage a block stops.

#include <algorithm>
#include <functional>
#include <utility>
#include <vector>

#include "policies/heuristic_internal.h"

namespace strata {

using heuristic_detail::CombatDamageTo;
using heuristic_detail::Fight;
using heuristic_detail::FightEnd;
using heuristic_detail::IncomingInFight;
using heuristic_detail::InRange;
using heuristic_detail::Mine;
using heuristic_detail::MinePermanent;
using heuristic_detail::Protected;
using heuristic_detail::Regenerates;
using heuristic_detail::ToughnessLeft;
using heuristic_detail::Unblocked;
using heuristic_detail::WorthOf;

// Is attacking with this creature sensible? Aggro attacks unless a blocker
// would kill it and survive, or when only one would and the opponent has
// fewer untapped creatures than it has attackers; control only when no
// blocker can kill it (a control deck that waited for an empty board
// decked itself against any deck with a small flier).
static bool AttackWorth(const PlayerView& v, ObjId o, bool aggro) {
  const Characteristics* ch = v.Chars(o);
  if (!ch || ch->power <= 0) return false;
  int bad = 0, killers = 0;
  for (ObjId b : v.Battlefield()) {
    const Characteristics* bc = v.Chars(b);
    if (!bc || !bc->IsCreature() || bc->controller == v.me() || v.Tapped(b)) continue;
    if (Has(ch->keywords, kFlying) && !Has(bc->keywords, kFlying) && !Has(bc->keywords, kReach))
      continue;
    if (Protected(*ch, bc->colors)) continue;     // it can't block this one
    if (!v.RestrictionsLetBlock(b, o)) continue;  // T-7.1: Fear, Juggernaut ...
    const FightEnd end = Fight(v, o, b);
    if (end.attacker_dies) ++killers;
    if (end.attacker_dies && !end.blocker_dies) ++bad;
  }
  if (!aggro) return killers == 0;
  if (bad == 0 || InRange(v)) return true;
  // One creature that would win the fight can stop only one attacker: when
  // it can't block them all (more attackers than its untapped creatures),
  // the attack goes.
  if (bad > 1) return false;
  int mine = 0, theirs = 0;
  for (ObjId b : v.Battlefield()) {
    const Characteristics* bc = v.Chars(b);
    if (!bc || !bc->IsCreature()) continue;
    if (!MinePermanent(v, *bc))
      theirs += !v.Tapped(b);
    else if (v.game_attacking(b) || (!v.Tapped(b) && (!v.Sick(b) || Has(bc->keywords, kHaste)) &&
                                     bc->power > 0 && !Has(bc->keywords, kDefender)))
      ++mine;
  }
  return mine > theirs;
}

// Would attacking with creatures of these powers kill the opponent however
// it blocks? Each untapped creature of its can stop one attacker, the
// biggest first (flying ignored, so the estimate errs towards not attacking).
static bool AllOutIsLethal(const PlayerView& v, std::vector<int>& powers) {
  int blockers = 0;
  for (ObjId b : v.Battlefield()) {
    const Characteristics* bc = v.Chars(b);
    if (bc && bc->IsCreature() && !MinePermanent(v, *bc) && !v.Tapped(b) &&
        !Has(bc->keywords, kCantBlock))
      ++blockers;
  }
  std::sort(powers.begin(), powers.end(), std::greater<int>());
  int damage = 0;
  for (size_t i = static_cast<size_t>(blockers); i < powers.size(); ++i)
    damage += std::max(0, powers[i]);
  return damage > 0 && damage >= v.Life(Opponent(v.me()));
}

// Is it safe to send creature `o` into the attack? Not when the
// opponent's creatures, all attacking on its next turn, would then deal
// lethal damage: each creature of mine left untapped (not attacking, or
// attacking with vigilance) is counted as blocking one of them, the
// biggest first, and their fliers get past it unless it flies or has
// reach. A race it loses is not worth a few points of damage (random
// white weenie's anthem-grown team killed rg_aggro on the swing back).
static bool SafeToSend(const PlayerView& v, ObjId o) {
  thread_local std::vector<int> ground, air;  // their attackers' powers
  ground.clear();
  air.clear();
  int blockers = 0;
  bool air_blocker = false;
  for (ObjId b : v.Battlefield()) {
    const Characteristics* ch = v.Chars(b);
    if (!ch || !ch->IsCreature()) continue;
    if (MinePermanent(v, *ch)) {
      if (b == o && !Has(ch->keywords, kVigilance)) continue;
      if (v.Tapped(b) || (v.game_attacking(b) && !Has(ch->keywords, kVigilance))) continue;
      if (Has(ch->keywords, kCantBlock)) continue;
      ++blockers;
      air_blocker |= Has(ch->keywords, kFlying) || Has(ch->keywords, kReach);
    } else if (ch->power > 0 && !Has(ch->keywords, kDefender) && !Has(ch->keywords, kCantAttack)) {
      (Has(ch->keywords, kFlying) && !air_blocker ? air : ground).push_back(ch->power);
    }
  }
  // Fliers met before a flying blocker was seen: move them back when there is one.
  if (air_blocker) ground.insert(ground.end(), air.begin(), air.end()), air.clear();
  std::sort(ground.begin(), ground.end(), std::greater<int>());
  int damage = 0;
  for (int p : air) damage += p;
  for (size_t i = static_cast<size_t>(blockers); i < ground.size(); ++i) damage += ground[i];
  return damage < v.Life(v.me());
}

bool HeuristicPolicy::AttackIsGood(const PlayerView& v) const {
  thread_local std::vector<int> powers;  // reused: no allocation once warm
  powers.clear();
  for (ObjId o : v.Battlefield()) {
    const Characteristics* ch = v.Chars(o);
    if (!ch || !ch->IsCreature() || ch->controller != v.me() || v.Tapped(o)) continue;
    if (v.Sick(o) && !Has(ch->keywords, kHaste) &&
        !(ch->combat_count && v.AttacksAsThoughHaste(o)))  // T-5.6
      continue;
    if ((Has(ch->keywords, kDefender) && !Has(ch->keywords, kAttacksDespiteDefender)) ||
        Has(ch->keywords, kCantAttack))
      continue;
    if (AttackWorth(v, o, style_ == Style::kAggro) && SafeToSend(v, o)) return true;
    powers.push_back(ch->power);
  }
  return AllOutIsLethal(v, powers);
}

int HeuristicPolicy::ChooseAttacker(const PlayerView& v, const Decision& d) {
  thread_local std::vector<int> powers;  // reused: no allocation once warm
  powers.clear();
  for (ObjId o : v.Battlefield())
    if (Mine(v, o) && v.game_attacking(o) && v.Chars(o)) powers.push_back(v.Chars(o)->power);
  for (const Action& a : d.actions)
    if (a.kind == ActionKind::kObject && v.Chars(a.object))
      powers.push_back(v.Chars(a.object)->power);
  const bool all_out = AllOutIsLethal(v, powers);
  int best = -1, best_power = -1;
  for (int i = 0; i < static_cast<int>(d.actions.size()); ++i) {
    const Action& a = d.actions[i];
    if (a.kind != ActionKind::kObject) continue;
    if (!all_out &&
        (!AttackWorth(v, a.object, style_ == Style::kAggro) || !SafeToSend(v, a.object)))
      continue;
    int power = v.Chars(a.object) ? v.Chars(a.object)->power : 0;
    if (power > best_power) best_power = power, best = i;
  }
  if (best >= 0) return best;
  for (int i = 0; i < static_cast<int>(d.actions.size()); ++i)
    if (d.actions[i].kind == ActionKind::kDone) return i;
  return 0;
}

// The damage attacker `a` stops dealing to its player when `b` blocks it.
static int DamageStopped(const PlayerView& v, ObjId a, ObjId b) {
  const Characteristics* ch = v.Chars(a);
  if (!ch || !Unblocked(v, a)) return 0;
  const int power = std::max<int>(0, ch->power);
  return Has(ch->keywords, kTrample) ? std::min(power, std::max(0, ToughnessLeft(v, b))) : power;
}

// The most damage the blocks of `d` could still stop without blocker
// `used` and attacker `taken`: each attacker, the strongest first, gets a
// blocker that can block it, the one able to block the fewest others first
// (so a flier's blocker is kept for a flier).
static int DamageCoverable(const PlayerView& v, const Decision& d, ObjId used, ObjId taken) {
  thread_local std::vector<std::pair<int, ObjId>> attackers;  // -damage, attacker
  thread_local std::vector<ObjId> spent;
  attackers.clear();
  spent.clear();
  for (const Action& a : d.actions) {
    if (a.kind != ActionKind::kBlock) continue;
    const ObjId at = static_cast<ObjId>(a.value);
    if (at == taken) continue;
    bool seen = false;
    for (auto& [dmg, o] : attackers) seen |= o == at;
    if (!seen) attackers.emplace_back(-DamageStopped(v, at, a.object), at);
  }
  std::sort(attackers.begin(), attackers.end());
  int covered = 0;
  for (auto [neg, at] : attackers) {
    if (neg == 0) continue;
    ObjId pick = kNoObj;
    int pick_options = 1 << 20;
    for (const Action& a : d.actions) {
      if (a.kind != ActionKind::kBlock || static_cast<ObjId>(a.value) != at || a.object == used ||
          std::find(spent.begin(), spent.end(), a.object) != spent.end())
        continue;
      int options = 0;
      for (const Action& o : d.actions)
        options += o.kind == ActionKind::kBlock && o.object == a.object;
      if (options < pick_options) pick_options = options, pick = a.object;
    }
    if (pick == kNoObj) continue;
    spent.push_back(pick);
    covered += -neg;
  }
  return covered;
}

namespace {
// f(i, attacker, blocker, attacker's, blocker's characteristics) for each
// block offered whose two creatures the player can see.
template <typename F>
void ForEachVisibleBlock(const PlayerView& v, const Decision& d, F&& f) {
  for (int i = 0; i < static_cast<int>(d.actions.size()); ++i) {
    const Action& a = d.actions[i];
    if (a.kind != ActionKind::kBlock) continue;
    const ObjId attacker = static_cast<ObjId>(a.value);
    const Characteristics* b = v.Chars(a.object);
    const Characteristics* at = v.Chars(attacker);
    if (b && at) f(i, attacker, a.object, *at, *b);
  }
}
}  // namespace

int HeuristicPolicy::ChooseSurvivalBlock(const PlayerView& v, const Decision& d, int incoming) {
  const int life = v.Life(v.me());
  int best = -1, best_score = 0, most = -1, most_i = -1;
  bool best_survives = false;
  ForEachVisibleBlock(
      v, d,
      [&](int i, ObjId attacker, ObjId blocker, const Characteristics& at, const Characteristics&) {
        const int stopped = DamageStopped(v, attacker, blocker);
        if (stopped <= 0) return;
        const bool survives = incoming - stopped - DamageCoverable(v, d, blocker, attacker) < life;
        // Among blocks that keep it alive: the best fight, else the cheapest chump.
        const FightEnd end = Fight(v, attacker, blocker);
        int score = (end.attacker_dies ? 100 : 0) + (end.blocker_dies ? 0 : 50) + at.power -
                    (end.blocker_dies ? WorthOf(v, blocker) / 10 : 0);
        if (survives && (!best_survives || score > best_score))
          best = i, best_score = score, best_survives = true;
        if (stopped > most) most = stopped, most_i = i;
      });
  return best_survives ? best : most_i;
}

// Blocks are declared one at a time, so each call sees the blocks already
// made. A blocker goes to an attacker nobody blocks yet when it wins or
// trades well there, or, when the damage still headed for its player is
// lethal, as a chump in front of the biggest such attacker. It joins a block
// already made only when together they kill the attacker it couldn't kill
// alone and it survives (piling every creature on one attacker while the
// others walk through lost games to random players).
//
// Facing lethal damage, surviving comes first: a block is made only when,
// with it, the blockers left can still hold the damage below its life (a
// Giant Spider that blocked the Elite Vanguard it beat rather than the Serra
// Angel only it could stop lost the game), or, when no block can, the one
// that stops the most damage.
int HeuristicPolicy::ChooseBlock(const PlayerView& v, const Decision& d) {
  const int incoming = CombatDamageTo(v, v.me());
  const bool desperate = incoming >= v.Life(v.me());
  if (desperate) {
    if (int i = ChooseSurvivalBlock(v, d, incoming); i >= 0) return i;
  }
  int best = -1, best_score = 0;
  ForEachVisibleBlock(v, d,
                      [&](int i, ObjId attacker, ObjId blocker, const Characteristics& at,
                          const Characteristics& b) {
                        const int attacker_left = ToughnessLeft(v, attacker);
                        FightEnd end = Fight(v, attacker, blocker);
                        // An attacker its controller can regenerate survives
                        // the fight: blocking it is no trade (Keldon Warlord
                        // and Gray Ogre died blocking Drudge Skeletons).
                        if (end.attacker_dies && Regenerates(v, attacker))
                          end.attacker_dies = false;
                        const bool survives = !end.blocker_dies;
                        int score = 0;
                        if (Unblocked(v, attacker)) {
                          const bool kills = end.attacker_dies;
                          if (survives && kills)
                            score = 100 + at.power;
                          else if (survives)
                            score = 50 + at.power;
                          else if (kills && b.power + b.toughness <= at.power + at.toughness)
                            score = 40;
                          else if (desperate)
                            score = 10 + at.power - b.power;
                        } else if (!desperate && survives) {
                          ObjId foe;
                          const int gang = IncomingInFight(v, attacker, &foe);
                          if (gang < attacker_left && gang + b.power >= attacker_left)
                            score = 30 + at.power;
                        }
                        if (score > best_score) best_score = score, best = i;
                      });
  if (best >= 0) return best;
  for (int i = 0; i < static_cast<int>(d.actions.size()); ++i)
    if (d.actions[i].kind == ActionKind::kDone) return i;
  return 0;
}

}  // namespace strata
