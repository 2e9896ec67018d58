// Casting (RULES.md T-8): announce, mode, targets, X, choices and costs; the
// interrupt windows every casting gets (the caster decides first, a counter
// war nests windows); "when cast" triggers on success; countering.
// Scenarios: tests/scenarios/t8_*.

#include <bit>

#include "engine/game_internal.h"

namespace strata {

// "When an opponent would cast a spell that targets a creature you
// control, change that target to this creature" (seed 003: a "when ...
// would" effect comes after the choice is indicated and before it takes
// effect): resolving as a before trigger of a cast, it changes the targets
// of the spell held for it (the innermost casting of the occurrence's
// object) that match `from`, each to `to` where that is a legal target of
// its spec and not already one of them; else that target stays.
void Game::ChangeHeldTargets(const StackItem& trigger, Target to, FilterId from) {
  if (trigger.event < 0) return;
  const Occurrence& e = Event(trigger.event);
  if (!e.before || e.object == kNoObj) return;
  if (e.kind == EventKind::kBlock) {
    if (to.kind == Target::kObject) ChangeHeldBlock(trigger, e, to.obj.id, from);
    return;
  }
  if (e.kind != EventKind::kCast) return;
  for (auto f = timing_.frames.rbegin(); f != timing_.frames.rend(); ++f) {
    if (f->kind != FrameKind::kCast) continue;
    StackItem& spell = stack_.items[f->cast.item];
    if (spell.card != e.object || state_.obj.incarnation[e.object] != e.incarnation) continue;
    const ObjId src = trigger.card != kNoObj ? trigger.card : trigger.source;
    const FilterContext ctx = ContextFor(src, trigger.controller, kNoWord);
    auto same = [](const Target& a, const Target& b) {
      return a.kind == b.kind &&
             (a.kind == Target::kPlayer ? a.player == b.player : a.obj == b.obj);
    };
    for (int i = 0; i < spell.target_count; ++i) {
      Target& t = i < 4 ? spell.targets[i] : stack_.more_targets[spell.more + i - 4].target;
      if (t.kind != Target::kObject || !state_.Alive(t.obj) || !Matches(from, t.obj.id, ctx) ||
          same(t, to))
        continue;
      bool taken = false;
      for (int k = 0; k < spell.target_count; ++k)
        taken |= SlotAt(spell, k) == SlotAt(spell, i) && same(TargetAt(spell, k), to);
      if (taken || !TargetLegal(spell, SlotAt(spell, i), to)) continue;
      const Target was = t;
      t = to;
      Note(LogKind::kInfo, kNoPlayer, src, kNoObj, 0, [&] {
        return absl::StrCat(ObjectName(spell.card), "'s target ", ObjectName(was.obj.id),
                            " becomes ",
                            to.kind == Target::kPlayer ? Who(to.player) : ObjectName(to.obj.id));
      });
    }
    return;
  }
}

void Game::StartCast(Player p, const Action& a, Play play, ObjId about) {
  StackItem item;
  item.controller = p;
  item.serial = stack_.next_serial++;
  if (a.kind == ActionKind::kCast) {
    item.card = a.object;
    item.body_card = state_.obj.card[a.object];
    item.from = BodySource::kSpell;
    MoveTo(a.object, Zone::kStack, p);
    state_.obj.controller[a.object] = p;
    item.card_incarnation = state_.obj.incarnation[a.object];
    turn_.seen[a.object] |= kSeenCast;
    Used(item.body_card, -1);
    Note(LogKind::kCast, p, a.object, kNoObj, 0,
         [&] { return std::string(absl::StrCat(Who(p), " casts ", ObjectName(a.object))); });
    if (Observed(EventKind::kPlay)) Happened(Record(OccurrenceOf(EventKind::kPlay, p, a.object)));
  } else if (a.kind == ActionKind::kActivate) {
    item.source = a.object;
    item.body_card = Chars(a.object).card;
    item.from = BodySource::kActivated;
    item.ability = a.index;
    if ((*db_)[item.body_card].activated[a.index].counted) [[unlikely]]
      CountActivation(a.object, a.index);  // T-5.3, T-5.5
    Used(item.body_card, (*db_)[item.body_card].ActivatedBit(a.index));
    Note(LogKind::kActivate, p, a.object, kNoObj, a.index, [&] {
      return std::string(
          absl::StrCat(Who(p), " activates ", ObjectName(a.object), " ability ", a.index + 1));
    });
  } else {
    // A phase effect or phase cost played as an instant.
    PhaseTodo& t = turn_.phase_todo[a.index];
    t.done = true;  // played: handled for this phase, whatever becomes of it (T-12)
    PhaseItem(t, item);
    if (!t.granted) Used(t.card, (*db_)[t.card].PhaseBit(t.index));
    Note(LogKind::kInfo, kNoPlayer, kNoObj, kNoObj, 0, [&] {
      return std::string(absl::StrCat(Who(p), " handles the phase ", t.is_cost ? "cost" : "effect",
                                      " of ", ObjectName(t.object.id)));
    });
  }
  stack_.items.push_back(item);
  // The window it is played in is the frame that asked (the top one): a
  // prevention step inside a reaction window takes prevention, not the
  // reaction's kind (fuzz seed 36, game 8777: Healing Salve offered in such
  // a step had no mode to cast with).
  const Frame& window = timing_.frames.back();
  const Reaction reaction =
      window.kind == FrameKind::kReaction ? window.reaction.kind : Reaction::kNone;
  Push(Frame::NewCast(static_cast<int32_t>(stack_.items.size() - 1), play, reaction, about));
}

// T-10.2: a mana ability the payment does not use, activated as an action
// in any window its controller may play in: cast like an ability (its
// color chosen, its costs paid), never interrupted and never on the stack.
// The window that offered it asks the same player again once it is done.
void Game::ActivateManaAbility(Player p, const Action& a) {
  StartCast(p, a, kPlayImmediate, kNoObj);
}

// Its mana, at once, to its controller's pool (burnt at the phase's end
// unless spent, T-1.4).
void Game::AddManaNow(const StackItem& item) {
  const ActivatedAbility& a = (*db_)[item.body_card].activated[item.ability];
  auto& pool = state_.players[item.controller].pool;
  for (const EffectStep& st : a.body.steps) {
    int c = st.mana_colorless ? 5 : std::countr_zero(static_cast<unsigned>(st.mana_colors | 0x20));
    if (st.mana_chosen) {
      const Word w = static_cast<Word>(item.choice[0]);
      if (item.choice_count < 1 || !IsColorWord(w)) continue;
      c = w - kColorWordBase;
    }
    const int n = st.amount.constant;
    pool[c] = SaturatedAdd(pool[c], n);
    Note(LogKind::kMana, item.controller, item.source, kNoObj, n, [&] {
      return absl::StrCat(Who(item.controller), " adds ", n, " ", c == 5 ? "colorless" : "",
                          c < 5 ? WordName(ColorWord(c)) : "", " mana with ",
                          ObjectName(item.source));
    });
  }
}

// The values "source_power" and "source_toughness" (docs/cards.md), read
// once as the spell or ability is made, in every kind of body: a spell's
// own, on the stack; an ability's source as it is now, or, if it left play
// in the occurrence that triggered the ability, as it last was there (E-5).
void Game::ReadSourceValues(StackItem& item) const {
  const ObjId o = item.from == BodySource::kSpell ? item.card : item.source;
  if (o == kNoObj) return;
  const bool triggered = item.from == BodySource::kTrigger || item.from == BodySource::kNextTime;
  const Occurrence* left = triggered && item.event >= 0 && state_.obj.zone[o] != Zone::kBattlefield
                               ? LeftInGroup(o, item.event)
                               : nullptr;
  const Characteristics& ch = left ? left->last : Chars(o);
  item.source_power = static_cast<int16_t>(ch.power);
  item.source_toughness = static_cast<int16_t>(ch.toughness);
}

// The casting of one spell or ability (T-8): mode, targets, X, choices,
// costs, interrupts, then it is successfully cast and joins its batch.
// The frame: CastFrame.
void Game::RunCast(Frame& f) {
  StackItem& item = stack_.items[f.cast.item];
  const Play play = f.cast.play;
  const Reaction reaction = f.cast.reaction;
  const GameState& s = state_;
  const CardDef& card = (*db_)[item.body_card];
  const AbilityBody* body = BodyOf(item);
  timing_.decision.actions.clear();
  switch (f.pc) {
    case CastFrame::kMode:
      if (body && !body->modes.empty() && item.mode < 0) {
        // G-15: a trigger's mode ("choose one —", Relic Bind) is its
        // controller's choice among those with legal targets, whatever the
        // window: a trigger is played at once, not as a reaction.
        const bool trigger =
            item.from == BodySource::kTrigger || item.from == BodySource::kNextTime;
        for (int m = 0; m < static_cast<int>(body->modes.size()); ++m) {
          StackItem probe = item;
          probe.mode = static_cast<int8_t>(m);
          if ((trigger || BodyAllowed(body->modes[m],
                                      play == kPlayBatch       ? 0
                                      : play == kPlayInterrupt ? 1
                                                               : 2,
                                      reaction)) &&
              HasLegalTargets(probe, body->modes[m]))
            timing_.decision.actions.push_back({ActionKind::kNumber, kNoObj, 0, m + 1});
        }
        if (timing_.decision.actions.size() == 1) {
          item.mode = static_cast<int8_t>(timing_.decision.actions[0].value - 1);
        } else {
          Decide(DecisionKind::kChoice, item.controller);
          return;
        }
      }
      f.pc = CastFrame::kTargets;
      return;
    case CastFrame::kTargets: {
      const AbilityBody* b = ModeBody(item);
      int slots = b ? static_cast<int>(b->targets.size())
                    : (item.from == BodySource::kSpell && card.enchant != kNoFilter ? 1 : 0);
      if (item.slot >= slots) {
        f.pc = CastFrame::kX;
        return;
      }
      int max = b ? b->targets[item.slot].max : 1;
      const int min = b ? b->targets[item.slot].min : 1;  // T-8.2: exactly two, ...
      // T-8.5: exactly X targets: one more only while X = one more can be
      // paid; none at all is X = 0. (`max` is 20, X's bound, for such a spec.)
      int room = 4;
      if (min == 0) [[unlikely]]
        room = MaxPayableX(item) > item.in_slot ? item.target_count + 1 : item.target_count;
      // The slot's rule and its context found once for all the candidates.
      const TargetRule rule = TargetRuleOf(item, item.slot);
      const FilterContext ctx = ContextFor(rule.source, item.controller, kNoWord);
      // Chosen already: the item's four first, then (T-8.5, rare) the rest.
      const int in_item = std::min<int>(item.target_count, 4);
      auto chosen_already = [&](Target::Kind kind, ObjId o, Player pl) {
        auto same = [&](const Target& c) {
          return c.kind == kind && (kind == Target::kObject ? c.obj.id == o : c.player == pl);
        };
        bool chosen = false;
        for (int i = 0; i < in_item; ++i) chosen |= same(item.targets[i]);
        if (item.target_count > 4) [[unlikely]]
          for (int i = 4; i < item.target_count; ++i) chosen |= same(TargetAt(item, i));
        return chosen;
      };
      ForEachTargetCandidate(item, item.slot, [&](ObjId t) {
        const bool chosen = chosen_already(Target::kObject, t, kNoPlayer);
        if (!chosen && item.target_count < room &&
            ObjectTargetLegal(item, item.slot, rule, ctx, s.Ref(t)) &&
            (f.cast.about == kNoObj || play != kPlayImmediate || reaction == Reaction::kNone ||
             AboutMatches(t, f.cast.about)))
          timing_.decision.actions.push_back({ActionKind::kTargetObject, t});
      });
      for (Player pl = 0; pl < 2; ++pl) {
        const bool chosen = chosen_already(Target::kPlayer, kNoObj, pl);
        if (!chosen && item.target_count < room &&
            TargetLegal(item, item.slot, Target{Target::kPlayer, {}, pl}))
          timing_.decision.actions.push_back({ActionKind::kTargetPlayer, kNoObj, 0, pl});
      }
      if ((item.in_slot > 0 || min == 0) && item.in_slot >= min)
        timing_.decision.actions.push_back({ActionKind::kDone});
      if (item.in_slot >= max || timing_.decision.actions.empty() ||
          (timing_.decision.actions.size() == 1 &&
           timing_.decision.actions[0].kind == ActionKind::kDone)) {
        ++item.slot;
        item.in_slot = 0;
        return;
      }
      Decide(DecisionKind::kTarget, item.controller);
      return;
    }
    case CastFrame::kX: {
      f.pc = CastFrame::kChoices;
      ManaCost cost = TotalCost(item);
      if (cost.x_count > 0) {
        const int max_x = MaxPayableX(item);
        for (int x = 0; x <= max_x; ++x)
          if (XFitsTargets(item, x))
            timing_.decision.actions.push_back({ActionKind::kNumber, kNoObj, 0, x});
        Decide(DecisionKind::kX, item.controller);
      } else if (item.from == BodySource::kActivated &&
                 card.activated[item.ability].remove_counters_x) {
        // "Remove any number of counters" (G-8): X is how many, from none
        // to all those on it (at most 20, as a mana X).
        const ActivatedAbility& a = card.activated[item.ability];
        const int most = std::min(20, CountersOf(item.source, a.remove_counter_kind));
        for (int x = 0; x <= most; ++x)
          timing_.decision.actions.push_back({ActionKind::kNumber, kNoObj, 0, x});
        Decide(DecisionKind::kX, item.controller);
      } else {
        item.x_chosen = true;  // no X to choose: 0
      }
      return;
    }
    case CastFrame::kChoices: {
      const AbilityBody* b = ModeBody(item);
      ChoiceKind kind = b ? b->choose : ChoiceKind::kNone;
      int needed = kind == ChoiceKind::kNone ? 0
                   : (kind == ChoiceKind::kWordPair || kind == ChoiceKind::kCreatureTypePair ||
                      kind == ChoiceKind::kColorPair || kind == ChoiceKind::kLandTypePair)
                       ? 2
                       : 1;
      if (item.choice_count >= needed) {
        f.pc = CastFrame::kCosts;
        return;
      }
      auto word = [&](Word w) {
        timing_.decision.actions.push_back({ActionKind::kWord, kNoObj, 0, w});
      };
      if (kind == ChoiceKind::kSource) {
        // "A source of your choice" (T-4.1): a permanent, a spell on the
        // stack other than this one, or the source of damage waiting for
        // its prevention step (a spell that resolved, in the graveyard now).
        auto pending_source = [&](ObjId o) {
          for (const PendingDamage& d : damage_.pending)
            if (d.source == o) return true;
          return false;
        };
        for (ObjId o = 0; o < s.obj.count; ++o)
          if (s.obj.zone[o] == Zone::kBattlefield ||
              (s.obj.zone[o] == Zone::kStack && o != item.card) ||
              (s.obj.zone[o] != Zone::kNone && pending_source(o)))
            timing_.decision.actions.push_back({ActionKind::kObject, o, 0, o});
        if (timing_.decision.actions.empty()) {
          item.choice[item.choice_count++] = kNoObj;  // nothing to choose: nothing fits
          return;
        }
        Decide(DecisionKind::kChoice, item.controller);
        return;
      }
      switch (kind) {
        case ChoiceKind::kColor:
          for (int c = 0; c < kColorCount; ++c) word(ColorWord(c));
          break;
        case ChoiceKind::kBasicLandType:
          for (int c = 0; c < kColorCount; ++c) word(static_cast<Word>(BasicLandSubtype(c)));
          break;
        case ChoiceKind::kWordPair:
          for (int c = 0; c < kColorCount; ++c) word(ColorWord(c));
          for (int c = 0; c < kColorCount; ++c) word(static_cast<Word>(BasicLandSubtype(c)));
          break;
        case ChoiceKind::kColorPair:
          for (int c = 0; c < kColorCount; ++c) word(ColorWord(c));
          break;
        case ChoiceKind::kLandTypePair:
          for (int c = 0; c < kColorCount; ++c) word(static_cast<Word>(BasicLandSubtype(c)));
          break;
        default:
          for (int t = 0; t < SubtypeCount(); ++t)
            if (SubtypeKindOf(t) == SubtypeKind::kCreature) word(static_cast<Word>(t));
          break;
      }
      Decide(DecisionKind::kChoice, item.controller);
      return;
    }
    case CastFrame::kCosts: {
      // Costs (T-8): discards are chosen; then mana, tapping, life, sacrifice.
      Player p = item.controller;
      ReadSourceValues(item);  // before a cost sacrifices or taps the source
      if (item.from == BodySource::kSpell && !opt_.free_mana) {
        Audit(AuditPoint::kCostsPaying, f.cast.item);
        Pay(p, TotalCost(item), item.x, kNoObj);
        Audit(AuditPoint::kCostsPaid, f.cast.item);
      }
      if (item.from != BodySource::kActivated) {
        f.pc = CastFrame::kInterrupts;
        return;
      }
      const ActivatedAbility& a = card.activated[item.ability];
      if (a.discard > 0 && f.cast.discarded < a.discard && a.discard_random &&
          !s.players[p].hand.empty()) {
        // At random: the game's generator picks (T-8.1; Coral Helm).
        const auto& hand = s.players[p].hand;
        ObjId o = hand[rng_.Below(static_cast<uint32_t>(hand.size()))];
        Note(LogKind::kInfo, p, o, kNoObj, 0,
             [&] { return absl::StrCat(Who(p), " discards ", ObjectName(o), " at random"); });
        ++f.cast.discarded;                   // first: EffectMove may push a frame
        EffectMove(&o, 1, Zone::kGraveyard);  // held like an effect's (E-3)
        return;
      }
      if (a.discard > 0 && f.cast.discarded < a.discard) {
        for (ObjId o : s.players[p].hand)
          timing_.decision.actions.push_back({ActionKind::kObject, o});
        if (!timing_.decision.actions.empty()) {
          Decide(DecisionKind::kDiscard, p);
          return;
        }
      }
      if (!opt_.free_mana) {
        Audit(AuditPoint::kCostsPaying, f.cast.item);
        Pay(p, a.cost, item.x, a.tap ? item.source : kNoObj);
        Audit(AuditPoint::kCostsPaid, f.cast.item);
      }
      // G-8: the counters removed, with the mana (no occurrence: nothing
      // waits on a counter's removal).
      if (a.remove_counter_kind >= 0) {
        const int n = a.remove_counters_x ? item.x : a.remove_counters;
        if (n > 0) {
          RemoveCounters(item.source, a.remove_counter_kind, n);
          Note(LogKind::kInfo, p, item.source, kNoObj, n, [&] {
            return absl::StrCat(Who(p), " removes ", n, " ", a.remove_counter_name,
                                n == 1 ? " counter from " : " counters from ",
                                ObjectName(item.source));
          });
        }
      }
      // The {T}, life and sacrifice costs, in this order: each is held for
      // its "before" responses like an effect's (E-1), in a frame above,
      // and the next waits for it. The life and the sacrifice are held for
      // their replacements too (E-3 A), and a cost replaced is paid all the
      // same; the {T} is not: replaced, the permanent would stay untapped
      // and the cost unpaid, again and again.
      f.pc = CastFrame::kCostLife;  // first: a frame pushed can move `f`
      if (a.tap) {
        if (ListensBefore(EventKind::kTap)) {
          EffectTaps({item.source}, /*tapped=*/true, /*replaceable=*/false);
          return;
        }
        Tap(item.source, true);
      }
      [[fallthrough]];
    }
    case CastFrame::kCostLife: {
      const ActivatedAbility& a = card.activated[item.ability];
      f.pc = CastFrame::kCostSacrifice;  // first: a frame pushed can move `f`
      if (a.life) {
        if (Holds(EventKind::kLifeChange)) {
          EffectLifeChange(item.controller, -a.life);
          return;
        }
        LoseLife(item.controller, a.life);
      }
      [[fallthrough]];
    }
    case CastFrame::kCostSacrifice: {
      const ActivatedAbility& a = card.activated[item.ability];
      // first: EffectMove may push a frame
      f.pc = a.sacrifice != kNoFilter ? CastFrame::kCostSacrificeChosen : CastFrame::kInterrupts;
      if (a.sacrifice_self || a.exile_self) {
        // T-8.1: "Exile <this>" (Feldon's Cane) is paid as its sacrifice is.
        const ObjId source = item.source;
        EffectMove(&source, 1, a.exile_self ? Zone::kExile : Zone::kGraveyard);
      }
      return;
    }
    case CastFrame::kCostSacrificeChosen: {
      // "Sacrifice a <filter>" (T-8.1): its controller picks one of its
      // permanents that matches; the sacrifice is a move held like an
      // effect's (E-1, E-3 A). The ability was offered only with one there;
      // should none be left (a cost before it took it), nothing is.
      const ActivatedAbility& a = card.activated[item.ability];
      f.pc = CastFrame::kInterrupts;
      timing_.decision.actions.clear();
      const FilterContext ctx = ContextFor(item.source, item.controller, kNoWord);
      s.ForEachPermanent([&](ObjId o) {
        if (Chars(o).controller == item.controller && Matches(a.sacrifice, o, ctx))
          timing_.decision.actions.push_back({ActionKind::kObject, o});
      });
      if (timing_.decision.actions.empty()) return;
      f.pc = CastFrame::kCostSacrificeChosen;
      Decide(DecisionKind::kSacrifice, item.controller);
      return;
    }
    case CastFrame::kInterrupts:
      f.pc = CastFrame::kCastInstead;
      // Every casting can be interrupted (T-8; seed 000: interrupts "can
      // interrupt any casting, even if effects aren't generally usable at
      // the time"): spells and abilities for a batch, interrupts (a counter
      // war nests one window inside another), damage-prevention effects,
      // reactions, and phase effects played as instants. Triggered
      // abilities are not cast (E-3 B).
      // A mana ability can't be interrupted (T-10, T-10.2).
      if (item.from != BodySource::kTrigger && item.from != BodySource::kNextTime &&
          !(item.from == BodySource::kActivated && card.activated[item.ability].manual_mana))
        Push(Frame::NewInterrupts(f.cast.item));
      return;
    case CastFrame::kCastInstead:
      // The cast's replacements (E-3 A), before its "before" triggers. A
      // replacement that takes it leaves the spell not cast: its card goes
      // to the graveyard as a spell countered while being cast would (T-8;
      // strata's ruling, RULES.md silent), unless the replacement moved it.
      f.pc = CastFrame::kBeforeCast;
      if (item.from == BodySource::kSpell && ListensInstead(EventKind::kCast) && !item.countered &&
          SpellOnStack(item)) {
        Occurrence e = OccurrenceOf(EventKind::kCast, item.controller, item.card);
        e.phase = state_.phase;
        f.pc = CastFrame::kCastReplaced;  // first: a frame pushed can move `f`
        f.cast.instead_record = EventEnd();
        if (InsteadNow(e)) return;
        f.pc = CastFrame::kBeforeCast;
      }
      [[fallthrough]];
    case CastFrame::kCastReplaced:
      if (f.pc == CastFrame::kCastReplaced) {
        f.pc = CastFrame::kBeforeCast;
        if (TakenAtStepA(f.cast.instead_record)) {
          ReplaceCast(f.cast.item);
          return;
        }
      }
      [[fallthrough]];
    case CastFrame::kBeforeCast:
      // "Before a spell is cast" (E-1): once its interrupts are over, before
      // it is successfully cast; a spell countered meanwhile is not cast,
      // and sets off nothing.
      f.pc = CastFrame::kCast;
      if (item.from == BodySource::kSpell && ListensBefore(EventKind::kCast) && !item.countered &&
          SpellOnStack(item)) {
        Occurrence e = OccurrenceOf(EventKind::kCast, item.controller, item.card);
        if (BeforeNow(e)) return;
      }
      [[fallthrough]];
    case CastFrame::kCast: {
      if (item.countered || (item.card != kNoObj && !SpellOnStack(item))) {
        timing_.frames.pop_back();
        return;
      }
      f.pc = CastFrame::kJoin;
      if (item.from == BodySource::kSpell) {
        // Successfully cast: its "when cast" triggers (Iron Star) are
        // processed now, before it joins its batch (T-8), even when it is an
        // interrupt inside another casting.
        const int before = static_cast<int>(occ_.queued.size());
        if (Observed(EventKind::kCast)) {
          Occurrence e = OccurrenceOf(EventKind::kCast, item.controller, item.card);
          e.held = ListensInstead(EventKind::kCast);  // through its step A (E-3)
          Happened(Record(e));
        }
        TriggersNow(before);
      }
      return;
    }
    case CastFrame::kJoin: {
      const int idx = f.cast.item;
      timing_.frames.pop_back();
      if (stack_.items[idx].countered) return;
      if (stack_.items[idx].from == BodySource::kActivated &&
          card.activated[stack_.items[idx].ability].manual_mana) [[unlikely]] {
        AddManaNow(stack_.items[idx]);  // T-10.2: never on the stack
        return;
      }
      stack_.outcomes.push_back({stack_.items[idx].serial, Outcome::kPending});
      if (play == kPlayBatch) {
        stack_.batches += stack_.batch.empty();
        stack_.batch.push_back(idx);
      } else if (play == kPlayInterrupt)
        stack_.ibatch.push_back(idx);
      else
        Push(Frame::NewResolve(idx));
      return;
    }
  }
}

void Game::ApplyCast(Frame& f, const Action& a) {
  GameState& s = state_;
  StackItem& item = stack_.items[f.cast.item];
  switch (timing_.decision.kind) {
    case DecisionKind::kChoice:
      if (f.pc == CastFrame::kMode) {
        item.mode = static_cast<int8_t>(a.value - 1);
        f.pc = CastFrame::kTargets;
      } else {
        item.choice[item.choice_count++] = static_cast<uint16_t>(a.value);
      }
      return;
    case DecisionKind::kTarget:
      if (a.kind == ActionKind::kDone) {
        ++item.slot;
        item.in_slot = 0;
        return;
      }
      AddTarget(item, a.kind == ActionKind::kTargetPlayer
                          ? Target{Target::kPlayer, {}, static_cast<Player>(a.value)}
                          : Target{Target::kObject, s.Ref(a.object), kNoPlayer});
      ++item.in_slot;
      return;
    case DecisionKind::kX:
      item.x = static_cast<int16_t>(a.value);
      item.x_chosen = true;
      return;
    case DecisionKind::kDiscard:
      Note(LogKind::kInfo, kNoPlayer, kNoObj, kNoObj, 0, [&] {
        return std::string(absl::StrCat(Who(item.controller), " discards ", ObjectName(a.object)));
      });
      ++f.cast.discarded;                          // first: EffectMove may push a frame
      EffectMove(&a.object, 1, Zone::kGraveyard);  // held like an effect's (E-3)
      return;
    case DecisionKind::kSacrifice:
      Note(LogKind::kInfo, kNoPlayer, kNoObj, kNoObj, 0, [&] {
        return std::string(
            absl::StrCat(Who(item.controller), " sacrifices ", ObjectName(a.object)));
      });
      f.pc = CastFrame::kInterrupts;               // first: EffectMove may push a frame
      EffectMove(&a.object, 1, Zone::kGraveyard);  // held like an effect's (E-3)
      return;
    default:
      return;
  }
}

// T-8: batches of interrupts during a casting; the caster has priority
// (the frame: InterruptsFrame).
void Game::RunInterrupts(Frame& f) {
  StackItem& item = stack_.items[f.interrupts.item];
  Window& w = f.interrupts.window;
  if (f.pc == InterruptsFrame::kStart) {
    f.pc = InterruptsFrame::kDecide;
    w.Open(item.controller);
    f.interrupts.ibatch_begin = static_cast<int32_t>(stack_.ibatch.size());
  }
  // A pass with nothing else to do and the next player's turn in the same
  // step (as in RunNeutral).
  while (f.pc == InterruptsFrame::kDecide) {
    if (item.countered) {
      timing_.frames.pop_back();
      return;
    }
    if (w.Closed()) {
      if (static_cast<int>(stack_.ibatch.size()) <= f.interrupts.ibatch_begin) {
        timing_.frames.pop_back();  // no interrupt batch started: successfully cast
        return;
      }
      f.pc = InterruptsFrame::kResolve;
      return;
    }
    Player p = w.who;
    timing_.decision.actions.clear();
    timing_.decision.actions.push_back({ActionKind::kPass});
    // An ability's casting has a window too, but nothing may interrupt it.
    if (item.card != kNoObj && OfferPlays(p, DecisionKind::kInterrupt, DecisionKind::kInterrupt))
      return;
    w.Pass();
  }
  // kResolve: the interrupt batch resolves last in, first out; then another
  // window may start.
  if (static_cast<int>(stack_.ibatch.size()) <= f.interrupts.ibatch_begin) {
    f.pc = InterruptsFrame::kDecide;
    w.Open(item.controller);
    return;
  }
  int idx = stack_.ibatch.back();
  stack_.ibatch.pop_back();
  Push(Frame::NewResolve(idx));
}

void Game::ApplyInterrupts(Frame& f, const Action& a) {
  Window& w = f.interrupts.window;
  if (a.kind == ActionKind::kPass) {
    w.Pass();
    return;
  }
  w.Open(stack_.items[f.interrupts.item].controller);  // the caster keeps priority (T-8)
  StartCast(timing_.decision.player, a, kPlayInterrupt, kNoObj);
}

// A spell whose cast a replacement took (E-3 A) is not cast: nothing more
// of its casting happens, and its card, if still on the stack as the spell,
// goes to its owner's graveyard like a spell countered as it is cast (T-8).
// The frame goes once the move (held like an effect's) is over.
void Game::ReplaceCast(int idx) {
  StackItem& item = stack_.items[idx];
  item.countered = true;
  stack_.outcomes.push_back({item.serial, Outcome::kCountered});
  Note(LogKind::kInfo, kNoPlayer, item.card, kNoObj, 0,
       [&] { return absl::StrCat(ObjectName(item.card), "'s cast is replaced"); });
  if (!SpellOnStack(item)) return;
  const ObjId card = item.card;
  EffectMove(&card, 1, Zone::kGraveyard);
}

void Game::CounterSpell(ObjId card) {
  // The live spell is the item whose card is this very object on the stack;
  // an earlier cast of the same card was another object (spell identity).
  for (int idx = static_cast<int>(stack_.items.size()) - 1; idx >= 0; --idx) {
    StackItem& it = stack_.items[idx];
    if (it.card != card || !SpellOnStack(it) || it.countered) continue;
    it.countered = true;
    stack_.outcomes.push_back({it.serial, Outcome::kCountered});
    stack_.batch.erase(std::remove(stack_.batch.begin(), stack_.batch.end(), idx),
                       stack_.batch.end());
    Note(LogKind::kCounter, kNoPlayer, card, kNoObj, 0,
         [&] { return std::string(absl::StrCat(ObjectName(card), " is countered")); });
    // Costs are not refunded (T-8). The move is held for its "before"
    // responses and replacements like an effect's (E-1, E-3).
    EffectMove(&card, 1, Zone::kGraveyard);
    return;
  }
}

// The largest X the caster can pay for the spell or ability being cast (20
// at most; 20 with free mana).
int Game::MaxPayableX(const StackItem& item) const {
  if (opt_.free_mana) return 20;
  const ManaCost cost = TotalCost(item);
  int max_x = 0;
  while (max_x < 20 && CanPay(item.controller, cost, max_x + 1, kNoObj)) ++max_x;
  return max_x;
}

// Does X = x fit every target chosen "with mana value X" (Detonate)? A
// target chosen so had a payable mana value, so some X always fits.
bool Game::XFitsTargets(const StackItem& item, int x) const {
  // T-8.5: exactly X targets: X is the number chosen.
  if (const AbilityBody* b = ModeBody(item); b && !b->targets.empty() && b->targets[0].x)
    return x == item.target_count;
  for (int i = 0; i < item.target_count; ++i) {
    const Target& t = item.targets[i];
    if (t.kind != Target::kObject || !state_.Alive(t.obj)) continue;
    const TargetRule rule = TargetRuleOf(item, item.target_slot[i]);
    if (rule.filter != kNoFilter && db_->filter(rule.filter).mana_value_x &&
        ManaValueOf(t.obj.id) != x)
      return false;
  }
  return true;
}

// A chosen target, with the spec it fills. T-8.5: exactly X targets may be
// more than the item's four; those past the fourth go to more_targets, kept
// for the game (20 at most a cast), so a game without them pays nothing.
void Game::AddTarget(StackItem& item, Target t) {
  const int i = item.target_count++;
  if (i < 4) [[likely]] {
    item.target_slot[i] = item.slot;
    item.targets[i] = t;
    return;
  }
  if (i == 4) item.more = static_cast<uint16_t>(stack_.more_targets.size());
  stack_.more_targets.push_back({t, item.slot});
}

// T-8.3: a spell's mana value on the stack is its mana cost's with X as
// chosen for it (Spell Blast's "target spell with mana value X" at a
// Fireball cast with X = 3 reads 4; Mana Drain's mana for it is 4). Only an
// object on the stack pays for the search of the stack.
int Game::ManaValueOf(ObjId o) const {
  int mv = Chars(o).mana_value;
  if (state_.obj.zone[o] != Zone::kStack) return mv;
  for (auto it = stack_.items.rbegin(); it != stack_.items.rend(); ++it)
    if (it->card == o && SpellOnStack(*it)) {
      mv += (*db_)[it->body_card].cost.x_count * it->x;
      break;
    }
  return mv;
}

}  // namespace strata
