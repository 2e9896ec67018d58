// Triggered abilities (RULES.md E-3 B, E-4): which abilities an occurrence
// sets off (the source's last known state if it left, E-5), and the kTriggers
// frame that makes them happen one at a time in the active player's order,
// an optional cost paid now or never, after the resolution that caused them.
// Scenarios: tests/scenarios/e5_soul_net_*, t4_damage_trigger_*,
// t8_interrupt_when_cast_trigger_at_once.

#include "engine/game_internal.h"

namespace strata {

// Defined here, beside its one caller, so the compiler inlines it into
// the loop over every object (out of line it cost 4% of a game's
// instructions).
const Occurrence* Game::LeftInGroup(ObjId o, int event) const {
  const int group = Event(event).group;
  for (int i = group; i < EventEnd() && Event(i).group == group; ++i) {
    const Occurrence& e = Event(i);
    if (e.kind == EventKind::kZoneChange && e.object == o && e.from == Zone::kBattlefield &&
        state_.obj.incarnation[o] == e.incarnation)
      return &e;
  }
  return nullptr;
}

// G-10: "if an opponent controls more <filter> than you" (Land Tax), read
// as the trigger would trigger and again as it resolves.
bool Game::OpponentControlsMore(FilterId f, ObjId source, Player you) const {
  int mine = 0, theirs = 0;
  const FilterContext ctx = ContextFor(source, you, kNoWord);
  state_.ForEachPermanent([&](ObjId o) {
    if (Matches(f, o, ctx)) ++(Chars(o).controller == you ? mine : theirs);
  });
  return theirs > mine;
}

bool Game::AnyConditionHolds(const TriggeredAbility& tr, ObjId source, Player you) const {
  const FilterContext ctx = ContextFor(source, you, state_.obj.choice[source]);
  bool any = false;
  for (ObjId x = 0; x < state_.obj.count && !any; ++x)
    any = state_.obj.zone[x] != Zone::kNone && Matches(tr.unless_any, x, ctx);
  return any == tr.if_any;
}

// Inline, beside its two callers in this file: it runs for every trigger
// of every permanent an occurrence could set off.
inline bool Game::TriggerFits(const TriggeredAbility& tr, const Occurrence& e, ObjId o, Player you,
                              const Characteristics& ch, const Occurrence* left) {
  const GameState& s = state_;
  if (tr.player >= 0 && e.player != kNoPlayer && ((e.player == you) != (tr.player == 0)))
    return false;
  if (tr.from != Zone::kNone && tr.from != e.from) return false;
  if (tr.to != Zone::kNone && tr.to != e.to) return false;
  // (The loader takes `phase` on phase_begin, phase_end, tap and untap alone.)
  if (!tr.phase.empty() && tr.phase != PhaseName(e.phase)) return false;
  if (tr.self_source && e.source != o) return false;
  // "By creatures", "enchanted creature deals" (T-4.1): the source as it
  // is now (a source that left play, as it last was).
  if (tr.source_filter != kNoFilter &&
      (e.source == kNoObj ||
       !Matches(tr.source_filter, e.source, ContextFor(o, you, s.obj.choice[o]))))
    return false;
  if (tr.combat && !e.combat) return false;
  if (tr.rare_checks) [[unlikely]] {
    if (tr.damaged_by_self && !DamagedBy(e, o, left)) return false;
    // T-4.2: "if <this> dealt damage to an opponent this turn" (Whirling
    // Dervish): this object, as it is, dealt damage to a player other
    // than the trigger's controller since this turn began.
    if (tr.if_dealt_damage_to_opponent) {
      const ObjRef self = state_.Ref(o);
      bool dealt = false;
      for (const auto& [src, p] : occ_.dealt_to_players) dealt = dealt || (src == self && p != you);
      if (!dealt) return false;
    }
  }
  if (tr.unless_any != kNoFilter && !AnyConditionHolds(tr, o, you)) return false;
  // G-10: an intervening "if" (Land Tax), read as it would trigger.
  if (tr.if_opponent_more != kNoFilter && !OpponentControlsMore(tr.if_opponent_more, o, you))
    return false;
  // "If it is tapped" (Mana Vault): the source as it is, or last was.
  if (tr.source_tapped && !(left ? left->was_tapped : s.obj.tapped[o])) [[unlikely]]
    return false;
  // G-10: "if Howling Mine is untapped", likewise.
  if (tr.if_untapped && (left ? left->was_tapped : s.obj.tapped[o])) [[unlikely]]
    return false;
  if (tr.damage_to == 0 && e.object != kNoObj) return false;
  if (tr.damage_to == 1 && e.object == kNoObj) return false;
  if (tr.life_change == 0 && e.amount <= 0) return false;
  if (tr.life_change == 1 && e.amount >= 0) return false;
  if (tr.for_mana && !e.for_mana) return false;  // T-10.1: a tap for mana only
  // T-10.1: not the first land its player played this turn (Fastbond).
  if (tr.not_first_land && (e.player == kNoPlayer || turn_.lands_played[e.player] < 2))
    return false;
  if (tr.filter != kNoFilter) {
    if (e.object == kNoObj) return false;
    // The object as it last was: swap its last known values in.
    static thread_local std::vector<Characteristics> view;
    view.assign(cache_.chars.begin(), cache_.chars.begin() + s.obj.count);
    view[e.object] = e.last;
    const Filter& f = db_->filter(tr.filter);
    FilterContext ctx;
    ctx.source = o;
    ctx.you = you;
    ctx.text = &ch;
    ctx.choice = s.obj.choice[o];
    // An Aura that left together with its creature still asks what it
    // was attached to (its last known state, E-5).
    const ObjId attached_now = state_.obj.attached_to[o];
    if (left) state_.obj.attached_to[o] = left->attached_to;
    // A token that ceased to exist as it arrived (G-12) is matched where
    // its occurrence put it (a Wasp that died: in the graveyard), as a card
    // would be; only the filter reads the zone, which is put back after.
    const bool gone_token = s.obj.zone[e.object] == Zone::kNone && s.obj.token[e.object];
    if (gone_token) [[unlikely]]
      state_.obj.zone[e.object] = e.kind == EventKind::kZoneChange ? e.to : Zone::kBattlefield;
    const bool match = MatchFilter(s, view.data(), f, e.object, ctx);
    if (gone_token) [[unlikely]]
      state_.obj.zone[e.object] = Zone::kNone;
    state_.obj.attached_to[o] = attached_now;
    if (!match) return false;
  }
  return true;
}

// A replacement of its own untap, or a trigger only while its source is
// tapped: about the artifact being tapped, on while it is (T-12).
bool Game::OwnUntapReplacement(const TriggeredAbility& tr) const {
  if (tr.source_tapped) return true;
  return tr.timing == Timing::kInstead && tr.event == EventKind::kUntap && tr.filter != kNoFilter &&
         db_->filter(tr.filter).self;
}

// Finds the triggered abilities an occurrence sets off and queues them in
// order (E-3 B). A source that just left play still triggers (E-5): the
// occurrence's object is checked with its last known characteristics.
void Game::CollectTriggers(int event, Timing timing) {
  if (event < occ_.first_event) [[unlikely]] {
    ++occ_.dropped_reads;
    return;
  }
  const Occurrence& e = Event(event);
  static_assert(kEventKinds <= 32, "EventKind bits in OccurrenceState::listened");
  if (!(occ_.listened[static_cast<int>(timing)] >> static_cast<int>(e.kind) & 1)) return;
  const GameState& s = state_;
  // The sources to look at: the permanents with a triggered ability, and
  // the objects that left the battlefield in this occurrence's group, in
  // numbering order.
  ObjBits look = ActivatablePermanents().triggering;
  for (int i = e.group; i < EventEnd() && Event(i).group == e.group; ++i) {
    const Occurrence& g = Event(i);
    if (g.kind == EventKind::kZoneChange && g.from == Zone::kBattlefield && g.object != kNoObj)
      look.Set(g.object);
  }
  look.ForEach(s.obj.count, [&](ObjId o) {
    // A source that left play in this occurrence, or together with its
    // object (E-5), triggers with its last known state.
    const Occurrence* left = s.obj.zone[o] != Zone::kBattlefield ? LeftInGroup(o, event) : nullptr;
    if (s.obj.zone[o] != Zone::kBattlefield && !left) return;
    const Characteristics& ch = left ? left->last : Chars(o);
    if (ch.blank || ch.card == kNoCard) return;
    const CardDef& card = (*db_)[ch.card];
    for (int i = 0; i < static_cast<int>(card.triggers.size()); ++i) {
      const TriggeredAbility& tr = card.triggers[i];
      if (tr.timing != timing || tr.event != e.kind) continue;
      if (!Has(ch.abilities, card.TriggerBit(i))) continue;
      // A triggered mana ability makes its mana inside the payment, as the
      // land is tapped (T-10.1: ManaTriggerEntries), never queued.
      if (tr.mana_trigger) continue;
      // Abilities of tapped artifacts are off (RULES.md T-12), but a
      // replacement of its own untap ("doesn't untap during your untap
      // step") and a trigger only while it is tapped ("if Mana Vault is
      // tapped"): they are about the artifact being tapped, and off then
      // they could never apply.
      if (Has(ch.types, kArtifact) && (left ? left->was_tapped : s.obj.tapped[o]) &&
          !OwnUntapReplacement(tr))
        continue;
      Player you = ch.controller;
      if (!TriggerFits(tr, e, o, you, ch, left)) continue;
      // A replacement does not apply to what its own effects cause (E-3).
      if (timing == Timing::kInstead && Replacing(o, ch.card, i)) continue;
      occ_.queued.push_back(QueuedTrigger{o, ch.card, static_cast<int16_t>(i), you, event});
      Note(LogKind::kTrigger, you, o, kNoObj, 0, [&] {
        return std::string(absl::StrCat(card.AbilityName(card.TriggerBit(i)), " triggers"));
      });
    }
  });
  if (!occ_.armed.empty()) CollectNextTimes(event, timing);
}

// An armed "next time" trigger fires at the first occurrence that fits it,
// or its other occurrence ("next time A or B"), and is gone (E-6); its
// triggers come after those of the permanents, in the order they were armed.
void Game::CollectNextTimes(int event, Timing timing) {
  const Occurrence& e = Event(event);
  // T-7.5b: the triggers queued that carry an object, recorded once the
  // loop is done (a record moves the log `e` is in).
  absl::InlinedVector<std::pair<size_t, ObjRef>, 2> carried;
  for (size_t k = 0; k < occ_.armed.size();) {
    const ArmedNextTime a = occ_.armed[k];
    const CardDef& card = (*db_)[a.card];
    // A bound one: only its object, as it was when armed (a move's record
    // after the move names the object one incarnation on).
    const bool bound_fits = a.bound.id == kNoObj ||
                            (e.object == a.bound.id &&
                             (e.incarnation == a.bound.incarnation ||
                              (e.kind == EventKind::kZoneChange && !e.before &&
                               e.incarnation == static_cast<uint16_t>(a.bound.incarnation + 1))));
    auto fits = [&](int16_t index) {
      // (A carried one, T-7.5b: the time point, its object carried.)
      if (index < 0 || (!bound_fits && !a.carried)) return false;
      const TriggeredAbility& tr = card.next_times[index];
      if (tr.timing != timing || tr.event != e.kind) return false;
      // From the source chosen alone (T-4.1): that object, or the card a
      // spell chosen on the stack became as it left it.
      if (tr.chosen_source &&
          (e.source != a.chosen.id ||
           (state_.obj.incarnation[e.source] != a.chosen.incarnation &&
            !(a.chosen_on_stack && state_.obj.incarnation[e.source] ==
                                       static_cast<uint16_t>(a.chosen.incarnation + 1)))))
        return false;
      const Characteristics& ch = Chars(a.source);
      return TriggerFits(tr, e, a.source, a.controller, ch, nullptr);
    };
    if (!fits(a.index) && !fits(a.alt)) {
      ++k;
      continue;
    }
    occ_.armed.erase(occ_.armed.begin() + static_cast<std::ptrdiff_t>(k));
    occ_.queued.push_back(QueuedTrigger{a.source, a.card, a.index, a.controller, event, true});
    Replaced(UsageStats::kNextTimeFired);
    if (a.carried) [[unlikely]]
      carried.emplace_back(occ_.queued.size() - 1, a.bound);
    Note(LogKind::kTrigger, a.controller, a.source, kNoObj, 0,
         [&] { return absl::StrCat(card.name, "'s next-time effect triggers"); });
  }
  // T-7.5b: each gets the time point's occurrence again, its object the
  // one the trigger was bound to, as it was then (gone or changed zones
  // since: a new object, which its event_object does not name).
  for (const auto& [at, bound] : carried) {
    Occurrence c = Event(event);
    c.object = bound.id;
    c.incarnation = bound.incarnation;
    c.last = Chars(bound.id);
    c.group = -1;
    c.held = false;
    occ_.queued[at].event = Record(c);
  }
}

const TriggeredAbility& Game::TriggerOf(const QueuedTrigger& q) const {
  const CardDef& card = (*db_)[q.card];
  return q.next_time ? card.next_times[q.index] : card.triggers[q.index];
}

std::string Game::TriggerName(const QueuedTrigger& q) const {
  if (q.shield && q.event >= occ_.first_event && Event(q.event).kind == EventKind::kDamage)
    return absl::StrCat("the prevention of damage to ", Event(q.event).object != kNoObj
                                                            ? ObjectName(Event(q.event).object)
                                                            : Who(Event(q.event).player));
  if (q.shield) return absl::StrCat("the regeneration shield of ", ObjectName(q.source));
  const CardDef& card = (*db_)[q.card];
  if (q.next_time) return absl::StrCat(card.name, "'s next-time effect");
  return card.AbilityName(card.TriggerBit(q.index));
}

// E-3 A: a regeneration shield ordered with the replacements of a
// destruction's move (InsteadOfEach): picked first, it replaces the
// destruction (the creature regenerates, and the move is gone: no
// replacement after it applies); picked after one, it has nothing left to
// replace and stays on the creature.
void Game::TakeShield(const QueuedTrigger& q) {
  Occurrence& e = Event(q.event);
  const ObjId o = q.source;
  if (e.replaced || state_.obj.incarnation[o] != e.incarnation ||
      state_.obj.zone[o] != Zone::kBattlefield || !Shielded(o)) {
    Note(LogKind::kInfo, kNoPlayer, o, kNoObj, 0, [&] {
      return absl::StrCat(TriggerName(q), " does not apply: another replacement took the move");
    });
    return;
  }
  e.replaced = true;
  Audit(AuditPoint::kReplacing, q.event);
  Regenerate(o);
}

// E-3 B: triggered effects happen one at a time, in the order the active
// player picks; a trigger with a cost is paid for now or never. They do not
// go on a batch (the frame: TriggersFrame).
void Game::RunTriggers(Frame& f) {
  if (f.pc == TriggersFrame::kPick) {
    const int first = f.triggers.first;
    if (static_cast<int>(occ_.queued.size()) <= first || timing_.over) {
      timing_.frames.pop_back();
      return;
    }
    // The active player orders simultaneous triggers: those of one
    // occurrence, or of occurrences that happened together (E-5).
    auto together = [&](const QueuedTrigger& q) {
      const QueuedTrigger& head = occ_.queued[first];
      return q.event == head.event ||
             (q.event >= 0 && head.event >= 0 && Event(q.event).group == Event(head.event).group);
    };
    int same = 0;
    for (size_t i = first; i < occ_.queued.size(); ++i) same += together(occ_.queued[i]);
    if (same > 1) {
      timing_.decision.actions.clear();
      for (int i = first; i < static_cast<int>(occ_.queued.size()); ++i)
        if (together(occ_.queued[i]))
          timing_.decision.actions.push_back({ActionKind::kObject, occ_.queued[i].source, 0, i});
      Decide(DecisionKind::kTriggerOrder, state_.active);
      return;
    }
    f.triggers.chosen = first;
    f.pc = TriggersFrame::kTake;
  }
  if (f.pc == TriggersFrame::kTake) {
    QueuedTrigger q = occ_.queued[f.triggers.chosen];
    occ_.queued.erase(occ_.queued.begin() + f.triggers.chosen);
    if (q.shield) {
      if (Event(q.event).kind == EventKind::kDamage)
        PreventFirst(q);
      else
        TakeShield(q);
      f.pc = TriggersFrame::kPick;
      return;
    }
    // E-3 A: the first replacement of an occurrence the active player
    // picks applies, and the occurrence is gone: the others have nothing
    // left to replace.
    const bool replacement = TriggerOf(q).timing == Timing::kInstead;
    if (replacement && Event(q.event).replaced) {
      Note(LogKind::kInfo, kNoPlayer, kNoObj, kNoObj, 0, [&] {
        return absl::StrCat(TriggerName(q), " does not apply: another replacement took it");
      });
      f.pc = TriggersFrame::kPick;
      return;
    }
    if (replacement) {
      Event(q.event).replaced = true;
      Audit(AuditPoint::kReplacing, q.event);
      Replaced(UsageStats::kReplacedInstead);
    }
    // A trigger timed before an occurrence that an earlier response made
    // impossible does not happen (E-3).
    if (!replacement && q.event >= 0 && !StillHappens(Event(q.event))) {
      Note(LogKind::kInfo, kNoPlayer, kNoObj, kNoObj, 0, [&] {
        return std::string(
            absl::StrCat(TriggerName(q), " does not happen: what it waited for no longer happens"));
      });
      f.pc = TriggersFrame::kPick;
      return;
    }
    StackItem item;
    item.source = q.source;
    item.body_card = q.card;
    item.from = q.next_time ? BodySource::kNextTime : BodySource::kTrigger;
    item.ability = q.index;
    item.controller = q.controller;
    item.event = q.event;
    item.serial = stack_.next_serial++;
    stack_.items.push_back(item);
    f.triggers.item = static_cast<int32_t>(stack_.items.size() - 1);
    if (!q.next_time) Used(q.card, (*db_)[q.card].TriggerBit(q.index));
    const TriggeredAbility& tr = TriggerOf(q);
    if (tr.has_optional_cost) {
      if (!opt_.free_mana && !CanPay(q.controller, tr.optional_cost, 0, kNoObj)) {
        f.pc = TriggersFrame::kPick;
        return;
      }
      // The answers name the trigger's source, so a script can tell which
      // of several optional costs it answers.
      timing_.decision.actions.clear();
      timing_.decision.actions.push_back({ActionKind::kYes, q.source});
      timing_.decision.actions.push_back({ActionKind::kNo, q.source});
      f.pc = TriggersFrame::kOptionalCost;
      Decide(DecisionKind::kOptionalCost, q.controller);
      return;
    }
    f.pc = TriggersFrame::kPlay;
  }
  if (f.pc == TriggersFrame::kPlay) {
    f.pc = TriggersFrame::kPick;
    StackItem& item = stack_.items[f.triggers.item];
    const AbilityBody* body = BodyOf(item);
    if (body && !HasLegalTargets(item, *body)) return;  // nothing to target: it does nothing
    // G-15: a modal trigger with no mode whose targets are legal does
    // nothing either.
    if (body && !body->modes.empty()) [[unlikely]] {
      bool any = false;
      for (int m = 0; !any && m < static_cast<int>(body->modes.size()); ++m) {
        StackItem probe = item;
        probe.mode = static_cast<int8_t>(m);
        any = HasLegalTargets(probe, body->modes[m]);
      }
      if (!any) return;
    }
    Push(Frame::NewCast(f.triggers.item, kPlayImmediate, Reaction::kNone, kNoObj));
  }
}

void Game::ApplyTriggers(Frame& f, const Action& a) {
  if (f.pc == TriggersFrame::kPick) {
    f.triggers.chosen = a.value;
    f.pc = TriggersFrame::kTake;
    return;
  }
  if (f.pc == TriggersFrame::kOptionalCost) {
    const StackItem& item = stack_.items[f.triggers.item];
    const TriggeredAbility& tr = (*db_)[item.body_card].triggers[item.ability];
    if (a.kind == ActionKind::kYes) {
      if (!opt_.free_mana) Pay(item.controller, tr.optional_cost, 0, kNoObj);
      f.pc = TriggersFrame::kPlay;
    } else {
      Note(LogKind::kInfo, kNoPlayer, kNoObj, kNoObj, 0, [&] {
        return std::string(absl::StrCat(
            Who(item.controller), " declines to pay for ",
            (*db_)[item.body_card].AbilityName((*db_)[item.body_card].TriggerBit(item.ability))));
      });
      f.pc = TriggersFrame::kPick;
    }
  }
}

}  // namespace strata
