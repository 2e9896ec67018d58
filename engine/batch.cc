// The neutral state and batches (RULES.md T-2, T-3, T-6): from the neutral
// state the active player, then the other, may start a batch, play a land or
// announce an attack (aborted if the defender starts a batch); a batch takes
// additions until both players pass in succession, then resolves last in,
// first out.
// Scenarios: tests/scenarios/t2_*, t3_*, t6_*.

#include "engine/game_internal.h"

namespace strata {

// The priority window's offer, shared by every window in which players take
// turns (T-2, T-3, T-6, T-8) or play in order (T-4, E-3 C).
bool Game::OfferPlays(Player p, DecisionKind kind, DecisionKind as, Reaction reaction,
                      ObjId about) {
  AddPlayableActions(p, kind, reaction, about);
  if (timing_.decision.actions.size() == 1) return false;  // only the pass
  Decide(as, p);
  return true;
}

// T-2 (and T-6): from the neutral state the active player, then the other,
// may start a batch; the phase (or this part of the attack) ends when both
// decline (the frame: NeutralFrame).
void Game::RunNeutral(Frame& f) {
  if (StateCheckOwedAtWindow()) return;
  GameState& s = state_;
  Window& w = f.neutral.window;
  const bool in_attack = f.neutral.in_attack;
  if (f.pc == NeutralFrame::kStart) {
    f.pc = NeutralFrame::kDecide;
    w.Open(s.active);
  }
  if (f.pc == NeutralFrame::kAttackAnswered) {
    if (stack_.batches != f.neutral.batches) {
      // The defender's response was cast: it started a batch, which has
      // resolved. The attack is aborted (T-6); AP decides first again.
      Note(LogKind::kInfo, kNoPlayer, kNoObj, kNoObj, 0,
           [&] { return std::string("the attack is aborted: the defender started a batch"); });
      f.pc = NeutralFrame::kDecide;
      w.Open(s.active);
    } else {
      // Countered as it was cast, it started nothing (T-8): the attack
      // stands, and the defender may start a batch or let it go on.
      f.pc = NeutralFrame::kAttackAnnounced;
    }
  }
  // A player with only the pass passes, and the other is asked in the same
  // step: a step between would find nothing new to act on.
  while (f.pc == NeutralFrame::kDecide) {
    if (timing_.stop == StopAt::kNeutral && !in_attack && stack_.batch.empty()) {
      timing_.stopped = true;
      return;
    }
    timing_.decision.actions.clear();
    Player p = w.who;
    if (w.Closed()) {
      // The phase can't end while a mandatory phase effect or a phase cost
      // is unhandled (T-12, T-13): its controller must handle it now.
      for (int i = 0; i < static_cast<int>(turn_.phase_todo.size()) && !in_attack; ++i) {
        PhaseTodo& t = turn_.phase_todo[i];
        if (t.optional || !PhaseTodoPlayable(t)) continue;
        timing_.decision.actions.push_back(
            {ActionKind::kPhaseEffect, t.object.id, static_cast<int16_t>(i), t.is_cost});
        w.who = t.controller;
        Decide(DecisionKind::kNeutral, t.controller);
        return;
      }
      timing_.frames.pop_back();
      return;
    }
    // A creature of the active player's that attacks each turn if able and
    // may attack owes an attack (T-7.1): the attack is offered first and
    // the phase can't end (no pass) until it is announced.
    const bool attack_owed = !in_attack && p == s.active && s.phase == Phase::kMain &&
                             !combat_.attacked[p] && AttackOwed(p);
    timing_.decision.actions.push_back({attack_owed ? ActionKind::kAttack : ActionKind::kPass});
    if (!in_attack && p == s.active && s.phase == Phase::kMain &&
        (turn_.lands_played[p] == 0 ||
         (turn_.mana_rule_cards && Rules(p).any_number_of_lands))) {  // T-10.1: Fastbond
      for (ObjId o : s.players[p].hand)
        if (Has((*db_)[s.obj.card[o]].types, kLand))
          timing_.decision.actions.push_back({ActionKind::kPlayLand, o});
    }
    if (!in_attack && p == s.active && s.phase == Phase::kMain && !combat_.attacked[p] &&
        !attack_owed) {
      bool any = false;
      s.ForEachPermanent([&](ObjId o) {
        if (!any) any = MayAttack(o);
      });
      if (any) timing_.decision.actions.push_back({ActionKind::kAttack});
    }
    if (attack_owed) {
      AddPlayableActions(p, DecisionKind::kNeutral);
      Decide(DecisionKind::kNeutral, p);
      return;
    }
    if (OfferPlays(p, DecisionKind::kNeutral, DecisionKind::kNeutral)) return;
    w.Pass();
  }
  // kAttackAnnounced: the defender may start a batch (T-6).
  Player nap = Opponent(s.active);
  timing_.decision.actions.clear();
  timing_.decision.actions.push_back({ActionKind::kPass});
  if (OfferPlays(nap, DecisionKind::kRespond, DecisionKind::kNeutral)) {
    w.who = nap;
    return;
  }
  f.pc = NeutralFrame::kDecide;
  w.Open(s.active);
  combat_.attacked[s.active] = true;
  Push(FrameKind::kAttack);
}

void Game::ApplyNeutral(Frame& f, const Action& a) {
  GameState& s = state_;
  Window& w = f.neutral.window;
  if (f.pc == NeutralFrame::kAttackAnnounced) {
    // The defender answered an announced attack.
    if (a.kind == ActionKind::kPass) {
      f.pc = NeutralFrame::kDecide;
      w.Open(s.active);
      combat_.attacked[s.active] = true;
      Note(LogKind::kInfo, kNoPlayer, kNoObj, kNoObj, 0,
           [&] { return std::string(absl::StrCat(Who(s.active), " attacks")); });
      Push(FrameKind::kAttack);
      return;
    }
    Note(LogKind::kInfo, kNoPlayer, kNoObj, kNoObj, 0, [&] {
      return std::string("the defender responds: the attack is aborted if this starts a batch");
    });
    f.pc = NeutralFrame::kAttackAnswered;
    f.neutral.batches = stack_.batches;
    Push(Frame::NewBatch(s.active));
    StartCast(Opponent(s.active), a, kPlayBatch, kNoObj);
    return;
  }
  if (a.kind == ActionKind::kPass) {
    w.Pass();
    return;
  }
  if (a.kind == ActionKind::kAttack) {
    Note(LogKind::kInfo, kNoPlayer, kNoObj, kNoObj, 0,
         [&] { return std::string(absl::StrCat(Who(s.active), " announces an attack")); });
    f.pc = NeutralFrame::kAttackAnnounced;
    return;
  }
  if (a.kind == ActionKind::kPlayLand) {
    Player p = w.who;
    const ObjId land = a.object;
    if (Holds(EventKind::kZoneChange)) {
      // In a game with replacements of moves or "before" responses to
      // them, the land's move is held like an effect's (E-1, E-3); the
      // play's own occurrence and the state check come once it entered
      // (OccurFrame::kLandPlayed). The land drop is used either way.
      ++turn_.lands_played[p];
      turn_.seen[land] |= kSeenCast;
      Used(s.obj.card[land], -1);
      Note(LogKind::kPlayLand, p, land, kNoObj, 0,
           [&] { return std::string(absl::StrCat(Who(p), " plays ", ObjectName(land))); });
      w.Open(s.active);  // first: a frame pushed can move `w`
      EffectMove(&land, 1, Zone::kBattlefield);
      timing_.frames.back().occur.then = OccurFrame::kLandPlayed;
      return;
    }
    Occurrence entering = LeaveOccurrence(land, Zone::kBattlefield);
    MoveTo(land, Zone::kBattlefield, p);
    SetControllerOnEntry(land, p);  // sick until p's next turn (T-7)
    ++turn_.lands_played[p];
    turn_.seen[land] |= kSeenCast;
    Used(s.obj.card[land], -1);
    Note(LogKind::kPlayLand, p, land, kNoObj, 0,
         [&] { return std::string(absl::StrCat(Who(p), " plays ", ObjectName(land))); });
    // Its move from the hand is a zone change too ("when a land enters").
    if (Observed(EventKind::kZoneChange)) {
      entering.incarnation = s.obj.incarnation[land];
      entering.last = Chars(land);  // E-5.1: seen as it entered
      entering.player = p;
      Happened(Record(entering));
    }
    LandPlayed(land);
    w.Open(s.active);
    CheckState();  // a state check follows every permanent's entry
    return;
  }
  {
    Player p = w.who;
    w.Open(s.active);
    if (a.kind == ActionKind::kPhaseEffect && turn_.phase_todo[a.index].is_cost) {
      AskPhaseCost(a.index);
      return;
    }
    Push(Frame::NewBatch(s.active));
    StartCast(p, a, kPlayBatch, kNoObj);
  }
}

void Game::RunBatch(Frame& f) {
  if (StateCheckOwedAtWindow()) return;
  // T-3: after each addition the active player decides first; the batch is
  // complete when both pass in succession, then resolves last in, first out.
  Window& w = f.batch.window;
  // Passes with nothing else to do, and the resolution once the batch is
  // complete, in the same step (as in RunNeutral).
  while (f.pc == BatchFrame::kAdditions) {
    // The spell or ability that was to start this batch was countered as it
    // was cast: no batch started (T-8), and no one responds to nothing.
    if (stack_.batch.empty()) {
      timing_.frames.pop_back();
      return;
    }
    if (w.Closed()) {
      f.pc = BatchFrame::kResolve;
      // "Before effects resolve" (E-2's time point: the batch's resolution
      // begins).
      if (ListensBefore(EventKind::kEffectsResolved) &&
          BeforeNow(OccurrenceOf(EventKind::kEffectsResolved, kNoPlayer, kNoObj)))
        return;
      break;
    }
    Player p = w.who;
    timing_.decision.actions.clear();
    timing_.decision.actions.push_back({ActionKind::kPass});
    if (OfferPlays(p, DecisionKind::kRespond, DecisionKind::kRespond)) return;
    w.Pass();
  }
  if (stack_.batch.empty()) {
    // "After effects resolve" (E-2): the batch has resolved, whatever its
    // effects did (countered or fizzled, all of them). Its triggers come
    // before the batch frame goes (Step pushes them above it).
    if (f.pc == BatchFrame::kResolve && Observed(EventKind::kEffectsResolved)) {
      f.pc = BatchFrame::kResolved;
      RecordOccurrence(EventKind::kEffectsResolved, kNoPlayer, kNoObj, 0, /*before_done=*/true);
      return;
    }
    timing_.frames.pop_back();
    return;
  }
  int idx = stack_.batch.back();
  stack_.batch.pop_back();
  Push(Frame::NewResolve(idx));
}

void Game::ApplyBatch(Frame& f, const Action& a) {
  Window& w = f.batch.window;
  if (a.kind == ActionKind::kPass) {
    w.Pass();
    return;
  }
  w.Open(state_.active);
  if (a.kind == ActionKind::kPhaseEffect && turn_.phase_todo[a.index].is_cost) {
    AskPhaseCost(a.index);
    return;
  }
  StartCast(timing_.decision.player, a, kPlayBatch, kNoObj);
}

}  // namespace strata
