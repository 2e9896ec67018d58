// Phase effects and phase costs (RULES.md T-12, T-13): what this phase asks
// of each permanent, when a phase effect may be played, and the answer to a
// phase cost (pay it, or suffer its penalty at once).
// Scenarios: tests/scenarios/t12_*, t13_*.

#include "engine/game_internal.h"

namespace strata {

namespace {

// The phase effects and phase costs permanent o has in this phase, as it is
// now (T-12, T-13): its own phase abilities its characteristics still hold,
// those a copy kept (Vesuvan Doppelganger), and its granted phase costs
// (Energy Flux) combined into one. Each goes to `visit` as a PhaseTodo for
// the player whose phase it is; a todo collected as the phase began is still
// due only while its permanent still has it (a cost's amount is today's).
template <class Visit>
void ForEachPhaseAbility(const Game& g, ObjId o, Visit&& visit) {
  const GameState& s = g.state();
  const CardDb& db = g.db();
  const Characteristics& ch = g.Chars(o);
  if (ch.blank || ch.card == kNoCard) return;
  const CardDef& card = db[ch.card];
  const int own = static_cast<int>(card.phase.size());
  const int kept = ch.extra_phase != kNoCard && ch.extra_phase != ch.card
                       ? static_cast<int>(db[ch.extra_phase].phase.size())
                       : 0;
  for (int i = 0; i < own + kept; ++i) {
    const CardId from = i >= own ? ch.extra_phase : ch.card;
    const int index = i >= own ? i - own : i;
    const PhaseAbility& ph = db[from].phase[index];
    if (ph.phase != static_cast<int>(s.phase)) continue;
    if (i < own && !Has(ch.abilities, card.PhaseBit(i))) continue;
    Player whose = ch.controller;
    if (ph.whose == 1) {
      const ObjId to = s.obj.attached_to[o];
      if (to == kNoObj) continue;
      whose = g.Chars(to).controller;
    }
    // T-12.1: each player's, played by the player whose phase it is (The
    // Abyss: its targets are that player's choice, "you" in its filters).
    if (ph.whose == 2) whose = s.active;
    if (whose != s.active) continue;
    PhaseTodo t;
    t.object = s.Ref(o);
    t.controller = whose;
    t.is_cost = ph.is_cost;
    t.cost = ph.cost;
    t.card = from;
    t.index = static_cast<int16_t>(index);
    t.optional = ph.optional;
    visit(t);
  }
  if (ch.controller != s.active) return;
  PhaseTodo combined;
  bool any = false;
  for (int k = 0; k < ch.granted_count; ++k) {
    const PhaseAbility& ph = db[ch.granted[k].card].granted_phase[ch.granted[k].index];
    if (ph.phase != static_cast<int>(s.phase)) continue;
    if (!any) {
      combined.object = s.Ref(o);
      combined.controller = ch.controller;
      combined.is_cost = true;
      combined.card = ch.granted[k].card;
      combined.index = ch.granted[k].index;
      combined.granted = true;
      combined.cost = ph.cost;
      any = true;
    } else {
      AddCost(combined.cost, ph.cost);
    }
  }
  if (any) visit(combined);
}

}  // namespace

// Mandatory phase effects (T-12) and phase costs (T-13) of this phase.
void Game::CollectPhaseTodos() {
  turn_.phase_todo.clear();
  // No card of this game has phase abilities or grants them: nothing to
  // collect. (A checked game looks anyway, and fails if it finds any.)
  if (!turn_.phase_cards && !opt_.check_invariants) return;
  state_.ForEachPermanent([&](ObjId o) {
    ForEachPhaseAbility(*this, o, [&](const PhaseTodo& t) { turn_.phase_todo.push_back(t); });
  });
  if (!turn_.phase_cards && !turn_.phase_todo.empty() && invariant_failure_.empty())
    invariant_failure_ = "phase_todos: a phase ability in a game whose cards have none";
}

// Does the permanent of todo t still have its phase ability, for the same
// player? (A copy effect, a lost ability, a granting permanent gone or a
// new controller ends it: an ability it no longer has is neither played nor
// paid for, and its penalty never comes.) `cost`, if given, gets its amount
// now: granted costs combine over the granting permanents still in play.
bool Game::PhaseTodoCurrent(const PhaseTodo& t, ManaCost* cost) const {
  if (!state_.Alive(t.object) || state_.obj.zone[t.object.id] != Zone::kBattlefield) return false;
  bool found = false;
  ForEachPhaseAbility(*this, t.object.id, [&](const PhaseTodo& now) {
    if (found || now.granted != t.granted || now.controller != t.controller) return;
    if (!t.granted && (now.card != t.card || now.index != t.index)) return;
    found = true;
    if (cost) *cost = now.cost;
  });
  return found;
}

// A phase effect or phase cost may be played once a phase, while its source
// is in play (T-12, T-13); a phase effect also needs its source not to be a
// tapped artifact (its abilities are off) and a legal target. The same test
// offers it and keeps the phase from ending, so an effect that can't be
// played never holds the phase open, and one played is never offered again.
void Game::PhaseItem(const PhaseTodo& t, StackItem& item) const {
  item.source = t.object.id;
  item.body_card = t.card;
  item.from = t.granted ? BodySource::kGrantedPhase : BodySource::kPhase;
  item.ability = t.index;
}

bool Game::PhaseTodoPlayable(const PhaseTodo& t) const {
  const GameState& s = state_;
  // (PhaseTodoCurrent also asks that its source be alive and in play.)
  if (t.done || !PhaseTodoCurrent(t, nullptr)) return false;
  if (t.is_cost) return true;
  const Characteristics& ch = Chars(t.object.id);
  if (Has(ch.types, kArtifact) && s.obj.tapped[t.object.id]) return false;
  StackItem probe;
  PhaseItem(t, probe);
  probe.controller = t.controller;
  const AbilityBody* body = BodyOf(probe);
  return body && HasLegalTargets(probe, *body);
}

bool Game::PhaseCostPending(ObjId o) const {
  for (auto& t : turn_.phase_todo)
    if (!t.done && t.is_cost && t.object.id == o && PhaseTodoCurrent(t, nullptr)) return true;
  return false;
}

// Paying or refusing a phase cost (T-13) is chosen as an instant: playing it
// marks it handled and asks its controller at once (a kPhaseCost frame).
void Game::AskPhaseCost(int todo) {
  PhaseTodo& t = turn_.phase_todo[todo];
  t.done = true;
  // Handled, paid or refused: the card's phase cost was used (as one
  // played as an instant is, StartCast).
  if (!t.granted) Used(t.card, (*db_)[t.card].PhaseBit(t.index));
  PhaseTodoCurrent(t, &t.cost);  // what it asks now (T-13)
  Push(Frame::NewPhaseCost(todo, t.controller));
  RunPhaseCost(timing_.frames.back());
}

// The frame: PhaseCostFrame. Pay the cost, or refuse it.
void Game::RunPhaseCost(Frame& f) {
  const int todo = f.phase_cost.todo;
  const PhaseTodo& t = turn_.phase_todo[todo];
  const Player p = f.phase_cost.player;
  timing_.decision.actions.clear();
  if (!t.granted) [[unlikely]]
    if (const FilterId sac = (*db_)[t.card].phase[t.index].sacrifice; sac != kNoFilter) {
      // T-13.3: the sacrifice in place of the mana (Lord of the Pit). It must
      // be paid while a permanent of the payer fits: a yes alone, then the
      // permanent (a sacrifice decision); with none, "if you can't": a no
      // alone, and the penalty.
      const FilterContext ctx = ContextFor(t.object.id, p, kNoWord);
      state_.ForEachPermanent([&](ObjId o) {
        if (Chars(o).controller == p && Matches(sac, o, ctx))
          timing_.decision.actions.push_back({ActionKind::kObject, o, static_cast<int16_t>(todo)});
      });
      if (f.pc == 1) {
        Decide(DecisionKind::kSacrifice, p);
        return;
      }
      const bool can = !timing_.decision.actions.empty();
      timing_.decision.actions.clear();
      timing_.decision.actions.push_back(
          {can ? ActionKind::kYes : ActionKind::kNo, t.object.id, static_cast<int16_t>(todo)});
      Decide(DecisionKind::kPhaseCost, p);
      return;
    }
  if (opt_.free_mana || CanPay(p, t.cost, 0, t.object.id))
    timing_.decision.actions.push_back({ActionKind::kYes, t.object.id, static_cast<int16_t>(todo)});
  // T-13.2: life in place of the mana (Erosion), while the player has that
  // much: a second yes, its value 1.
  if (!t.granted)
    if (const int life = (*db_)[t.card].phase[t.index].or_life;
        life > 0 && state_.players[p].life >= life)
      timing_.decision.actions.push_back(
          {ActionKind::kYes, t.object.id, static_cast<int16_t>(todo), 1});
  timing_.decision.actions.push_back({ActionKind::kNo, t.object.id, static_cast<int16_t>(todo)});
  Decide(DecisionKind::kPhaseCost, p);
}

void Game::ApplyPhaseCost(Frame& f, const Action& a) {
  // Paid, or the penalty now.
  const int todo = f.phase_cost.todo;
  PhaseTodo& t = turn_.phase_todo[todo];
  if (!t.granted && (*db_)[t.card].phase[t.index].sacrifice != kNoFilter) [[unlikely]] {
    // T-13.3: paid, its permanent is chosen next (RunPhaseCost); chosen,
    // the sacrifice is a move held like an effect's (E-1, E-3 A).
    if (a.kind == ActionKind::kYes) {
      f.pc = 1;
      return;
    }
    if (a.kind == ActionKind::kObject) {
      timing_.frames.pop_back();
      Note(LogKind::kInfo, kNoPlayer, kNoObj, kNoObj, 0, [&] {
        return std::string(absl::StrCat(Who(t.controller), " sacrifices ", ObjectName(a.object),
                                        " for the phase cost of ", ObjectName(t.object.id)));
      });
      EffectMove(&a.object, 1, Zone::kGraveyard);
      return;
    }
  }
  timing_.frames.pop_back();
  if (a.kind == ActionKind::kYes && a.value == 1) {
    // T-13.2: paid in life (a loss held for its responses and
    // replacements, as life paid for an ability's cost, E-1).
    const int life = (*db_)[t.card].phase[t.index].or_life;
    Note(LogKind::kInfo, kNoPlayer, kNoObj, kNoObj, 0, [&] {
      return std::string(absl::StrCat(Who(t.controller), " pays ", life,
                                      " life for the phase cost of ", ObjectName(t.object.id)));
    });
    if (Holds(EventKind::kLifeChange)) {
      EffectLifeChange(t.controller, -life);
      return;
    }
    LoseLife(t.controller, life);
    return;
  }
  if (a.kind == ActionKind::kYes) {
    Audit(AuditPoint::kPhaseCostPaying, todo);
    if (!opt_.free_mana) Pay(t.controller, t.cost, 0, t.object.id);
    Audit(AuditPoint::kPhaseCostPaid, todo);
    Note(LogKind::kInfo, kNoPlayer, kNoObj, kNoObj, 0, [&] {
      return std::string(
          absl::StrCat(Who(t.controller), " pays the phase cost of ", ObjectName(t.object.id)));
    });
    // T-13.1: paid for what it does, which happens at once.
    if (!t.granted && (*db_)[t.card].phase[t.index].reward) ResolvePhaseBody(t);
    return;
  }
  // Refused: a penalty happens at once; a reward, nothing (T-13.1).
  if (!t.granted && (*db_)[t.card].phase[t.index].reward) {
    Note(LogKind::kInfo, kNoPlayer, kNoObj, kNoObj, 0, [&] {
      return std::string(
          absl::StrCat(Who(t.controller), " does not pay for ", ObjectName(t.object.id)));
    });
    return;
  }
  Note(LogKind::kInfo, kNoPlayer, kNoObj, kNoObj, 0, [&] {
    return std::string(absl::StrCat(Who(t.controller), " does not pay the phase cost of ",
                                    ObjectName(t.object.id)));
  });
  ResolvePhaseBody(t);
}

// The penalty (T-13) or the reward (T-13.1) of phase cost t, at once.
void Game::ResolvePhaseBody(const PhaseTodo& t) {
  StackItem item;
  PhaseItem(t, item);
  item.controller = t.controller;
  item.serial = stack_.next_serial++;
  ReadSourceValues(item);
  stack_.items.push_back(item);
  Push(Frame::NewResolve(static_cast<int32_t>(stack_.items.size() - 1)));
}

}  // namespace strata
