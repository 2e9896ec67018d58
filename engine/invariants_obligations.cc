// Invariants of what the rules oblige players and permanents to do, read at
// decisions and at rule points by the checker's own reading of the cards:
// the mulligans before the first turn (G-1), the phase costs of a phase
// (T-12, T-13) and the targets a spell or ability may be offered (T-8).
// docs/invariants.md lists them with the rule ids they guard.

#include <algorithm>
#include <tuple>
#include <vector>

#include "absl/strings/str_cat.h"
#include "engine/game_internal.h"
#include "engine/invariants.h"

namespace strata {
namespace {

const char* BodySourceName(BodySource from) {
  switch (from) {
    case BodySource::kSpell:
      return "spell";
    case BodySource::kActivated:
      return "activated";
    case BodySource::kTrigger:
      return "triggered";
    case BodySource::kPhase:
      return "phase";
    case BodySource::kGrantedPhase:
      return "granted phase";
    case BodySource::kDelayed:
      return "delayed";
    case BodySource::kEnters:
      return "enters";
    case BodySource::kNextTime:
      return "next-time";
  }
  return "?";
}

// A spell by its card, an ability by its source and body's card.
std::string NameOfItem(const Game& g, const StackItem& item) {
  if (item.card != kNoObj) return g.ObjectName(item.card);
  return absl::StrCat(item.body_card == kNoCard ? "?" : g.db()[item.body_card].name, "'s ",
                      BodySourceName(item.from), " ability (source ",
                      item.source == kNoObj ? "gone" : g.ObjectName(item.source), ")");
}

}  // namespace

// mulligan (G-1): the starting player decides first and both decide; a
// paris hand is dealt one card fewer per mulligan, a london hand seven.
// Read at every decision until the first one that is no mulligan's, or the
// first phase's beginning, whichever comes first.
void InvariantChecker::CheckMulligan(const Game& g, const Decision* d) {
  if (mulligans_over_) return;
  const GameState& s = g.state();
  const Mulligan rule = g.options().mulligan;
  auto cards = [&](Player p) { return static_cast<int>(s.players[p].hand.size()); };
  auto short_of_cards = [&](Player p) { return s.players[p].library.empty(); };
  // A kept hand holds seven cards less one per mulligan, under either rule
  // (london's on the bottom by then); the starting player's is read when the
  // other is first asked, the other's as the first phase begins (before any
  // draw: the first decision may come after the other's first draw).
  auto check_kept = [&](Player p) {
    const int kept = std::max(kOpeningHandSize - g.mulligans(p), 0);
    Record(Invariant::kMulligan, cards(p) == kept || (cards(p) < kept && short_of_cards(p)),
           absl::StrCat(Who(p), " kept ", cards(p), " cards after ", g.mulligans(p),
                        " mulligans under the ", S(MulliganName(rule)), " rule, where ", kept,
                        " are kept"));
  };
  if (d && d->kind == DecisionKind::kMulligan) {
    const Player p = d->player;
    if (!mulligan_asked_[0] && !mulligan_asked_[1])
      Record(Invariant::kMulligan, p == s.active,
             absl::StrCat(Who(p), " decided on a mulligan before ", Who(s.active),
                          ", who plays first"));
    if (p == Opponent(s.active) && !mulligan_asked_[p] && mulligan_asked_[s.active])
      check_kept(s.active);
    if (p < 2) mulligan_asked_[p] = true;
    const int dealt =
        rule == Mulligan::kLondon ? kOpeningHandSize : kOpeningHandSize - g.mulligans(p);
    Record(Invariant::kMulligan, cards(p) == dealt || (cards(p) < dealt && short_of_cards(p)),
           absl::StrCat(Who(p), " holds ", cards(p), " cards after ", g.mulligans(p),
                        " mulligans under the ", S(MulliganName(rule)), " rule, where ", dealt,
                        " are dealt"));
    return;
  }
  if (d && d->kind == DecisionKind::kBottom) return;
  mulligans_over_ = true;
  for (Player p = 0; p < 2; ++p)
    Record(Invariant::kMulligan, mulligan_asked_[p],
           absl::StrCat(Who(p), " was never offered a mulligan"));
  if (mulligan_asked_[Opponent(s.active)]) check_kept(Opponent(s.active));
}

// targets (T-8, T-8.2): no "done" before a spec of exactly N has N; no
// permanent with shroud, nor one with protection from a
// colour of the spell or of the ability's source, is offered as a target;
// nor any spell but the one being cast.
void InvariantChecker::CheckTargets(const Game& g, const Decision& d) {
  if ((d.kind != DecisionKind::kTarget && d.kind != DecisionKind::kX) || g.timing_.frames.empty())
    return;
  const Game::Frame& f = g.timing_.frames.back();
  if (f.kind != FrameKind::kCast) return;
  const GameState& s = g.state();
  const StackItem& item = g.stack_.items[f.cast.item];
  const ObjId from = item.from == BodySource::kSpell ? item.card : item.source;
  const ColorMask colors = from == kNoObj ? 0 : g.Chars(from).colors;
  // T-8.5: exactly X targets: X is offered as their number alone; a target
  // is offered only while one more can be paid for, and never twice.
  if (const AbilityBody* b = g.ModeBody(item); b && !b->targets.empty() && b->targets[0].x)
      [[unlikely]] {
    if (d.kind == DecisionKind::kX) {
      for (const Action& a : d.actions)
        Record(Invariant::kTargets, a.value == item.target_count,
               absl::StrCat("X = ", a.value, " offered for ", item.target_count,
                            " targets of exactly X targets"));
      return;
    }
    const bool payable = g.MaxPayableX(item) > item.in_slot;
    for (const Action& a : d.actions) {
      if (a.kind != ActionKind::kTargetObject && a.kind != ActionKind::kTargetPlayer) continue;
      bool twice = false;
      for (int i = 0; i < item.target_count; ++i) {
        const Target& t = g.TargetAt(item, i);
        twice |= a.kind == ActionKind::kTargetObject
                     ? t.kind == Target::kObject && t.obj.id == a.object
                     : t.kind == Target::kPlayer && t.player == a.value;
      }
      Record(Invariant::kTargets, payable && !twice,
             absl::StrCat("a target offered to ", from == kNoObj ? "?" : g.ObjectName(from),
                          twice ? " a second time" : " beyond the X its caster can pay"));
    }
  }
  if (d.kind != DecisionKind::kTarget) return;
  // T-8.2: a spec of exactly N targets ends only once N are chosen: no
  // "done" before.
  if (const AbilityBody* b = g.ModeBody(item);
      b && item.slot < b->targets.size() && b->targets[item.slot].min > 1) [[unlikely]] {
    bool done = false;
    for (const Action& a : d.actions) done |= a.kind == ActionKind::kDone;
    Record(Invariant::kTargets, !done || item.in_slot >= b->targets[item.slot].min,
           absl::StrCat("done offered after ", item.in_slot, " of the exactly ",
                        b->targets[item.slot].min, " targets of ",
                        from == kNoObj ? "?" : g.ObjectName(from)));
  }
  // On the stack only the spell being cast, the innermost, is a target.
  ObjId casting = kNoObj;
  for (auto it = g.timing_.frames.rbegin(); it != g.timing_.frames.rend(); ++it)
    if (it->kind == FrameKind::kInterrupts) {
      casting = g.stack_.items[it->interrupts.item].card;
      break;
    }
  for (const Action& a : d.actions) {
    if (a.kind == ActionKind::kTargetObject && s.obj.zone[a.object] == Zone::kStack)
      Record(Invariant::kTargets, a.object == casting,
             absl::StrCat(g.ObjectName(a.object), " offered as a target on the stack while ",
                          casting == kNoObj ? "no spell" : g.ObjectName(casting),
                          " is the one being cast"));
    if (a.kind != ActionKind::kTargetObject || s.obj.zone[a.object] != Zone::kBattlefield) continue;
    const Characteristics& ch = g.Chars(a.object);
    std::string why;
    if (Has(ch.keywords, kShroud)) why = "has shroud";
    for (int c = 0; c < kColorCount && why.empty(); ++c)
      if (Has(colors, c) && Has(ch.keywords, kProtWhite + c))
        why = "has protection from a colour of its source";
    Record(Invariant::kTargets, why.empty(),
           absl::StrCat(g.ObjectName(a.object), " offered as a target of ",
                        from == kNoObj ? "?" : g.ObjectName(from), " though it ", why));
  }
}

void InvariantChecker::CheckPreventionWindow(const Game& g, const Decision& d) {
  if (d.kind != DecisionKind::kPrevention) return;
  prevention_depth_ = g.timing_.frames.size();
  const bool passed =
      std::find(prevention_passed_.begin(), prevention_passed_.end(),
                std::pair<size_t, Player>{prevention_depth_, d.player}) != prevention_passed_.end();
  Record(Invariant::kFirstDecision, !passed,
         absl::StrCat(Who(d.player), " is asked again in a damage-prevention step after passing"));
}

// replacements (E-6): an "instead of drawing" effect replaces one draw and
// is used up as it does: when its player looks at the cards, none is left.
void InvariantChecker::CheckDrawReplaced(const Game& g, const Decision& d) {
  if (d.kind != DecisionKind::kChoice || g.timing_.frames.empty()) return;
  const Game::Frame& f = g.timing_.frames.back();
  if (f.kind != FrameKind::kDraw || f.pc != DrawFrame::kDraw || f.draw.looked <= 0) return;
  Record(Invariant::kReplacements, g.turn_.replace_draw[f.draw.player] == 0,
         absl::StrCat(Who(f.draw.player), " replaces a draw and the \"instead of drawing\" effect ",
                      "stays for the next one"));
}

// phase_costs (T-12): a tapped artifact's abilities are off, so its phase
// effects are never offered.
void InvariantChecker::CheckPhaseEffectsOffered(const Game& g, const Decision& d) {
  const GameState& s = g.state();
  for (const Action& a : d.actions) {
    if (a.kind != ActionKind::kPhaseEffect || a.value || a.object == kNoObj ||
        s.obj.zone[a.object] != Zone::kBattlefield)
      continue;
    Record(Invariant::kPhaseCosts,
           !(Has(g.Chars(a.object).types, kArtifact) && s.obj.tapped[a.object]),
           absl::StrCat("the phase effect of ", g.ObjectName(a.object),
                        " offered while it is a tapped artifact"));
  }
}

namespace {

// The mana of the phase costs granted to a permanent with characteristics
// ch in this phase (Energy Flux, each granting permanent once), or -1 if
// none is granted.
int GrantedPhaseCostMana(const Game& g, const Characteristics& ch) {
  int mana = -1;
  for (int k = 0; k < ch.granted_count; ++k) {
    const PhaseAbility& ph = g.db()[ch.granted[k].card].granted_phase[ch.granted[k].index];
    if (ph.phase == static_cast<int>(g.state().phase))
      mana = std::max(mana, 0) + ph.cost.ManaValue();
  }
  return mana;
}

// Does permanent o have a phase cost due now, read from its
// characteristics: its own phase costs of this phase, of the player whose
// phase it is (or of the enchanted permanent's controller's), and the
// granted ones?
bool PhaseCostDueNow(const Game& g, ObjId o) {
  const GameState& s = g.state();
  const Characteristics& ch = g.Chars(o);
  if (ch.blank || ch.card == kNoCard) return false;
  const CardDef& card = g.db()[ch.card];
  for (int i = 0; i < static_cast<int>(card.phase.size()); ++i) {
    const PhaseAbility& ph = card.phase[i];
    if (!ph.is_cost || ph.phase != static_cast<int>(s.phase) ||
        !Has(ch.abilities, card.PhaseBit(i)))
      continue;
    Player whose = ch.controller;
    if (ph.whose == 1)
      whose = s.obj.attached_to[o] == kNoObj ? kNoPlayer : g.Chars(s.obj.attached_to[o]).controller;
    if (whose == s.active) return true;
  }
  return ch.controller == s.active && GrantedPhaseCostMana(g, ch) >= 0;
}

}  // namespace

// phase_costs (T-13): the phase costs due as a phase begins.
void InvariantChecker::CollectPhaseCosts(const Game& g) {
  const GameState& s = g.state();
  phase_costs_due_.clear();
  s.ForEachPermanent([&](ObjId o) {
    if (PhaseCostDueNow(g, o)) phase_costs_due_.push_back({s.Ref(o), g.Chars(o).controller});
  });
}

// phase_costs (T-13): every phase cost due is paid or refused before its
// phase ends, even on a tapped permanent, unless the permanent left play,
// changed controller or lost the cost meanwhile.
void InvariantChecker::CheckPhaseCostsHandled(const Game& g) {
  const GameState& s = g.state();
  for (const PhaseCostDue& due : phase_costs_due_) {
    const ObjId o = due.object.id;
    const bool still = s.Alive(due.object) && s.obj.zone[o] == Zone::kBattlefield &&
                       g.Chars(o).controller == due.controller && PhaseCostDueNow(g, o);
    Record(Invariant::kPhaseCosts, !still,
           absl::StrCat("the phase cost of ", g.ObjectName(o), " was neither paid nor refused in ",
                        S(PhaseName(s.phase)), " of turn ", s.turn));
  }
  phase_costs_due_.clear();
}

// phase_costs (T-13): paying a permanent's phase costs spends the mana its
// characteristics ask now (every granted one of this phase combined), on a
// permanent that still has the cost; and no permanent with a phase cost
// still unhandled taps for mana meanwhile.
void InvariantChecker::NotePhaseCostPaying(const Game& g, int todo) {
  const PhaseTodo& t = g.turn_.phase_todo[todo];
  phase_cost_was_due_ = PhaseCostDueNow(g, t.object.id);
  phase_cost_asked_ = t.granted ? std::max(GrantedPhaseCostMana(g, g.Chars(t.object.id)), 0)
                                : g.db()[t.card].phase[t.index].cost.ManaValue();
}

void InvariantChecker::CheckPhaseCostPaid(const Game& g, int todo) {
  const PhaseTodo& t = g.turn_.phase_todo[todo];
  // As the payment began (kPhaseCostPaying): the payment may turn it off.
  Record(Invariant::kPhaseCosts, phase_cost_was_due_,
         absl::StrCat(Who(t.controller), " pays a phase cost of ", g.ObjectName(t.object.id),
                      ", which had none as the payment began"));
  const int expected = phase_cost_asked_;
  const int spent = SpentSincePaying(g, t.controller);
  if (!g.options().free_mana)
    Record(Invariant::kPhaseCosts, spent == expected,
           absl::StrCat(Who(t.controller), " spent ", spent, " mana on the phase cost of ",
                        g.ObjectName(t.object.id), ", which asks ", expected));
  CheckNoPendingSourceTapped(g, "a phase cost");
}

void InvariantChecker::CheckNoPendingSourceTapped(const Game& g, const char* paying) {
  const GameState& s = g.state();
  for (const PhaseCostDue& due : phase_costs_due_) {
    const ObjId o = due.object.id;
    if (!s.Alive(due.object) || o >= static_cast<int>(untapped_before_paying_.size()) ||
        !PhaseCostDueNow(g, o))  // a cost it lost meanwhile locks nothing
      continue;
    Record(Invariant::kPhaseCosts, !(untapped_before_paying_[o] && s.obj.tapped[o]),
           absl::StrCat(g.ObjectName(o), " tapped to pay for ", paying,
                        " before its phase cost was handled"));
  }
}

// triggers_wait (E-4): triggers wait while anything resolves, so no
// triggers frame sits right above a resolution in progress; and they happen
// as soon as nothing resolves, so no window opens with triggers queued and
// nothing resolving, being cast or destroyed.
void InvariantChecker::CheckTriggersWait(const Game& g, const Decision* d) {
  const auto& frames = g.timing_.frames;
  bool busy = false;
  for (size_t i = 0; i < frames.size(); ++i) {
    const FrameKind k = frames[i].kind;
    busy |= k == FrameKind::kResolve || k == FrameKind::kTriggers || k == FrameKind::kCast ||
            k == FrameKind::kDestroy;
    // (Only between its steps: a resolution not yet begun may wait below
    // the triggers of the one before it, delayed effects resolving one
    // after another, and one whose steps are done below its own.)
    if (k == FrameKind::kResolve && frames[i].pc == ResolveFrame::kSteps && i + 1 < frames.size() &&
        frames[i + 1].kind == FrameKind::kTriggers)
      Record(Invariant::kTriggersWait, false,
             absl::StrCat("triggers happen in the middle of the resolution of ",
                          NameOfItem(g, g.stack_.items[frames[i].resolve.item])));
  }
  if (d && (d->kind == DecisionKind::kNeutral || d->kind == DecisionKind::kRespond))
    Record(Invariant::kTriggersWait, busy || g.occ_.queued.empty(),
           absl::StrCat("a ", S(DecisionKindName(d->kind)), " window opens with ",
                        g.occ_.queued.size(), " triggers waiting and nothing resolving"));
}

// leave_together (E-5): the n objects that just left together are one group
// of occurrences, a new one: a trigger of any of them sees all of them go.
void InvariantChecker::CheckLeftTogether(const Game& g, int n) {
  const int end = g.EventEnd();
  if (n <= 0 || n > end) return;
  const int group = g.Event(end - n).group;
  bool one = true;
  for (int i = end - n; i < end; ++i)
    one &= g.Event(i).kind == EventKind::kZoneChange && g.Event(i).group == group;
  Record(Invariant::kLeaveTogether, one && group > last_group_,
         absl::StrCat(n, " objects left together as group ", group, one ? "" : " (not all of it)",
                      " after group ", last_group_, ", starting with ",
                      g.ObjectName(g.Event(end - n).object)));
  last_group_ = std::max(last_group_, group);
  queued_before_group_ = g.occ_.queued.size();
}

namespace {

// The checker's own reading of a trigger's filter on an object that left
// play, as it last was (E-5): its characteristics, controller, tapped state
// and zone just before, and the source's attachment just before if the
// source left in the same group.
bool MatchesAsItWas(const Game& g, const Filter& f, const Occurrence& e, ObjId source,
                    ObjId source_attached_to, const Characteristics& source_ch) {
  const Characteristics& ch = e.last;
  const ObjId o = e.object;
  auto map = [&](Word w) { return source_ch.MapWord(w); };
  // An entry is seen as it entered (docs/rules.md E-5.1), a token made
  // from nothing too (fuzz seed 39 with the test cards, game 86: Test
  // Entry Toll on a Wasp).
  const Zone zone = e.to == Zone::kBattlefield ? Zone::kBattlefield : e.from;
  if (!Has(f.zones, static_cast<int>(zone))) return false;
  if (f.self && o != source) return false;
  if (f.other && o == source) return false;
  if (f.enchanted && source_attached_to != o) return false;
  if (f.controller >= 0 && (e.player == source_ch.controller) != (f.controller == 0)) return false;
  if (f.owner >= 0 && (g.state().obj.owner[o] == source_ch.controller) != (f.owner == 0))
    return false;
  if (f.types && !(ch.types & f.types)) return false;
  if (ch.types & f.not_types) return false;
  auto has_subtype = [&](Word w) { return map(w) < kMaxSubtypes && ch.HasSubtype(map(w)); };
  if (!f.subtypes.empty() && std::none_of(f.subtypes.begin(), f.subtypes.end(), has_subtype))
    return false;
  if (std::any_of(f.not_subtypes.begin(), f.not_subtypes.end(), has_subtype)) return false;
  if (f.supertypes && !(ch.supertypes & f.supertypes)) return false;
  if (ch.supertypes & f.not_supertypes) return false;
  auto has_color = [&](Word w) {
    return IsColorWord(map(w)) && Has(ch.colors, map(w) - kColorWordBase);
  };
  if (!f.colors.empty() && std::none_of(f.colors.begin(), f.colors.end(), has_color)) return false;
  if (std::any_of(f.not_colors.begin(), f.not_colors.end(), has_color)) return false;
  if (f.colorless >= 0 && (ch.colors == 0) != (f.colorless == 1)) return false;
  if (f.keywords && !(ch.keywords & f.keywords)) return false;
  if (ch.keywords & f.not_keywords) return false;
  if (f.no_abilities >= 0 &&
      (ch.abilities == 0 && ch.keywords == 0 && ch.land_mana == 0) != (f.no_abilities == 1))
    return false;
  if (f.tapped >= 0 && e.was_tapped != (f.tapped == 1)) return false;
  if (f.face_down >= 0 && g.state().obj.face_down[o] != (f.face_down == 1)) return false;
  if (f.token >= 0 && g.state().obj.token[o] != (f.token == 1)) return false;
  if (f.min_power != Filter::kAnyPower && (!ch.IsCreature() || ch.power < f.min_power))
    return false;
  if (f.max_power != Filter::kAnyPower && (!ch.IsCreature() || ch.power > f.max_power))
    return false;
  if (f.name != kNoCard && (ch.blank || ch.card != f.name)) return false;
  return true;
}

}  // namespace

// leave_together (E-5): the occurrences of a group queue exactly the
// triggers the checker's own reading finds: each "when" or "after" trigger
// of a permanent in play, or of an object that left in this very group (as
// it last was: characteristics, tapped, attachment), whose zones, player
// and filter fit an occurrence of the group, once per occurrence.
void InvariantChecker::CheckGroupTriggered(const Game& g, int n) {
  const GameState& s = g.state();
  const int end = g.EventEnd();
  if (n <= 0 || n > end) return;
  const int first = end - n;
  struct Expected {
    ObjId source;
    int16_t index;
    int32_t event;
    bool operator==(const Expected&) const = default;
  };
  std::vector<Expected> expected, queued;
  auto leaver = [&](ObjId o) -> const Occurrence* {
    for (int i = first; i < end; ++i)
      if (g.Event(i).object == o && g.Event(i).from == Zone::kBattlefield) return &g.Event(i);
    return nullptr;
  };
  for (int ev = first; ev < end; ++ev) {
    const Occurrence& e = g.Event(ev);
    if (e.kind != EventKind::kZoneChange) continue;
    for (ObjId o = 0; o < s.obj.count; ++o) {
      const Occurrence* left = s.obj.zone[o] == Zone::kBattlefield ? nullptr : leaver(o);
      if (s.obj.zone[o] != Zone::kBattlefield && !left) continue;
      const Characteristics& ch = left ? left->last : g.Chars(o);
      if (ch.blank || ch.card == kNoCard) continue;
      const CardDef& card = g.db()[ch.card];
      const bool tapped = left ? left->was_tapped : s.obj.tapped[o];
      const ObjId attached = left ? left->attached_to : s.obj.attached_to[o];
      for (int i = 0; i < static_cast<int>(card.triggers.size()); ++i) {
        const TriggeredAbility& tr = card.triggers[i];
        // (A replacement is collected at step A only, never as it happens.)
        if (tr.timing == Timing::kBefore || tr.timing == Timing::kInstead ||
            tr.event != EventKind::kZoneChange)
          continue;
        if (!Has(ch.abilities, card.TriggerBit(i))) continue;
        if (Has(ch.types, kArtifact) && tapped) continue;  // T-12
        if (tr.player >= 0 && (e.player == ch.controller) != (tr.player == 0)) continue;
        if ((tr.from != Zone::kNone && tr.from != e.from) ||
            (tr.to != Zone::kNone && tr.to != e.to))
          continue;
        if (tr.damaged_by_self && !g.DamagedBy(e, o, left)) continue;
        if (tr.filter != kNoFilter &&
            !MatchesAsItWas(g, g.db().filter(tr.filter), e, o, attached, ch))
          continue;
        expected.push_back({o, static_cast<int16_t>(i), ev});
      }
    }
  }
  const auto& all = g.occ_.queued;
  for (size_t k = std::min(queued_before_group_, all.size()); k < all.size(); ++k)
    // (An armed next-time trigger is no permanent's: E-6, not checked here.)
    if (all[k].event >= first && all[k].event < end && !all[k].next_time && !all[k].shield)
      queued.push_back({all[k].source, all[k].index, all[k].event});
  auto order = [](const Expected& a, const Expected& b) {
    return std::tie(a.event, a.source, a.index) < std::tie(b.event, b.source, b.index);
  };
  std::sort(expected.begin(), expected.end(), order);
  std::sort(queued.begin(), queued.end(), order);
  if (expected == queued) return;
  auto name = [&](const std::vector<Expected>& v) {
    std::string out;
    for (const Expected& x : v)
      absl::StrAppend(&out, out.empty() ? "" : ", ", g.ObjectName(x.source), " trigger ",
                      x.index + 1, " on ", g.ObjectName(g.Event(x.event).object));
    return out.empty() ? std::string("none") : out;
  };
  Record(Invariant::kLeaveTogether, false,
         absl::StrCat(n, " objects left together; triggers expected: ", name(expected),
                      "; queued: ", name(queued)));
}

// before_first (E-1): an occurrence held for its "before" responses
// happens only once they have all resolved: as it happens, no trigger of
// its own before-record still waits. Its record is the latest before-record
// of the same kind, player, object (when the record names one) and zones;
// one not held (a mana ability's tap, T-10) is not checked.
void InvariantChecker::CheckBeforeFirst(const Game& g, int event) {
  const Occurrence& e = g.Event(event);
  if (e.before) return;
  const int first = g.EventEnd() - static_cast<int>(g.occ_.events.size());
  int own = -1;
  for (int i = event - 1; i >= first && own < 0; --i) {
    const Occurrence& b = g.Event(i);
    if (b.before && !b.instead && b.kind == e.kind && b.player == e.player &&
        (b.object == kNoObj || b.object == e.object) && b.from == e.from && b.to == e.to)
      own = i;
  }
  if (own < 0 || !g.Event(own).held) return;
  std::string why;
  for (const QueuedTrigger& q : g.occ_.queued)
    if (q.event == own) {
      why = absl::StrCat(g.TriggerName(q), ", timed before it, still waits as ",
                         e.object != kNoObj ? g.ObjectName(e.object) : Who(e.player),
                         "'s occurrence happens");
      break;
    }
  Record(Invariant::kBeforeFirst, why.empty(), why);
}

}  // namespace strata

