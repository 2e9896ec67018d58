// Resolution (RULES.md T-3, T-11): a spell or ability resolves step by step,
// does nothing when all its targets are illegal (fizzles), then the triggers
// it caused (E-4) and its damage's prevention step (T-4) come; a permanent
// spell enters the battlefield, with its entry choices (copy, L-7).
// Scenarios: tests/scenarios/t11_*, l7_* (copies entering).

#include "engine/game_internal.h"

namespace strata {

// A spell or ability resolves (T-3, T-11); triggers it caused wait until it
// has finished (E-4), then damage it assigned gets its prevention step (T-4).
// The frame: ResolveFrame.
void Game::RunResolve(Frame& f) {
  StackItem& item = stack_.items[f.resolve.item];
  const CardDef& card = (*db_)[item.body_card];
  if (f.pc == ResolveFrame::kEnterReplaced || f.pc == ResolveFrame::kEnter) {
    EnterHeld(f, item);
    return;
  }
  if (f.pc == ResolveFrame::kStart) {
    f.resolve.damage_begin = static_cast<int32_t>(damage_.pending.size());
    f.resolve.triggers_begin = static_cast<int32_t>(occ_.queued.size());
    // Who controls each target as it begins to resolve (exchanges of control).
    for (int i = 0; i < std::min<int>(item.target_count, 4); ++i)
      if (item.targets[i].kind == Target::kObject && state_.Alive(item.targets[i].obj))
        item.target_controller[i] = Chars(item.targets[i].obj.id).controller;
    if (item.target_count > 0 && item.targets[0].kind == Target::kObject &&
        state_.Alive(item.targets[0].obj)) {
      const Characteristics& first = Chars(item.targets[0].obj.id);
      item.target_power = first.power;
      item.target_toughness = first.toughness;
      item.target_mana_value = static_cast<int16_t>(ManaValueOf(item.targets[0].obj.id));  // T-8.3
    }
    if (item.countered) {
      timing_.frames.pop_back();
      return;
    }
    // G-10: an intervening "if" is read again as the trigger resolves
    // (Land Tax): no longer true, it does nothing.
    if (item.from == BodySource::kTrigger && item.ability >= 0 &&
        item.ability < static_cast<int>(card.triggers.size())) [[unlikely]] {
      const TriggeredAbility& tr = card.triggers[item.ability];
      // "If Howling Mine is untapped": tapped now, on the battlefield (a
      // source gone is read as it last was: untapped, as it triggered).
      const bool tapped_now = tr.if_untapped &&
                              state_.obj.zone[item.source] == Zone::kBattlefield &&
                              state_.obj.tapped[item.source];
      // An object condition (if_any / unless_any, G-8.2) too: "if you
      // control an artifact". One about the source itself ("if Erg Raiders
      // didn't attack") is read as the source last was once it is gone, as
      // Howling Mine's: still true. A state trigger's (G-16) is its cause,
      // not an "if": not read again.
      const bool object_condition_gone = tr.unless_any != kNoFilter &&
                                         tr.event != EventKind::kState &&
                                         !(db_->filter(tr.unless_any).self &&
                                           state_.obj.zone[item.source] != Zone::kBattlefield) &&
                                         !AnyConditionHolds(tr, item.source, item.controller);
      if (tapped_now || object_condition_gone ||
          (tr.if_opponent_more != kNoFilter &&
           !OpponentControlsMore(tr.if_opponent_more, item.source, item.controller))) {
        Note(LogKind::kInfo, item.controller, item.source, kNoObj, 0, [&] {
          return absl::StrCat("the condition of ", ObjectName(item.source),
                              "'s ability no longer holds: it does nothing");
        });
        timing_.frames.pop_back();
        return;
      }
    }
    // A delayed effect's spell has resolved and left the stack long ago.
    if (item.card != kNoObj && item.from != BodySource::kDelayed && !SpellOnStack(item)) {
      // Its card left the stack (and maybe came back as a new object): this
      // spell is gone and resolves no more.
      Note(LogKind::kInfo, item.controller, item.card, kNoObj, 0,
           [&] { return absl::StrCat(ObjectName(item.card), " is no longer on the stack"); });
      timing_.frames.pop_back();
      return;
    }
    bool any_target = item.target_count == 0;
    for (int i = 0; i < item.target_count; ++i)
      if (TargetAt(item, i).kind == Target::kPlayer ||
          TargetLegal(item, SlotAt(item, i), TargetAt(item, i)))
        any_target = true;
    if (item.from == BodySource::kSpell && !card.has_spell && card.enchant != kNoFilter)
      any_target = item.target_count > 0 && TargetLegal(item, 0, item.targets[0]);
    if (!any_target) {
      // T-11: every target is illegal: it does nothing.
      Note(
          LogKind::kFizzle, item.controller, item.card != kNoObj ? item.card : item.source, kNoObj,
          0, [&] {
            return std::string(absl::StrCat(
                item.card != kNoObj ? ObjectName(item.card) : ObjectName(item.source), " fizzles"));
          });
      stack_.outcomes.push_back({item.serial, Outcome::kFizzled});
      const ObjId spell = item.card;
      const bool leaves = SpellOnStack(item), held = leaves && Holds(EventKind::kZoneChange);
      if (leaves && !held) ZoneChange(spell, Zone::kGraveyard);
      timing_.frames.pop_back();
      // Held for its "before" responses and replacements (E-1, E-3), in a
      // frame of its own, once the resolution is over.
      if (held) EffectMove(&spell, 1, Zone::kGraveyard);
      return;
    }
    if (item.from == BodySource::kSpell && !card.has_spell) {
      // A permanent spell enters the battlefield: in a game with
      // replacements of moves or "before" responses to them, a move by the
      // rules held like an effect's (E-1, E-3): its replacements first,
      // then its "before" responses, then it enters if it is still the
      // spell on the stack.
      f.pc = ResolveFrame::kFinish;
      if (!Holds(EventKind::kZoneChange)) {
        EnterBattlefield(item);
        return;
      }
      f.pc = ResolveFrame::kEnterReplaced;  // first: a frame pushed can move `f`
      f.resolve.next_step = EventEnd();
      if (ListensInstead(EventKind::kZoneChange) && InsteadNow(EnterOccurrence(item))) return;
      EnterHeld(f, item);
      return;
    }
    Note(LogKind::kResolve, item.controller, item.card != kNoObj ? item.card : item.source, kNoObj,
         0, [&] {
           return std::string(absl::StrCat(
               item.card != kNoObj ? ObjectName(item.card)
                                   : absl::StrCat("ability of ", ObjectName(item.source)),
               " resolves"));
         });
    f.pc = ResolveFrame::kSteps;
    f.resolve.next_step = 0;
    return;
  }
  if (f.pc == ResolveFrame::kSteps) {
    const std::vector<EffectStep>* steps = nullptr;
    if (item.from == BodySource::kDelayed) {
      steps = stack_.delayed_steps[item.ability];
    } else if (const AbilityBody* b = ModeBody(item)) {
      steps = &b->steps;
    }
    if (!steps || f.resolve.next_step >= static_cast<int>(steps->size())) {
      f.pc = ResolveFrame::kFinish;
      return;
    }
    const int step = f.resolve.next_step++;
    // G-18: "if it is destroyed this way" (Cosmic Horror): only after a
    // destroy step of this body destroyed something.
    if ((*steps)[step].if_destroyed && !item.destroyed) [[unlikely]]
      return;
    Audit(AuditPoint::kStepExecuting, step);
    ExecuteStep(item, (*steps)[step], f);  // may push frames: f is not used after
    Audit(AuditPoint::kStepExecuted, step);
    return;
  }
  // kFinish. Triggers it caused come first (E-4), then the prevention
  // step for its damage (T-4), before anything else waiting resolves.
  int idx = f.resolve.item, damage_begin = f.resolve.damage_begin,
      triggers_begin = f.resolve.triggers_begin;
  timing_.frames.pop_back();
  StackItem& done = stack_.items[idx];
  const ObjId spell = done.card;
  // A delayed effect (Niveous Wisps' draw, Mana Drain's mana) is its
  // spell's, which resolved and left the stack long ago: it moves no card
  // (one cast again is a new spell) and is no resolution of that spell.
  const bool delayed = done.from == BodySource::kDelayed;
  const bool leaves = !delayed && SpellOnStack(done),
             held = leaves && Holds(EventKind::kZoneChange);
  if (leaves && !held) ZoneChange(spell, Zone::kGraveyard);
  if (!delayed) stack_.outcomes.push_back({done.serial, Outcome::kResolved});
  Audit(AuditPoint::kResolved);
  // "After an effect resolves" (E-2: it did; a countered or fizzled one
  // never reaches here): a spell's or an activated ability's, not a
  // trigger's, a phase effect's or an entry's, which are not effects
  // played. Its triggers wait with the resolution's others (E-4).
  if (done.from == BodySource::kSpell || done.from == BodySource::kActivated)
    Occur(EventKind::kResolve, done.controller, spell != kNoObj ? spell : done.source, 0,
          /*before_done=*/true);
  if (static_cast<int>(damage_.pending.size()) > damage_begin)
    Push(Frame::NewPrevention(damage_begin));
  else
    CheckState();
  if (static_cast<int>(occ_.queued.size()) > triggers_begin)
    Push(Frame::NewTriggers(triggers_begin));
  // The spell's card leaves the stack as the resolution ends: held for its
  // "before" responses and replacements (E-1, E-3), its frame comes first,
  // before the triggers the resolution caused and its prevention step.
  if (held) EffectMove(&spell, 1, Zone::kGraveyard);
}

// A permanent spell's move onto the battlefield, as it is about to happen.
Occurrence Game::EnterOccurrence(const StackItem& item) const {
  Occurrence e = LeaveOccurrence(item.card, Zone::kBattlefield);
  e.player = item.controller;
  return e;
}

// A permanent spell's entry held at its time point (the frame's kEnter
// pcs): once its replacements happened, unless one took it (then it does
// not enter: it stays on the stack, unless the replacement moved it, and
// goes to the graveyard as the resolution ends), its "before" responses;
// then it enters if it is still the spell on the stack (E-3: else its
// entry no longer happens).
void Game::EnterHeld(Frame& f, StackItem& item) {
  if (f.pc == ResolveFrame::kEnterReplaced) {
    const bool replaced = TakenAtStepA(f.resolve.next_step);
    f.pc = replaced ? ResolveFrame::kFinish : ResolveFrame::kEnter;
    if (replaced || BeforeNow(EnterOccurrence(item))) return;
  }
  f.pc = ResolveFrame::kFinish;
  if (SpellOnStack(item)) EnterBattlefield(item, /*held=*/true);
}

void Game::EnterBattlefield(StackItem& item, bool held) {
  ObjId o = item.card;
  const Player controller = item.controller;
  const int16_t x = item.x;  // G-8.3: "enters with X counters" (Rock Hydra)
  MoveTo(o, Zone::kBattlefield, item.controller);
  SetControllerOnEntry(o, item.controller);
  if (turn_.mana_rule_cards) [[unlikely]]
    EnterTappedByRule(o);  // T-10.1: Kismet
  Note(LogKind::kInfo, kNoPlayer, kNoObj, kNoObj, 0,
       [&] { return std::string(absl::StrCat(ObjectName(o), " enters the battlefield")); });
  const CardDef& card = (*db_)[state_.obj.card[o]];
  if (card.enchant != kNoFilter && item.target_count > 0 &&
      item.targets[0].kind == Target::kObject) {
    const ObjRef t = item.targets[0].obj;
    if (card.enchant_returned != kNoFilter) [[unlikely]] {
      // G-9: an Aura that enchants a creature card in a graveyard (Animate
      // Dead) puts it onto the battlefield under its controller's control
      // as it enters, and enters attached to it; a card no longer there
      // (moved by a "before" response to the Aura's entry) stays where it
      // is, and the Aura, on nothing, goes in the state check.
      if (state_.Alive(t) && state_.obj.zone[t.id] == Zone::kGraveyard) {
        LeaveTogether(&t.id, 1, Zone::kBattlefield, /*before_done=*/false, controller);
        if (state_.obj.zone[t.id] == Zone::kBattlefield) Attach(o, t.id);
      }
    } else {
      Attach(o, t.id);
    }
  }
  // (`item` is not read from here: a creature returned above may have
  // pushed its entry onto stack_.items.)
  if (Observed(EventKind::kZoneChange)) {
    Occurrence e = OccurrenceOf(EventKind::kZoneChange, controller, o);
    e.from = Zone::kStack;
    e.to = Zone::kBattlefield;
    e.held = held && ListensInstead(EventKind::kZoneChange);  // through its step A
    Happened(Record(e));
  }
  StartEntry(o, controller, x);
}

void Game::StartEntry(ObjId o, Player controller, int16_t x) {
  const CardDef& card = (*db_)[state_.obj.card[o]];
  if (card.enters.choose != ChoiceKind::kNone) Push(Frame::NewEntry(o));
  if (card.enters.has_effects) {
    StackItem enters;
    enters.source = o;
    enters.body_card = state_.obj.card[o];
    enters.from = BodySource::kEnters;
    enters.controller = controller;
    enters.x = x;
    enters.serial = stack_.next_serial++;
    ReadSourceValues(enters);
    stack_.items.push_back(enters);
    Push(Frame::NewResolve(static_cast<int32_t>(stack_.items.size() - 1)));
  }
}

void Game::RunEntry(Frame& f) {
  ObjId o = f.entry.object;
  if (f.entry.exiled != kNoObj) {
    // The exile chosen was held; it happened if the card is in exile, one
    // incarnation on (a replacement may have sent it elsewhere, a "before"
    // response moved it first: then nothing is linked).
    const ObjId x = f.entry.exiled;
    if (state_.obj.zone[x] == Zone::kExile &&
        state_.obj.incarnation[x] == static_cast<uint16_t>(f.entry.exiled_incarnation + 1)) {
      state_.obj.linked[o] = state_.Ref(x);
      state_.Touch();
    }
    timing_.frames.pop_back();
    return;
  }
  const CardDef& card = (*db_)[state_.obj.card[o]];
  const EntryChoice& e = card.enters;
  Player p = Chars(o).controller;
  timing_.decision.actions.clear();
  auto word = [&](Word w) {
    timing_.decision.actions.push_back({ActionKind::kWord, kNoObj, 0, w});
  };
  switch (e.choose) {
    case ChoiceKind::kColor:
      for (int c = 0; c < kColorCount; ++c) word(ColorWord(c));
      break;
    case ChoiceKind::kCreatureType:
      for (int t = 0; t < SubtypeCount(); ++t)
        if (SubtypeKindOf(t) == SubtypeKind::kCreature) word(static_cast<Word>(t));
      break;
    case ChoiceKind::kBasicLandType:
      for (int c = 0; c < kColorCount; ++c) word(static_cast<Word>(BasicLandSubtype(c)));
      break;
    case ChoiceKind::kMode:
      for (size_t m = 1; m <= e.modes.size(); ++m)
        timing_.decision.actions.push_back(
            {ActionKind::kNumber, kNoObj, 0, static_cast<int32_t>(m)});
      break;
    case ChoiceKind::kCopy:
    case ChoiceKind::kExile: {
      FilterContext ctx = ContextFor(o, p, kNoWord);
      for (ObjId t = 0; t < state_.obj.count; ++t)
        if (t != o && state_.obj.zone[t] == Zone::kBattlefield && Matches(e.filter, t, ctx))
          timing_.decision.actions.push_back({ActionKind::kObject, t});
      if (e.optional || timing_.decision.actions.empty())
        timing_.decision.actions.push_back({ActionKind::kNoChoice});
      break;
    }
    default:
      timing_.frames.pop_back();
      return;
  }
  Decide(DecisionKind::kChoice, p);
}

void Game::ApplyEntry(Frame& f, const Action& a) {
  GameState& s = state_;
  ObjId o = f.entry.object;
  const CardDef& card = (*db_)[s.obj.card[o]];
  timing_.frames.pop_back();
  if (a.kind == ActionKind::kNoChoice) return;
  switch (card.enters.choose) {
    case ChoiceKind::kCopy: {
      // The copiable values are fixed now (L-7): a copy of a copy copies
      // what the first copy copied.
      const Characteristics& src = Chars(a.object);
      CopySpec spec{src.card, src.mode, src.blank};
      if (card.enters.has_except_colors) {
        spec.has_colors = true;
        spec.colors = card.enters.except_colors;
      }
      if (card.enters.keep_phase) spec.keep_phase = s.obj.card[o];
      s.obj.copy[o] = spec;
      Note(LogKind::kInfo, kNoPlayer, kNoObj, kNoObj, 0, [&] {
        return std::string(
            absl::StrCat(ObjectName(o), " enters as a copy of ", ObjectName(a.object)));
      });
      break;
    }
    case ChoiceKind::kExile: {
      if (!Holds(EventKind::kZoneChange)) {
        ZoneChange(a.object, Zone::kExile);
        s.obj.linked[o] = s.Ref(a.object);
        break;
      }
      // Held like an effect's move (E-1, E-3): linked once it happened, if
      // it did go to exile (RunEntry).
      Frame link = Frame::NewEntry(o);
      link.entry.exiled = a.object;
      link.entry.exiled_incarnation = s.obj.incarnation[a.object];
      Push(link);
      const ObjId exiled = a.object;
      EffectMove(&exiled, 1, Zone::kExile);
      break;
    }
    default:
      s.obj.choice[o] = static_cast<uint16_t>(a.value);
      break;
  }
  s.Touch();
}

}  // namespace strata
