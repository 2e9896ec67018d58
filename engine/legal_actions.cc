// What may be played now (RULES.md T-5, T-9, and the windows of T-2, T-3,
// T-4, T-8, E-3 C): the body of a spell or ability, sorcery speed, the kinds
// of bodies each window takes, legal targets (shroud, protection).
// Scenarios: tests/scenarios/t5_*, t9_*.

#include <optional>

#include "engine/game_internal.h"

namespace strata {

const AbilityBody* Game::OtherBodyOf(const CardDef& card, const StackItem& item) const {
  switch (item.from) {
    case BodySource::kSpell:
    case BodySource::kActivated:
      break;  // BodyOf's own, inline: never asked here
    case BodySource::kTrigger:
      return &card.triggers[item.ability].body;
    case BodySource::kPhase:
      return &card.phase[item.ability].body;
    case BodySource::kGrantedPhase:
      return &card.granted_phase[item.ability].body;
    case BodySource::kEnters:
      return &card.enters.body;
    case BodySource::kNextTime:
      return &card.next_times[item.ability].body;
    case BodySource::kDelayed:
      return nullptr;
  }
  return nullptr;
}

// The body in effect: the chosen mode of a modal body.
const AbilityBody* Game::ModeBody(const StackItem& item) const {
  const AbilityBody* b = BodyOf(item);
  if (b && !b->modes.empty()) return item.mode >= 0 ? &b->modes[item.mode] : nullptr;
  return b;
}

// May a body (or mode) be played this way? Interrupts that target spells are
// played only while a spell is being cast (T-8); otherwise as instants (T-9).
// Reactions only at their occurrence (E-3 C); prevention in T-4 steps too.
bool BodyAllowed(const AbilityBody& b, int play, Reaction reaction) {
  switch (play) {
    case 0:
      return b.reaction == Reaction::kNone && !b.TargetsSpell();
    case 1:
      return b.TargetsSpell();
    default:
      if (reaction == Reaction::kNone) return b.prevention;
      return b.reaction == reaction;
  }
}

bool Game::HasLegalTargets(const StackItem& item, const AbilityBody& body) const {
  for (int slot = 0; slot < static_cast<int>(body.targets.size()); ++slot) {
    const TargetRule rule = TargetRuleOf(item, slot);
    if (rule.none) return false;
    // Players first (one check: a slot takes both or neither), then only the
    // objects in the zones the target's filter reaches (an object elsewhere
    // never matches it).
    const bool player =
        rule.modal ? TargetLegal(item, slot, Target{Target::kPlayer, {}, 0}) : rule.TakesPlayers();
    if (!player && !SomeObjectTargetLegal(item, slot, rule)) {
      if (body.targets[slot].min == 0) [[unlikely]]
        continue;  // T-8.5: exactly X targets, X = 0 has none
      return false;
    }
    // T-8.2: "two target artifacts": as many distinct legal targets.
    if (body.targets[slot].min > 1 && !player) [[unlikely]] {
      const FilterContext ctx = ContextFor(rule.source, item.controller, kNoWord);
      int n = 0;
      ForEachTargetCandidate(item, slot, [&](ObjId t) {
        n += ObjectTargetLegal(item, slot, rule, ctx, state_.Ref(t));
      });
      if (n < body.targets[slot].min) return false;
    }
  }
  return true;
}

bool Game::SomeObjectTargetLegal(const StackItem& item, int slot, const TargetRule& rule) const {
  const FilterContext ctx = ContextFor(rule.source, item.controller, kNoWord);
  bool any = false;
  ForEachTargetCandidate(item, slot, [&](ObjId t) {
    any = any || ObjectTargetLegal(item, slot, rule, ctx, state_.Ref(t));
  });
  return any;
}

// Whether the body, or one of its modes, may be played in this window.
static bool SomeModeAllowed(const AbilityBody& body, int play, Reaction reaction) {
  if (body.modes.empty()) return BodyAllowed(body, play, reaction);
  for (const AbilityBody& mode : body.modes)
    if (BodyAllowed(mode, play, reaction)) return true;
  return false;
}

// What an untargeted reaction acts on: its source, or the object the source
// is attached to when the body regenerates `enchanted` (an Aura's "{G}:
// Regenerate enchanted creature": E-3 C, the creature headed to the
// graveyard is the enchanted one, not the Aura).
ObjId Game::ReactionSubject(const StackItem& probe, const AbilityBody& b) const {
  if (probe.source == kNoObj) return kNoObj;
  for (const EffectStep& st : b.steps)
    if (st.op == Op::kRegenerate && st.target.kind == Ref::kEnchanted)
      return state_.obj.attached_to[probe.source];
  return probe.source;
}

// T-5.2: a spell limited to a player's turn and the phases after one.
bool Game::SpellTime(const CardDef& card, Player p) const {
  if (card.spell_turn >= 0 && (p == state_.active) != (card.spell_turn == 0)) return false;
  return card.spell_after_phase < 0 || static_cast<int>(state_.phase) > card.spell_after_phase;
}

bool Game::CanStart(Player p, const StackItem& probe, Play play, Reaction reaction,
                    ObjId about) const {
  const GameState& s = state_;
  const AbilityBody* body = BodyOf(probe);
  // The window's part of the last test below, asked before the cost: the
  // same answer, sooner.
  auto WindowTakes = [&](const AbilityBody& b) {
    return (FastPhaseOf(s.phase) || play == kPlayImmediate) && SomeModeAllowed(b, play, reaction);
  };
  bool fast_timing = true;
  if (probe.from == BodySource::kSpell) {
    const CardDef& card = (*db_)[probe.body_card];
    if (Has(card.types, kLand)) return false;
    bool fast = Has(card.types, kInstant) || Has(card.types, kInterrupt) ||
                Has(Chars(probe.card).keywords, kFlash);
    if (!fast) {
      // T-5: sorceries and permanents start a batch in their controller's
      // main phase, from the neutral state.
      if (play != kPlayBatch || p != s.active || s.phase != Phase::kMain || !stack_.batch.empty())
        return false;
      bool neutral = !timing_.frames.empty() && timing_.frames.back().kind == FrameKind::kNeutral &&
                     !timing_.frames.back().neutral.in_attack;
      if (!neutral) return false;
      fast_timing = false;
    }
    // T-5.2: "only during an opponent's turn after their upkeep" (Reset).
    if (card.SpellTimeLimited() &&
        (!SpellTime(card, p) || (card.spell_before_attackers && !BeforeAttackers()))) [[unlikely]]
      return false;
    if (!body) {
      // A permanent spell: an Aura needs something to enchant.
      if (card.enchant != kNoFilter && !SomeObjectTargetLegal(probe, 0, TargetRuleOf(probe, 0)))
        return false;
      if (play != kPlayBatch) return false;
      ManaCost scratch;
      if (!opt_.free_mana && !CanPay(p, ProbeSpellCost(probe, scratch), 0, kNoObj)) return false;
      return true;
    }
    if (!WindowTakes(*body)) return false;
    ManaCost scratch;
    if (!opt_.free_mana && !CanPay(p, ProbeSpellCost(probe, scratch), 0, kNoObj)) return false;
  } else if (probe.from == BodySource::kActivated) {
    const Characteristics& ch = Chars(probe.source);
    const CardDef& card = (*db_)[probe.body_card];
    const ActivatedAbility& a = card.activated[probe.ability];
    if (a.mana_ability && !a.manual_mana) return false;  // paid automatically (T-10)
    if (a.sorcery &&
        (play != kPlayBatch || p != s.active || s.phase != Phase::kMain || !stack_.batch.empty() ||
         timing_.frames.empty() || timing_.frames.back().kind != FrameKind::kNeutral ||
         timing_.frames.back().neutral.in_attack))
      return false;  // equip: only as a sorcery
    if (!ActivationTime(a, p)) return false;
    // T-5.1: "only if you have exactly N cards in hand" (Library of Alexandria).
    if (a.only_hand_size >= 0 && static_cast<int>(s.players[p].hand.size()) != a.only_hand_size)
      return false;
    if (!Has(ch.abilities, card.ActivatedBit(probe.ability))) return false;
    if (PhaseCostPending(probe.source)) return false;  // T-13
    if (a.tap && (s.obj.tapped[probe.source] || SummoningSick(probe.source))) return false;
    if (a.discard > static_cast<int>(s.players[p].hand.size())) return false;
    if (a.life > s.players[p].life) return false;
    // G-8: the counters the cost removes are on it.
    if (a.remove_counters > 0 &&
        CountersOf(probe.source, a.remove_counter_kind) < a.remove_counters)
      return false;
    if (a.sacrifice != kNoFilter) {  // T-8.1: a permanent to sacrifice
      const FilterContext ctx = ContextFor(probe.source, p, kNoWord);
      bool any = false;
      s.ForEachPermanent([&](ObjId o) {
        any = any || (Chars(o).controller == p && Matches(a.sacrifice, o, ctx));
      });
      if (!any) return false;
    }
    if (a.manual_mana) [[unlikely]] {
      // T-10.2: a mana ability the payment does not use is offered wherever
      // its controller may play something (never in the untap or cleanup
      // phase), its mana cost payable.
      return (FastPhaseOf(s.phase) || play == kPlayImmediate) &&
             (opt_.free_mana || CanPay(p, a.cost, 0, a.tap ? probe.source : kNoObj));
    }
    // T-5.3, T-5.4: "no more than N times each turn", "only if you've
    // controlled it since your turn began" (never on a mana ability).
    // T-5.7: "only during an opponent's turn, before attackers are declared".
    if (a.limited && (!ActivationAllowedThisTurn(a, probe.source, probe.ability) ||
                      (a.before_attackers && !BeforeAttackers()) ||
                      (a.only_opponents_turn && p == s.active))) [[unlikely]]
      return false;
    if (!WindowTakes(a.body)) return false;
    if (!opt_.free_mana && !CanPay(p, a.cost, 0, a.tap ? probe.source : kNoObj)) return false;
  }
  (void)fast_timing;
  if (!FastPhaseOf(s.phase) && play != kPlayImmediate) return false;
  if (!body) return false;
  auto fits = [&](const AbilityBody& b, int mode) {
    if (!BodyAllowed(b, play, reaction)) return false;
    StackItem item = probe;
    item.mode = static_cast<int8_t>(mode);
    if (!HasLegalTargets(item, b)) return false;
    if (play == kPlayImmediate && reaction != Reaction::kNone && about != kNoObj) {
      // A reaction is about the object of the occurrence: it targets it, or
      // it is the object's own ability (Drudge Skeletons), or an ability of
      // the Aura on it that regenerates the creature it enchants
      // (Regeneration, The Brute).
      bool targets_about = false;
      for (int slot = 0; slot < static_cast<int>(b.targets.size()); ++slot)
        ForEachTargetCandidate(item, slot, [&](ObjId t) {
          targets_about = targets_about ||
                          (AboutMatches(t, about) &&
                           TargetLegal(item, slot, Target{Target::kObject, s.Ref(t), kNoPlayer}));
        });
      if (b.targets.empty() && !AboutMatches(ReactionSubject(probe, b), about)) return false;
      if (!b.targets.empty() && !targets_about) return false;
    }
    return true;
  };
  if (body->modes.empty()) return fits(*body, -1);
  for (int m = 0; m < static_cast<int>(body->modes.size()); ++m)
    if (fits(body->modes[m], m)) return true;
  return false;
}

const Game::Activatable& Game::RebuildActivatable() const {
  for (ObjBits& mine : activatable_.by_player) mine.Clear();
  for (ObjBits& mine : activatable_.mana) mine.Clear();
  activatable_.triggering.Clear();
  state_.ForEachPermanent([&](ObjId o) { activatable_.Add(*db_, o, PermanentChars(o)); });
  activatable_.version = cache_.version;
  return activatable_;
}

void Game::AddPlayableActions(Player p, DecisionKind kind, Reaction reaction, ObjId about) {
  const GameState& s = state_;
  Play play = kind == DecisionKind::kInterrupt                                     ? kPlayInterrupt
              : (kind == DecisionKind::kNeutral || kind == DecisionKind::kRespond) ? kPlayBatch
                                                                                   : kPlayImmediate;
  // A card none of whose bodies this kind of window takes is skipped.
  const uint8_t window = WindowBit(play, reaction);
  // One probe for every candidate, spells first, built at the first and its
  // kind and object set per candidate (an item is 100 bytes to build, and
  // most listings find nothing to ask about).
  std::optional<StackItem> built;
  auto probe = [&]() -> StackItem& {
    if (!built) built.emplace().controller = p;
    return *built;
  };
  // T-5: out of its controller's main phase and neutral state, a spell that
  // is not an instant or an interrupt and has no flash is left out before a
  // probe (CanStart's own first test); most windows of a game are such.
  const bool sorcery_time = play == kPlayBatch && p == s.active && s.phase == Phase::kMain &&
                            stack_.batch.empty() && !timing_.frames.empty() &&
                            timing_.frames.back().kind == FrameKind::kNeutral &&
                            !timing_.frames.back().neutral.in_attack;
  // A spell with more symbols in its printed cost than the player has mana
  // in all is left out before a probe too (CanPay's own first test) where
  // it costs what it prints: most candidates the random player meets. The
  // mana is counted at the first candidate (most listings have none); where
  // a rule changes costs, or mana is free, there is no such test.
  constexpr int kUncounted = -1, kNoTest = std::numeric_limits<int>::max();
  int mana_total = kUncounted;
  for (ObjId o : s.players[p].hand) {
    const CardDb::Hot& hot = db_->HotOf(s.obj.card[o]);
    if (!(hot.spell_windows & window)) continue;
    if (!sorcery_time && !hot.fast && !Has(Chars(o).keywords, kFlash)) continue;
    if (mana_total == kUncounted)
      mana_total = !opt_.free_mana && Rules(p).PrintedCosts() ? KeptSupply(p).total : kNoTest;
    if (hot.symbols > mana_total) continue;
    StackItem& spell = probe();
    spell.from = BodySource::kSpell;
    spell.card = o;
    spell.body_card = s.obj.card[o];
    if (CanStart(p, spell, play, reaction, about))
      timing_.decision.actions.push_back({ActionKind::kCast, o});
  }
  ActivatablePermanents().by_player[p].ForEach(s.obj.count, [&](ObjId o) {
    const Characteristics& ch = PermanentChars(o);
    const CardDef& card = (*db_)[ch.card];
    if (!(card.ability_windows & window)) return;
    for (int i = 0; i < static_cast<int>(card.activated.size()); ++i) {
      StackItem& ability = probe();
      ability.from = BodySource::kActivated;
      ability.card = kNoObj;
      ability.source = o;
      ability.body_card = ch.card;
      ability.ability = static_cast<int16_t>(i);
      if (CanStart(p, ability, play, reaction, about))
        timing_.decision.actions.push_back({ActionKind::kActivate, o, static_cast<int16_t>(i)});
    }
  });
  // Phase effects and phase costs are played as instants (T-12, T-13).
  if (play == kPlayBatch) {
    // G-8.4: the other player's abilities any player may activate (cold).
    if (turn_.any_player_cards) [[unlikely]]
      AddAnyPlayerActions(p, kPlayBatch, Reaction::kNone, kNoObj);
    for (int i = 0; i < static_cast<int>(turn_.phase_todo.size()); ++i) {
      const PhaseTodo& t = turn_.phase_todo[i];
      if (t.controller != p || !PhaseTodoPlayable(t)) continue;
      timing_.decision.actions.push_back(
          {ActionKind::kPhaseEffect, t.object.id, static_cast<int16_t>(i), t.is_cost});
    }
  }
}

// G-8.4: "any player may activate this ability" (Armageddon Clock): the other
// player's permanents' such abilities, paid and controlled by p, played as
// instants alone, in batch windows (the loader refuses other bodies).
// Called in batch windows alone (the loader refuses other bodies).
void Game::AddAnyPlayerActions(Player p, Play play, Reaction reaction, ObjId about) {
  const uint8_t window = WindowBit(play, reaction);
  StackItem ability;
  ability.controller = p;
  ability.from = BodySource::kActivated;
  ActivatablePermanents().by_player[Opponent(p)].ForEach(state_.obj.count, [&](ObjId o) {
    const Characteristics& ch = PermanentChars(o);
    const CardDef& card = (*db_)[ch.card];
    if (!(card.mana_cards & CardDef::kAnyPlayer) || !(card.ability_windows & window)) return;
    for (int i = 0; i < static_cast<int>(card.activated.size()); ++i) {
      if (!card.activated[i].any_player) continue;
      ability.source = o;
      ability.body_card = ch.card;
      ability.ability = static_cast<int16_t>(i);
      if (CanStart(p, ability, play, reaction, about))
        timing_.decision.actions.push_back({ActionKind::kActivate, o, static_cast<int16_t>(i)});
    }
  });
}

bool Game::ActionProbe(const Action& a, Player p, int mode, StackItem& probe) const {
  probe.controller = p;
  probe.mode = static_cast<int8_t>(mode);
  if (a.kind == ActionKind::kCast) {
    probe.card = a.object;
    probe.body_card = state_.obj.card[a.object];
    probe.from = BodySource::kSpell;
  } else if (a.kind == ActionKind::kActivate) {
    probe.source = a.object;
    probe.body_card = Chars(a.object).card;
    probe.from = BodySource::kActivated;
    probe.ability = a.index;
  } else {
    return false;
  }
  // A mode the body does not have targets nothing (ModeBody would read
  // past its modes).
  const AbilityBody* body = BodyOf(probe);
  return mode < 0 || !body || body->modes.empty() || mode < static_cast<int>(body->modes.size());
}

bool Game::CouldTarget(const Action& a, Player p, int slot, const Target& t, int mode) const {
  StackItem probe;
  return ActionProbe(a, p, mode, probe) && TargetLegal(probe, slot, t);
}

// TargetLegal's first half, done once: what ObjectTargetLegal then needs
// (a modal or empty rule it answers itself).
Game::ObjectTargets::ObjectTargets(const Game& game, const Action& a, Player p, int slot, int mode)
    : game_(&game), slot_(slot) {
  acts_ = game.ActionProbe(a, p, mode, probe_);
  if (!acts_) return;
  rule_ = game.TargetRuleOf(probe_, slot);
  ctx_ = game.ContextFor(rule_.source, p, kNoWord);
}

uint8_t Game::TargetZones(const StackItem& item, int slot) const {
  // The filter TargetLegal reads, found the same way.
  const CardDef& card = (*db_)[item.body_card];
  if (item.from == BodySource::kSpell && !card.has_spell && card.enchant != kNoFilter)
    return db_->filter(card.enchant).zones;
  if (const AbilityBody* body = ModeBody(item))
    return slot < static_cast<int>(body->targets.size())
               ? db_->filter(body->targets[slot].filter).zones
               : 0;
  const AbilityBody* b = BodyOf(item);
  uint8_t zones = 0;
  if (b)
    for (const AbilityBody& mode : b->modes)
      if (slot < static_cast<int>(mode.targets.size()))
        zones |= db_->filter(mode.targets[slot].filter).zones;
  return zones;
}

Game::TargetRule Game::TargetRuleOf(const StackItem& item, int slot) const {
  TargetRule rule;
  rule.source = item.card != kNoObj ? item.card : item.source;
  const CardDef& card = (*db_)[item.body_card];
  if (item.from == BodySource::kSpell && !card.has_spell && card.enchant != kNoFilter) {
    rule.filter = card.enchant;
    rule.what = TargetWhat::kPermanent;
    return rule;
  }
  const AbilityBody* body = ModeBody(item);
  if (!body) {
    // A modal body before its mode is chosen (ModeBody finds no other).
    (BodyOf(item) ? rule.modal : rule.none) = true;
    return rule;
  }
  if (slot >= static_cast<int>(body->targets.size())) {
    rule.none = true;
    return rule;
  }
  rule.filter = body->targets[slot].filter;
  rule.what = body->targets[slot].what;
  return rule;
}

bool Game::TargetLegal(const StackItem& item, int slot, const Target& t) const {
  const TargetRule rule = TargetRuleOf(item, slot);
  if (rule.modal) {
    // Legal for some mode.
    const AbilityBody* b = BodyOf(item);
    for (int m = 0; m < static_cast<int>(b->modes.size()); ++m) {
      StackItem probe = item;
      probe.mode = static_cast<int8_t>(m);
      if (TargetLegal(probe, slot, t)) return true;
    }
    return false;
  }
  if (rule.none) return false;
  if (t.kind == Target::kPlayer) return rule.TakesPlayers();
  if (t.kind != Target::kObject) return false;
  return ObjectTargetLegal(item, slot, rule, ContextFor(rule.source, item.controller, kNoWord),
                           t.obj);
}

bool Game::ObjectTargetLegal(const StackItem& item, int slot, const TargetRule& rule,
                             const FilterContext& ctx, ObjRef obj) const {
  if (rule.modal) return TargetLegal(item, slot, Target{Target::kObject, obj, kNoPlayer});
  if (rule.none) return false;
  const GameState& s = state_;
  if (!s.Alive(obj)) return false;
  ObjId o = obj.id;
  if (o == item.card) return false;  // a spell never targets itself
  switch (rule.what) {
    case TargetWhat::kPlayer:
      return false;
    case TargetWhat::kSpell: {
      // Interrupts target only the spell being cast (T-8): the innermost casting.
      bool being_cast = false;
      for (auto it = timing_.frames.rbegin(); it != timing_.frames.rend(); ++it)
        if (it->kind == FrameKind::kInterrupts) {
          const StackItem& cast = stack_.items[it->interrupts.item];
          being_cast =
              cast.card == o && SpellOnStack(cast) && cast.card_incarnation == obj.incarnation;
          break;
        }
      if (!being_cast || s.obj.zone[o] != Zone::kStack) return false;
      break;
    }
    case TargetWhat::kCreatureOrPlayer:
      if (s.obj.zone[o] != Zone::kBattlefield || !Chars(o).IsCreature()) return false;
      break;
    default:
      break;
  }
  if (!Matches(rule.filter, o, ctx)) return false;
  if (rule.filter != kNoFilter && db_->filter(rule.filter).mana_value_x) {
    // "With mana value X" (Detonate): targets are chosen before X (T-8), so
    // until then one whose X can be paid; then, the X chosen.
    const int mv = ManaValueOf(o);  // a spell's X counts (T-8.3)
    if (item.x_chosen ? mv != item.x : mv > MaxPayableX(item)) return false;
  }
  if (s.obj.zone[o] == Zone::kBattlefield) {
    const Characteristics& ch = Chars(o);
    if (Has(ch.keywords, kShroud)) return false;
    if (ProtectedFrom(ch, ctx.text ? ctx.text->colors : 0)) return false;
  }
  return true;
}

// T-5.3: the times an ability of the object, as it is, was activated this
// turn (entries of another turn, or of the object's earlier incarnation,
// count none).
// The entry of the object as it is and its ability: one at most, of this
// turn or an older one (CountActivation drops older ones as it adds).
int Game::FindActivation(ObjId source, int index) const {
  const auto& v = turn_.activations;
  for (size_t i = 0; i < v.size(); ++i)
    if (v[i].object == source && v[i].ability == index &&
        v[i].incarnation == state_.obj.incarnation[source])
      return static_cast<int>(i);
  return -1;
}

int Game::ActivationsThisTurn(ObjId source, int index) const {
  const int i = FindActivation(source, index);
  if (i < 0 || turn_.activations[i].turn != state_.turn) return 0;
  return turn_.activations[i].count;
}

bool Game::ActivationAllowedThisTurn(const ActivatedAbility& a, ObjId source, int index) const {
  // T-5.3: "activate no more than N times each turn" (Vampire Bats: two).
  if (a.per_turn > 0 && ActivationsThisTurn(source, index) >= a.per_turn) return false;
  // T-5.4: "only if you've controlled it continuously since your most
  // recent turn began" (Rocket Launcher): the sickness of T-7, read for any
  // permanent (haste or not: it speaks of control, not of attacks and {T}).
  if (a.since_turn_began && !ControlledSinceTurnBegan(source, Chars(source).controller))
    return false;
  return true;
}

// T-5.3: an activation of a limited ability counted as it is announced
// (countered or not, it was activated). Entries of past turns are dropped.
void Game::CountActivation(ObjId source, int index) {
  auto& v = turn_.activations;
  std::erase_if(v, [&](const TurnState::Activation& e) { return e.turn != state_.turn; });
  if (const int i = FindActivation(source, index); i >= 0) {
    ++v[i].count;
    return;
  }
  v.push_back(
      {state_.turn, source, state_.obj.incarnation[source], static_cast<int16_t>(index), 1});
}

// T-5.7: "before attackers are declared": a phase up to the main phase (the
// attack is in it, T-6), while the active player's attack has not begun
// this turn (once it has, attackers are declared with no window between).
bool Game::BeforeAttackers() const {
  return state_.phase <= Phase::kMain && !combat_.attacked[state_.active];
}

}  // namespace strata
