// The rules invariants read at the moment a rule acts (AuditPoint): combat
// damage assigned (T-7), damage made final through shields and prevention
// (T-4, E-3 A), mana burn and the life check (T-1.4, T-1.5), the state
// check, regeneration (E-3), untap and cleanup (T-1), discarding to the
// maximum hand size (T-1). No decision falls between these and what follows
// them, so a check at decisions alone would see a skipped or wrong step only
// by its echoes. Each is the checker's own reading of the rule, written from
// RULES.md, not a call to the engine code it checks: a rule implemented
// wrongly but consistently shows here (docs/invariants.md).

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "engine/invariants.h"
#include "engine/saturate.h"
#include "engine/strings.h"

namespace strata {

namespace {

// The turn whose damage the engine's tally holds (T-4.1): it is cleared as
// a cleanup phase begins, so a cleanup's damage counts with the next turn.
int TallyKey(const Game& g) {
  return g.state().turn + (g.state().phase == Phase::kCleanup ? 1 : 0);
}

// What `d` is dealt to, for messages.
std::string DamageTarget(const Game& g, ObjId object, Player player) {
  return object != kNoObj ? g.ObjectName(object) : InvariantChecker::Who(player);
}

// Is `to` the player or object a shield against a source protects?
bool SameTarget(Target to, Target shield_to) {
  if (to.kind != shield_to.kind) return false;
  return to.kind == Target::kPlayer ? to.player == shield_to.player : to.obj == shield_to.obj;
}

}  // namespace

void InvariantChecker::At(const Game& g, AuditPoint point, int arg) {
  const GameState& s = g.state();
  // state_check: the damage step and the phase's end are each followed by
  // a state check before anything else happens (T-4, T-1.5).
  if (point == AuditPoint::kStateChecked) state_check_due_ = nullptr;
  // (Objects leave together, and occurrences happen, inside a state check
  // too, before it is over.)
  if (point != AuditPoint::kLeftTogether && point != AuditPoint::kGroupTriggered &&
      point != AuditPoint::kHappening)
    CheckStateCheckRan(g);
  if (point == AuditPoint::kDamageDealt) state_check_due_ = "damage became final";
  if (point == AuditPoint::kPhaseEnded) state_check_due_ = "the phase's life check";
  // A resolution that left no damage for a prevention step is followed by
  // a state check at once (with damage, the step's own check follows it).
  if (point == AuditPoint::kResolved && g.damage_.pending.empty())
    state_check_due_ = "a resolution";
  CheckTriggersWait(g, nullptr);
  switch (point) {
    case AuditPoint::kLeftTogether:
      CheckLeftTogether(g, arg);
      return;
    case AuditPoint::kGroupTriggered:
      CheckGroupTriggered(g, arg);
      return;
    case AuditPoint::kHappening:
      CheckBeforeFirst(g, arg);
      CheckReplacedNeverHappens(g, arg);
      return;
    case AuditPoint::kReplacing: {
      const Occurrence& e = g.Event(arg);
      if (e.kind == EventKind::kUntap && e.phase == Phase::kUntap && s.phase == Phase::kUntap)
        untap_replaced_.push_back(s.Ref(e.object));
      return;
    }
    case AuditPoint::kUnlessPayRefused: {
      // T-8 (Power Sink): the player who would not pay has every land with
      // a mana ability tapped, or its tap held for "before" responses and
      // replacements (E-1, E-3), and no mana left.
      const Player p = static_cast<Player>(arg);
      std::string why;
      for (int m : s.players[p].pool)
        if (m) why = "keeps mana in the pool";
      s.ForEachPermanent([&](ObjId o) {
        if (why.empty() && g.Chars(o).controller == p && Has(g.Chars(o).types, kLand) &&
            !s.obj.tapped[o] && g.HasManaAbility(o) && !g.BeingHeld(o, EventKind::kTap))
          why = absl::StrCat("keeps ", g.ObjectName(o), " untapped");
      });
      Record(Invariant::kManaPaid, why.empty(),
             absl::StrCat(Who(p), " refused to pay for a spell and ", why));
      return;
    }
    case AuditPoint::kCombatDamageAssigned:
      CheckCombatAssignment(g, arg >= kFirstStrikeStep ? arg - kFirstStrikeStep : arg,
                            arg >= kFirstStrikeStep);
      return;
    case AuditPoint::kDamageFinal:
      // The step's window is over: its passes are forgotten.
      std::erase_if(prevention_passed_, [&](const std::pair<size_t, Player>& p) {
        return p.first >= g.timing_.frames.size();
      });
      ExpectDamage(g, arg);
      return;
    case AuditPoint::kDamageDealt:
      CheckDamageDealt(g);
      return;
    case AuditPoint::kPhaseEnding:
      CheckPhaseCostsHandled(g);
      for (Player p = 0; p < 2; ++p) {
        life_at_phase_end_[p] = s.players[p].life;
        unspent_at_phase_end_[p] = 0;
        for (int m : s.players[p].pool) unspent_at_phase_end_[p] += m;
      }
      return;
    case AuditPoint::kPhaseEnded:
      if (s.phase == Phase::kCleanup && g.turn_.untap_limit_cards) [[unlikely]] {
        untap_limited_.clear();
        s.ForEachPermanent([&](ObjId o) {
          const Characteristics& ch = g.Chars(o);
          if (ch.types & g.Rules(ch.controller).untap_only_one) untap_limited_.push_back(s.Ref(o));
        });
      }
      for (Player p = 0; p < 2; ++p) {
        // T-1.4: one life per unspent mana, and the pools empty. (A burn
        // held for its "before" responses and replacements may be changed
        // or replaced, and those responses change life on their own: in
        // such a game, before_first and replaced_never_happens watch it.)
        const int expected = LifeAfter(life_at_phase_end_[p], -unspent_at_phase_end_[p]);
        Record(Invariant::kManaBurn,
               s.players[p].life == expected || g.Holds(EventKind::kLifeChange),
               absl::StrCat(Who(p), " had ", unspent_at_phase_end_[p], " unspent mana and ",
                            life_at_phase_end_[p], " life at the end of ", S(PhaseName(s.phase)),
                            ", and has ", s.players[p].life, " after mana burn"));
        // T-1.5: at 0 or less life, the player loses (unless they can't).
        Record(Invariant::kLifeCheck,
               s.players[p].life > 0 || s.players[p].lost || g.Rules(p).cant_lose,
               absl::StrCat(Who(p), " is at ", s.players[p].life, " life after the life check of ",
                            S(PhaseName(s.phase)), " and has not lost"));
        // G-11: so with ten or more poison counters.
        Record(Invariant::kLifeCheck,
               s.players[p].poison < kPoisonToLose || s.players[p].lost || g.Rules(p).cant_lose,
               absl::StrCat(Who(p), " has ", s.players[p].poison,
                            " poison counters after the life check of ", S(PhaseName(s.phase)),
                            " and has not lost"));
      }
      return;
    case AuditPoint::kStateChecked: {
      const std::string left = StateCheckLeft(g);
      Record(Invariant::kStateCheck, left.empty(), left);
      return;
    }
    case AuditPoint::kRegenerated: {
      const ObjId o = static_cast<ObjId>(arg);
      std::string why;
      if (!s.obj.tapped[o]) why = "is untapped";
      if (s.obj.damage[o] != 0) why = absl::StrCat("still has ", s.obj.damage[o], " damage");
      if (g.combat_.flag[o] != Game::kNotInCombat) why = "is still in combat";
      Record(Invariant::kRegeneration, why.empty(),
             absl::StrCat(g.ObjectName(o), " regenerated and ", why));
      return;
    }
    case AuditPoint::kPhaseBegun: {
      // pools_after_burn: the last phase's mana burn emptied the pools
      // before anything of this one adds mana (T-1.4, T-1.7).
      bool empty = true;
      for (const auto& pl : s.players)
        for (int m : pl.pool) empty &= m == 0;
      Record(Invariant::kPoolsAfterBurn, empty,
             absl::StrCat("mana left in a pool as ", S(PhaseName(s.phase)), " of turn ", s.turn,
                          " began"));
    }
      CheckMulligan(g, nullptr);
      CollectPhaseCosts(g);
      if (s.phase == Phase::kUntap) {
        // (A held untap phase's untaps happened before its beginning went
        // on, PhaseFrame::kUntapped; the ones a replacement took did not.)
        std::string why;
        s.ForEachPermanent([&](ObjId o) {
          // T-1.8: one a limit kept tapped is of a limited type.
          if (why.empty() && g.Chars(o).controller == s.active && s.obj.tapped[o] &&
              std::find(untap_replaced_.begin(), untap_replaced_.end(), s.Ref(o)) ==
                  untap_replaced_.end() &&
              !(g.turn_.untap_limit_cards && g.UntapKept(o) &&
                ((g.Chars(o).types & g.Rules(s.active).untap_only_one) ||
                 std::find(untap_limited_.begin(), untap_limited_.end(), s.Ref(o)) !=
                     untap_limited_.end())))
            why = absl::StrCat(g.ObjectName(o), " of the active player ", Who(s.active),
                               " stays tapped through untap");
        });
        Record(Invariant::kUntap, why.empty(), why);
        untap_replaced_.clear();
      }
      if (s.phase == Phase::kCleanup) {
        std::string why;
        s.ForEachPermanent([&](ObjId o) {
          if (why.empty() &&
              (s.obj.damage[o] || s.obj.regen_shields[o] || g.damage_.prevent_shield[o]))
            why = absl::StrCat(g.ObjectName(o), " keeps damage ", s.obj.damage[o],
                               " or a shield into cleanup's end");
        });
        for (Player p = 0; p < 2 && why.empty(); ++p)
          if (g.damage_.player_shield[p])
            why = absl::StrCat(Who(p), " keeps a prevention shield past cleanup");
        if (why.empty() && !g.damage_.source_shields.empty())
          why = "a shield against a source outlasts cleanup";
        for (const EffectRow& r : s.effects)
          if (why.empty() && r.active && r.duration == Duration::kEndOfTurn)
            why = absl::StrCat("an until-end-of-turn effect of ", g.db()[r.card].name,
                               " outlasts cleanup");
        Record(Invariant::kCleanup, why.empty(), why);
      }
      return;
    case AuditPoint::kCostsPaying:
      MarkUntappedBeforePaying(g, g.stack_.items[arg].controller);
      return;
    case AuditPoint::kCostsPaid:
      CheckManaPaid(g, g.stack_.items[arg]);
      CheckNoPendingSourceTapped(g, "a spell or ability");
      return;
    case AuditPoint::kPhaseCostPaying: {
      const PhaseTodo& t = g.turn_.phase_todo[arg];
      std::erase_if(phase_costs_due_,
                    [&](const PhaseCostDue& due) { return due.object.id == t.object.id; });
      MarkUntappedBeforePaying(g, t.controller);
      NotePhaseCostPaying(g, arg);
      return;
    }
    case AuditPoint::kPhaseCostPaid:
      CheckPhaseCostPaid(g, arg);
      return;
    case AuditPoint::kResolved:  // read above, for the state check it owes
      return;
    case AuditPoint::kPhaseReady:
      if (s.phase == Phase::kDraw) {
        // T-1: the active player draws a card, unless a rule effect skips
        // it; in a game dealt from decks, not on the game's first turn.
        const bool owed =
            !(g.timing_.skip_first_draw && s.turn == 1) && !g.Rules(s.active).skip_draw;
        const auto& frames = g.timing_.frames;
        const bool drawing = !frames.empty() && frames.back().kind == FrameKind::kDraw &&
                             frames.back().draw.player == s.active && frames.back().draw.left == 1;
        Record(Invariant::kDrawPhase, owed == drawing,
               absl::StrCat(Who(s.active), owed ? " draws no card" : " draws a card",
                            " in the draw phase of turn ", s.turn));
      }
      return;
    case AuditPoint::kStepExecuting:
      StepBegins(g, arg);
      return;
    case AuditPoint::kStepExecuted:
      CheckStepDone(g);
      return;
    case AuditPoint::kDiscardToMaxBegins:
      hand_before_discard_ = static_cast<int>(s.players[s.active].hand.size());
      return;
    case AuditPoint::kDiscardToMaxEnds: {
      const int max = g.Rules(s.active).max_hand_size;
      const int hand = static_cast<int>(s.players[s.active].hand.size());
      const int expected = max < 0 ? hand_before_discard_ : std::min(hand_before_discard_, max);
      Record(Invariant::kHandSize, hand == expected,
             absl::StrCat(Who(s.active), " went from ", hand_before_discard_, " cards to ", hand,
                          " discarding to a maximum hand size of ", max));
      return;
    }
  }
}

// Before a payment: the payer's pool, which permanents are untapped and the
// mana each would make tapped, so that what the payment spent and tapped
// can be read after it.
void InvariantChecker::MarkUntappedBeforePaying(const Game& g, Player p) {
  const GameState& s = g.state();
  mana_before_paying_ = 0;
  for (int m : s.players[p].pool) mana_before_paying_ += m;
  life_before_paying_ = s.players[p].life;
  untapped_before_paying_.assign(s.obj.count, 0);
  mana_if_tapped_.assign(s.obj.count, 1);
  for (ObjId o = 0; o < s.obj.count; ++o) {
    untapped_before_paying_[o] = s.obj.zone[o] == Zone::kBattlefield && !s.obj.tapped[o];
    ManaSource made;
    if (!untapped_before_paying_[o] || !g.ManaOf(g.Chars(o), made)) continue;
    int n = made.amount;
    // T-10.1: a triggered mana ability's mana (Mana Flare, Wild Growth).
    if (g.turn_.mana_trigger_cards && Has(g.Chars(o).types, kLand))
      n += g.ManaTriggerEntries(o, made, nullptr);
    mana_if_tapped_[o] = static_cast<uint8_t>(std::min(n, 255));
  }
}

// Each permanent tapped while paying made the mana its mana ability makes
// (Sol Ring two: T-10), one for a land or anything else, as it was before
// the payment began.
int InvariantChecker::SpentSincePaying(const Game& g, Player p) const {
  const GameState& s = g.state();
  int spent = mana_before_paying_;
  for (int m : s.players[p].pool) spent -= m;
  for (ObjId o = 0; o < s.obj.count && o < static_cast<int>(untapped_before_paying_.size()); ++o)
    if (untapped_before_paying_[o] && s.obj.tapped[o]) spent += mana_if_tapped_[o];
  // T-10.1: Channel's mana, paid in life.
  if (g.Rules(p).life_for_mana) spent += std::max(0, life_before_paying_ - s.players[p].life);
  return spent;
}

void InvariantChecker::CheckStateCheckRan(const Game& g) {
  if (!state_check_due_) return;
  Record(Invariant::kStateCheck, false,
         absl::StrCat("no state check after ", state_check_due_, " (",
                      S(PhaseName(g.state().phase)), " of turn ", g.state().turn, ")"));
  state_check_due_ = nullptr;
}

// T-8: paying a spell's or ability's mana cost spends what the cost asks:
// its printed mana value, X times each {X}, then for a spell (L-8) the cost
// increases, the reductions (generic mana only) and the minimum, counting
// X. What was spent is the pool's fall plus one mana for each permanent
// tapped while paying; a {T} ability's source is never one of them. (A
// spell paying for extra targets, Fireball's, is left out: the reading of
// its modes is the engine's.)
void InvariantChecker::CheckManaPaid(const Game& g, const StackItem& item) {
  const GameState& s = g.state();
  const CardDef& card = g.db()[item.body_card];
  const bool spell = item.from == BodySource::kSpell;
  const bool ability = item.from == BodySource::kActivated;
  if (!spell && !ability) return;
  const AbilityBody* body = g.ModeBody(item);
  if (body && !body->targets.empty() && !body->targets[0].extra_target_cost.Empty() &&
      item.target_count > 1)
    return;
  ManaCost cost = spell ? card.cost : card.activated[item.ability].cost;
  if (spell) {
    const PlayerRules& r = g.Rules(item.controller);
    cost.generic = std::max(0, cost.generic + r.cost_increase - r.cost_reduce);
    const int total = cost.ManaValue() + cost.x_count * item.x;
    if (total < r.cost_min) cost.generic += r.cost_min - total;
  }
  const int expected = cost.ManaValue() + cost.x_count * item.x;
  const Player p = item.controller;
  const int spent = SpentSincePaying(g, p);
  std::string why;
  if (ability && card.activated[item.ability].tap && item.source < s.obj.count &&
      item.source < static_cast<ObjId>(untapped_before_paying_.size()) &&
      untapped_before_paying_[item.source] && s.obj.tapped[item.source])
    why =
        absl::StrCat(g.ObjectName(item.source), " was tapped for mana to pay its own {T} ability");
  if (why.empty() && spent != expected)
    why = absl::StrCat(Who(p), " paid ", spent, " mana for ", card.name, " (X = ", item.x,
                       "), whose cost asks ", expected);
  Record(Invariant::kManaPaid, why.empty(), why);
}

// T-7 damage: in this step (first strike or regular), every creature in
// combat that strikes now assigns its power: an unblocked attacker to the
// defending player; a blocked one among its blockers, lethal damage
// (toughness less damage already marked) to each before the next gets any,
// and to the player only with trample once each blocker has lethal; a
// blocker to the attacker it blocks. Nothing else assigns combat damage.
void InvariantChecker::CheckCombatAssignment(const Game& g, int begin, bool first_strike) {
  const GameState& s = g.state();
  const Player defender = Opponent(s.active);
  const auto& pending = g.damage_.pending;
  std::string why;
  auto on_battlefield = [&](ObjId o) {
    return o < s.obj.count && s.obj.zone[o] == Zone::kBattlefield && g.Chars(o).IsCreature();
  };
  auto strikes_now = [&](ObjId o) {
    return Has(g.Chars(o).keywords, kFirstStrike) == first_strike;
  };
  for (size_t i = begin; i < pending.size() && why.empty(); ++i) {
    const PendingDamage& d = pending[i];
    if (!d.combat)
      why = "non-combat damage assigned in a combat damage step";
    else if (!on_battlefield(d.source))
      why = absl::StrCat("combat damage from ", g.ObjectName(d.source), ", no creature in play");
    else if (g.combat_.flag[d.source] == Game::kNotInCombat)
      why = absl::StrCat(g.ObjectName(d.source), " assigns combat damage out of combat");
    else if (!strikes_now(d.source))
      why = absl::StrCat(g.ObjectName(d.source), " assigns damage in the ",
                         first_strike ? "first-strike" : "regular", " step");
    else if (d.amount <= 0)
      why = absl::StrCat(g.ObjectName(d.source), " assigns ", d.amount, " damage");
  }
  // Does blocker b block attacker a (its band too, T-7.3: read from the
  // bands as recorded, apart from the engine's BandOf)?
  auto blocks = [&](ObjId b, ObjId a) {
    const ObjId at = g.combat_.block_target[b];
    if (at == a) return true;
    if (!g.BandingGame() || at == kNoObj || at >= s.obj.count) return false;
    return g.combat_.band[at] != kNoObj && g.combat_.band[at] == g.combat_.band[a];
  };
  for (ObjId o = 0; o < s.obj.count && why.empty(); ++o) {
    if (!on_battlefield(o) || g.combat_.flag[o] == Game::kNotInCombat) continue;
    const Characteristics& ch = g.Chars(o);
    const int power = strikes_now(o) ? std::max<int>(0, ch.power) : 0;
    // partial: blockers given less than lethal; over: given more
    int total = 0, to_player = 0, partial = 0, over = 0;
    for (size_t i = begin; i < pending.size(); ++i) {
      const PendingDamage& d = pending[i];
      if (d.source != o) continue;
      total += d.amount;
      if (d.to.kind == Target::kPlayer) {
        to_player += d.amount;
        if (d.to.player != defender)
          why = absl::StrCat(g.ObjectName(o), " assigns combat damage to its own controller");
        continue;
      }
      const ObjId t = d.to.obj.id;
      // T-7.3: a blocker of a band blocks each of its creatures.
      const bool right_creature = g.combat_.flag[o] == Game::kBlocking
                                      ? blocks(o, t)
                                      : g.combat_.flag[t] == Game::kBlocking && blocks(t, o);
      if (!right_creature)
        why = absl::StrCat(g.ObjectName(o), " assigns damage to ", g.ObjectName(t),
                           ", which it neither blocks nor is blocked by");
      if (g.combat_.flag[o] == Game::kAttacking) {
        const int lethal = std::max<int>(0, g.Chars(t).toughness - s.obj.damage[t]);
        if (d.amount < lethal) ++partial;
        if (d.amount > lethal) ++over;
      }
    }
    if (!why.empty()) break;
    if (g.combat_.flag[o] == Game::kBlocking) {
      const ObjId at = g.combat_.block_target[o];
      bool attacker_there = at < s.obj.count && s.obj.zone[at] == Zone::kBattlefield &&
                            g.combat_.flag[at] == Game::kAttacking;
      for (ObjId m = 0; m < s.obj.count && !attacker_there && g.BandingGame(); ++m)
        attacker_there = on_battlefield(m) && g.combat_.flag[m] == Game::kAttacking && blocks(o, m);
      const int expected = attacker_there ? power : 0;
      if (total != expected)
        why = absl::StrCat(g.ObjectName(o), " blocks ",
                           at < s.obj.count ? g.ObjectName(at) : std::string("nothing"),
                           " with power ", ch.power, " and assigns ", total, " combat damage");
      continue;
    }
    // An attacker: blocked when something blocked it, even if its blockers left.
    const bool blocked = g.combat_.block_target[o] == o;
    int blockers = 0;
    bool banding_blocker = false;  // the defending player divides its damage (T-7.3)
    for (ObjId b = 0; b < s.obj.count; ++b)
      if (on_battlefield(b) && g.combat_.flag[b] == Game::kBlocking && blocks(b, o)) {
        ++blockers;
        banding_blocker |= g.BandingGame() && Has(g.Chars(b).keywords, kBanding);
      }
    const bool trample = Has(ch.keywords, kTrample);
    const int expected = !blocked || blockers > 0 || trample ? power : 0;
    if (banding_blocker) {
      if (total != power || to_player != 0)
        why = absl::StrCat(g.ObjectName(o), " is blocked by a creature with banding and assigns ",
                           total, " of its power ", power, ", ", to_player, " to the player");
      continue;
    }
    if (total != expected)
      why = absl::StrCat(g.ObjectName(o), " attacks with power ", ch.power, " and assigns ", total,
                         " combat damage (", blockers, " blockers)");
    else if (!blocked && to_player != total)
      why = absl::StrCat(g.ObjectName(o), " is unblocked and assigns ", total - to_player,
                         " of its damage to creatures");
    else if (blocked && to_player > 0 && !trample)
      why = absl::StrCat(g.ObjectName(o), " is blocked, has no trample and assigns ", to_player,
                         " damage to the player");
    else if (blocked && to_player > 0 && partial > 0)
      why = absl::StrCat(g.ObjectName(o), " tramples over ", to_player,
                         " before each blocker has lethal damage");
    else if (blocked && to_player > 0 && over > 0)
      why = absl::StrCat(g.ObjectName(o), " tramples over ", to_player, " but gives ", over,
                         " blockers more than lethal damage (counting damage already marked)");
    else if (blocked && partial > 1)
      why = absl::StrCat(g.ObjectName(o), " leaves ", partial,
                         " blockers short of lethal damage while damaging them");
  }
  Record(Invariant::kDamageAssignment, why.empty(), why);
}

// T-4 over: work out, from the pending damage and the shields as they
// stand, what each piece deals once prevention applies (E-3 A): a shield
// against its source stops all of it and is spent; protection from a colour
// of the source stops damage to a creature; damage to a player is reduced
// (Urza's Armor); then the target's prevention shield takes what it can;
// then its before triggers' changes to its size are added (E-7).
void InvariantChecker::ExpectDamage(const Game& g, int begin) {
  const GameState& s = g.state();
  expected_damage_.clear();
  expected_object_shield_.clear();
  expected_player_shield_ = {g.damage_.player_shield[0], g.damage_.player_shield[1]};
  std::vector<bool> shield_used(g.damage_.source_shields.size(), false);
  auto object_shield = [&](ObjId o) -> int& {
    for (auto& [obj, left] : expected_object_shield_)
      if (obj == o) return left;
    expected_object_shield_.push_back({o, g.damage_.prevent_shield[o]});
    return expected_object_shield_.back().second;
  };
  std::string missed;
  for (size_t i = begin; i < g.damage_.pending.size(); ++i) {
    const PendingDamage& d = g.damage_.pending[i];
    const bool to_object = d.to.kind == Target::kObject;
    if (to_object && (!s.Alive(d.to.obj) || s.obj.zone[d.to.obj.id] != Zone::kBattlefield))
      continue;
    if (missed.empty()) missed = StandingPreventionMissed(g, d);
    if (d.prevented) {  // prevention applied at step A, before its replacements
      const int left = std::max(0, d.amount + d.change);
      if (left > 0)
        expected_damage_.push_back({d.source, to_object ? d.to.obj.id : kNoObj,
                                    to_object ? kNoPlayer : d.to.player, left});
      continue;
    }
    // "Prevent all combat damage" (T-7.2): this turn's, or to and by a
    // creature marked, read from the marks alone; it spends no shield.
    bool stopped = d.combat && (g.damage_.no_combat_damage ||
                                (d.source != kNoObj && g.damage_.no_combat_damage_of[d.source]) ||
                                (to_object && g.damage_.no_combat_damage_of[d.to.obj.id]));
    for (size_t k = 0; k < shield_used.size() && !stopped; ++k) {
      const auto& sh = g.damage_.source_shields[k];
      if (shield_used[k] || d.source == kNoObj || !SameTarget(d.to, sh.to) ||
          !g.Matches(sh.from, d.source, g.ShieldContext(sh)))
        continue;
      shield_used[k] = stopped = true;
    }
    if (!stopped && to_object && d.source != kNoObj)
      for (int c = 0; c < kColorCount && !stopped; ++c)
        stopped =
            Has(g.Chars(d.source).colors, c) && Has(g.Chars(d.to.obj.id).keywords, kProtWhite + c);
    if (stopped) continue;
    int amount = d.amount;
    if (!to_object) amount = std::max(0, amount - g.Rules(d.to.player).damage_reduction);
    int& shield = to_object ? object_shield(d.to.obj.id) : expected_player_shield_[d.to.player];
    const int prevented = std::min(shield, amount);
    shield -= prevented;
    amount -= prevented;
    amount = std::max(0, amount + d.change);  // its before triggers' changes (E-7)
    if (amount > 0)
      expected_damage_.push_back({d.source, to_object ? d.to.obj.id : kNoObj,
                                  to_object ? kNoPlayer : d.to.player, amount});
  }
  expected_source_shields_ = 0;
  for (bool used : shield_used) expected_source_shields_ += !used;
  damage_events_from_ = g.EventEnd();
  Record(Invariant::kPrevention, missed.empty(), missed);
}

// T-4.1: is a damage still pending at the end of its prevention step one
// that a permanent's standing prevention stops? Read from the cards: a
// replacement of damage by nothing (`instead`, no effects) whose `on` names
// the damage's source by a filter and what it is dealt to as the permanent
// itself or the creature it enchants (Uncle Istvan, Gaseous Form); a
// damage already redirected is not replaced again (E-3 A), and a tapped
// artifact's abilities are off (T-12).
std::string InvariantChecker::StandingPreventionMissed(const Game& g,
                                                       const PendingDamage& d) const {
  const GameState& s = g.state();
  if (d.replaced || d.amount <= 0 || d.source == kNoObj) return "";
  for (ObjId x = 0; x < s.obj.count; ++x) {
    if (s.obj.zone[x] != Zone::kBattlefield) continue;
    const Characteristics& ch = g.Chars(x);
    if (ch.blank || ch.card == kNoCard || (Has(ch.types, kArtifact) && s.obj.tapped[x])) continue;
    const CardDef& card = g.db()[ch.card];
    for (int i = 0; i < static_cast<int>(card.triggers.size()); ++i) {
      const TriggeredAbility& tr = card.triggers[i];
      if (tr.timing != Timing::kInstead || tr.event != EventKind::kDamage ||
          !tr.body.steps.empty() || tr.player >= 0 || tr.damage_to >= 0 || tr.self_source ||
          tr.chosen_source || tr.unless_any != kNoFilter || !Has(ch.abilities, card.TriggerBit(i)))
        continue;
      if (tr.combat && !d.combat) continue;
      if (tr.source_filter != kNoFilter &&
          !g.Matches(tr.source_filter, d.source, g.ContextFor(x, ch.controller, s.obj.choice[x])))
        continue;
      if (tr.filter != kNoFilter) {
        const Filter& f = g.db().filter(tr.filter);
        if (d.to.kind != Target::kObject) continue;
        if (f.self && d.to.obj.id != x) continue;
        if (f.enchanted && d.to.obj.id != s.obj.attached_to[x]) continue;
        if (!f.self && !f.enchanted) continue;  // another filter: not read here
      }
      return absl::StrCat(
          g.ObjectName(d.source), "'s ", d.amount, " damage to ",
          d.to.kind == Target::kObject ? g.ObjectName(d.to.obj.id) : Who(d.to.player),
          " is left to be dealt, though ", g.ObjectName(x), " prevents it");
    }
  }
  return "";
}

// The step's damage dealt: the damage occurrences since ExpectDamage are
// the expected ones, in order, and the shields are spent as expected.
void InvariantChecker::CheckDamageDealt(const Game& g) {
  std::string why;
  size_t next = 0;
  const int from =
      std::max(damage_events_from_, g.EventEnd() - static_cast<int>(g.occ_.events.size()));
  // T-4.1: the damage to each player this turn, summed here from the
  // occurrences, is the engine's tally (the tally runs from one cleanup to
  // the next: this turn's, and the last turn's cleanup on).
  const bool tally = g.turn_.tally_damage;
  if (tally) {
    const int key = TallyKey(g);
    if (key != damage_tally_key_) damage_tally_key_ = key, damage_tally_ = {};
  }
  for (int i = from; i < g.EventEnd() && why.empty(); ++i) {
    const Occurrence& e = g.Event(i);
    if (e.kind != EventKind::kDamage || e.before) continue;
    if (tally && e.object == kNoObj && e.player != kNoPlayer) damage_tally_[e.player] += e.amount;
    if (next == expected_damage_.size()) {
      why = absl::StrCat(g.ObjectName(e.source), " dealt ", e.amount, " damage to ",
                         DamageTarget(g, e.object, e.player), " beyond what prevention left");
      break;
    }
    const ExpectedDamage& x = expected_damage_[next++];
    const bool same = e.source == x.source && e.amount == x.amount && e.object == x.object &&
                      (x.object != kNoObj || e.player == x.player);
    if (!same)
      why = absl::StrCat(g.ObjectName(e.source), " dealt ", e.amount, " damage to ",
                         DamageTarget(g, e.object, e.player), " where prevention leaves ",
                         g.ObjectName(x.source), " dealing ", x.amount, " to ",
                         DamageTarget(g, x.object, x.player));
  }
  if (why.empty() && next < expected_damage_.size()) {
    const ExpectedDamage& x = expected_damage_[next];
    why = absl::StrCat(g.ObjectName(x.source), " should deal ", x.amount, " damage to ",
                       DamageTarget(g, x.object, x.player), " after prevention, and dealt none");
  }
  for (Player p = 0; p < 2 && why.empty(); ++p)
    if (g.damage_.player_shield[p] != expected_player_shield_[p])
      why = absl::StrCat(Who(p), "'s prevention shield is ", g.damage_.player_shield[p],
                         " after the damage, where it should be ", expected_player_shield_[p]);
  for (const auto& [o, left] : expected_object_shield_)
    if (why.empty() && g.damage_.prevent_shield[o] != left)
      why = absl::StrCat(g.ObjectName(o), "'s prevention shield is ", g.damage_.prevent_shield[o],
                         " after the damage, where it should be ", left);
  for (Player p = 0; p < 2 && why.empty() && tally; ++p) {
    int engine = 0;
    for (const auto& t : g.occ_.damage_taken) engine += t.player == p ? t.amount : 0;
    if (engine != damage_tally_[p])
      why = absl::StrCat(Who(p), " was dealt ", damage_tally_[p],
                         " damage this turn, where the tally (damage_this_turn) reads ", engine);
  }
  if (why.empty() && g.damage_.source_shields.size() != expected_source_shields_)
    why = absl::StrCat(g.damage_.source_shields.size(), " shields against sources are left where ",
                       expected_source_shields_, " should be");
  Record(Invariant::kPrevention, why.empty(), why);
}

// What a state check leaves that it removes (T-1.5): a creature in play
// with 0 or less toughness, or with lethal damage and no destruction of it
// under way (regeneration may still replace that destruction).
std::string InvariantChecker::StateCheckLeft(const Game& g) const {
  const GameState& s = g.state();
  // G-13, G-14: no two legendary permanents of one name (whoever controls
  // them), no two World permanents, read here on their own from the
  // characteristics, not from the engine's list of what the rules remove.
  for (ObjId o = 0; o < s.obj.count; ++o) {
    if (s.obj.zone[o] != Zone::kBattlefield || g.BeingMoved(o)) continue;
    const Characteristics& ch = g.Chars(o);
    const bool legend = ((ch.supertypes >> kLegendary) & 1) && !ch.blank;
    const bool world = (ch.supertypes >> kWorld) & 1;
    if (!legend && !world) continue;
    for (ObjId p = o + 1; p < s.obj.count; ++p) {
      if (s.obj.zone[p] != Zone::kBattlefield || g.BeingMoved(p)) continue;
      const Characteristics& other = g.Chars(p);
      if (legend && ((other.supertypes >> kLegendary) & 1) && !other.blank && other.card == ch.card)
        return absl::StrCat(g.ObjectName(o), " and ", g.ObjectName(p),
                            " are two legends of one name in play (G-13)");
      if (world && ((other.supertypes >> kWorld) & 1))
        return absl::StrCat(g.ObjectName(o), " and ", g.ObjectName(p),
                            " are two World permanents in play (G-14)");
    }
  }
  for (ObjId o = 0; o < s.obj.count; ++o) {
    // An object on its way out in a held move (its replacements or "before"
    // responses happen first, E-1, E-3 A) is left for that move.
    if (s.obj.zone[o] != Zone::kBattlefield || g.BeingMoved(o)) continue;
    const Characteristics& ch = g.Chars(o);
    // An Aura on nothing in play, or on an object its enchant line doesn't
    // allow (its types and controller), goes to the graveyard.
    if (const FilterId enchant = g.db()[s.obj.card[o]].enchant; enchant != kNoFilter) {
      const ObjId to = s.obj.attached_to[o];
      if (to == kNoObj || s.obj.zone[to] != Zone::kBattlefield)
        return absl::StrCat(g.ObjectName(o), " is in play enchanting nothing in play");
      const Filter& f = g.db().filters[enchant];
      const Characteristics& on = g.Chars(to);
      const bool legal =
          (!f.types || (on.types & f.types)) && !(on.types & f.not_types) &&
          (f.controller < 0 || (on.controller == ch.controller) == (f.controller == 0));
      if (!legal)
        return absl::StrCat(g.ObjectName(o), " is in play enchanting ", g.ObjectName(to),
                            ", which it can't enchant");
      // Protection from one of the Aura's colors: it can't be enchanted by
      // it, unless that protection is the Aura's own and spares it (the
      // Wards, docs/rules.md T-1.5).
      for (int c = 0; c < kColorCount; ++c) {
        const bool repels = ((ch.colors >> c) & 1) && ((on.keywords >> (kProtWhite + c)) & 1);
        const bool own = ((on.prot_spared >> c) & 1) && on.prot_spared_by[c] == o;
        if (repels && !own)
          return absl::StrCat(g.ObjectName(o), " is in play enchanting ", g.ObjectName(to),
                              ", which has protection from its color ", S(ColorName(c)));
      }
    }
    if (!ch.IsCreature()) continue;
    if (ch.toughness <= 0)
      return absl::StrCat(g.ObjectName(o), " is in play with toughness ", ch.toughness);
    if (s.obj.damage[o] < ch.toughness) continue;
    if (!g.BeingDestroyed(o))
      return absl::StrCat(g.ObjectName(o), " (", ch.power, "/", ch.toughness, ") has ",
                          s.obj.damage[o], " damage and no destruction under way");
  }
  return "";
}

// E-3 A, T-4: what one effect step of a resolution marks. As it begins the
// step, its amount and the shields as they stand are kept; as it ends, a
// "prevent the next N damage" has added N to the shield of each object and
// player it names (once per naming) and changed no other shield, and "it
// can't be regenerated" is on every destruction and every damage to an
// object that the step queued.
void InvariantChecker::StepBegins(const Game& g, int step) {
  step_ = nullptr;
  const auto& frames = g.timing_.frames;
  if (frames.empty() || frames.back().kind != FrameKind::kResolve) return;
  const StackItem& item = g.stack_.items[frames.back().resolve.item];
  const std::vector<EffectStep>* steps = nullptr;
  if (item.from == BodySource::kDelayed)
    steps = g.stack_.delayed_steps[item.ability];
  else if (const AbilityBody* body = g.ModeBody(item))
    steps = &body->steps;
  if (!steps || step < 0 || step >= static_cast<int>(steps->size())) return;
  step_ = &(*steps)[step];
  step_damage_from_ = g.damage_.pending.size();
  step_destroying_from_ = g.occ_.destroying.size();
  const bool marks = step_->op == Op::kCantBeRegenerated;
  if ((step_->op != Op::kPrevent || step_->from != kNoFilter) && !marks) return;
  const GameState& s = g.state();
  step_amount_ = g.Amount(item, step_->amount);
  step_shields_.assign(g.damage_.prevent_shield.begin(),
                       g.damage_.prevent_shield.begin() + s.obj.count);
  step_player_shields_ = g.damage_.player_shield;
  // Named by a target: the only objects whose shields it may change, each
  // by N once per naming; named otherwise ("each creature you control"),
  // any object may gain N or nothing.
  step_named_.assign(s.obj.count, 0);
  step_named_players_ = {};
  step_names_all_ = step_->target.kind != Ref::kTarget || step_->affects != kNoFilter ||
                    step_->condition != kNoFilter;
  if (step_names_all_) return;
  for (int i = 0; i < item.target_count; ++i) {
    if (g.SlotAt(item, i) != step_->target.index - 1) continue;
    const Target& t = g.TargetAt(item, i);  // T-8.5: past the fourth too
    if (t.kind == Target::kPlayer && t.player < 2) ++step_named_players_[t.player];
    if (t.kind == Target::kObject && s.Alive(t.obj) && g.TargetLegal(item, g.SlotAt(item, i), t))
      ++step_named_[t.obj.id];
  }
}

void InvariantChecker::CheckStepDone(const Game& g) {
  if (!step_) return;
  const EffectStep& st = *step_;
  step_ = nullptr;
  const GameState& s = g.state();
  std::string why;
  if (st.op == Op::kPrevent && st.from == kNoFilter) {
    // The shield `before` plus N, `times` times.
    auto plus = [&](int before, int times) {
      return SaturatedAdd<int16_t>(static_cast<int16_t>(before),
                                   static_cast<long long>(step_amount_) * times);
    };
    // `who` names the shield's holder, only when something is wrong.
    auto check = [&](int before, int after, int named, auto who) {
      const bool ok = step_names_all_ ? after == before || after == plus(before, 1)
                                      : after == plus(before, named);
      if (!ok && why.empty())
        why = absl::StrCat("the prevention shield of ", who(), " went from ", before, " to ", after,
                           " under an effect that prevents the next ", step_amount_, " damage",
                           step_names_all_ ? "" : absl::StrCat(" to it (named ", named, " times)"));
    };
    for (ObjId o = 0; o < s.obj.count && o < step_shields_.size(); ++o)
      check(step_shields_[o], g.damage_.prevent_shield[o], step_named_[o],
            [&] { return g.ObjectName(o); });
    for (Player p = 0; p < 2; ++p)
      check(step_player_shields_[p], g.damage_.player_shield[p], step_named_players_[p],
            [&] { return Who(p); });
    Record(Invariant::kPrevention, why.empty(), why);
    return;
  }
  if (st.op == Op::kCantBeRegenerated) {
    // "Target creature can't be regenerated this turn": every legal target
    // it named bears the mark as the step ends (read from the step's
    // targets, not from the engine's loop over them).
    for (ObjId o = 0; o < s.obj.count && o < step_named_.size() && why.empty(); ++o)
      if (step_named_[o] && !g.damage_.no_regen[o])
        why = absl::StrCat(g.ObjectName(o),
                           " was named by an effect that says it can't be regenerated this "
                           "turn, and lacks that mark");
    Record(Invariant::kRegeneration, why.empty(), why);
    return;
  }
  if (!st.cant_regenerate) return;
  if (st.op == Op::kDestroy)
    for (size_t i = step_destroying_from_; i < g.occ_.destroying.size() && why.empty(); ++i) {
      const ObjId o = g.occ_.destroying[i].id;
      if (!g.damage_.no_regen[o])
        why = absl::StrCat(g.ObjectName(o),
                           " is destroyed by an effect that says it can't be "
                           "regenerated, without that mark");
    }
  if (st.op == Op::kDamage)
    for (size_t i = step_damage_from_; i < g.damage_.pending.size() && why.empty(); ++i) {
      const PendingDamage& d = g.damage_.pending[i];
      if (d.to.kind == Target::kObject && !d.cant_regenerate)
        why = absl::StrCat(d.amount, " damage to ", g.ObjectName(d.to.obj.id),
                           " from an effect that says it can't be regenerated lacks that mark");
    }
  Record(Invariant::kRegeneration, why.empty(), why);
}

}  // namespace strata
