// What each effect operation does (card.h Op): the objects and players a step
// affects (only legal targets, RULES.md T-11), its amount, and the step
// itself: continuous effects become rows with a timestamp (L-4, L-5), damage
// waits for its prevention step (T-4), destructions and draws push frames,
// delayed effects wait for the next upkeep (E-6). docs/effects.md says how to
// add an operation.
// Scenarios: tests/scenarios/card_* (one or more per card).

#include "engine/game_internal.h"

namespace strata {

void Game::ObjectsOf(const StackItem& item, const Ref& ref, std::vector<ObjId>& out,
                     std::vector<Player>* players) {
  out.clear();
  ObjId self = item.card != kNoObj ? item.card : item.source;
  switch (ref.kind) {
    case Ref::kTarget:
      // Every target chosen for that spec (Fireball may have several).
      for (int i = 0; i < item.target_count; ++i) {
        if (SlotAt(item, i) != ref.index - 1) continue;
        const Target& t = TargetAt(item, i);
        if (t.kind == Target::kObject && TargetLegal(item, ref.index - 1, t))
          out.push_back(t.obj.id);
        if (t.kind == Target::kPlayer && players) players->push_back(t.player);
      }
      break;
    case Ref::kSelf:
      if (self != kNoObj) out.push_back(self);
      break;
    case Ref::kEnchanted:
      if (self != kNoObj && state_.obj.attached_to[self] != kNoObj)
        out.push_back(state_.obj.attached_to[self]);
      break;
    case Ref::kEventObject:
      // The occurrence's object, while it is still the object the
      // occurrence left it as: once it changes zones again it is new.
      if (item.event >= 0) {
        const Occurrence& e = Event(item.event);
        if (e.object != kNoObj && state_.obj.incarnation[e.object] == e.incarnation)
          out.push_back(e.object);
      }
      break;
    case Ref::kEventEnchanted:
      // What the occurrence's object (an Aura leaving) was attached to just
      // before, while it is still that object on the battlefield (G-9:
      // Animate Dead's "that creature").
      if (item.event >= 0) {
        const Occurrence& e = Event(item.event);
        const ObjId a = e.attached_to;
        if (a != kNoObj && state_.obj.incarnation[a] == e.attached_incarnation &&
            state_.obj.zone[a] == Zone::kBattlefield)
          out.push_back(a);
      }
      break;
    case Ref::kEventController:
      if (players && item.event >= 0) {
        const Occurrence& e = Event(item.event);
        players->push_back(e.object != kNoObj ? e.last.controller : e.player);
      }
      break;
    case Ref::kTargetController:
      if (players && item.target_count > 0) players->push_back(item.target_controller[0]);
      break;
    case Ref::kEventSourceController:
      // The damage's source, as it is now or last was (a spell's card in
      // the graveyard keeps its controller's values: its owner's).
      if (players && item.event >= 0 && Event(item.event).source != kNoObj)
        players->push_back(Chars(Event(item.event).source).controller);
      break;
    case Ref::kEachPlayer:
      if (players) {
        players->push_back(state_.active);
        players->push_back(Opponent(state_.active));
      }
      break;
    case Ref::kOpponent:
      if (players) players->push_back(Opponent(item.controller));
      break;
    case Ref::kYou:
    case Ref::kNone:
      if (players) players->push_back(item.controller);
      break;
  }
  return;
}

bool Game::IsReplacement(const StackItem& item) const {
  if (item.from != BodySource::kTrigger && item.from != BodySource::kNextTime) return false;
  const CardDef& card = (*db_)[item.body_card];
  const auto& table = item.from == BodySource::kNextTime ? card.next_times : card.triggers;
  return table[item.ability].timing == Timing::kInstead;
}

int Game::Amount(const StackItem& item, const Value& v) const {
  int base = v.constant;
  switch (v.kind) {
    case Value::kX:
      base = item.x;
      break;
    case Value::kSourcePower:
      base = item.source_power;
      break;
    case Value::kSourceToughness:
      base = item.source_toughness;
      break;
    case Value::kEventPower:
      base = item.event >= 0 ? Event(item.event).last.power : 0;
      break;
    case Value::kEventToughness:
      base = item.event >= 0 ? Event(item.event).last.toughness : 0;
      break;
    case Value::kEventAmount:
      base = item.event >= 0 ? Event(item.event).amount : 0;
      break;
    case Value::kTargetPower:
      base = item.target_power;
      break;
    case Value::kTargetToughness:
      base = item.target_toughness;
      break;
    case Value::kTargetManaValue:
      base = item.target_mana_value;
      break;
    case Value::kTurnStartUntappedLands:  // T-10.1: kept as the turn began (Power Surge)
      base = turn_.turn_start_lands[state_.active];
      break;
    case Value::kDiscarded:  // G-9: its discards so far (Recall)
      base = item.discarded;
      break;
    case Value::kRemoved:  // G-8.3: its removals so far (Living Artifact)
      base = item.removed;
      break;
    case Value::kDestroyed:  // T-8.5: its targets its destroy steps put into a graveyard
      base = 0;
      for (int i = 0; i < item.target_count; ++i) {
        const Target& t = TargetAt(item, i);
        base += t.kind == Target::kObject && state_.obj.zone[t.obj.id] == Zone::kGraveyard &&
                state_.obj.incarnation[t.obj.id] == t.obj.incarnation + 1;
      }
      break;
    case Value::kCountersOnSource: {
      // G-8.3: the counters on its source as the step resolves (Armageddon
      // Clock's doom counters); none once the source has left play.
      const ObjId src = item.card != kNoObj ? item.card : item.source;
      base = src != kNoObj && state_.obj.zone[src] == Zone::kBattlefield
                 ? CountersOf(src, v.counter_kind)
                 : 0;
      break;
    }
    case Value::kCount:
    case Value::kSumManaValue:
    case Value::kCardTypes: {
      // Counted as the step resolves, from "you" (the body's controller):
      // the Swamps a player controls (Karma), the cards in a hand (Black
      // Vise: `zones = ["hand"]`).
      base = 0;
      TypeMask types = 0;
      ObjId src = item.card != kNoObj ? item.card : item.source;
      FilterContext ctx = ContextFor(src, item.controller, item.choice[0]);
      for (ObjId o = 0; o < state_.obj.count; ++o) {
        if (state_.obj.zone[o] == Zone::kNone || !Matches(v.filter, o, ctx)) continue;
        if (v.kind == Value::kCount)
          ++base;
        else if (v.kind == Value::kSumManaValue)
          base += ManaValueOf(o);  // a spell's X counts (T-8.3)
        else
          types |= Chars(o).types;
      }
      if (v.kind == Value::kCardTypes) base = std::popcount(static_cast<unsigned>(types));
      break;
    }
    case Value::kDiedThisTurn: {
      base = 0;
      const Filter& f = db_->filter(v.filter);
      for (CardId c : occ_.died_this_turn) {
        // A face-down creature (or a copy of one) died as a 2/2 creature
        // with no name (RULES.md L-1 1b): no card to read.
        const TypeMask printed = c != kNoCard ? (*db_)[c].types : TypeMask{1u << kCreature};
        base += (f.name == kNoCard || f.name == c) && (!f.types || (printed & f.types));
      }
      break;
    }
    case Value::kDamageThisTurn: {
      // Damage dealt to you this turn, by sources of the filter's types
      // as they dealt it (T-4.1).
      base = 0;
      const TypeMask types = v.filter != kNoFilter ? db_->filter(v.filter).types : TypeMask{0};
      for (const auto& t : occ_.damage_taken)
        if (t.player == item.controller && (!types || (t.source_types & types)))
          base = SaturatedAdd(base, t.amount);
      break;
    }
    default:
      return v.constant;
  }
  return v.Scale(base);
}

// One effect step of a resolving spell or ability. Steps that need more
// rules (draws, destruction) push frames and finish when those return.
void Game::ExecuteStep(StackItem& item, const EffectStep& st, Frame& f) {
  thread_local std::vector<ObjId> objs_buffer;
  thread_local std::vector<Player> players_buffer;
  Borrowed<ObjId> objs_borrowed(objs_buffer);
  Borrowed<Player> players_borrowed(players_buffer);
  std::vector<ObjId>& objs = objs_borrowed.v;
  std::vector<Player>& players = players_borrowed.v;
  ObjectsOf(item, st.target, objs, &players);
  if (st.affects != kNoFilter && st.target.kind == Ref::kNone) players.clear();  // no "you"
  if (st.affects != kNoFilter && st.op != Op::kContinuous) {
    // "Each creature", "all creatures": the set is taken on resolution.
    ObjId src = item.card != kNoObj ? item.card : item.source;
    FilterContext ctx = ContextFor(src, item.controller, item.choice[0]);
    bool none = false;
    if (st.relative_to > 0) [[unlikely]] {
      // G-17: "all artifacts target player owns": "you" in the filter is
      // that player (a player target is never illegal, T-11).
      none = true;
      for (int i = 0; i < std::min<int>(item.target_count, 4); ++i)  // (T-8.5: objects past 4)
        if (item.target_slot[i] == st.relative_to - 1 && item.targets[i].kind == Target::kPlayer) {
          ctx.you = item.targets[i].player;
          none = false;
          break;
        }
    }
    for (ObjId o = 0; o < state_.obj.count && !none; ++o)
      if (state_.obj.zone[o] != Zone::kNone && Matches(st.affects, o, ctx)) objs.push_back(o);
  }
  if (st.condition != kNoFilter) {
    // `if`: only targets that match (Hydroblast: if it is red).
    ObjId src = item.card != kNoObj ? item.card : item.source;
    FilterContext ctx = ContextFor(src, item.controller, kNoWord);
    objs.erase(std::remove_if(objs.begin(), objs.end(),
                              [&](ObjId o) { return !Matches(st.condition, o, ctx); }),
               objs.end());
  }
  const int amount = Amount(item, st.amount);
  ObjId source = item.card != kNoObj ? item.card : item.source;
  switch (st.op) {
    case Op::kContinuous: {
      CardId source_card = item.body_card;
      EffectRow row;
      row.card = source_card;
      row.tmpl = static_cast<int16_t>(st.continuous);
      row.source = source != kNoObj ? state_.Ref(source) : ObjRef{};
      row.controller = item.controller;
      row.duration = st.duration;
      if (st.duration == Duration::kUntilYourUpkeep) [[unlikely]]
        turn_.until_upkeep_effects = true;  // E-6.1: the upkeep looks for them
      row.x = item.x;
      row.choice = item.choice;
      row.source_power = item.source_power;
      row.source_toughness = item.source_toughness;
      row.target_power = item.target_power;
      row.target_toughness = item.target_toughness;
      row.target_mana_value = item.target_mana_value;
      if (st.controller_of > 0) {
        // The effect belongs to another player (exchanges of control).
        const Target& ct = item.targets[st.controller_of - 1];
        if (ct.kind == Target::kObject && state_.Alive(ct.obj))
          row.controller = item.target_controller[st.controller_of - 1];
      }
      const EffectTemplate& t = (*db_)[source_card].continuous[st.continuous];
      for (const Part& p : t.parts) {
        if (p.layer != PartLayer::kCopy) continue;
        const Target& ct = item.targets[p.copy_of_target - 1];
        if (ct.kind != Target::kObject || !state_.Alive(ct.obj)) continue;
        const Characteristics& cc = Chars(ct.obj.id);
        row.copy = CopySpec{cc.card, cc.mode, cc.blank};
        row.copy.has_colors = p.has_except_colors;
        row.copy.colors = p.except_colors;
        if (p.keep_phase) row.copy.keep_phase = item.body_card;
      }
      thread_local std::vector<ObjRef> set_buffer;
      Borrowed<ObjRef> borrowed_set(set_buffer);
      std::vector<ObjRef>& set = borrowed_set.v;
      if (st.affects != kNoFilter) {
        ObjId excluded = kNoObj;
        if (st.exclude_target > 0 && item.targets[st.exclude_target - 1].kind == Target::kObject)
          excluded = item.targets[st.exclude_target - 1].obj.id;
        FilterContext ctx = ContextFor(source, item.controller, item.choice[0]);
        for (ObjId o = 0; o < state_.obj.count; ++o)
          if (o != excluded && state_.obj.zone[o] != Zone::kNone && Matches(st.affects, o, ctx))
            set.push_back(state_.Ref(o));
      } else {
        for (ObjId o : objs) set.push_back(state_.Ref(o));
      }
      if (st.duration == Duration::kThroughNextTurn) [[unlikely]] {
        // T-7.4: through the next turn of the affected objects' controller
        // (the first one's; none affected, the effect's controller's).
        turn_.next_turn_effects = true;
        row.from_turn = state_.turn;
        row.through = set.empty() ? item.controller : Chars(set[0].id).controller;
      }
      AddEffectRow(row, set);
      Note(LogKind::kInfo, kNoPlayer, kNoObj, kNoObj, 0, [&] {
        return std::string(absl::StrCat("effect of ", (*db_)[source_card].name, " applies to ",
                                        set.size(), " object(s)"));
      });
      break;
    }
    case Op::kDraw:
      for (auto it = players.rbegin(); it != players.rend(); ++it)
        Push(Frame::NewDraw(*it, amount));
      break;
    case Op::kDamage: {
      // Damage waits for its prevention step (T-4). A replacement's own
      // damage is not replaced again (E-3 A: no loop of replacements).
      int n = static_cast<int>(objs.size() + players.size());
      // A computed amount below zero deals none (The Rack: 3 minus a hand of 5).
      int each = std::max(0, st.divide && n > 0 ? amount / n : amount);
      const bool by_replacement = IsReplacement(item);
      for (ObjId o : objs)
        damage_.pending.push_back({source, Target{Target::kObject, state_.Ref(o), kNoPlayer}, each,
                                   st.cant_regenerate, false, by_replacement});
      for (Player p : players)
        damage_.pending.push_back(
            {source, Target{Target::kPlayer, {}, p}, each, false, false, by_replacement});
      break;
    }
    case Op::kChangeTarget:
      if (!objs.empty())
        ChangeHeldTargets(item, Target{Target::kObject, state_.Ref(objs[0]), kNoPlayer}, st.from);
      else if (!players.empty())
        ChangeHeldTargets(item, Target{Target::kPlayer, {}, players[0]}, st.from);
      break;
    case Op::kRedirect:
      if (!objs.empty())
        RedirectHeldDamage(item, Target{Target::kObject, state_.Ref(objs[0]), kNoPlayer});
      else if (!players.empty())
        RedirectHeldDamage(item, Target{Target::kPlayer, {}, players[0]});
      break;
    case Op::kGainLife:
    case Op::kLoseLife: {
      if (amount < 0) break;  // a negative amount changes nothing, not the other way
      const int change = st.op == Op::kGainLife ? amount : -amount;
      // Held changes are frames, the last pushed happening first.
      if (Holds(EventKind::kLifeChange))
        for (auto it = players.rbegin(); it != players.rend(); ++it) EffectLifeChange(*it, change);
      else
        for (Player p : players) EffectLifeChange(p, change);
      break;
    }
    case Op::kPoison:  // G-11: counters on a player, read at the life check
      if (amount <= 0) break;
      for (Player p : players) {
        state_.players[p].poison = SaturatedAdd(state_.players[p].poison, amount);
        Note(LogKind::kLife, p, kNoObj, kNoObj, 0, [&] {
          return std::string(absl::StrCat(Who(p), " gets ", amount, " poison counter",
                                          amount == 1 ? "" : "s", " (", state_.players[p].poison,
                                          " in all)"));
        });
      }
      break;
    case Op::kTap:
    case Op::kUntap:
      EffectTaps(objs, st.op == Op::kTap);
      break;
    case Op::kDestroy: {
      // Everything one effect destroys is destroyed together (E-5).
      const int begin = static_cast<int>(occ_.destroying.size());
      for (ObjId o : objs) {
        if (st.cant_regenerate) damage_.no_regen[o] = true;
        occ_.destroying.push_back(state_.Ref(o));
        StateCheckInputChanged();
      }
      if (static_cast<int>(occ_.destroying.size()) > begin)
        Push(Frame::NewDestroy(begin, static_cast<int32_t>(occ_.destroying.size()),
                               /*lethal=*/false, f.resolve.item));
      break;
    }
    case Op::kExile:
    case Op::kBounce:
    case Op::kSacrifice: {
      // Moved together: they leave at the same time (E-5).
      const Zone to = st.op == Op::kExile    ? Zone::kExile
                      : st.op == Op::kBounce ? Zone::kHand
                                             : Zone::kGraveyard;
      std::sort(objs.begin(), objs.end());
      objs.erase(std::unique(objs.begin(), objs.end()), objs.end());
      objs.erase(std::remove_if(objs.begin(), objs.end(),
                                [&](ObjId o) { return state_.obj.zone[o] == to; }),
                 objs.end());
      EffectMove(objs.data(), static_cast<int>(objs.size()), to);
      break;
    }
    case Op::kRegenerate:
      for (ObjId o : objs) {
        ++state_.obj.regen_shields[o];
        Note(LogKind::kInfo, kNoPlayer, kNoObj, kNoObj, 0, [&] {
          return std::string(absl::StrCat(ObjectName(o), " gets a regeneration shield"));
        });
      }
      break;
    case Op::kCantBeRegenerated:
      // "Target creature can't be regenerated this turn" (Hurr Jackal): the
      // mark a damage or destruction that says so leaves (E-3 C), until
      // cleanup; a shield already on the creature no longer applies.
      for (ObjId o : objs) {
        damage_.no_regen[o] = true;
        Note(LogKind::kInfo, kNoPlayer, kNoObj, kNoObj, 0, [&] {
          return std::string(absl::StrCat(ObjectName(o), " can't be regenerated this turn"));
        });
      }
      break;
    case Op::kAddCounters:
      for (ObjId o : objs) {
        int n = amount;
        // G-8.2: "up to X, no more than N in all" (Clockwork Beast).
        if (st.up_to_total) [[unlikely]]
          n = std::min(n, std::max(0, st.up_to_total - CountersOf(o, st.counter_kind)));
        if (n > 0 || !st.up_to_total) AddCounters(o, st.counter_kind, n);
      }
      break;
    case Op::kRemoveCounters:
      // G-8.2: an effect's removal (Clockwork Beast at end of combat): as
      // many as there are, at most the count; the timestamp stays.
      // G-8.3: the counters removed are counted ("if you do": Living
      // Artifact), and with `prevent` each prevents 1 of the damage the
      // before trigger waits on (Rock Hydra).
      for (ObjId o : objs) {
        const int n = std::clamp(CountersOf(o, st.counter_kind), 0, std::max(0, amount));
        RemoveCounters(o, st.counter_kind, n);
        item.removed = static_cast<int8_t>(std::min(item.removed + n, 127));
        if (st.prevent_removed && n > 0) ChangeHeldAmount(item, -n);
      }
      break;
    case Op::kAddMana: {
      int c = st.mana_colorless ? 5 : 0;
      if (!st.mana_colorless)
        for (int k = 0; k < kColorCount; ++k)
          if (Has(st.mana_colors, k)) c = k;
      if (st.mana_chosen) [[unlikely]] {  // T-10.2: the color chosen as it was cast
        const Word w = static_cast<Word>(item.choice[0]);
        if (item.choice_count < 1 || !IsColorWord(w)) break;
        c = w - kColorWordBase;
      }
      if (st.mana_opponent_lands || st.mana_event) [[unlikely]] {
        // Outside a payment (T-10.1): the first color it could make.
        const ColorMask m = st.mana_opponent_lands ? OpponentLandColors(item.controller) : 0;
        if (st.mana_opponent_lands && m == 0) break;
        c = m ? std::countr_zero(static_cast<unsigned>(m)) : 5;
      }
      state_.players[item.controller].pool[c] =
          SaturatedAdd(state_.players[item.controller].pool[c], amount);
      break;
    }
    case Op::kEmptyPool: {
      // T-10.1: Mana Short taps the player's lands, Drain Power taps them
      // for mana (their mana goes to the pool first); then the player loses
      // all unspent mana, to the controller's pool with `give`.
      for (Player p : players) {
        if (st.for_mana) {
          TapLandsForMana(p);
        } else if (st.tap_lands) {
          thread_local std::vector<ObjId> buffer;
          Borrowed<ObjId> borrowed(buffer);
          std::vector<ObjId>& lands = borrowed.v;
          state_.ForEachPermanent([&](ObjId o) {
            if (Chars(o).controller == p && Has(Chars(o).types, kLand) && !state_.obj.tapped[o])
              lands.push_back(o);
          });
          if (!lands.empty()) EffectTaps(lands, /*tapped=*/true);
        }
        auto& pool = state_.players[p].pool;
        if (st.give && p != item.controller) {
          auto& to = state_.players[item.controller].pool;
          for (int k = 0; k < 6; ++k) to[k] = SaturatedAdd(to[k], pool[k]);
        }
        if (!st.give || p != item.controller) pool = {};
      }
      break;
    }
    case Op::kDiscard:
      // Counted on the item as they reach a graveyard (G-9: Recall).
      for (Player p : players) Push(Frame::NewDiscard(p, amount, st.random, f.resolve.item));
      break;
    case Op::kDiscardHand: {
      // Every hand at once (G-4: Wheel of Fortune): one move of them all,
      // together (E-5), held like an effect's (E-1, E-3).
      objs.clear();
      for (Player p : players)
        objs.insert(objs.end(), state_.players[p].hand.begin(), state_.players[p].hand.end());
      EffectMove(objs.data(), static_cast<int>(objs.size()), Zone::kGraveyard);
      break;
    }
    case Op::kKeepFewest:
      // G-19 (Balance): permanents in a frame of choices; cards in hand
      // are a discard of the rest by each player, the active player first
      // (pushed last), counted on the item as discards are.
      if (st.from != kNoFilter) {
        Push(Frame::NewKeepFewest(st.from, source));
      } else {
        auto in_hand = [&](Player p) { return static_cast<int>(state_.players[p].hand.size()); };
        const int fewest = std::min(in_hand(0), in_hand(1));
        for (Player p : {Opponent(state_.active), state_.active})
          if (const int rest = in_hand(p) - fewest; rest > 0)
            Push(Frame::NewDiscard(p, rest, false, f.resolve.item));
      }
      break;
    case Op::kShuffleIn: {
      uint8_t who = 0;
      for (Player p : players) who |= static_cast<uint8_t>(1u << p);
      if (who) Push(Frame::NewShuffleIn(who, st.zones, st.draw));
      break;
    }
    case Op::kSearch:
      // Each player searches their own library (G-3); the last pushed first.
      for (auto it = players.rbegin(); it != players.rend(); ++it)
        Push(Frame::NewSearch(*it, amount, st.from, st.to, source));
      break;
    case Op::kReturnFromGraveyard:
      // G-9: the player chooses N cards of their graveyard, one at a time,
      // each returned to the hand as chosen (Recall); no shuffle.
      for (auto it = players.rbegin(); it != players.rend(); ++it)
        Push(Frame::NewSearch(*it, amount, st.from, Zone::kHand, source, /*graveyard=*/true));
      break;
    case Op::kMill:
      // The top N of each player's library go to the graveyard together
      // (E-5), a move an effect makes: held for its "before" responses and
      // replacements (E-1, E-3). Not a draw.
      for (Player p : players) {
        const auto& lib = state_.players[p].library;
        objs.assign(lib.begin(), lib.begin() + std::min<int>(amount, static_cast<int>(lib.size())));
        EffectMove(objs.data(), static_cast<int>(objs.size()), Zone::kGraveyard);
      }
      break;
    case Op::kCounterSpell:
      for (ObjId o : objs) CounterSpell(o);
      break;
    case Op::kReturnToBattlefield:
      // G-9: cards in a graveyard put onto the battlefield (Resurrection),
      // together, under their owners' control: new objects, summoning sick,
      // making their entry choices (LeaveTogether). A move an effect makes:
      // held for its "before" responses and replacements (E-1, E-3 A).
      objs.erase(std::remove_if(objs.begin(), objs.end(),
                                [&](ObjId o) { return state_.obj.zone[o] != Zone::kGraveyard; }),
                 objs.end());
      EffectMove(objs.data(), static_cast<int>(objs.size()), Zone::kBattlefield);
      break;
    case Op::kCreateToken: {
      // G-12: each player puts `amount` tokens of the step's definition onto
      // the battlefield under their control (the token's owner is that
      // player): new objects with no card, made where no zone is and moved
      // onto the battlefield together, a move an effect makes (held for its
      // "before" responses and replacements, E-1, E-3 A; "whenever a
      // creature enters" sees it). A game holds at most kMaxObjects objects:
      // a token beyond them is not made (noted in the log).
      objs.clear();
      for (Player p : players)
        for (int i = 0; i < amount; ++i) {
          const ObjId t = AddObject(st.token, p, Zone::kNone);
          if (t == kNoObj) {
            Note(LogKind::kInfo, p, source, kNoObj, 0, [&] {
              return absl::StrCat("no room for another token: a game holds ", kMaxObjects,
                                  " objects");
            });
            break;
          }
          state_.obj.token[t] = true;
          objs.push_back(t);
        }
      EffectMove(objs.data(), static_cast<int>(objs.size()), Zone::kBattlefield);
      break;
    }
    case Op::kDelayed: {
      // Its values as the spell resolved (T-1.7: the countered spell's mana
      // value), and no target left to check as it happens: the spell did
      // resolve (Niveous Wisps' draw comes whatever became of its creature).
      StackItem later = item;
      later.target_count = 0;
      (st.delayed_at == 1 ? stack_.next_main : stack_.next_upkeep).push_back({later, &st.delayed});
      break;
    }
    case Op::kExtraTurn:  // T-1.6: after this turn, before any made earlier
      for (Player p : players) {
        turn_.extra_turns.push_back(p);
        Note(LogKind::kInfo, p, source, kNoObj, 0,
             [&] { return absl::StrCat(Who(p), " will take an extra turn after this one"); });
      }
      break;
    case Op::kPrevent:
      if (st.from != kNoFilter) {
        const Characteristics text = source != kNoObj ? Chars(source) : Characteristics{};
        for (ObjId o : objs)
          damage_.source_shields.push_back({Target{Target::kObject, state_.Ref(o), kNoPlayer},
                                            st.from, source, item.controller, text});
        for (Player p : players)
          damage_.source_shields.push_back(
              {Target{Target::kPlayer, {}, p}, st.from, source, item.controller, text});
        break;
      }
      for (ObjId o : objs)
        damage_.prevent_shield[o] = SaturatedAdd(damage_.prevent_shield[o], amount);
      for (Player p : players)
        damage_.player_shield[p] = SaturatedAdd(damage_.player_shield[p], amount);
      Note(LogKind::kShield, kNoPlayer, kNoObj, kNoObj, amount, [&] {
        return std::string(absl::StrCat("a shield will prevent the next ", amount, " damage"));
      });
      break;
    case Op::kPreventCombat:
      // T-7.2: with no object named, all combat damage this turn (Fog);
      // else all combat damage dealt to and by each object this turn
      // (Maze of Ith). Prevention reads them as combat damage is dealt.
      if (st.target.kind == Ref::kNone && st.affects == kNoFilter) {
        damage_.no_combat_damage = true;
        Note(LogKind::kShield, kNoPlayer, kNoObj, kNoObj, 0,
             [&] { return std::string("all combat damage this turn will be prevented"); });
        break;
      }
      for (ObjId o : objs) {
        if (state_.obj.zone[o] != Zone::kBattlefield) continue;
        damage_.no_combat_damage_of[o] = true;
        Note(LogKind::kShield, kNoPlayer, o, kNoObj, 0, [&] {
          return absl::StrCat("all combat damage to and by ", ObjectName(o),
                              " this turn will be prevented");
        });
      }
      break;
    case Op::kReplaceNextDraw:
      turn_.replace_draw[item.controller] = amount;
      break;
    case Op::kCounterUnlessPay:
      for (auto it = objs.rbegin(); it != objs.rend(); ++it)
        Push(Frame::NewUnlessPay(*it, amount, state_.obj.incarnation[*it]));
      break;
    case Op::kTurnFaceDown:
      for (ObjId o : objs) {
        state_.obj.face_down[o] = true;
        state_.obj.timestamp[o] = state_.NewTimestamp();  // L-4: turned face down
      }
      state_.Touch();
      break;
    case Op::kAttach:
      if (source != kNoObj && state_.obj.zone[source] == Zone::kBattlefield)
        for (ObjId o : objs) Attach(source, o);
      break;
    case Op::kNextTime: {
      // T-5.5: "if this ability has been activated N or more times this
      // turn" (Dragon Whelp), read as it resolves, this activation counted.
      if (st.if_activated > 0 && (item.from != BodySource::kActivated ||
                                  ActivationsThisTurn(item.source, item.ability) < st.if_activated))
        break;
      // Bound to its target: none legal now (a player, or gone), nothing to arm (T-11).
      ObjRef bound;
      if (st.target.kind == Ref::kTarget) {
        if (objs.empty()) break;
        bound = state_.Ref(objs[0]);
      }
      ArmedNextTime a{source,          item.body_card,
                      st.next_time,    st.next_time_or,
                      item.controller, st.duration == Duration::kEndOfTurn,
                      bound,           /*carried=*/false,
                      ObjRef{},        false};
      // "A source of your choice" (T-4.1): the object chosen as it was
      // cast, as it is now (a spell chosen on the stack: also the card it
      // becomes as it leaves it); none chosen, nothing fits.
      if ((*db_)[item.body_card].next_times[st.next_time].chosen_source) {
        a.chosen.id = static_cast<ObjId>(kNoObj - 1);  // fits no source
        const ObjId c = item.choice_count > 0 ? item.choice[0] : kNoObj;
        if (c < state_.obj.count && state_.obj.zone[c] != Zone::kNone) {
          a.chosen = state_.Ref(c);
          a.chosen_on_stack = state_.obj.zone[c] == Zone::kStack;
        }
      }
      if (bound.id != kNoObj) {
        const EventKind k = (*db_)[item.body_card].next_times[st.next_time].event;
        a.carried = k == EventKind::kPhaseBegin || k == EventKind::kPhaseEnd ||
                    k == EventKind::kEffectsResolved || k == EventKind::kAttackersDeclared ||
                    k == EventKind::kBlockersDeclared || k == EventKind::kEndOfCombat;
      }
      occ_.armed.push_back(a);
      break;
    }
    case Op::kChangeAmount:
      ChangeHeldAmount(item, amount);
      break;
  }
  (void)f;
}

}  // namespace strata
