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

// Finds the triggered abilities an occurrence sets off and queues them in
// order (E-3 B). A source that just left play still triggers (E-5): the
// occurrence's object is checked with its last known characteristics.
void Game::CollectTriggers(int event, Timing timing) {
  const Occurrence& e = Event(event);
  static_assert(static_cast<int>(EventKind::kUntap) < 16,
                "EventKind bits in OccurrenceState::listened");
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
      // Abilities of tapped artifacts are off (RULES.md T-12).
      if (Has(ch.types, kArtifact) && (left ? left->was_tapped : s.obj.tapped[o])) continue;
      Player you = ch.controller;
      if (tr.player >= 0 && e.player != kNoPlayer && ((e.player == you) != (tr.player == 0)))
        continue;
      if (tr.from != Zone::kNone && tr.from != e.from) continue;
      if (tr.to != Zone::kNone && tr.to != e.to) continue;
      // (The loader takes `phase` on phase_begin and phase_end alone.)
      if (!tr.phase.empty() && tr.phase != PhaseName(e.phase)) continue;
      if (tr.self_source && e.source != o) continue;
      if (tr.combat && !e.combat) continue;
      if (tr.damaged_by_self && !DamagedBy(e, o, left)) continue;
      if (tr.unless_any != kNoFilter) {
        bool any = false;
        FilterContext ctx = ContextFor(o, you, s.obj.choice[o]);
        for (ObjId x = 0; x < s.obj.count && !any; ++x)
          any = s.obj.zone[x] != Zone::kNone && Matches(tr.unless_any, x, ctx);
        if (any) continue;
      }
      if (tr.damage_to == 0 && e.object != kNoObj) continue;
      if (tr.damage_to == 1 && e.object == kNoObj) continue;
      if (tr.life_change == 0 && e.amount <= 0) continue;
      if (tr.life_change == 1 && e.amount >= 0) continue;
      if (tr.filter != kNoFilter) {
        if (e.object == kNoObj) continue;
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
        const bool match = MatchFilter(s, view.data(), f, e.object, ctx);
        state_.obj.attached_to[o] = attached_now;
        if (!match) continue;
      }
      occ_.queued.push_back(QueuedTrigger{o, ch.card, static_cast<int16_t>(i), you, event});
      Note(LogKind::kTrigger, you, o, kNoObj, 0, [&] {
        return std::string(absl::StrCat(card.AbilityName(card.TriggerBit(i)), " triggers"));
      });
    }
  });
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
    // A trigger timed before an occurrence that an earlier response made
    // impossible does not happen (E-3).
    if (q.event >= 0 && !StillHappens(Event(q.event))) {
      Note(LogKind::kInfo, kNoPlayer, kNoObj, kNoObj, 0, [&] {
        return std::string(
            absl::StrCat((*db_)[q.card].AbilityName((*db_)[q.card].TriggerBit(q.index)),
                         " does not happen: what it waited for no longer happens"));
      });
      f.pc = TriggersFrame::kPick;
      return;
    }
    StackItem item;
    item.source = q.source;
    item.body_card = q.card;
    item.from = BodySource::kTrigger;
    item.ability = q.index;
    item.controller = q.controller;
    item.event = q.event;
    item.serial = stack_.next_serial++;
    stack_.items.push_back(item);
    f.triggers.item = static_cast<int32_t>(stack_.items.size() - 1);
    Used(q.card, (*db_)[q.card].TriggerBit(q.index));
    const TriggeredAbility& tr = (*db_)[q.card].triggers[q.index];
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
