// Reactions and replacements at an occurrence (RULES.md E-3 A, E-3 C): a
// draw (reactions, then "instead of drawing"), a destruction (a regeneration
// shield replaces it; players may react, the active player first, then the
// rest leave together, E-5), and the reaction window itself.
// Scenarios: tests/scenarios/e3_*, t1_draw_from_empty_library.

#include "engine/game_internal.h"

namespace strata {

bool Game::AboutMatches(ObjId candidate, ObjId about) const {
  if (about != kAboutDestroying) return candidate == about;
  for (auto f = timing_.frames.rbegin(); f != timing_.frames.rend(); ++f)
    if (f->kind == FrameKind::kDestroy) {
      for (int i = f->destroy.begin; i < f->destroy.end; ++i)
        if (occ_.destroying[i].id == candidate && state_.Alive(occ_.destroying[i])) return true;
      return false;
    }
  return false;
}

// A draw (E-3): replacements of it (A), "before" triggers (B), reactions
// timed to it (C: Aladdin's Lamp), the reaction's replacement, then the
// card is drawn and "whenever a player draws" triggers (the frame:
// DrawFrame).
void Game::RunDraw(Frame& f) {
  Player p = f.draw.player;
  if (f.draw.left <= 0 || timing_.over) {
    timing_.frames.pop_back();
    return;
  }
  auto& lib = state_.players[p].library;
  if (f.pc == DrawFrame::kGone) {
    // A replacement took this draw (E-3 A): it is used up, and not drawn
    // (from an empty library too).
    f.pc = DrawFrame::kInstead;
    --f.draw.left;
    return;
  }
  if (f.pc == DrawFrame::kInstead) {
    f.pc = DrawFrame::kBefore;
    if (ListensInstead(EventKind::kDraw)) {
      Occurrence e = OccurrenceOf(EventKind::kDraw, p, kNoObj);
      e.amount = 1;
      f.pc = DrawFrame::kGone;  // first: InsteadNow may push a frame, which can move `f`
      if (InsteadNow(e)) return;
      f.pc = DrawFrame::kBefore;
    }
  }
  if (f.pc == DrawFrame::kBefore) {
    // "Before a player draws" (E-1) happens before the draw, inside a
    // resolution too (Ancestral Recall's draws), before the reactions to it.
    f.pc = DrawFrame::kReactions;
    if (ListensBefore(EventKind::kDraw) && BeforeNow(OccurrenceOf(EventKind::kDraw, p, kNoObj)))
      return;
  }
  if (f.pc == DrawFrame::kReactions) {
    f.pc = DrawFrame::kReplacement;
    Push(Frame::NewReaction(Reaction::kDraw, kNoObj, p));
    return;
  }
  if (f.pc == DrawFrame::kReplacement) {
    f.pc = DrawFrame::kDraw;
    int look = std::min<int>(turn_.replace_draw[p], static_cast<int>(lib.size()));
    if (look > 0) {
      // Instead of drawing: look at the top cards, keep one, the rest go to
      // the bottom; then draw the kept one.
      turn_.replace_draw[p] = 0;
      Replaced(UsageStats::kDrawReplaced);
      timing_.decision.actions.clear();
      for (int i = 0; i < look; ++i)
        timing_.decision.actions.push_back({ActionKind::kObject, lib[i]});
      Note(LogKind::kInfo, kNoPlayer, kNoObj, kNoObj, 0, [&] {
        return std::string(
            absl::StrCat(Who(p), " looks at the top ", look, " cards instead of drawing"));
      });
      f.draw.looked = look;
      Decide(DecisionKind::kChoice, p);
      return;
    }
  }
  // kDraw: the draw happens.
  f.pc = DrawFrame::kInstead;
  --f.draw.left;
  if (lib.empty()) {
    Note(LogKind::kInfo, kNoPlayer, kNoObj, kNoObj, 0,
         [&] { return std::string(absl::StrCat(Who(p), " draws from an empty library")); });
    Lose(p, EndReason::kLibrary);
    return;
  }
  ObjId top = lib.front();
  if (static_cast<int>(lib.size()) - 1 < turn_.smallest_library[p]) {
    turn_.smallest_library[p] = static_cast<int>(lib.size()) - 1;
    turn_.last_draw[p] = state_.turn;
  } else {
    // Two turns a draw of theirs: the library lasts 2 x its size.
    turn_.refilled_until[p] = state_.turn + 2 * static_cast<int>(lib.size());
  }
  MoveTo(top, Zone::kHand, p);
  Note(LogKind::kDraw, p, top, kNoObj, 1,
       [&] { return std::string(absl::StrCat(Who(p), " draws ", ObjectName(top))); });
  // A draw is a move from the library to the hand too: "when" and "after" a
  // zone change see it, as one group with the draw (E-5). (Its "before" and
  // "instead" are the draw's: the loader refuses a zone change's that could
  // match a draw.)
  const bool as_draw = Observed(EventKind::kDraw), as_move = Observed(EventKind::kZoneChange);
  if (!as_draw && !as_move) return;
  Occurrence e = OccurrenceOf(EventKind::kDraw, p, top);
  e.from = Zone::kLibrary;
  e.to = Zone::kHand;
  e.group = EventEnd();
  if (as_draw) {
    e.held = ListensInstead(EventKind::kDraw);  // through its step A
    Record(e);
  }
  if (as_move) {
    e.kind = EventKind::kZoneChange;
    e.held = false;
    Record(e);
  }
  for (int ev = e.group, end = EventEnd(); ev < end; ++ev) Happened(ev);
}

void Game::ApplyDraw(Frame& f, const Action& a) {
  GameState& s = state_;
  // Aladdin's Lamp: keep the chosen card on top, the rest to the bottom.
  Player p = f.draw.player;
  auto& lib = s.players[p].library;
  std::vector<ObjId> looked(lib.begin(), lib.begin() + f.draw.looked);
  lib.erase(lib.begin(), lib.begin() + f.draw.looked);
  for (ObjId o : looked)
    if (o != a.object) lib.push_back(o);
  lib.insert(lib.begin(), a.object);  // library order is no layer input
}

// Is o among the objects of a held move (an OccurFrame) still to happen?
bool Game::BeingHeld(ObjId o, EventKind kind) const {
  const ObjRef ref = state_.Ref(o);
  for (const Frame& f : timing_.frames)
    if (f.kind == FrameKind::kOccur && f.occur.kind == kind)
      for (int i = f.occur.begin; i < f.occur.end; ++i)
        if (occ_.moving[i] == ref) return true;
  return false;
}

bool Game::BeingDestroyed(ObjId o) const {
  const ObjRef ref = state_.Ref(o);
  for (const Frame& f : timing_.frames)
    if (f.kind == FrameKind::kDestroy)
      for (int i = f.destroy.begin; i < f.destroy.end; ++i)
        if (occ_.destroying[i] == ref) return true;
  return false;
}

void Game::Regenerate(ObjId o) {
  --state_.obj.regen_shields[o];
  Replaced(UsageStats::kRegenerated);
  state_.obj.damage[o] = 0;
  StateCheckInputChanged();
  Tap(o, true);
  combat_.flag[o] = kNotInCombat;
  Note(LogKind::kRegenerate, kNoPlayer, o, kNoObj, 0,
       [&] { return std::string(absl::StrCat(ObjectName(o), " regenerates")); });
  Audit(AuditPoint::kRegenerated, o);
}

// Objects one effect (or one state check) destroys, headed to the graveyard
// together (E-3, E-5): A. a regeneration shield already there replaces the
// destruction at once, and nothing reacts to it; C. for the rest each player
// may react (regenerate them), the active player first; then a shield a
// reaction made replaces it, and the others leave together.
// The frame: DestroyFrame.
void Game::RunDestroy(Frame& f) {
  const bool lethal = f.destroy.item_plus1 < 0;
  auto destroyed = [&](ObjRef r) {
    if (!state_.Alive(r) || state_.obj.zone[r.id] != Zone::kBattlefield) return false;
    if (!lethal) return true;
    const Characteristics& ch = Chars(r.id);
    return ch.IsCreature() && state_.obj.damage[r.id] >= ch.toughness;
  };
  thread_local std::vector<ObjId> buffer;
  Borrowed<ObjId> borrowed(buffer);
  std::vector<ObjId>& leaving = borrowed.v;
  // What the group still destroys: a step before may have saved some.
  auto still = [&] {
    for (int i = f.destroy.begin; i < f.destroy.end; ++i) {
      ObjRef& r = occ_.destroying[i];
      if (!destroyed(r)) r = ObjRef{};
    }
  };
  if (f.pc == DestroyFrame::kShields) {
    // E-3 A: a regeneration shield replaces the destruction; then nothing
    // responds to it. (In a game with replacements of moves, the shields
    // are ordered with them at kInstead: the active player picks.)
    f.pc = DestroyFrame::kInstead;
    still();
    for (int i = f.destroy.begin; i < f.destroy.end && !ListensInstead(EventKind::kZoneChange);
         ++i) {
      ObjRef& r = occ_.destroying[i];
      if (r.id == kNoObj || !Shielded(r.id)) continue;
      Regenerate(r.id);
      r = ObjRef{};
    }
  }
  if (f.pc == DestroyFrame::kInstead) {
    // E-3 A, the rest of it: replacements of the move to the graveyard
    // ("if it would die, exile it instead"), and the regeneration shields
    // already on the creatures, which replace the destruction: conflicting
    // ones are ordered by the active player (seed 003's prevention and
    // substitution of one move), the first applies.
    f.pc = DestroyFrame::kBefore;
    if (ListensInstead(EventKind::kZoneChange)) {
      f.pc = DestroyFrame::kReplaced;  // first: a frame pushed can move `f`
      f.destroy.instead_begin = EventEnd();
      if (InsteadOfEach(EventKind::kZoneChange, occ_.destroying, f.destroy.begin, f.destroy.end,
                        Zone::kGraveyard, /*shields=*/true))
        return;
    }
  }
  if (f.pc == DestroyFrame::kReplaced) {
    f.pc = DestroyFrame::kBefore;
    DropReplaced(EventKind::kZoneChange, occ_.destroying, f.destroy.begin, f.destroy.end,
                 f.destroy.instead_begin);
  }
  if (f.pc == DestroyFrame::kBefore) {
    // E-3 B, before the destruction happens (E-1): "before it is destroyed"
    // triggers happen now, before any reaction and before anything leaves,
    // inside a resolution too: a response timed before its occurrence can't
    // come after it. One may save the creature (return it to its owner's
    // hand); then the destruction no longer happens and nothing more
    // responds to it (Game::StillHappens).
    f.pc = DestroyFrame::kReactions;
    if (ListensBefore(EventKind::kZoneChange)) {
      for (int i = f.destroy.begin; i < f.destroy.end; ++i)
        if (occ_.destroying[i].id != kNoObj) leaving.push_back(occ_.destroying[i].id);
      const int first = static_cast<int>(occ_.queued.size());
      BeforeLeaving(leaving.data(), static_cast<int>(leaving.size()), Zone::kGraveyard,
                    /*held=*/true);
      leaving.clear();
      if (TriggersNow(first)) return;
    }
  }
  if (f.pc == DestroyFrame::kReactions) {
    // E-3 C: reactions (regeneration) to what is still destroyed.
    f.pc = DestroyFrame::kLeave;
    still();
    bool can_react = false;
    for (int i = f.destroy.begin; i < f.destroy.end; ++i)
      can_react |= occ_.destroying[i].id != kNoObj && !damage_.no_regen[occ_.destroying[i].id];
    if (can_react)
      Push(Frame::NewReaction(Reaction::kDestroy, kAboutDestroying,
                              /*drawing=*/0));
    return;
  }
  const int begin = f.destroy.begin, end = f.destroy.end;
  for (int i = begin; i < end; ++i) {
    const ObjRef r = occ_.destroying[i];
    if (!destroyed(r) || std::find(leaving.begin(), leaving.end(), r.id) != leaving.end()) continue;
    if (Shielded(r.id)) {
      Regenerate(r.id);
      continue;
    }
    Note(LogKind::kDestroy, kNoPlayer, r.id, kNoObj, 0,
         [&] { return std::string(absl::StrCat(ObjectName(r.id), " is destroyed")); });
    leaving.push_back(r.id);
  }
  // G-18: counted for the resolving body's "if destroyed this way".
  if (f.destroy.item_plus1 > 0) {
    uint8_t& destroyed = stack_.items[f.destroy.item_plus1 - 1].destroyed;
    destroyed = static_cast<uint8_t>(std::min<size_t>(255, destroyed + leaving.size()));
  }
  timing_.frames.pop_back();
  occ_.destroying.resize(begin);
  StateCheckInputChanged();
  LeaveTogether(leaving.data(), static_cast<int>(leaving.size()), Zone::kGraveyard,
                /*before_done=*/true);
  // A state check's destruction is part of that check, which goes on until
  // it finds nothing: the Auras of what was destroyed leave now, before any
  // window opens (T-1.5).
  if (lethal) CheckState();
}

// E-3 C: the active player plays all their reactions, one at a time, each
// resolving fully; then the other player (the frame: ReactionFrame).
void Game::RunReaction(Frame& f) {
  // A player with nothing to play passes, and the next player (or the end
  // of the window) follows in the same step (as in RunNeutral).
  for (;;) {
    if (f.pc >= ReactionFrame::kDone || timing_.over) {
      timing_.frames.pop_back();
      return;
    }
    Player p = f.pc == ReactionFrame::kActive ? state_.active : Opponent(state_.active);
    Reaction kind = f.reaction.kind;
    timing_.decision.actions.clear();
    timing_.decision.actions.push_back({ActionKind::kPass});
    ObjId about = kind == Reaction::kDestroy ? f.reaction.about : kNoObj;
    if (kind == Reaction::kDraw && p != f.reaction.drawing) {
      ++f.pc;  // only the drawing player replaces their draw
      continue;
    }
    if (OfferPlays(p, DecisionKind::kReaction, DecisionKind::kReaction, kind, about)) {
      f.reaction.who = p;
      return;
    }
    ++f.pc;  // kActive -> kNonactive -> kDone
  }
}

void Game::ApplyReaction(Frame& f, const Action& a) {
  if (a.kind == ActionKind::kPass) {
    ++f.pc;  // kActive -> kNonactive -> kDone
    return;
  }
  StartCast(timing_.decision.player, a, kPlayImmediate,
            f.reaction.kind == Reaction::kDestroy ? f.reaction.about : kNoObj);
}

}  // namespace strata
