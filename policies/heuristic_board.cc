// The heuristic's readings of the board, shared by the files of its work
// (heuristic_internal.h declares them, each with what it answers): the mana
// a player could make, what an object is worth, fights one on one, the
// combat damage on its way, the burn in hand, whether the opponent is in
// range. Two answers a decision asks again and again are kept: per
// decision (the memo), and the mana counts from one decision to the next.

#include <algorithm>
#include <array>
#include <utility>
#include <vector>

#include "policies/heuristic_internal.h"

namespace strata::heuristic_detail {
namespace {

// What several parts of one decision ask again, worked out once: the game
// does not change while a policy chooses, and HeuristicPolicy::Choose, the
// only way in, clears it first. Per thread, as the policies of a thread
// choose one at a time.
struct DecisionMemo {
  std::array<bool, 2> mana_known{};
  std::array<Mana, 2> mana;
  int8_t in_range = -1;  // -1: not asked yet
};
thread_local DecisionMemo memo;

Mana CountAvailable(const PlayerView& v, Player p) {
  Mana m;
  for (int i = 0; i < 6; ++i) {
    int n = v.PoolOf(p, i);
    m.total += n;
    if (i < kColorCount) m.color[i] += n;
  }
  for (ObjId o : v.ManaPermanents(p)) {
    const Characteristics* ch = v.Chars(o);
    if (!ch || v.Tapped(o)) continue;  // (the set holds p's alone)
    if (ch->IsCreature() && v.Sick(o) && !Has(ch->keywords, kHaste)) continue;
    // What the engine would tap it for (Sol Ring: two; Black Lotus, whose
    // cost is a sacrifice: nothing).
    ManaSource made;
    if (!v.ManaOf(*ch, made)) continue;
    m.total += made.amount;
    for (int c = 0; c < kColorCount; ++c)
      if (Has(made.colors, c)) m.color[c] += made.amount;
    // T-10.1: Mana Flare's, Wild Growth's mana with the land's.
    ColorMask extra_colors = 0;
    if (const int extra = v.ManaOnTapExtra(o, &extra_colors); extra > 0) [[unlikely]] {
      m.total += extra;
      for (int c = 0; c < kColorCount; ++c)
        if (Has(extra_colors, c)) m.color[c] += extra;
    }
  }
  // T-10.1: Channel's life (never the last one).
  if (v.RulesOf(p).life_for_mana) [[unlikely]]
    m.total += std::clamp(v.Life(p) - 1, 0, 20);
  return m;
}

// A count kept from one decision to the next, under the stamp of the mana
// it counted (PlayerView::ManaStamp), per viewer (what it sees) and
// player: most decisions meet the mana the last one counted.
struct KeptCount {
  uint64_t stamp = 0;  // none given out is 0
  bool omniscient = false;
  Mana mana;
};
thread_local std::array<std::array<KeptCount, 2>, 2> kept_counts;  // [viewer][player]

bool CountInRange(const PlayerView& v) {
  int power = 0;
  for (ObjId o : v.Battlefield()) {
    const Characteristics* ch = v.Chars(o);
    if (!ch || !ch->IsCreature() || ch->controller != v.me()) continue;
    if (!v.game_attacking(o) &&
        (v.Tapped(o) || (v.Sick(o) && !Has(ch->keywords, kHaste)) || Has(ch->keywords, kDefender)))
      continue;
    power += std::max<int>(0, ch->power);
  }
  return power > 0 && v.Life(Opponent(v.me())) <= power + BurnReach(v, Available(v, v.me()), false);
}

}  // namespace

ColorMask ManaColorsOf(const PlayerView& v, ObjId o, const Characteristics& ch, bool& any) {
  ColorMask colors = ch.land_mana;
  any = colors != 0;
  if (ch.card == kNoCard || ch.blank) return colors;
  const CardDef& c = v.db()[ch.card];
  for (int i = 0; i < static_cast<int>(c.activated.size()); ++i) {
    const ActivatedAbility& a = c.activated[i];
    if (!a.mana_ability || !a.tap || !Has(ch.abilities, c.ActivatedBit(i))) continue;
    for (const EffectStep& st : a.body.steps) {
      if (st.op != Op::kAddMana) continue;
      any = true;
      colors |= st.mana_any ? 0x1F : st.mana_colors;
    }
  }
  (void)o;
  return colors;
}

void ClearDecisionMemo() {
  memo = DecisionMemo{};
}

Mana Available(const PlayerView& v, Player p) {
  if (!memo.mana_known[p]) {
    const uint64_t stamp = v.ManaStamp(p);
    KeptCount& kept = kept_counts[v.me()][p];
    if (kept.stamp != stamp || kept.omniscient != v.omniscient())
      kept = KeptCount{stamp, v.omniscient(), CountAvailable(v, p)};
    memo.mana[p] = kept.mana;
    memo.mana_known[p] = true;
  }
  return memo.mana[p];
}

bool Affords(const ManaCost& cost, const Mana& m, int x, int extra) {
  int need = cost.ManaValue() + x * cost.x_count + extra;
  if (m.total < need) return false;
  for (int c = 0; c < kColorCount; ++c)
    if (cost.colored[c] > m.color[c]) return false;
  for (ColorMask h : cost.hybrid) {
    bool ok = false;
    for (int c = 0; c < kColorCount; ++c) ok |= Has(h, c) && m.color[c] > 0;
    if (!ok) return false;
  }
  return true;
}

int MaxX(const ManaCost& cost, const Mana& m) {
  if (cost.x_count <= 0 || !Affords(cost, m)) return 0;
  return (m.total - cost.ManaValue()) / cost.x_count;
}

int WorthOf(const PlayerView& v, ObjId o) {
  const Characteristics* ch = v.Chars(o);
  if (!ch) return 0;
  if (ch->IsCreature()) {
    int value = std::max(0, static_cast<int>(ch->power)) * 10 + std::max(0, ch->toughness + 0) * 4;
    if (Has(ch->keywords, kFlying)) value += 10;
    if (Has(ch->keywords, kFirstStrike)) value += 5;
    value += 4 * __builtin_popcount(ch->abilities);
    return std::max(value, 5);
  }
  if (Has(ch->types, kLand)) return 6;
  return 8 * std::max<int>(1, ch->mana_value);
}

FightEnd Fight(const PlayerView& v, ObjId a, ObjId b) {
  FightEnd end;
  const Characteristics* ca = v.Chars(a);
  const Characteristics* cb = v.Chars(b);
  if (!ca || !cb) return end;
  const int to_b = Protected(*cb, ca->colors) ? 0 : std::max<int>(0, ca->power);
  const int to_a = Protected(*ca, cb->colors) ? 0 : std::max<int>(0, cb->power);
  const bool first_a = Has(ca->keywords, kFirstStrike) || Has(ca->keywords, kDoubleStrike);
  const bool first_b = Has(cb->keywords, kFirstStrike) || Has(cb->keywords, kDoubleStrike);
  const bool twice_a = Has(ca->keywords, kDoubleStrike), twice_b = Has(cb->keywords, kDoubleStrike);
  const int left_a = ca->toughness - v.Damage(a), left_b = cb->toughness - v.Damage(b);
  int taken_a = 0, taken_b = 0;
  auto dead = [](int taken, int left, bool deathtouch) {
    return taken > 0 && (deathtouch || taken >= left);
  };
  if (first_a) taken_b += to_b;
  if (first_b) taken_a += to_a;
  bool a_dead = dead(taken_a, left_a, Has(cb->keywords, kDeathtouch));
  bool b_dead = dead(taken_b, left_b, Has(ca->keywords, kDeathtouch));
  if (!a_dead && (!first_a || twice_a)) taken_b += to_b;
  if (!b_dead && (!first_b || twice_b)) taken_a += to_a;
  end.attacker_dies = dead(taken_a, left_a, Has(cb->keywords, kDeathtouch));
  end.blocker_dies = dead(taken_b, left_b, Has(ca->keywords, kDeathtouch));
  return end;
}

int IncomingInFight(const PlayerView& v, ObjId o, ObjId* first_foe) {
  int incoming = 0;
  *first_foe = kNoObj;
  if (v.game_attacking(o)) {
    for (ObjId b : v.Battlefield())
      if (b != o && v.Blocking(b) == o && v.Chars(b)) {
        incoming += std::max<int>(0, v.Chars(b)->power);
        if (*first_foe == kNoObj) *first_foe = b;
      }
  } else if (ObjId a = v.Blocking(o); a != kNoObj && a != o && v.Chars(a)) {
    incoming = std::max<int>(0, v.Chars(a)->power);
    *first_foe = a;
  }
  return incoming;
}

int CombatDamageTo(const PlayerView& v, Player p) {
  int total = 0;
  for (ObjId a : v.Battlefield()) {
    const Characteristics* ch = v.Chars(a);
    if (!ch || !v.game_attacking(a) || ch->controller == p) continue;
    if (Unblocked(v, a)) {
      total += std::max<int>(0, ch->power);
    } else if (Has(ch->keywords, kTrample)) {
      int rest = ch->power;
      for (ObjId b : v.Battlefield())
        if (b != a && v.Blocking(b) == a) rest -= std::max(0, ToughnessLeft(v, b));
      total += std::max(0, rest);
    }
  }
  return total;
}

int BurnReach(const PlayerView& v, const Mana& mana, bool sorcery_time, bool creatures) {
  thread_local std::vector<std::pair<int, int>> spells;  // cost, damage
  spells.clear();
  int x_spell = -1;  // the X spell's fixed cost, if any
  for (ObjId o : v.MyHand()) {
    const CardId id = v.CardOf(o);
    if (id == kNoCard) continue;
    const CardDef& c = v.db()[id];
    if (!c.has_spell || Has(c.types, kLand) || (!IsFast(c) && !sorcery_time)) continue;
    const AbilityBody& b = c.spell.modes.empty() ? c.spell : c.spell.modes[0];
    if (b.targets.empty() || SlotAim(c, b, 0) != Aim::kHarm) continue;
    if (creatures && !TargetsCreatures(b)) continue;
    if (c.cost.x_count > 0) {
      if (SlotDamage(b, 0, 1) > SlotDamage(b, 0, 0))
        x_spell = std::max(x_spell, c.cost.ManaValue());
      continue;
    }
    if (int dmg = SlotDamage(b, 0, 0); dmg > 0) spells.emplace_back(c.cost.ManaValue(), dmg);
  }
  std::sort(spells.begin(), spells.end());
  int left = mana.total, damage = 0;
  for (auto [cost, dmg] : spells)
    if (cost <= left) left -= cost, damage += dmg;
  if (x_spell >= 0 && left > x_spell) damage += left - x_spell;
  return damage;
}

// Can `from`'s controller pay one of its untargeted abilities that
// regenerates `who` (`self`: its own, Drudge Skeletons; `enchanted`: an
// Aura's, Regeneration and The Brute)?
static bool AffordsRegeneration(const PlayerView& v, ObjId from, Ref::Kind who) {
  const Characteristics* ch = v.Chars(from);
  if (!ch || ch->card == kNoCard || ch->blank) return false;
  const CardDef& c = v.db()[ch->card];
  for (int i = 0; i < static_cast<int>(c.activated.size()); ++i) {
    const ActivatedAbility& a = c.activated[i];
    if (!Has(ch->abilities, c.ActivatedBit(i)) || (a.tap && v.Tapped(from))) continue;
    bool regen = false;
    for (const EffectStep& st : a.body.steps)
      regen |= st.op == Op::kRegenerate && st.target.kind == who;
    if (regen && Affords(a.cost, Available(v, ch->controller))) return true;
  }
  return false;
}

bool Regenerates(const PlayerView& v, ObjId o) {
  const Characteristics* ch = v.Chars(o);
  if (!ch || ch->card == kNoCard || ch->blank) return false;
  // Marked "can't be regenerated this turn" (Hurr Jackal, Incinerate).
  if (v.CantBeRegenerated(o)) return false;
  if (AffordsRegeneration(v, o, Ref::kSelf)) return true;
  for (ObjId a : v.Battlefield()) {
    if (v.AttachedTo(a) != o) continue;
    const Characteristics* ach = v.Chars(a);
    if (ach && ach->controller == ch->controller && AffordsRegeneration(v, a, Ref::kEnchanted))
      return true;
  }
  return false;
}

const CardDef* CardOfAction(const PlayerView& v, const Action& a) {
  CardId id = kNoCard;
  if (a.kind == ActionKind::kCast) id = v.CardOf(a.object);
  if (a.kind == ActionKind::kActivate && v.Chars(a.object)) id = v.Chars(a.object)->card;
  return id == kNoCard ? nullptr : &v.db()[id];
}

ColorMask LandColors(const PlayerView& v, ObjId o) {
  const Characteristics* ch = v.Chars(o);
  bool any = false;
  return ch ? ManaColorsOf(v, o, *ch, any) : 0;
}

bool InRange(const PlayerView& v) {
  if (memo.in_range < 0) memo.in_range = CountInRange(v);
  return memo.in_range > 0;
}

}  // namespace strata::heuristic_detail