namespace strata {

// replaced_never_happens (E-3 A): an occurrence held at its time point
// (a draw, damage, an effect's life change, a move by an effect, a
// destruction or the state check, an effect's or the untap phase's tap or
// untap, an attack, a block, a spell's cast, in a game with replacements
// of its kind)
// went through step A on a record of its own: the latest step-A record of
// the same kind, player, object (any object for a draw: its record names
// none) and, for damage, source, for a move the same object as it was and
// the same way, since the last time such an occurrence happened. If a
// replacement took that record, the occurrence must not happen. (A redirected damage has a new
// record for what now takes it.)
void InvariantChecker::CheckReplacedNeverHappens(const Game& g, int event) {
  const Occurrence& e = g.Event(event);
  if (e.before || !e.held) return;
  if (e.kind != EventKind::kDraw && e.kind != EventKind::kDamage &&
      e.kind != EventKind::kLifeChange && e.kind != EventKind::kZoneChange &&
      e.kind != EventKind::kTap && e.kind != EventKind::kUntap && e.kind != EventKind::kAttack &&
      e.kind != EventKind::kBlock && e.kind != EventKind::kCast)
    return;
  const int first = g.EventEnd() - static_cast<int>(g.occ_.events.size());
  auto same = [&](const Occurrence& b) {
    if (b.kind != e.kind || b.player != e.player) return false;
    if (e.kind == EventKind::kDamage) return b.object == e.object && b.source == e.source;
    if (e.kind == EventKind::kLifeChange) return (b.amount > 0) == (e.amount > 0);
    if (e.kind == EventKind::kZoneChange)
      return b.object == e.object && b.from == e.from && b.to == e.to &&
             static_cast<uint16_t>(b.incarnation + 1) == e.incarnation;
    if (e.kind == EventKind::kTap || e.kind == EventKind::kUntap || e.kind == EventKind::kAttack ||
        e.kind == EventKind::kBlock || e.kind == EventKind::kCast)
      return b.object == e.object && b.incarnation == e.incarnation;
    return true;
  };
  for (int i = event - 1; i >= first; --i) {
    const Occurrence& b = g.Event(i);
    if (!same(b) || (b.before && !b.instead)) continue;
    if (!b.before) return;  // an earlier one happened: its record is older
    Record(Invariant::kReplacedNeverHappens, !b.replaced,
           absl::StrCat(e.kind == EventKind::kDraw         ? "a draw"
                        : e.kind == EventKind::kDamage     ? "damage"
                        : e.kind == EventKind::kZoneChange ? "a move"
                        : e.kind == EventKind::kTap        ? "a tap"
                        : e.kind == EventKind::kUntap      ? "an untap"
                        : e.kind == EventKind::kAttack     ? "an attack"
                        : e.kind == EventKind::kBlock      ? "a block"
                        : e.kind == EventKind::kCast       ? "a cast"
                                                           : "a life change",
                        " of ", e.object != kNoObj ? g.ObjectName(e.object) : Who(e.player),
                        " happens though a replacement took it"));
    return;
  }
}

}  // namespace strata
