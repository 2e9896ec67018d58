// The turn and its phases (RULES.md T-1): untap, upkeep, draw, main,
// discard, cleanup; per phase: beginning effects and triggers, the neutral
// state (batch.cc), end of phase, mana burn, the life check; discarding down
// to the maximum hand size (and discards an effect asks for).
// Scenarios: tests/scenarios/t1_*.

#include <array>
#include <optional>

#include "engine/game_internal.h"

namespace strata {

void Game::RunTurn(Frame& f) {
  if (f.pc == TurnFrame::kStartPhase) {
    f.pc = TurnFrame::kPhaseEnded;
    Push(FrameKind::kPhase);
    return;
  }
  // A phase ended.
  if (timing_.stop == StopAt::kPhaseEnd) {
    timing_.stopped = true;
    return;
  }
  GameState& s = state_;
  if (s.phase == Phase::kCleanup) {
    if (timing_.stop == StopAt::kTurnEnd) {
      timing_.stopped = true;
      return;
    }
    s.phase = Phase::kUntap;
    ++s.turn;
    // T-1.6: an extra turn comes before the next player's turn; of several,
    // the one made last first.
    // Once they are over, the turns go on from the last turn that was not
    // an extra one: its player's opponent.
    if (!turn_.extra_turns.empty()) [[unlikely]] {
      if (turn_.after_extra == kNoPlayer) turn_.after_extra = Opponent(s.active);
      s.active = turn_.extra_turns.back();
      turn_.extra_turns.pop_back();
      Note(LogKind::kInfo, kNoPlayer, kNoObj, kNoObj, 0,
           [&] { return absl::StrCat(Who(s.active), " takes an extra turn"); });
    } else if (turn_.after_extra != kNoPlayer) [[unlikely]] {
      s.active = turn_.after_extra;
      turn_.after_extra = kNoPlayer;
    } else {
      s.active = Opponent(s.active);
    }
    // "As long as it's your turn" (a static's your_turn) reads it: only a
    // game with such a card recomputes its layers for a new turn.
    if (turn_.your_turn_cards) s.Touch();
    turn_.lands_played = {};
    // T-10.1: the untapped lands each player controls as the turn begins
    // (Power Surge), only in a game with a card that reads them.
    if (turn_.turn_start_lands_cards) [[unlikely]] {
      turn_.turn_start_lands = {};
      s.ForEachPermanent([&](ObjId o) {
        const Characteristics& ch = Chars(o);
        if (Has(ch.types, kLand) && !s.obj.tapped[o] && ch.controller < 2)
          ++turn_.turn_start_lands[ch.controller];
      });
    }
    combat_.attacked = {};
    timing_.turn_actions = 0;
    if (timing_.stop == StopAt::kTurn && s.turn >= timing_.stop_value) {
      timing_.stopped = true;
      return;
    }
    if (s.turn - timing_.first_turn >= opt_.turn_cap) {
      EndGame(-1, EndReason::kTurnCap);
      return;
    }
  } else {
    s.phase = static_cast<Phase>(static_cast<int>(s.phase) + 1);
  }
  // The next phase starts in this step: a step between would only find
  // the same queue of triggers that this one found.
  Push(FrameKind::kPhase);
}

void Game::PhaseBeginEffects(bool skipped) {
  GameState& s = state_;
  Player ap = s.active;
  // A phase skipped does nothing, but the turn's beginning still ends the
  // sickness of what its player controls (T-7: controlled since the turn
  // began, an untap step or not).
  if (skipped && s.phase != Phase::kUntap) return;
  switch (s.phase) {
    case Phase::kUntap: {
      // Held: HoldUntapStep untapped them; skipped: nothing untaps.
      const bool held = skipped || Holds(EventKind::kUntap);
      occ_.died_this_turn.clear();    // a new turn: no creature died in it yet
      occ_.dealt_to_players.clear();  // T-4.2: nor dealt damage to a player
      const bool limited = !turn_.untap_kept.empty();
      s.ForEachPermanent([&](ObjId o) {
        if (Chars(o).controller != ap) return;
        if (s.obj.tapped[o] && !held && !(limited && UntapKept(o))) Tap(o, false);
        s.obj.sick[o] = false;  // controlled since this turn began (T-7)
        turn_.control_seen[o] = ap;
      });
      // Sickness ended, which a kept mana supply reads; untapping moved the
      // version where a layer reads it (SetTapped).
      ++mana_epoch_;
      break;
    }
    case Phase::kCleanup:
      // Off the battlefield these are zero already: entering resets them
      // (MoveTo), and nothing marks damage or shields elsewhere.
      // Less damage never gives the state check something to do, so a
      // check that found nothing stays clean (OccurrenceState::check_inputs).
      s.ForEachPermanent([&](ObjId o) {
        s.obj.damage[o] = 0;
        s.obj.regen_shields[o] = 0;
        damage_.prevent_shield[o] = 0;
        damage_.no_regen[o] = false;
        damage_.no_combat_damage_of[o] = false;
      });
      damage_.no_combat_damage = false;
      damage_.player_shield = {};
      turn_.replace_draw = {};
      damage_.source_shields.clear();
      // T-7.4: "during its controller's next turn" ends at the cleanup of
      // that player's first turn after the one it began in.
      if (turn_.next_turn_effects) [[unlikely]]
        for (int r = 0; r < static_cast<int>(s.effects.size()); ++r)
          if (s.effects[r].active && s.effects[r].duration == Duration::kThroughNextTurn &&
              s.effects[r].through == ap && s.turn > s.effects[r].from_turn)
            EndEffect(r);
      occ_.damaged_by.clear();
      occ_.damage_taken.clear();
      // The deaths of the turn are kept until the next turn begins (below):
      // "at the beginning of the end step, if a creature died this turn"
      // reads them at the cleanup phase's beginning (G-8: Osai Vultures).
      // "The next time ... this turn" that did not happen this turn never does (E-6).
      std::erase_if(occ_.armed, [](const ArmedNextTime& a) { return a.this_turn; });
      for (int r = 0; r < static_cast<int>(s.effects.size()); ++r)
        if (s.effects[r].active && s.effects[r].duration == Duration::kEndOfTurn) EndEffect(r);
      break;  // damage and shields are no layer input; EndEffect moved the version
    case Phase::kUpkeep:
      // E-6.1: "until your next upkeep" ends as its controller's upkeep
      // begins, before the phase's triggers and phase effects.
      if (turn_.until_upkeep_effects) [[unlikely]]
        for (int r = 0; r < static_cast<int>(s.effects.size()); ++r)
          if (s.effects[r].active && s.effects[r].duration == Duration::kUntilYourUpkeep &&
              s.effects[r].controller == ap)
            EndEffect(r);
      break;
    default:
      break;
  }
}

void Game::RunPhase(Frame& f) {
  GameState& s = state_;
  switch (f.pc) {
    case PhaseFrame::kBegin:
      // A replacement of the phase's beginning (E-3 A: "skip your untap
      // step") comes first; its step-A record is `ended` until kEnding.
      if (ListensInstead(EventKind::kPhaseBegin)) {
        f.pc = PhaseFrame::kSkipping;  // first: a frame pushed can move `f`
        f.phase.ended = EventEnd();
        if (InsteadNow(PhaseOccurrence(EventKind::kPhaseBegin))) return;
      }
      [[fallthrough]];
    case PhaseFrame::kSkipping:
      if (f.pc == PhaseFrame::kSkipping && TakenAtStepA(f.phase.ended)) {
        // Skipped: nothing of it happens, no beginning, no end, no burn,
        // and nothing responds to it.
        Note(LogKind::kPhase, s.active, kNoObj, kNoObj, 0, [&] {
          return absl::StrCat(S(PhaseName(s.phase)), " of ", Who(s.active), " is skipped");
        });
        PhaseBeginEffects(/*skipped=*/true);
        timing_.frames.pop_back();
        return;
      }
      // "Before phase X begins" (E-1) happens before it, in no phase: its
      // triggers resolve (at the next step) before anything of the phase.
      f.pc = PhaseFrame::kBegun;
      if (ListensBefore(EventKind::kPhaseBegin) &&
          BeforeNow(PhaseOccurrence(EventKind::kPhaseBegin)))
        return;
      [[fallthrough]];
    case PhaseFrame::kBegun:
      Note(LogKind::kPhase, s.active, kNoObj, kNoObj, 0, [&] {
        return std::string(absl::StrCat("begin ", S(PhaseName(s.phase)), " of ", Who(s.active)));
      });
      // T-1.8: where a limit lets only one permanent of a kind untap
      // (Winter Orb), the active player chooses which, in a frame above,
      // before any untap.
      if (s.phase == Phase::kUntap && turn_.untap_limit_cards) [[unlikely]] {
        f.pc = PhaseFrame::kLimited;  // first: a frame pushed can move `f`
        if (ChooseUntaps()) return;
      }
      [[fallthrough]];
    case PhaseFrame::kLimited:
      // The untap phase's untaps, in a game with replacements of untaps or
      // "before" responses to them, are held (E-3): they happen in a frame
      // above, through step A, and the phase's beginning goes on after.
      if (s.phase == Phase::kUntap && Holds(EventKind::kUntap)) {
        f.pc = PhaseFrame::kUntapped;  // first: a frame pushed can move `f`
        if (HoldUntapStep()) return;
      }
      [[fallthrough]];
    case PhaseFrame::kUntapped: {
      // Built only where read: an occurrence copies the characteristics.
      std::optional<Occurrence> begins;
      if (Observed(EventKind::kPhaseBegin)) begins = PhaseOccurrence(EventKind::kPhaseBegin);
      PhaseBeginEffects();
      Audit(AuditPoint::kPhaseBegun);
      CheckState();
      CollectPhaseTodos();
      if (begins) Happened(Record(*begins));
      f.pc = PhaseFrame::kDiscard;
      // Delayed effects due now resolve, each its own item (pushed last,
      // the first made resolves first).
      auto resolve_delayed = [&](const auto& due) {
        for (auto it = due.rbegin(); it != due.rend(); ++it) {
          StackItem item = it->first;
          item.from = BodySource::kDelayed;
          item.ability = static_cast<int16_t>(stack_.delayed_steps.size());
          stack_.delayed_steps.push_back(it->second);
          stack_.items.push_back(item);
          Push(Frame::NewResolve(static_cast<int32_t>(stack_.items.size() - 1)));
        }
      };
      if (s.phase == Phase::kUpkeep && !stack_.next_upkeep.empty()) {
        auto delayed = std::move(stack_.next_upkeep);
        stack_.next_upkeep.clear();
        resolve_delayed(delayed);
      }
      if (s.phase == Phase::kMain && !stack_.next_main.empty()) [[unlikely]] {
        // T-1.7: what waits for the active player's next main phase.
        thread_local std::vector<std::pair<StackItem, const std::vector<EffectStep>*>> now;
        now.clear();
        std::erase_if(stack_.next_main, [&](const auto& d) {
          if (d.first.controller != s.active) return false;
          now.push_back(d);
          return true;
        });
        resolve_delayed(now);
      }
      if (s.phase == Phase::kDraw && !(timing_.skip_first_draw && s.turn == timing_.first_turn) &&
          !Rules(s.active).skip_draw)
        Push(Frame::NewDraw(s.active, 1));
      Audit(AuditPoint::kPhaseReady);
      return;
    }
    // A part with nothing to push goes on to the next in the same step:
    // nothing happened that a step between could act on.
    case PhaseFrame::kDiscard:
      f.pc = PhaseFrame::kNeutral;
      if (s.phase == Phase::kDiscard) {
        Audit(AuditPoint::kDiscardToMaxBegins);
        Push(Frame::NewDiscard(s.active, /*count=*/-1, /*random=*/false));
        return;
      }
      [[fallthrough]];
    case PhaseFrame::kNeutral:
      f.pc = PhaseFrame::kEnd;
      if (FastPhaseOf(s.phase)) {
        Push(Frame::NewNeutral(/*in_attack=*/false));
        return;
      }
      [[fallthrough]];
    case PhaseFrame::kEnd:
      // T-1.3: what comes before the phase ends, then what happens when it
      // ends ("at the end of your upkeep"), each resolved (at the next step)
      // before mana burn, so mana it adds is burnt with the rest.
      f.pc = PhaseFrame::kEnding;
      if (ListensBefore(EventKind::kPhaseEnd) && BeforeNow(PhaseOccurrence(EventKind::kPhaseEnd)))
        return;
      [[fallthrough]];
    case PhaseFrame::kEnding:
      f.pc = PhaseFrame::kBurn;
      f.phase.ended = -1;
      if (Observed(EventKind::kPhaseEnd)) {
        const int first = static_cast<int>(occ_.queued.size());
        f.phase.ended = Record(PhaseOccurrence(EventKind::kPhaseEnd));
        CollectTriggers(f.phase.ended, Timing::kWhen);
        if (TriggersNow(first)) return;
      }
      [[fallthrough]];
    case PhaseFrame::kBurn: {
      // T-1.4 and T-1.5: mana burn, the life check.
      Audit(AuditPoint::kPhaseEnding);
      // In a game with "before" responses to life changes or replacements
      // of them, each player's burn is held at its time point like an
      // effect's loss (E-1, E-3): the active player's first, each in a frame
      // above, the life check after both.
      const bool held = Holds(EventKind::kLifeChange);
      std::array<int, 2> burn{};
      for (Player p = 0; p < 2; ++p) {
        int unspent = 0;
        for (int& m : s.players[p].pool) unspent += m, m = 0;
        burn[p] = unspent;
        if (unspent) {
          Note(LogKind::kInfo, kNoPlayer, kNoObj, kNoObj, 0,
               [&] { return std::string(absl::StrCat(Who(p), " burns for ", unspent)); });
          if (!held) LoseLife(p, unspent);
        }
      }
      if (held && (burn[0] || burn[1])) {
        f.pc = PhaseFrame::kBurnt;  // first: a frame pushed can move `f`
        const Player active = s.active;
        EffectLifeChange(Opponent(active), -burn[Opponent(active)]);
        EffectLifeChange(active, -burn[active]);  // pushed last, it happens first
        return;
      }
      [[fallthrough]];
    }
    case PhaseFrame::kBurnt: {
      // G-11: ten poison counters lose at the same check as 0 life.
      for (Player p = 0; p < 2; ++p)
        if (s.players[p].life <= 0)
          Lose(p, EndReason::kLife);
        else if (s.players[p].poison >= kPoisonToLose) [[unlikely]]
          Lose(p, EndReason::kPoison);
      Audit(AuditPoint::kPhaseEnded);
      const int32_t ended = f.phase.ended;
      // Mana pools and life are no layer input: the version stays (L-9).
      timing_.frames.pop_back();  // first: the state check may push destructions above it
      // "After phase X ends" is in no phase (E-1): its triggers resolve
      // after the life check, before the next phase begins.
      if (ended >= 0) CollectTriggers(ended, Timing::kAfter);
      CheckState();
      return;
    }
  }
}

// T-1.8: "players untap only one land during their untap phase" (Winter
// Orb, Smoke, Damping Field). Of the active player's tapped permanents of a
// limited type, they choose one of each such type to untap, one at a time
// (a permanent of two limited types uses both); the others stay tapped.
// A choice is asked only where there is one: a single candidate untaps
// without one. The untaps then happen as usual (held for replacements,
// E-3), the kept ones left out. Returns whether a frame was pushed.
bool Game::ChooseUntaps() {
  turn_.untap_used = 0;
  turn_.untap_chosen.clear();
  turn_.untap_kept.clear();
  if (!Rules(state_.active).untap_only_one) return false;
  Push(Frame::NewUntapChoice());
  RunUntapChoice(timing_.frames.back());
  return true;
}

bool Game::UntapKept(ObjId o) const {
  return std::find(turn_.untap_kept.begin(), turn_.untap_kept.end(), o) != turn_.untap_kept.end();
}

// The frame: UntapChoiceFrame (no fields: the choices so far are in turn_).
void Game::RunUntapChoice(Frame&) {
  GameState& s = state_;
  const Player ap = s.active;
  const TypeMask limit = Rules(ap).untap_only_one;
  timing_.decision.actions.clear();
  auto chosen = [&](ObjId o) {
    return std::find(turn_.untap_chosen.begin(), turn_.untap_chosen.end(), o) !=
           turn_.untap_chosen.end();
  };
  s.ForEachPermanent([&](ObjId o) {
    const Characteristics& ch = Chars(o);
    if (ch.controller != ap || !s.obj.tapped[o] || !(ch.types & limit) || chosen(o)) return;
    if (ch.types & limit & turn_.untap_used) return;  // its kind's one untap is used
    timing_.decision.actions.push_back({ActionKind::kObject, o});
  });
  if (timing_.decision.actions.size() == 1) {
    const Action only = timing_.decision.actions[0];
    timing_.decision.actions.clear();
    ApplyUntapChoice(timing_.frames.back(), only);
    return;
  }
  if (!timing_.decision.actions.empty()) {
    Decide(DecisionKind::kUntap, ap);
    return;
  }
  // Chosen: every other tapped permanent of a limited type stays tapped.
  s.ForEachPermanent([&](ObjId o) {
    const Characteristics& ch = Chars(o);
    if (ch.controller == ap && s.obj.tapped[o] && (ch.types & limit) && !chosen(o))
      turn_.untap_kept.push_back(o);
  });
  turn_.untap_chosen.clear();
  timing_.frames.pop_back();
}

void Game::ApplyUntapChoice(Frame&, const Action& a) {
  Note(LogKind::kInfo, state_.active, a.object, kNoObj, 0, [&] {
    return absl::StrCat(Who(state_.active), " chooses to untap ", ObjectName(a.object));
  });
  turn_.untap_chosen.push_back(a.object);
  turn_.untap_used |= Chars(a.object).types & Rules(state_.active).untap_only_one;
}

// The frame: DiscardFrame.
void Game::RunDiscardToMax(Frame& f) {
  Player p = f.discard.player;
  if (f.discard.last_plus1) [[unlikely]] {
    // G-9: the card last chosen is discarded if its move put it into a
    // graveyard (a replacement may have sent it elsewhere, or kept it).
    const ObjId o = static_cast<ObjId>(f.discard.last_plus1 - 1);
    if (state_.obj.zone[o] == Zone::kGraveyard &&
        static_cast<uint8_t>(state_.obj.incarnation[o]) ==
            static_cast<uint8_t>(f.discard.last_incarnation + 1))
      ++stack_.items[f.discard.item_plus1 - 1].discarded;
    f.discard.last_plus1 = 0;
  }
  int max = Rules(p).max_hand_size;
  int hand = static_cast<int>(state_.players[p].hand.size());
  int& count = f.discard.count;
  bool more = count < 0 ? (max >= 0 && hand > max) : (count > 0 && hand > 0);
  if (!more) {
    if (count < 0) Audit(AuditPoint::kDiscardToMaxEnds);
    timing_.frames.pop_back();
    return;
  }
  if (f.discard.random) {
    // At random: the game's generator picks (Hypnotic Specter).
    auto& hand = state_.players[p].hand;
    ObjId o = hand[rng_.Below(static_cast<uint32_t>(hand.size()))];
    Note(LogKind::kInfo, p, o, kNoObj, 0,
         [&] { return absl::StrCat(Who(p), " discards ", ObjectName(o), " at random"); });
    --count;  // first: a held move pushes a frame, which can move `f`
    RememberDiscard(f, o);
    EffectMove(&o, 1, Zone::kGraveyard);
    return;
  }
  timing_.decision.actions.clear();
  for (ObjId o : state_.players[p].hand)
    timing_.decision.actions.push_back({ActionKind::kObject, o});
  Decide(DecisionKind::kDiscard, p);
}

// G-9: an effect's discard remembers the card it moves, to count it on
// its item once the move is over (RunDiscardToMax).
void Game::RememberDiscard(Frame& f, ObjId o) {
  if (!f.discard.item_plus1) return;
  f.discard.last_plus1 = static_cast<uint16_t>(o + 1);
  f.discard.last_incarnation = static_cast<uint8_t>(state_.obj.incarnation[o]);
}

void Game::ApplyDiscardToMax(Frame& f, const Action& a) {
  Note(LogKind::kInfo, kNoPlayer, kNoObj, kNoObj, 0, [&] {
    return std::string(
        absl::StrCat(Who(timing_.decision.player), " discards ", ObjectName(a.object)));
  });
  if (f.discard.count > 0) --f.discard.count;  // first: EffectMove may push a frame
  RememberDiscard(f, a.object);
  // A discard is a move held for its replacements and "before" responses
  // like an effect's (E-3).
  EffectMove(&a.object, 1, Zone::kGraveyard);
}

}  // namespace strata
