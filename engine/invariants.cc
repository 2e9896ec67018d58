#include "engine/invariants.h"

#include <algorithm>
#include <memory>

#include "absl/strings/str_cat.h"
#include "engine/layers.h"
#include "engine/reference_layers.h"
#include "engine/saturate.h"
#include "engine/strings.h"
#include "engine/words.h"

namespace strata {

std::string_view InvariantName(Invariant i) {
  static constexpr std::string_view kNames[] = {"zones",
                                                "objects_kept",
                                                "batch_at_phase_end",
                                                "pools_after_burn",
                                                "first_decision",
                                                "one_batch",
                                                "sorcery_speed",
                                                "phase_effect_once",
                                                "attackers",
                                                "blockers",
                                                "countered",
                                                "state_check",
                                                "life",
                                                "layers",
                                                "timestamps",
                                                "numbering",
                                                "apply",
                                                "copy",
                                                "replay",
                                                "progress",
                                                "mana_burn",
                                                "life_check",
                                                "damage_assignment",
                                                "prevention",
                                                "hand_size",
                                                "regeneration",
                                                "cleanup",
                                                "untap",
                                                "one_land",
                                                "one_attack",
                                                "tap_sickness",
                                                "last_in_first_out",
                                                "mana_paid",
                                                "reference_layers",
                                                "mulligan",
                                                "phase_costs",
                                                "targets",
                                                "triggers_wait",
                                                "leave_together",
                                                "draw_phase",
                                                "replacements",
                                                "before_first",
                                                "replaced_never_happens",
                                                "occurrence_kept",
                                                "sacrifice_cost",
                                                "counter_cost"};
  static_assert(std::size(kNames) == kInvariantCount);
  return kNames[static_cast<int>(i)];
}

namespace {

// Why `b` may not block `at` now (T-7), or "": a blocker is the defender's
// untapped creature in play, blocking nothing yet; an attacker with flying
// is blocked only by flying or reach, one with protection from a colour not
// by creatures of it, a landwalker not while the defender has such a land.
// T-7.1's combat rules of `o`, read here apart from the engine's
// CombatRulesLet*: does any rule of kind `kind` have a filter matching `x`?
bool CombatRuleMatches(const Game& g, ObjId o, CombatRule::Kind kind, ObjId x, bool* has) {
  const Characteristics& ch = g.Chars(o);
  FilterContext ctx;
  ctx.source = o;
  ctx.you = ch.controller;
  ctx.text = &ch;
  bool any = false;
  for (int k = 0; k < ch.combat_count; ++k) {
    const CombatRule& r = g.db()[ch.combat[k].card].combat_rules[ch.combat[k].index];
    if (r.kind != kind) continue;
    *has = true;
    for (FilterId f : r.filters) any = any || g.Matches(f, x, ctx);
  }
  return any;
}

// Does every rule of that kind of o's match x (true with none)?
bool EveryCombatRuleMatches(const Game& g, ObjId o, CombatRule::Kind kind, ObjId x) {
  const Characteristics& ch = g.Chars(o);
  FilterContext ctx;
  ctx.source = o;
  ctx.you = ch.controller;
  ctx.text = &ch;
  for (int k = 0; k < ch.combat_count; ++k) {
    const CombatRule& r = g.db()[ch.combat[k].card].combat_rules[ch.combat[k].index];
    if (r.kind != kind) continue;
    bool matched = false;
    for (FilterId f : r.filters) matched = matched || g.Matches(f, x, ctx);
    if (!matched) return false;
  }
  return true;
}

std::string WhyNoBlockHere(const Game& g, ObjId b, ObjId at);

// "Can't attack unless defending player controls ..." (T-7.1): each such
// rule of o finds a permanent of the defender matching it.
bool AttackConditionHolds(const Game& g, ObjId o) {
  const GameState& s = g.state();
  const Characteristics& ch = g.Chars(o);
  for (int k = 0; k < ch.combat_count; ++k) {
    const CombatRule& r = g.db()[ch.combat[k].card].combat_rules[ch.combat[k].index];
    if (r.kind != CombatRule::kAttacksOnlyIf) continue;
    FilterContext ctx;
    ctx.source = o;
    ctx.you = ch.controller;
    ctx.text = &ch;
    bool found = false;
    for (ObjId p = 0; p < s.obj.count && !found; ++p)
      if (s.obj.zone[p] == Zone::kBattlefield && g.Chars(p).controller != ch.controller)
        for (FilterId f : r.filters) found = found || g.Matches(f, p, ctx);
    if (!found) return false;
  }
  return true;
}

// A creature able to block an attacker with lure must block one such
// (T-7.1): its other blocks are not legal.
std::string WhyNoBlock(const Game& g, ObjId b, ObjId at) {
  std::string why = WhyNoBlockHere(g, b, at);
  if (!why.empty() || Has(g.Chars(at).keywords, kLure)) return why;
  const GameState& s = g.state();
  for (ObjId l = 0; l < s.obj.count; ++l)
    if (s.obj.zone[l] == Zone::kBattlefield && g.Attacking(l) && Has(g.Chars(l).keywords, kLure) &&
        WhyNoBlockHere(g, b, l).empty())
      return "must block a creature with lure";
  return "";
}

std::string WhyNoBlockHere(const Game& g, ObjId b, ObjId at) {
  const GameState& s = g.state();
  const Characteristics& bc = g.Chars(b);
  const Characteristics& ac = g.Chars(at);
  if (s.obj.zone[b] != Zone::kBattlefield || !bc.IsCreature()) return "is no creature in play";
  if (bc.controller != Opponent(s.active)) return "is not the defender's";
  if (s.obj.tapped[b]) return "is tapped";
  if (g.Blocking(b) != kNoObj || g.Attacking(b)) return "blocks already";
  // A replacement took its block this attack (E-3 A; replaced_never_happens
  // checks that it did not block then): strata does not offer it again.
  if (g.DeclarationReplaced(b)) return "had its block replaced this attack";
  if (at >= s.obj.count || !g.Attacking(at)) return "would block a creature that is not attacking";
  if (Has(ac.keywords, kFlying) && !Has(bc.keywords, kFlying) && !Has(bc.keywords, kReach))
    return "would block a flier";
  for (int c = 0; c < kColorCount; ++c) {
    if (Has(bc.colors, c) && Has(ac.keywords, kProtWhite + c))
      return "would block a creature with protection from its color";
    if (!Has(ac.keywords, kPlainswalk + c)) continue;
    for (ObjId l = 0; l < s.obj.count; ++l)
      if (s.obj.zone[l] == Zone::kBattlefield && g.Chars(l).controller == bc.controller &&
          g.Chars(l).HasSubtype(BasicLandSubtype(c)))
        return "would block a landwalker while its defender has the land";
  }
  if (Has(ac.keywords, kUnblockable)) return "would block an unblockable creature";
  if (Has(bc.keywords, kCantBlock)) return "can't block";
  bool has = false;
  if (CombatRuleMatches(g, at, CombatRule::kNotBlockedBy, b, &has))
    return "would block a creature that can't be blocked by it";
  // Each "can't be blocked except by" rule must let it (Elven Riders with
  // Fear: a Wall that is neither black nor an artifact can't block it).
  if (!EveryCombatRuleMatches(g, at, CombatRule::kBlockedOnlyBy, b))
    return "would block a creature blocked only by others";
  if (CombatRuleMatches(g, b, CombatRule::kCantBlockThose, at, &has))
    return "can't block that creature";
  return "";
}

}  // namespace

void InvariantChecker::Record(Invariant i, bool ok, std::string_view detail) {
  ++tally_.checks[static_cast<int>(i)];
  if (ok) return;
  ++tally_.violations[static_cast<int>(i)];
  if (failure_.empty()) {
    failure_ = absl::StrCat(S(InvariantName(i)), ": ", S(detail));
    failed_ = i;
  }
}

void InvariantChecker::Begin(const Game& g) {
  const GameState& s = g.state();
  objects_ = s.obj.count;
  turn_ = s.turn;
  phase_ = static_cast<int>(s.phase);
  observed_turn_ = -1;
  next_timestamp_ = s.next_timestamp;
  events_seen_ = g.EventEnd();
  outcomes_seen_ = g.stack_.outcomes.size();
  for (Player p = 0; p < 2; ++p) life_[p] = s.players[p].life;
  incarnation_.assign(objects_, 0);
  controller_.assign(objects_, kNoPlayer);
  on_battlefield_.assign(objects_, 0);
  came_turn_.assign(objects_, -1);
  settled_.assign(objects_, 0);
  countered_.clear();
  phase_plays_.clear();
  phase_costs_.clear();
  state_check_due_ = nullptr;
  decided_kind_ = DecisionKind::kNone;
  decided_.clear();
  lands_this_turn_ = {};
  for (Player p = 0; p < 2; ++p) lands_this_turn_[p] = g.turn_.lands_played[p];
  attack_began_ = g.combat_.attacked[s.active];
  rules_turn_ = s.turn;
  batch_seen_.clear();
  // A batch entry that names no item (a broken state, which other invariants
  // report) counts as serial 0: this check must not crash on it.
  const auto& items = g.stack_.items;
  for (int i : g.stack_.batch)
    batch_seen_.push_back(i >= 0 && i < static_cast<int>(items.size()) ? items[i].serial : 0);
  g.SetAudit(this);
  reference_ = ReferenceCheck();
  mulligans_over_ = true;
  for (const Game::Frame& f : g.timing_.frames) mulligans_over_ &= f.kind != FrameKind::kMulligan;
  mulligan_asked_ = {};
  last_group_ = -1;
  for (int i = 0; i < g.EventEnd(); ++i) last_group_ = std::max(last_group_, g.Event(i).group);
  phase_costs_due_.clear();
  attached_seen_.assign(objects_, {kNoObj, 0});
  for (ObjId o = 0; o < objects_; ++o)
    attached_seen_[o] = {s.obj.attached_to[o], static_cast<int>(s.obj.timestamp[o])};
  for (ObjId o = 0; o < objects_; ++o) {
    incarnation_[o] = s.obj.incarnation[o];
    on_battlefield_[o] = s.obj.zone[o] == Zone::kBattlefield;
    controller_[o] = on_battlefield_[o] ? g.Chars(o).controller : kNoPlayer;
    // Set up as summoning sick: it came this turn.
    came_turn_[o] = on_battlefield_[o] && s.obj.sick[o] ? s.turn : -1;
    settled_[o] = on_battlefield_[o] && !g.SummoningSick(o);
  }
  observed_turn_ = s.turn;
}

void InvariantChecker::Observe(const Game& g) {
  const GameState& s = g.state();
  CheckStateCheckRan(g);
  // occurrence_kept: the log dropped no occurrence that triggers still
  // had to read (Game::DropSettledOccurrences keeps what frames hold).
  Record(Invariant::kOccurrenceKept, g.occ_.dropped_reads == 0,
         absl::StrCat("triggers looked for ", g.occ_.dropped_reads,
                      " occurrence(s) the log had dropped as settled"));
  // objects_kept: the object count grows only by tokens (G-12), never
  // shrinks; only a token is ever in no zone (made and not yet on the
  // battlefield, or gone from it: it ceased to exist), and a token is in
  // no other zone than the battlefield, and is made from a token's
  // definition.
  bool kept = s.obj.count >= objects_;
  ObjId bad_object = kNoObj;
  for (ObjId o = 0; kept && o < s.obj.count; ++o) {
    const bool token = s.obj.token[o];
    const Zone z = s.obj.zone[o];
    // (A token's definition is read for tokens alone: the cards' would
    // cost a cache miss each at every look.)
    kept = (o < objects_ || token) &&
           (token ? (z == Zone::kNone || z == Zone::kBattlefield) && g.db()[s.obj.card[o]].token
                  : z != Zone::kNone);
    if (!kept) bad_object = o;
  }
  Record(Invariant::kObjectsKept, kept,
         bad_object != kNoObj
             ? absl::StrCat("object ", bad_object, " (", g.db()[s.obj.card[bad_object]].name,
                            "): a card in no zone, a token off the battlefield, a new object "
                            "that is no token, or a token of a card's definition")
             : absl::StrCat(s.obj.count, " objects where the game had ", objects_));
  // zones: each card in a hand, library or graveyard is listed there once,
  // in its owner's list, and in no other list.
  {
    std::string bad;
    static thread_local std::vector<uint8_t> listed;
    listed.assign(s.obj.count, 0);
    for (Player p = 0; p < 2 && bad.empty(); ++p) {
      const PlayerState& ps = s.players[p];
      const std::pair<const std::vector<ObjId>*, Zone> lists[] = {
          {&ps.library, Zone::kLibrary},
          {&ps.hand, Zone::kHand},
          {&ps.graveyard, Zone::kGraveyard}};
      for (auto [list, zone] : lists)
        for (ObjId o : *list) {
          if (o >= s.obj.count || s.obj.zone[o] != zone || s.obj.owner[o] != p || listed[o]++) {
            bad =
                absl::StrCat("object ", o, " is listed in ", (p ? "B" : "A"), "'s ",
                             S(ZoneName(zone)), " but is in ",
                             o < s.obj.count ? S(ZoneName(s.obj.zone[o])) : std::string("no zone"),
                             o < s.obj.count && listed[o] > 1 ? " (listed twice)" : "");
            break;
          }
        }
    }
    for (ObjId o = 0; o < s.obj.count && bad.empty(); ++o) {
      const Zone z = s.obj.zone[o];
      const bool in_list = z == Zone::kLibrary || z == Zone::kHand || z == Zone::kGraveyard;
      if (in_list != (listed[o] == 1))
        bad = absl::StrCat("object ", o, " is in ", S(ZoneName(z)), " but listed ", int{listed[o]},
                           " times");
    }
    Record(Invariant::kZones, bad.empty(), bad);
  }
  // one_batch: at most one batch frame on the stack.
  {
    int batches = 0;
    for (const auto& f : g.timing_.frames) batches += f.kind == Game::FrameKind::kBatch;
    Record(Invariant::kOneBatch, batches <= 1, absl::StrCat(batches, " batches at once"));
  }
  // At a phase's end: its batch is empty. (That mana burn emptied the
  // pools is checked as the next phase begins, AuditPoint::kPhaseBegun:
  // mana added at a phase's beginning, Mana Drain's (T-1.7), is legal.)
  if (s.turn != turn_ || static_cast<int>(s.phase) != phase_) {
    Record(Invariant::kBatchAtPhaseEnd, g.stack_.batch.empty(),
           absl::StrCat(g.stack_.batch.size(), " effects left on the batch when ",
                        S(PhaseName(static_cast<Phase>(phase_))), " of turn ", turn_, " ended"));
    turn_ = s.turn;
    phase_ = static_cast<int>(s.phase);
    phase_plays_.clear();
    phase_costs_.clear();
  }
  if (s.turn != rules_turn_) {
    lands_this_turn_ = {};
    attack_began_ = false;
    rules_turn_ = s.turn;
  }
  // timestamps: the next timestamp never goes back, and none is issued ahead.
  {
    bool grow = s.next_timestamp >= next_timestamp_;
    for (ObjId o = 0; grow && o < s.obj.count; ++o) grow = s.obj.timestamp[o] < s.next_timestamp;
    for (const EffectRow& r : s.effects) grow &= r.timestamp < s.next_timestamp;
    Record(Invariant::kTimestamps, grow,
           absl::StrCat("next timestamp ", s.next_timestamp, " after ", next_timestamp_));
    next_timestamp_ = s.next_timestamp;
    // An Aura or Equipment that became attached to another object got a new
    // timestamp (L-4).
    if (static_cast<int>(attached_seen_.size()) < s.obj.count)
      attached_seen_.resize(s.obj.count, {kNoObj, 0});
    for (ObjId o = 0; o < s.obj.count; ++o) {
      auto& [to, stamp] = attached_seen_[o];
      const ObjId now = s.obj.attached_to[o];
      if (now != to && now != kNoObj && s.obj.zone[o] == Zone::kBattlefield)
        Record(Invariant::kTimestamps, static_cast<int>(s.obj.timestamp[o]) != stamp,
               absl::StrCat(g.ObjectName(o), " became attached to ", g.ObjectName(now),
                            " and kept its timestamp ", stamp));
      to = now;
      stamp = static_cast<int>(s.obj.timestamp[o]);
    }
  }
  // life: each player's life moved exactly as the occurrences say.
  for (int i = events_seen_; i < g.EventEnd(); ++i) {
    const Occurrence& e = g.Event(i);
    if (e.before || e.player == kNoPlayer || e.player > 1) continue;
    if (e.kind == EventKind::kDamage && e.object == kNoObj)
      life_[e.player] = LifeAfter(static_cast<int>(life_[e.player]), -e.amount);
    else if (e.kind == EventKind::kLifeChange) {
      life_[e.player] = LifeAfter(static_cast<int>(life_[e.player]), e.amount);
      // E-7: a gain or loss reduced to zero is none: it is no occurrence.
      Record(Invariant::kLife, e.amount != 0,
             absl::StrCat("a life change of 0 for ", (e.player ? "B" : "A"), " happened"));
    }
  }
  events_seen_ = g.EventEnd();
  for (Player p = 0; p < 2; ++p)
    Record(Invariant::kLife, life_[p] == s.players[p].life,
           absl::StrCat((p ? "B" : "A"), " has ", s.players[p].life,
                        " life where the occurrences add up to ", life_[p]));
  // last_in_first_out: what left the batch since the last look left from
  // its top, and what it left with an outcome, topmost first; nothing
  // joined beneath what stayed (T-3).
  {
    batch_now_.clear();
    const auto& items = g.stack_.items;
    for (int i : g.stack_.batch)
      batch_now_.push_back(i >= 0 && i < static_cast<int>(items.size()) ? items[i].serial : 0);
    size_t kept = 0;
    while (kept < batch_seen_.size() && kept < batch_now_.size() &&
           batch_seen_[kept] == batch_now_[kept])
      ++kept;
    std::string why;
    for (size_t i = kept; i < batch_now_.size() && why.empty(); ++i)
      if (std::find(batch_seen_.begin() + kept, batch_seen_.end(), batch_now_[i]) !=
          batch_seen_.end())
        why = absl::StrCat("spell #", batch_now_[i], " stayed on the batch while spell #",
                           batch_seen_[kept], " below it left");
    size_t below = batch_seen_.size();  // the left item's place must go down
    for (size_t i = outcomes_seen_; i < g.stack_.outcomes.size() && why.empty(); ++i) {
      const uint32_t serial = g.stack_.outcomes[i].first;
      const auto at = std::find(batch_seen_.begin() + kept, batch_seen_.end(), serial);
      if (at == batch_seen_.end()) continue;
      const size_t place = static_cast<size_t>(at - batch_seen_.begin());
      if (place >= below)
        why = absl::StrCat("spell #", serial, " resolved after spell #", batch_seen_[below],
                           ", which was added before it");
      below = place;
    }
    Record(Invariant::kLastInFirstOut, why.empty(), why);
    batch_seen_.swap(batch_now_);
  }
  // countered: no resolution after a counter, and the card never in play
  // as the object the spell would have become.
  for (size_t i = outcomes_seen_; i < g.stack_.outcomes.size(); ++i) {
    const auto& [serial, outcome] = g.stack_.outcomes[i];
    if (outcome == Outcome::kCountered) countered_.push_back(serial);
    if (outcome == Outcome::kResolved)
      Record(Invariant::kCountered,
             std::find(countered_.begin(), countered_.end(), serial) == countered_.end(),
             absl::StrCat("spell #", serial, " resolved after it was countered"));
  }
  outcomes_seen_ = g.stack_.outcomes.size();
  if (!countered_.empty())
    for (const StackItem& it : g.stack_.items) {
      if (!it.countered || it.card == kNoObj) continue;
      const bool entered =
          s.obj.zone[it.card] == Zone::kBattlefield &&
          s.obj.incarnation[it.card] == static_cast<uint16_t>(it.card_incarnation + 1);
      Record(Invariant::kCountered, !entered,
             absl::StrCat(g.ObjectName(it.card), " entered play though its spell was countered"));
    }
  // reference_layers: the engine's answers against an evaluator that shares
  // no code with engine/layers.cc (differential testing), whenever the
  // layers' inputs may have moved. (Recorded after layers, which names a
  // stale cache more exactly.)
  bool compared = false;
  const std::string reference_why = reference_ ? reference_(g, &compared) : std::string();
  // layers: the engine compares its cache at every query in checked mode.
  // Where the reference just agreed with every cached answer, the cache is
  // current and only what is derived from it is checked: a cache left stale
  // by a change the reference does not watch shows at the other points.
  if (g.options().checked_layers) {
    Record(Invariant::kLayers, g.layer_mismatch().empty(), g.layer_mismatch());
  } else {
    const std::string why = g.CheckLayerCache(compared && reference_why.empty());
    Record(Invariant::kLayers, why.empty(), why);
  }
  if (g.options().check_invariants)
    Record(Invariant::kStateCheck, g.invariant_failure().empty(), g.invariant_failure());
  if (reference_) Record(Invariant::kReferenceLayers, reference_why.empty(), reference_why);
  // Who came under whose control when, for attackers: a change is sure to
  // have happened this turn only if the last look was this turn too.
  if (static_cast<int>(incarnation_.size()) < s.obj.count) {  // objects_kept fired above
    incarnation_.resize(s.obj.count, 0);
    controller_.resize(s.obj.count, kNoPlayer);
    on_battlefield_.resize(s.obj.count, 0);
    came_turn_.resize(s.obj.count, -1);
    settled_.resize(s.obj.count, 0);
  }
  for (ObjId o = 0; o < s.obj.count; ++o) {
    const bool on = s.obj.zone[o] == Zone::kBattlefield;
    const Player c = on ? g.Chars(o).controller : kNoPlayer;
    if (on &&
        (!on_battlefield_[o] || incarnation_[o] != s.obj.incarnation[o] || controller_[o] != c)) {
      came_turn_[o] = observed_turn_ == s.turn ? s.turn : -1;
      settled_[o] = 0;
    } else if (on && observed_turn_ >= 0 && observed_turn_ < s.turn) {
      settled_[o] = 1;  // seen as it is at a look in an earlier turn
    }
    on_battlefield_[o] = on;
    incarnation_[o] = s.obj.incarnation[o];
    controller_[o] = c;
  }
  observed_turn_ = s.turn;
  if (extra_ && failure_.empty()) {
    const std::string why = extra_(g);
    if (!why.empty()) failure_ = absl::StrCat(extra_name_, ": ", why);
  }
}

void InvariantChecker::OnDecision(const Game& g, const Decision& d) {
  Observe(g);
  // Kept for AfterApply: by then Apply has put the next decision in `d`.
  decided_kind_ = d.kind;
  decided_player_ = d.player;
  decided_.assign(d.actions.begin(), d.actions.end());
  CheckMulligan(g, &d);
  // state_check: a window opens on a checked state (T-1.5): no Aura on
  // nothing legal, no creature with 0 or less toughness, none with lethal
  // damage but one being destroyed, whatever changed since the last check
  // (tapping too: Castle's bonus ends when its creature attacks).
  if (d.kind == DecisionKind::kNeutral || d.kind == DecisionKind::kRespond) {
    const std::string left = StateCheckLeft(g);
    Record(Invariant::kStateCheck, left.empty(),
           absl::StrCat("a ", S(DecisionKindName(d.kind)), " window opens while ", left));
  }
  CheckTargets(g, d);
  CheckPhaseEffectsOffered(g, d);
  CheckPreventionWindow(g, d);
  CheckDrawReplaced(g, d);
  CheckTriggersWait(g, &d);
  const GameState& s = g.state();
  const auto& frames = g.timing_.frames;
  for (const Game::Frame& f : frames) attack_began_ |= f.kind == FrameKind::kAttack;
  // one_land, one_attack, tap_sickness: what may be offered at all (T-6, T-7).
  for (const Action& a : d.actions) {
    if (a.kind == ActionKind::kPlayLand)
      Record(Invariant::kOneLand,
             d.player == s.active &&
                 (lands_this_turn_[d.player] == 0 || g.Rules(d.player).any_number_of_lands),
             absl::StrCat(g.ObjectName(a.object), " offered as ", (d.player ? "B" : "A"),
                          "'s land number ", lands_this_turn_[d.player] + 1, " of turn ", s.turn));
    if (a.kind == ActionKind::kAttack)
      Record(Invariant::kOneAttack, !attack_began_ && d.player == s.active,
             absl::StrCat("an attack offered to ", (d.player ? "B" : "A"),
                          " after one began on turn ", s.turn));
    if (a.kind == ActionKind::kActivate && s.obj.zone[a.object] == Zone::kBattlefield) {
      const Characteristics& ch = g.Chars(a.object);
      const CardDef& card = g.db()[ch.card];
      const bool taps = a.index >= 0 && a.index < static_cast<int>(card.activated.size()) &&
                        card.activated[a.index].tap;
      const bool fresh = a.object < came_turn_.size() && came_turn_[a.object] == s.turn &&
                         ch.IsCreature() && !Has(ch.keywords, kHaste);
      if (taps)
        Record(Invariant::kTapSickness, !fresh,
               absl::StrCat(g.ObjectName(a.object),
                            "'s {T} ability offered the turn it came under its controller"));
    }
  }
  if (frames.empty()) return;
  const Game::Frame& f = frames.back();
  // first_decision: a window's first decision goes to the player the rules
  // name (T-2, T-3: the active player; T-8: the caster; T-4, E-3 C: AP first).
  {
    Player first = kNoPlayer;
    if (d.kind == DecisionKind::kNeutral && f.kind == Game::FrameKind::kNeutral &&
        f.pc == NeutralFrame::kDecide && f.neutral.window.passes == 0)
      first = s.active;
    if (d.kind == DecisionKind::kRespond && f.kind == Game::FrameKind::kBatch &&
        f.batch.window.passes == 0)
      first = s.active;
    if (d.kind == DecisionKind::kInterrupt && f.kind == Game::FrameKind::kInterrupts &&
        f.interrupts.window.passes == 0)
      first = g.stack_.items[f.interrupts.item].controller;
    if ((d.kind == DecisionKind::kPrevention || d.kind == DecisionKind::kReaction) && f.pc == 0)
      first = s.active;
    // E-3: the active player orders simultaneous triggers.
    if (d.kind == DecisionKind::kTriggerOrder) first = s.active;
    if (first != kNoPlayer)
      Record(Invariant::kFirstDecision, d.player == first,
             absl::StrCat((d.player ? "B" : "A"), " got the first ", S(DecisionKindName(d.kind)),
                          " decision of a window that ", (first ? "B" : "A"), " opens"));
  }
  // sorcery_speed: sorceries, permanents (no flash) and sorcery-speed
  // abilities, and lands, only from AP's main-phase neutral state with no batch.
  {
    const bool main_neutral = d.kind == DecisionKind::kNeutral && d.player == s.active &&
                              s.phase == Phase::kMain && g.stack_.batch.empty() &&
                              f.kind == Game::FrameKind::kNeutral && !f.neutral.in_attack;
    for (const Action& a : d.actions) {
      bool slow = false;
      if (a.kind == ActionKind::kPlayLand) slow = true;
      if (a.kind == ActionKind::kCast) {
        const CardDef& card = g.db()[s.obj.card[a.object]];
        slow = !Has(card.types, kInstant) && !Has(card.types, kInterrupt) &&
               !Has(g.Chars(a.object).keywords, kFlash);
        // T-5.2: "only during an opponent's turn after their upkeep" (Reset).
        if (card.SpellTimeLimited()) [[unlikely]] {
          const bool turn_ok =
              card.spell_turn < 0 || (d.player == s.active) == (card.spell_turn == 0);
          const bool phase_ok =
              card.spell_after_phase < 0 || static_cast<int>(s.phase) > card.spell_after_phase;
          // T-5.7: before attackers are declared (Siren's Call).
          const bool attack_ok = !card.spell_before_attackers ||
                                 (s.phase <= Phase::kMain && !g.combat_.attacked[s.active]);
          Record(Invariant::kSorcerySpeed, turn_ok && phase_ok && attack_ok,
                 absl::StrCat(
                     g.ObjectName(a.object), ", limited to ",
                     card.spell_turn == 1   ? "an opponent's turn"
                     : card.spell_turn == 0 ? "its caster's turn"
                                            : "any turn",
                     card.spell_before_attackers ? " before attackers are declared" : "",
                     card.spell_after_phase >= 0
                         ? absl::StrCat(" after ",
                                        S(PhaseName(static_cast<Phase>(card.spell_after_phase))))
                         : std::string(),
                     ", offered to ", (d.player ? "B" : "A"), " in ", S(PhaseName(s.phase)), " of ",
                     (s.active ? "B" : "A")));
        }
      }
      if (a.kind == ActionKind::kActivate) {
        const CardDef& card = g.db()[g.Chars(a.object).card];
        if (a.index >= static_cast<int>(card.activated.size())) continue;
        const ActivatedAbility& ab = card.activated[a.index];
        slow = ab.sorcery;
        // "Activate only during your turn / your upkeep": never outside it.
        const bool in_time = (!ab.only_your_turn || d.player == s.active) &&
                             (ab.only_phase < 0 || static_cast<int>(s.phase) == ab.only_phase);
        if (ab.only_your_turn || ab.only_phase >= 0)
          Record(Invariant::kSorcerySpeed, in_time,
                 absl::StrCat(g.ObjectName(a.object), "'s ability limited to ",
                              ab.only_your_turn ? "its controller's turn" : "",
                              ab.only_your_turn && ab.only_phase >= 0 ? " and " : "",
                              ab.only_phase >= 0 ? S(PhaseName(static_cast<Phase>(ab.only_phase)))
                                                 : std::string(),
                              " offered to ", (d.player ? "B" : "A"), " in ", S(PhaseName(s.phase)),
                              " of ", (s.active ? "B" : "A")));
        // T-5.1: "only if you have exactly N cards in hand".
        if (ab.only_hand_size >= 0)
          Record(Invariant::kSorcerySpeed,
                 static_cast<int>(s.players[d.player].hand.size()) == ab.only_hand_size,
                 absl::StrCat(g.ObjectName(a.object), "'s ability limited to ", ab.only_hand_size,
                              " cards in hand offered to ", (d.player ? "B" : "A"), " with ",
                              s.players[d.player].hand.size()));
        // T-5.7: only before attackers are declared (Nettling Imp).
        if (ab.before_attackers || ab.only_opponents_turn)
          Record(Invariant::kSorcerySpeed,
                 (!ab.before_attackers ||
                  (s.phase <= Phase::kMain && !g.combat_.attacked[s.active])) &&
                     (!ab.only_opponents_turn || d.player != s.active),
                 absl::StrCat(g.ObjectName(a.object),
                              "'s ability limited to an opponent's turn or before attackers are "
                              "declared, offered to ",
                              (d.player ? "B" : "A"), " in ", S(PhaseName(s.phase))));
        // T-5.3, T-5.4: no more than N times each turn; only controlled
        // since its controller's turn began.
        if (ab.per_turn > 0 || ab.since_turn_began)
          Record(
              Invariant::kSorcerySpeed, g.ActivationAllowedThisTurn(ab, a.object, a.index),
              absl::StrCat(g.ObjectName(a.object), "'s ability limited to ",
                           ab.per_turn > 0 ? absl::StrCat(ab.per_turn, " a turn (",
                                                          g.ActivationsThisTurn(a.object, a.index),
                                                          " this turn)")
                                           : std::string("control since the turn began"),
                           " offered to ", (d.player ? "B" : "A")));
      }
      if (!slow) continue;
      Record(Invariant::kSorcerySpeed, main_neutral,
             absl::StrCat(g.ObjectName(a.object), " offered at sorcery speed in a ",
                          S(DecisionKindName(d.kind)), " decision of ", (d.player ? "B" : "A"),
                          " in ", S(PhaseName(s.phase))));
    }
  }
  // attackers: none that surely came under its controller this turn, unless
  // haste; and every creature that surely may attack is offered (T-7).
  // sacrifice cost (T-8.1): each permanent offered is the payer's and
  // matches the ability's filter, and every one that does is offered.
  // keep_fewest (G-19, Balance): the chooser is offered exactly the
  // permanents of theirs that fit and are not chosen yet, and what they
  // will keep is the count of the player with the fewest, read here from
  // the state (nothing has moved while the players choose).
  const bool keeping = d.kind == DecisionKind::kSacrifice && !g.timing_.frames.empty() &&
                       g.timing_.frames.back().kind == FrameKind::kKeepFewest;
  if (keeping) {
    const KeepFewestFrame& k = g.timing_.frames.back().keep_fewest;
    const std::vector<ObjId>& chosen = g.turn_.keep_fewest_chosen;
    auto fits = [&](ObjId o, Player you) {
      FilterContext ctx;
      ctx.source = k.source;
      ctx.you = you;
      ctx.text =
          k.source != kNoObj && s.obj.zone[k.source] != Zone::kNone ? &g.Chars(k.source) : nullptr;
      return g.Matches(k.find, o, ctx);
    };
    std::array<int, 2> total{};
    int unchosen = 0, chosen_mine = 0;
    for (ObjId o = 0; o < s.obj.count; ++o) {
      if (s.obj.zone[o] != Zone::kBattlefield) continue;
      const Player c = g.Chars(o).controller;
      if (c > 1 || !fits(o, c)) continue;
      ++total[c];
      const bool was_chosen = std::find(chosen.begin(), chosen.end(), o) != chosen.end();
      if (c == d.player) (was_chosen ? chosen_mine : unchosen) += 1;
    }
    int offered = 0;
    for (const Action& a : d.actions) {
      const bool ok = a.kind == ActionKind::kObject && s.obj.zone[a.object] == Zone::kBattlefield &&
                      g.Chars(a.object).controller == d.player && fits(a.object, d.player) &&
                      std::find(chosen.begin(), chosen.end(), a.object) == chosen.end();
      offered += ok;
      Record(Invariant::kSacrificeCost, ok,
             absl::StrCat(g.ObjectName(a.object), " offered to keep_fewest's choice, not fit"));
    }
    const int fewest = std::min(total[0], total[1]);
    Record(Invariant::kSacrificeCost,
           offered == unchosen && total[d.player] - chosen_mine - k.left == fewest,
           absl::StrCat(offered, " offered of ", unchosen, " unchosen; ", (d.player ? "B" : "A"),
                        " would keep ", total[d.player] - chosen_mine - k.left,
                        " where the fewest is ", fewest));
  }
  if (d.kind == DecisionKind::kSacrifice && !keeping) {
    const StackItem* item = g.Casting();
    const ActivatedAbility* ab = item && item->from == BodySource::kActivated
                                     ? &g.db()[item->body_card].activated[item->ability]
                                     : nullptr;
    FilterId filter = ab ? ab->sacrifice : kNoFilter;
    ObjId source = ab ? item->source : kNoObj;
    // T-13.3: or a phase cost's sacrifice (Lord of the Pit), its frame on top.
    if (!ab && !g.timing_.frames.empty() && g.timing_.frames.back().kind == FrameKind::kPhaseCost) {
      const PhaseTodo& t = g.turn_.phase_todo[g.timing_.frames.back().phase_cost.todo];
      if (!t.granted) filter = g.db()[t.card].phase[t.index].sacrifice;
      source = t.object.id;
    }
    Record(Invariant::kSacrificeCost, filter != kNoFilter,
           "a sacrifice decision with no ability's or phase's sacrifice cost being paid");
    if (filter != kNoFilter) {
      FilterContext ctx;
      ctx.source = source;
      ctx.you = d.player;
      ctx.text = source != kNoObj ? &g.Chars(source) : nullptr;
      int matching = 0;
      for (ObjId o = 0; o < s.obj.count; ++o)
        matching += s.obj.zone[o] == Zone::kBattlefield && g.Chars(o).controller == d.player &&
                    g.Matches(filter, o, ctx);
      int offered = 0;
      for (const Action& a : d.actions) {
        const bool ok =
            a.kind == ActionKind::kObject && s.obj.zone[a.object] == Zone::kBattlefield &&
            g.Chars(a.object).controller == d.player && g.Matches(filter, a.object, ctx);
        offered += ok;
        Record(Invariant::kSacrificeCost, ok,
               absl::StrCat(g.ObjectName(a.object), " offered as a sacrifice it doesn't fit"));
      }
      Record(Invariant::kSacrificeCost, offered == matching && matching > 0,
             absl::StrCat(offered, " sacrifices offered where ", matching, " fit"));
    }
  }
  // counter cost (G-8): an ability whose cost removes counters from its
  // source is offered only with that many there, and "any number" offers
  // X from 0 to all of them (20 at most); no count is ever below 0. Read
  // from the state's counts, not the engine's test.
  {
    auto counters = [&](ObjId o, int kind) -> int {
      return kind == 0   ? s.obj.p1p1[o]
             : kind == 1 ? s.obj.m1m1[o]
             : kind == 2 ? s.obj.other_counters[o]
             : kind == 3 ? s.obj.pt[o].p1p0
                         : s.obj.pt[o].m0m2;  // G-8.1
    };
    if (d.kind == DecisionKind::kX) {
      const StackItem* item = g.Casting();
      const ActivatedAbility* ab = item && item->from == BodySource::kActivated
                                       ? &g.db()[item->body_card].activated[item->ability]
                                       : nullptr;
      if (ab && ab->remove_counters_x) {
        const int there = std::min(20, counters(item->source, ab->remove_counter_kind));
        bool exact = static_cast<int>(d.actions.size()) == there + 1;
        for (int i = 0; exact && i < static_cast<int>(d.actions.size()); ++i)
          exact = d.actions[i].value == i;
        Record(Invariant::kCounterCost, exact,
               absl::StrCat(d.actions.size(), " numbers of ", ab->remove_counter_name,
                            " counters offered to remove from ", g.ObjectName(item->source),
                            " with ", there, " there"));
      }
    }
    for (const Action& a : d.actions) {
      if (a.kind != ActionKind::kActivate) continue;
      const CardDef& card = g.db()[g.Chars(a.object).card];
      if (a.index >= static_cast<int>(card.activated.size())) continue;
      const ActivatedAbility& ab = card.activated[a.index];
      if (ab.remove_counters == 0) continue;
      const int there = counters(a.object, ab.remove_counter_kind);
      Record(
          Invariant::kCounterCost, there >= ab.remove_counters,
          absl::StrCat(g.ObjectName(a.object), "'s ability offered to remove ", ab.remove_counters,
                       " ", ab.remove_counter_name, " counters with ", there, " there"));
    }
    bool none_below = true;
    for (ObjId o = 0; o < s.obj.count; ++o)
      none_below = none_below && s.obj.p1p1[o] >= 0 && s.obj.m1m1[o] >= 0 &&
                   s.obj.other_counters[o] >= 0 && s.obj.pt[o].p1p0 >= 0 && s.obj.pt[o].m0m2 >= 0;
    Record(Invariant::kCounterCost, none_below, "an object with fewer than 0 counters of a kind");
  }
  if (d.kind == DecisionKind::kAttackers) {
    static thread_local std::vector<uint8_t> offered;
    offered.assign(s.obj.count, 0);
    for (const Action& a : d.actions) {
      if (a.kind != ActionKind::kObject) continue;
      offered[a.object] = 1;
      // (T-5.6: "as though it had haste" lets it attack, sick or not.)
      const bool fresh = a.object < came_turn_.size() && came_turn_[a.object] == s.turn &&
                         !Has(g.Chars(a.object).keywords, kHaste) &&
                         !g.AttacksAsThoughHaste(a.object);
      Record(Invariant::kAttackers, !fresh,
             absl::StrCat(g.ObjectName(a.object), " may attack the turn it came under ",
                          (s.active ? "B" : "A"), "'s control"));
    }
    std::string missing;
    for (ObjId o = 0; o < s.obj.count && missing.empty(); ++o) {
      // (A creature whose attack a replacement took this attack is not
      // offered again: E-3 A, docs/rules.md.)
      if (s.obj.zone[o] != Zone::kBattlefield || offered[o] || g.Attacking(o) ||
          g.DeclarationReplaced(o))
        continue;
      const Characteristics& ch = g.Chars(o);
      if (!ch.IsCreature() || ch.controller != s.active || s.obj.tapped[o] ||
          (Has(ch.keywords, kDefender) && !Has(ch.keywords, kAttacksDespiteDefender)) ||
          Has(ch.keywords, kCantAttack) || !(settled_[o] || Has(ch.keywords, kHaste)) ||
          !AttackConditionHolds(g, o))
        continue;
      missing = absl::StrCat(g.ObjectName(o), ", untapped and controlled since the turn began, ",
                             "is not offered as an attacker");
    }
    Record(Invariant::kAttackers, missing.empty(), missing);
    // T-7.1: none that can't attack is offered, and "done" is offered
    // unless a creature offered attacks each turn if able.
    bool owed = false, done = false;
    for (const Action& a : d.actions) {
      done |= a.kind == ActionKind::kDone;
      if (a.kind != ActionKind::kObject) continue;
      const Characteristics& ch = g.Chars(a.object);
      owed |= Has(ch.keywords, kAttacksEachTurn);
      Record(Invariant::kAttackers,
             !Has(ch.keywords, kCantAttack) &&
                 (!Has(ch.keywords, kDefender) || Has(ch.keywords, kAttacksDespiteDefender)) &&
                 AttackConditionHolds(g, a.object),
             absl::StrCat(g.ObjectName(a.object), " is offered as an attacker but can't attack"));
    }
    Record(Invariant::kAttackers, done != owed,
           owed ? "\"done\" offered while a creature must attack"
                : "no \"done\" while no creature must attack");
  }
  // attackers, T-7.3: a band joined from two offered has at most one
  // creature without banding (as an attacker), and its creatures attack.
  if (d.kind == DecisionKind::kBand) {
    for (const Action& a : d.actions) {
      if (a.kind != ActionKind::kBand) continue;
      int without = 0, members = 0;
      const ObjId bands[2] = {g.BandOf(a.object), g.BandOf(static_cast<ObjId>(a.value))};
      for (ObjId o = 0; o < s.obj.count; ++o) {
        if (s.obj.zone[o] != Zone::kBattlefield || !g.Attacking(o)) continue;
        const ObjId band = g.combat_.band[o] == kNoObj ? o : g.combat_.band[o];
        if (band != bands[0] && band != bands[1]) continue;
        ++members;
        const KeywordMask k = g.Chars(o).keywords;
        without += !Has(k, kBanding) && !Has(k, kBandingWhenAttacking);
      }
      Record(Invariant::kAttackers, bands[0] != bands[1] && members >= 2 && without <= 1,
             absl::StrCat("a band of ", g.ObjectName(a.object), " and ",
                          g.ObjectName(static_cast<ObjId>(a.value)), " is offered with ", without,
                          " creatures without banding (", members, " in all)"));
    }
  }
  // blockers: only legal blocks are offered, and every legal block is.
  if (d.kind == DecisionKind::kBlockers) {
    int legal = 0, offered = 0;
    for (const Action& a : d.actions) {
      if (a.kind != ActionKind::kBlock) continue;
      ++offered;
      const ObjId b = a.object;
      const std::string why = WhyNoBlock(g, b, static_cast<ObjId>(a.value));
      Record(Invariant::kBlockers, why.empty(), absl::StrCat(g.ObjectName(b), " ", why));
    }
    std::string unoffered;  // the first legal block not offered, to name it
    for (ObjId b = 0; b < s.obj.count; ++b) {
      if (s.obj.zone[b] != Zone::kBattlefield || !g.Chars(b).IsCreature()) continue;
      for (ObjId at = 0; at < s.obj.count; ++at) {
        if (s.obj.zone[at] != Zone::kBattlefield || !g.Attacking(at) ||
            !WhyNoBlock(g, b, at).empty())
          continue;
        ++legal;
        if (!unoffered.empty()) continue;
        bool listed = false;
        for (const Action& a : d.actions)
          listed |= a.kind == ActionKind::kBlock && a.object == b && a.value == at;
        if (!listed)
          unoffered = absl::StrCat(" (", g.ObjectName(b), " blocking ", g.ObjectName(at),
                                   " is not offered)");
      }
    }
    // Every offered block is legal (above), so equal counts mean the same set.
    Record(Invariant::kBlockers, legal == offered,
           absl::StrCat(offered, " blocks offered where the rules allow ", legal, unoffered));
    // T-7.1: "done" is offered unless a creature must block one with lure.
    bool done = false, owed = false;
    for (const Action& a : d.actions) {
      done |= a.kind == ActionKind::kDone;
      owed |=
          a.kind == ActionKind::kBlock && Has(g.Chars(static_cast<ObjId>(a.value)).keywords, kLure);
    }
    Record(Invariant::kBlockers, done != owed,
           owed ? "\"done\" offered while a creature must block" : "no \"done\" to blocks");
  }
}

void InvariantChecker::AfterApply(const Game& g, const Decision& answered, int index,
                                  bool applied) {
  Record(Invariant::kApply, applied, absl::StrCat("offered action ", index, " was refused"));
  // `answered` is the game's decision, which Apply replaced: what was
  // decided is the copy OnDecision kept (when a driver skipped OnDecision,
  // the decision as it reads now).
  const std::vector<Action>& offered =
      decided_kind_ == DecisionKind::kNone ? answered.actions : decided_;
  const DecisionKind kind = decided_kind_ == DecisionKind::kNone ? answered.kind : decided_kind_;
  const Player player = decided_kind_ == DecisionKind::kNone ? answered.player : decided_player_;
  decided_kind_ = DecisionKind::kNone;
  if (!applied || index < 0 || index >= static_cast<int>(offered.size())) return;
  const Action a = offered[index];
  const GameState& s = g.state();
  if (kind == DecisionKind::kPrevention && a.kind == ActionKind::kPass)
    prevention_passed_.push_back({prevention_depth_, player});
  // phase_effect_once: each phase effect or cost played once a phase, and
  // each phase cost paid or refused once (T-12, T-13).
  if (a.kind == ActionKind::kPhaseEffect) {
    Record(Invariant::kPhaseEffectOnce,
           std::find(phase_plays_.begin(), phase_plays_.end(), a.index) == phase_plays_.end(),
           absl::StrCat("the phase ", a.value ? "cost" : "effect", " of ", g.ObjectName(a.object),
                        " handled twice in ", S(PhaseName(s.phase))));
    phase_plays_.push_back(a.index);
  }
  if (kind == DecisionKind::kPhaseCost) {
    Record(Invariant::kPhaseEffectOnce,
           std::find(phase_costs_.begin(), phase_costs_.end(), a.index) == phase_costs_.end(),
           absl::StrCat("the phase cost of ", g.ObjectName(a.object), " answered twice in ",
                        S(PhaseName(s.phase))));
    phase_costs_.push_back(a.index);
    std::erase_if(phase_costs_due_,
                  [&](const PhaseCostDue& due) { return due.object.id == a.object; });
  }
  if (a.kind == ActionKind::kPlayLand && player < 2) ++lands_this_turn_[player];
  // one_attack: an attacker is tapped by attacking, unless it has vigilance
  // (T-7); one held for its "before" triggers (E-1) is not declared yet.
  auto holding = [&] {
    for (const Game::Frame& f : g.timing_.frames)
      if (f.kind == FrameKind::kAttack && f.attack.holding) return true;
    return false;
  };
  if (kind == DecisionKind::kAttackers && a.kind == ActionKind::kObject &&
      s.obj.zone[a.object] == Zone::kBattlefield && !holding())
    Record(Invariant::kOneAttack,
           s.obj.tapped[a.object] || Has(g.Chars(a.object).keywords, kVigilance),
           absl::StrCat(g.ObjectName(a.object), " attacks untapped without vigilance"));
}

bool InvariantChecker::Apply(Game& g, const Decision& d, int index) {
  OnDecision(g, d);
  const bool applied = g.Apply(index);
  AfterApply(g, d, index, applied);
  return applied;
}

void InvariantChecker::End(const Game& g, bool loops_allowed) {
  Observe(g);
  g.SetAudit(nullptr);
  const bool capped =
      g.end_reason() == EndReason::kActionCap || g.end_reason() == EndReason::kTurnCap;
  // A stall is not a loop: turns went on, and over the last kStallTurns turns
  // each player either can't lose (Platinum Angel) or took no step toward
  // losing: drew no card that left the library smaller than ever (draws
  // skipped, Null Profusion; libraries refilled, Timetwister; a draw from an
  // empty library that did not lose was no loss) and reached no new lowest
  // life. Nor is a long game a loop: a player whose library was refilled so
  // lately that drawing once a turn would not have emptied it by the cap
  // (kStallTurns of slack for extra draws skipped) is not bound to lose by
  // then, however their life goes.
  // The action cap, reached inside a turn, is always a loop. The game keeps
  // those turns itself: the checker sees only the decisions, and a game can
  // go a hundred turns without one (fuzz seed 4001, game 99474: a draw after
  // the last decision, turn 23 of 201). "Can't lose" at the end alone is not
  // enough: a Platinum Angel that attacked is a tapped artifact, its ability
  // off until its controller's next untap step (fuzz seed 4003, game 132941).
  bool stall = g.end_reason() == EndReason::kTurnCap;
  const int window = g.state().turn - kStallTurns;
  for (Player p = 0; p < 2 && stall; ++p)
    stall = g.Rules(p).cant_lose ||
            (g.last_draw_turn(p) <= window && g.lowest_life_turn(p) <= window) ||
            (g.refilled_until(p) > 0 && g.state().turn <= g.refilled_until(p) + kStallTurns);
  Record(Invariant::kProgress, loops_allowed || !capped || stall,
         absl::StrCat("the game ended by the ", S(EndReasonName(g.end_reason())), " on turn ",
                      g.state().turn));
}

// ---------------------------------------------------------------- apply, copy, replay

std::string CheckRefusesUnoffered(Game& g, const Decision& d, bool compare) {
  const uint64_t before = compare ? g.Fingerprint() : 0;
  const int n = static_cast<int>(d.actions.size());
  if (g.Apply(n) || g.Apply(-1)) return "an index past the offered actions was applied";
  if (compare && g.Fingerprint() != before) return "a refused index changed the game";
  return "";
}

std::string CheckOfferedApply(const Game& g, const Decision& d) {
  for (int i = 0; i < static_cast<int>(d.actions.size()); ++i) {
    Game c = g;
    c.SetUsage(nullptr);  // a try is no use of the card
    if (!c.Apply(i))
      return absl::StrCat("offered action ", i, " of ", d.actions.size(), " (",
                          ActionText(g, d.actions[i]), ") was refused");
  }
  return "";
}

std::string CheckCopyContinues(Game& copy, std::span<const int32_t> decisions, const Game& game) {
  for (int32_t i : decisions) {
    copy.Advance();
    copy.Apply(i);
  }
  if (copy.Fingerprint() == game.Fingerprint()) return "";
  return absl::StrCat("went elsewhere with the same ", decisions.size(), " decisions");
}

std::string CheckReplayEnds(Game& replay, std::span<const int32_t> decisions, const Game& game) {
  for (int32_t i : decisions) {
    if (replay.Advance().kind == DecisionKind::kNone) break;
    replay.Apply(i);
  }
  replay.Advance();
  if (replay.Fingerprint() == game.Fingerprint() && replay.Winner() == game.Winner()) return "";
  auto where = [](const Game& x) {
    return absl::StrCat("turn ", x.state().turn, ", ", S(EndReasonName(x.end_reason())),
                        ", winner ", x.Winner());
  };
  return absl::StrCat("ended elsewhere with the same ", decisions.size(), " decisions (",
                      where(replay), "; the game: ", where(game), ")");
}

// ---------------------------------------------------------------- numbering

std::string CheckNumbering(const CardDb& db, const GameState& s) {
  const int n = s.obj.count;
  auto renumber = [n](ObjId o) -> ObjId {
    return o == kNoObj || o >= n ? o : static_cast<ObjId>(n - 1 - o);
  };
  auto renumber_ref = [&](ObjRef r) { return ObjRef{renumber(r.id), r.incarnation}; };
  auto t = std::make_unique<GameState>(s);
  for (ObjId o = 0; o < n; ++o) {
    const ObjId to = renumber(o);
    t->obj.card[to] = s.obj.card[o];
    t->SetZone(to, s.obj.zone[o]);
    t->obj.owner[to] = s.obj.owner[o];
    t->obj.controller[to] = s.obj.controller[o];
    t->obj.timestamp[to] = s.obj.timestamp[o];
    t->obj.incarnation[to] = s.obj.incarnation[o];
    t->obj.p1p1[to] = s.obj.p1p1[o];
    t->obj.m1m1[to] = s.obj.m1m1[o];
    t->obj.other_counters[to] = s.obj.other_counters[o];
    t->obj.pt[to] = s.obj.pt[o];
    t->obj.counter_timestamp[to] = s.obj.counter_timestamp[o];
    t->obj.damage[to] = s.obj.damage[o];
    t->obj.regen_shields[to] = s.obj.regen_shields[o];
    t->obj.tapped[to] = s.obj.tapped[o];
    t->obj.sick[to] = s.obj.sick[o];
    t->obj.face_down[to] = s.obj.face_down[o];
    t->obj.token[to] = s.obj.token[o];
    t->obj.attached_to[to] = renumber(s.obj.attached_to[o]);
    t->obj.choice[to] = s.obj.choice[o];
    t->obj.linked[to] = renumber_ref(s.obj.linked[o]);
    t->obj.copy[to] = s.obj.copy[o];
  }
  for (EffectRow& r : t->effects) r.source = renumber_ref(r.source);
  for (ObjRef& r : t->effect_sets) r = renumber_ref(r);
  for (auto& pl : t->players)
    for (auto* v : {&pl.library, &pl.hand, &pl.graveyard})
      for (ObjId& o : *v) o = renumber(o);
  auto a = std::make_unique<LayerCache>(), b = std::make_unique<LayerCache>();
  ComputeLayers(db, s, *a);
  ComputeLayers(db, *t, *b);
  for (ObjId o = 0; o < n; ++o) {
    if (s.obj.zone[o] == Zone::kNone) continue;
    // The source a spared protection names is an object id: renumbered
    // like the objects themselves before the two are compared.
    Characteristics renumbered = b->chars[renumber(o)];
    for (int c = 0; c < kColorCount; ++c)
      if ((renumbered.prot_spared >> c) & 1)
        renumbered.prot_spared_by[c] = renumber(renumbered.prot_spared_by[c]);
    if (!(a->chars[o] == renumbered))
      return absl::StrCat("object ", o, " (", db[s.obj.card[o]].name, ") computes to ",
                          a->chars[o].power, "/", a->chars[o].toughness,
                          " numbered as it is, and to ", b->chars[renumber(o)].power, "/",
                          b->chars[renumber(o)].toughness, " numbered in reverse");
  }
  for (Player p = 0; p < 2; ++p)
    if (!(a->rules[p] == b->rules[p]))
      return absl::StrCat("player ", (p ? "B" : "A"), "'s rules differ numbered in reverse");
  return "";
}

// ---------------------------------------------------------------- fingerprint

namespace {
// FNV-1a over values, field by field (never over padding).
struct Hasher {
  uint64_t h = 1469598103934665603ull;
  template <typename T>
  void Add(const T& v) {
    static_assert(std::is_integral_v<T> || std::is_enum_v<T>);
    uint64_t x = static_cast<uint64_t>(v);
    for (size_t i = 0; i < sizeof(T); ++i) {
      h ^= (x >> (8 * i)) & 0xFF;
      h *= 1099511628211ull;
    }
  }
  void Add(ObjRef r) {
    Add(r.id);
    Add(r.incarnation);
  }
  template <typename T>
  void AddAll(const std::vector<T>& v) {
    Add(v.size());
    for (const T& x : v) Add(x);
  }
};
}  // namespace

uint64_t Game::Fingerprint() const {
  Hasher h;
  const GameState& s = state_;
  h.Add(s.turn);
  h.Add(s.active);
  h.Add(s.phase);
  h.Add(s.next_timestamp);
  h.Add(s.obj.count);
  for (ObjId o = 0; o < s.obj.count; ++o) {
    h.Add(s.obj.card[o]);
    h.Add(s.obj.zone[o]);
    h.Add(s.obj.owner[o]);
    h.Add(s.obj.controller[o]);
    h.Add(s.obj.timestamp[o]);
    h.Add(s.obj.incarnation[o]);
    h.Add(s.obj.p1p1[o]);
    h.Add(s.obj.m1m1[o]);
    h.Add(s.obj.other_counters[o]);
    if (s.pt_counters) [[unlikely]] {  // G-8.1 (the same fingerprints without them)
      h.Add(s.obj.pt[o].p1p0);
      h.Add(s.obj.pt[o].m0m2);
    }
    h.Add(s.obj.damage[o]);
    h.Add(s.obj.regen_shields[o]);
    h.Add(s.obj.tapped[o]);
    h.Add(s.obj.sick[o]);
    h.Add(s.obj.face_down[o]);
    h.Add(s.obj.attached_to[o]);
    h.Add(s.obj.choice[o]);
    h.Add(s.obj.linked[o]);
    h.Add(s.obj.copy[o].card);
    h.Add(combat_.flag[o]);
    h.Add(combat_.block_target[o]);
    h.Add(damage_.prevent_shield[o]);
    h.Add(damage_.no_regen[o]);
    h.Add(damage_.no_combat_damage_of[o]);
    h.Add(turn_.control_seen[o]);
    if (turn_.banding_cards) h.Add(combat_.band[o]);  // T-7.3 (other games: as before)
  }
  if (turn_.banding_cards) {
    h.Add(combat_.bands_done);
    h.Add(combat_.dividing);
    h.Add(combat_.div_job);
    h.Add(combat_.div_done);
  }
  h.Add(s.effects.size());
  for (const EffectRow& r : s.effects) {
    h.Add(r.card);
    h.Add(r.tmpl);
    h.Add(r.timestamp);
    h.Add(r.source);
    h.Add(r.controller);
    h.Add(r.active);
    h.Add(r.x);
  }
  h.AddAll(s.effect_sets);
  for (const PlayerState& p : s.players) {
    h.Add(p.life);
    h.Add(p.poison);
    for (int m : p.pool) h.Add(m);
    h.Add(p.lost);
    h.AddAll(p.library);
    h.AddAll(p.hand);
    h.AddAll(p.graveyard);
  }
  h.Add(turn_.mulligans[0]);
  h.Add(turn_.mulligans[1]);
  for (const TurnState::Activation& e : turn_.activations)  // T-5.3: this turn's
    if (e.turn == s.turn) {
      h.Add(e.object);
      h.Add(e.incarnation);
      h.Add(e.ability);
      h.Add(e.count);
    }
  for (const TurnState::Attacked& e : turn_.attacked)  // T-7.5: this turn's
    if (e.turn == s.turn) {
      h.Add(e.object);
      h.Add(e.incarnation);
    }
  h.Add(timing_.frames.size());
  for (const Frame& f : timing_.frames) {
    h.Add(f.kind);
    h.Add(f.pc);
    for (int32_t w : f.Words()) h.Add(w);
  }
  h.Add(stack_.items.size());
  for (const StackItem& it : stack_.items) {
    h.Add(it.card);
    h.Add(it.source);
    h.Add(it.ability);
    h.Add(it.mode);
    h.Add(it.target_count);
    for (int i = 0; i < it.target_count; ++i) {
      const Target& t = TargetAt(it, i);  // T-8.5: past the fourth too
      h.Add(t.kind);
      h.Add(t.obj);
      h.Add(t.player);
    }
    h.Add(it.x);
    h.Add(it.countered);
    if (it.discarded) h.Add(it.discarded);  // G-9 (Recall): only where a discard counted
  }
  h.AddAll(stack_.batch);
  h.AddAll(stack_.ibatch);
  h.Add(occ_.queued.size());
  h.Add(damage_.pending.size());
  for (const PhaseTodo& t : turn_.phase_todo) h.Add(t.done);
  h.AddAll(occ_.destroying);
  h.AddAll(occ_.moving);
  for (int p = 0; p < 2; ++p) {
    h.Add(turn_.lands_played[p]);
    h.Add(combat_.attacked[p]);
    h.Add(damage_.player_shield[p]);
    h.Add(turn_.replace_draw[p]);
  }
  Rng rng = rng_;
  h.Add(rng.Next());
  h.Add(timing_.over);
  h.Add(timing_.winner);
  h.Add(stack_.next_serial);
  h.Add(timing_.have_decision);
  if (timing_.have_decision) {
    h.Add(timing_.decision.kind);
    h.Add(timing_.decision.player);
    h.Add(timing_.decision.actions.size());
    for (const Action& a : timing_.decision.actions) {
      h.Add(a.kind);
      h.Add(a.object);
      h.Add(a.index);
      h.Add(a.value);
    }
  }
  return h.h;
}

// ---------------------------------------------------------------- scenario gaps

std::string Game::ScenarioGaps() const {
  const GameState& s = state_;
  if (timing_.over) return "the game is over";
  if (timing_.frames.size() != 1 || timing_.frames[0].kind != FrameKind::kTurn ||
      timing_.have_decision)
    return "rules are in progress";
  if (!stack_.batch.empty() || !stack_.ibatch.empty() || !occ_.queued.empty() ||
      !damage_.pending.empty() || !occ_.destroying.empty() || !occ_.moving.empty())
    return "a batch, trigger, damage or destruction is pending";
  if (!stack_.next_upkeep.empty()) return "an effect waits for the next upkeep";
  if (!stack_.next_main.empty()) return "an effect waits for a next main phase";
  for (const EffectRow& r : s.effects)
    if (r.active)
      return absl::StrCat("a continuous effect of ", (*db_)[r.card].name, " is in force");
  if (!damage_.source_shields.empty() || damage_.player_shield[0] || damage_.player_shield[1] ||
      damage_.no_combat_damage)
    return "a prevention shield is up";
  if (turn_.replace_draw[0] || turn_.replace_draw[1]) return "a draw is replaced";
  if (!occ_.damaged_by.empty() || !occ_.died_this_turn.empty())
    return "this turn's damage or deaths are remembered";
  for (ObjId o = 0; o < s.obj.count; ++o) {
    if (damage_.prevent_shield[o] || damage_.no_regen[o] || damage_.no_combat_damage_of[o])
      return absl::StrCat(ObjectName(o), " has a shield");
    if (combat_.flag[o] != kNotInCombat || combat_.block_target[o] != kNoObj)
      return absl::StrCat(ObjectName(o), " is in combat");
    if (s.obj.token[o] && s.obj.zone[o] != Zone::kNone)  // one gone is no object (G-12)
      return absl::StrCat(
          ObjectName(o),
          " is a token (G-12: a scenario's objects are cards; a step makes a token)");
    if (s.obj.zone[o] == Zone::kStack) return absl::StrCat(ObjectName(o), " is on the stack");
    if (s.obj.zone[o] == Zone::kBattlefield && turn_.control_seen[o] != Chars(o).controller)
      return absl::StrCat(ObjectName(o), " changed control unseen by a state check");
  }
  for (const PlayerState& p : s.players)
    for (int m : p.pool)
      if (m) return "mana is in a pool";
  // The first turn's draw is skipped; a scenario starting before it would draw.
  if (timing_.skip_first_draw && s.turn == timing_.first_turn &&
      (s.phase == Phase::kUntap || s.phase == Phase::kUpkeep))
    return "the first turn's draw is still to be skipped";
  return "";
}

}  // namespace strata
