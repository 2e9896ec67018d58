#include "engine/game.h"

#include <algorithm>
#include <cstdio>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "engine/mana.h"

namespace strata {

std::string_view DecisionKindName(DecisionKind k) {
  static constexpr std::string_view kNames[] = {"none",   "neutral", "respond", "target",
                                                "x",      "choice",  "discard"};
  return kNames[static_cast<int>(k)];
}

std::string_view PhaseName(Phase p) {
  static constexpr std::string_view kNames[] = {"untap",   "upkeep",  "draw",
                                                "main",    "discard", "cleanup"};
  return kNames[static_cast<int>(p)];
}

std::optional<Phase> ParsePhase(std::string_view s) {
  for (int i = 0; i < 6; ++i)
    if (std::string(PhaseName(static_cast<Phase>(i))) == s) return static_cast<Phase>(i);
  return std::nullopt;
}

Game::Game(const CardDb& db, const GameOptions& options) : db_(&db), opt_(options) {
  state_.edition = options.edition;
  for (int i = 0; i < kMaxObjects; ++i) {
    state_.obj.attached_to[i] = kNoObj;
    state_.obj.zone[i] = Zone::kNone;
  }
}

ObjId Game::AddObject(CardId card, Player owner, Zone zone) {
  GameState& s = state_;
  ObjId o = static_cast<ObjId>(s.obj.count++);
  s.obj.card[o] = card;
  s.obj.zone[o] = zone;
  s.obj.owner[o] = owner;
  s.obj.controller[o] = owner;
  s.obj.timestamp[o] = s.NewTimestamp();
  s.obj.incarnation[o] = 0;
  s.obj.p1p1[o] = s.obj.m1m1[o] = s.obj.other_counters[o] = 0;
  s.obj.counter_timestamp[o] = 0;
  s.obj.damage[o] = 0;
  s.obj.regen_shields[o] = 0;
  s.obj.tapped[o] = s.obj.sick[o] = s.obj.face_down[o] = s.obj.token[o] = false;
  s.obj.attached_to[o] = kNoObj;
  s.obj.choice[o] = kNoWord;
  s.obj.linked[o] = ObjRef{};
  s.obj.copy[o] = CopySpec{};
  auto& pl = s.players[owner];
  if (zone == Zone::kLibrary) pl.library.push_back(o);
  if (zone == Zone::kHand) pl.hand.push_back(o);
  if (zone == Zone::kGraveyard) pl.graveyard.push_back(o);
  s.Touch();
  return o;
}

void Game::StartAt(Phase phase, Player active, int turn) {
  state_.phase = phase;
  state_.active = active;
  state_.turn = turn;
  start_turn_ = turn;
  start_phase_ = phase;
  stage_ = Stage::kPhaseBegin;
  state_.Touch();
}

// ---------------------------------------------------------------- queries

const Characteristics& Game::Chars(ObjId o) const {
  if (cache_.version != state_.version) ComputeLayers(*db_, state_, cache_);
  if (opt_.checked_layers) {
    // L-9: a cached result is only a faster way to the same answer.
    static thread_local LayerCache fresh;
    ComputeLayers(*db_, state_, fresh);
    ++layer_checks_;
    for (ObjId i = 0; i < state_.obj.count; ++i)
      if (!(fresh.chars[i] == cache_.chars[i]) && layer_mismatch_.empty())
        layer_mismatch_ = absl::StrCat("cached characteristics of object ", i, " (",
                                       (*db_)[state_.obj.card[i]].name, ") differ from a fresh computation");
  }
  return cache_.chars[o];
}

const PlayerRules& Game::Rules(Player p) const {
  Chars(0);
  return cache_.rules[p];
}

Outcome Game::OutcomeOf(uint32_t serial) const {
  for (auto& [s, o] : outcomes_)
    if (s == serial) return o;
  return Outcome::kPending;
}

std::string Game::ObjectName(ObjId o) const {
  if (o == kNoObj) return "nothing";
  return absl::StrCat((*db_)[state_.obj.card[o]].name, "#", o);
}

void Game::Log(const std::string& line) {
  if (opt_.log) log_.push_back(absl::StrCat("T", state_.turn, " ", std::string(PhaseName(state_.phase)), ": ", line));
}

// ---------------------------------------------------------------- mutations

void Game::MoveTo(ObjId o, Zone to, Player zone_owner) {
  GameState& s = state_;
  Zone from = s.obj.zone[o];
  for (auto& pl : s.players) {
    for (auto* v : {&pl.library, &pl.hand, &pl.graveyard})
      v->erase(std::remove(v->begin(), v->end(), o), v->end());
  }
  // A zone change makes a new object (RULES.md "Game and objects").
  s.obj.zone[o] = to;
  ++s.obj.incarnation[o];
  s.obj.timestamp[o] = s.NewTimestamp();
  s.obj.tapped[o] = false;
  s.obj.damage[o] = 0;
  s.obj.regen_shields[o] = 0;
  s.obj.attached_to[o] = kNoObj;
  s.obj.face_down[o] = false;
  s.obj.controller[o] = s.obj.owner[o];
  if (to != Zone::kBattlefield) {
    s.obj.copy[o] = CopySpec{};
    s.obj.linked[o] = ObjRef{};
    if (from == Zone::kBattlefield) s.obj.choice[o] = kNoWord;
  }
  if (to == Zone::kHand || to == Zone::kLibrary || from == Zone::kBattlefield) {
    s.obj.p1p1[o] = s.obj.m1m1[o] = s.obj.other_counters[o] = 0;
  }
  auto& pl = s.players[zone_owner];
  if (to == Zone::kLibrary) pl.library.insert(pl.library.begin(), o);
  if (to == Zone::kHand) pl.hand.push_back(o);
  if (to == Zone::kGraveyard) pl.graveyard.push_back(o);
  s.Touch();
}

void Game::SetTapped(ObjId o, bool tapped) {
  state_.obj.tapped[o] = tapped;
  state_.Touch();
}

void Game::Attach(ObjId aura, ObjId to) {
  state_.obj.attached_to[aura] = to;
  // L-4: an Aura or Equipment gets a new timestamp when attached.
  state_.obj.timestamp[aura] = state_.NewTimestamp();
  state_.Touch();
}

void Game::AddCounters(ObjId o, int kind, int n) {
  if (kind == 0) state_.obj.p1p1[o] = static_cast<int16_t>(state_.obj.p1p1[o] + n);
  else if (kind == 1) state_.obj.m1m1[o] = static_cast<int16_t>(state_.obj.m1m1[o] + n);
  else state_.obj.other_counters[o] = static_cast<int16_t>(state_.obj.other_counters[o] + n);
  state_.obj.counter_timestamp[o] = state_.NewTimestamp();
  state_.Touch();
}

uint32_t Game::AddEffectRow(const EffectRow& row, const std::vector<ObjRef>& affected) {
  EffectRow r = row;
  r.set_begin = static_cast<uint32_t>(state_.effect_sets.size());
  r.set_len = static_cast<uint32_t>(affected.size());
  state_.effect_sets.insert(state_.effect_sets.end(), affected.begin(), affected.end());
  if (r.timestamp == 0) r.timestamp = state_.NewTimestamp();
  state_.effects.push_back(r);
  state_.Touch();
  return r.timestamp;
}

void Game::EndEffect(int row) {
  state_.effects[row].active = false;
  state_.Touch();
}

void Game::SetLifeTotal(Player p, int life) {
  state_.players[p].life = life;
  state_.Touch();
}

void Game::Lose(Player p) {
  state_.players[p].lost = true;
}

void Game::DestroyObject(ObjId o) {
  if (state_.obj.regen_shields[o] > 0) {
    // Regeneration replaces destruction (E-3 A): tap, remove damage.
    --state_.obj.regen_shields[o];
    state_.obj.damage[o] = 0;
    SetTapped(o, true);
    Log(absl::StrCat(ObjectName(o), " regenerates"));
    return;
  }
  Log(absl::StrCat(ObjectName(o), " is destroyed"));
  MoveTo(o, Zone::kGraveyard, state_.obj.owner[o]);
}

void Game::Draw(Player p, int n) {
  for (int i = 0; i < n; ++i) {
    auto& lib = state_.players[p].library;
    if (lib.empty()) {
      Log(absl::StrCat(p ? "B" : "A", " draws from an empty library"));
      Lose(p);
      return;
    }
    ObjId top = lib.front();
    MoveTo(top, Zone::kHand, p);
    Log(absl::StrCat(p ? "B" : "A", " draws ", ObjectName(top)));
  }
}

// State check (T-1.5 for creatures, also after each resolution; lethal damage
// and 0 toughness destroy, Auras on illegal objects go to the graveyard).
void Game::CheckState() {
  for (int guard = 0; guard < 8; ++guard) {
    bool changed = false;
    for (ObjId o = 0; o < state_.obj.count; ++o) {
      if (state_.obj.zone[o] != Zone::kBattlefield) continue;
      const Characteristics& ch = Chars(o);
      if (ch.IsCreature()) {
        if (ch.toughness <= 0) {
          Log(absl::StrCat(ObjectName(o), " has toughness ", ch.toughness, " and dies"));
          MoveTo(o, Zone::kGraveyard, state_.obj.owner[o]);
          changed = true;
          continue;
        }
        if (state_.obj.damage[o] >= ch.toughness) {
          DestroyObject(o);
          changed = true;
          continue;
        }
      }
      const CardDef& card = (*db_)[state_.obj.card[o]];
      if (card.enchant != kNoFilter) {
        ObjId to = state_.obj.attached_to[o];
        if (to == kNoObj || state_.obj.zone[to] != Zone::kBattlefield ||
            !MatchFilter(state_, &cache_.chars[0], db_->filter(card.enchant), to,
                         ContextFor(o, Chars(o).controller, state_.obj.choice[o]))) {
          Log(absl::StrCat(ObjectName(o), " is not attached to a legal object"));
          MoveTo(o, Zone::kGraveyard, state_.obj.owner[o]);
          changed = true;
        }
      }
    }
    if (!changed) break;
  }
  int lost = state_.players[0].lost + 2 * state_.players[1].lost;
  if (lost && !over_) {
    over_ = true;
    winner_ = lost == 1 ? 1 : lost == 2 ? 0 : -1;
    stage_ = Stage::kOver;
    Log(absl::StrCat("game over: ", winner_ < 0 ? "draw" : winner_ == 0 ? "A wins" : "B wins"));
  }
}

FilterContext Game::ContextFor(ObjId source, Player you, uint16_t choice) const {
  FilterContext ctx;
  ctx.source = source;
  ctx.you = you;
  if (source != kNoObj) ctx.text = &Chars(source);
  ctx.choice = choice;
  return ctx;
}

// ---------------------------------------------------------------- phases

bool Game::FastPhase() const {
  return state_.phase != Phase::kUntap && state_.phase != Phase::kCleanup;
}

void Game::BeginPhase() {
  GameState& s = state_;
  Player ap = s.active;
  Log(absl::StrCat("begin ", std::string(PhaseName(s.phase)), " of ", ap ? "B" : "A"));
  switch (s.phase) {
    case Phase::kUntap:
      for (ObjId o = 0; o < s.obj.count; ++o) {
        if (s.obj.zone[o] != Zone::kBattlefield || Chars(o).controller != ap) continue;
        if (s.obj.tapped[o]) SetTapped(o, false);
        s.obj.sick[o] = false;
      }
      break;
    case Phase::kUpkeep: {
      auto delayed = std::move(delayed_);
      delayed_.clear();
      for (auto& [item, steps] : delayed) ResolveSteps(item, *steps);
      break;
    }
    case Phase::kDraw:
      Draw(ap, 1);
      break;
    case Phase::kCleanup:
      for (ObjId o = 0; o < s.obj.count; ++o) {
        s.obj.damage[o] = 0;
        s.obj.regen_shields[o] = 0;
      }
      for (int r = 0; r < static_cast<int>(s.effects.size()); ++r)
        if (s.effects[r].active && s.effects[r].duration == Duration::kEndOfTurn) EndEffect(r);
      s.Touch();
      break;
    default:
      break;
  }
  CheckState();
  if (over_) return;
  if (s.phase == Phase::kDiscard) {
    stage_ = Stage::kDiscardPhase;
    return;
  }
  stage_ = FastPhase() ? Stage::kNeutral : Stage::kPhaseEnd;
  priority_ = ap;
  passes_ = 0;
}

void Game::EndPhase() {
  GameState& s = state_;
  // T-1.4 mana burn, T-1.5 life check.
  for (Player p = 0; p < 2; ++p) {
    int unspent = 0;
    for (int& m : s.players[p].pool) unspent += m, m = 0;
    if (unspent) {
      s.players[p].life -= unspent;
      Log(absl::StrCat(p ? "B" : "A", " burns for ", unspent));
    }
    if (s.players[p].life <= 0) Lose(p);
  }
  s.Touch();
  CheckState();
}

void Game::NextPhase() {
  GameState& s = state_;
  if (s.phase == Phase::kCleanup) {
    s.phase = Phase::kUntap;
    ++s.turn;
    s.active = Opponent(s.active);
    for (auto& pl : s.players) pl.lands_played = 0;
  } else {
    s.phase = static_cast<Phase>(static_cast<int>(s.phase) + 1);
  }
  s.Touch();
}

// ---------------------------------------------------------------- the loop

void Game::Decide(DecisionKind kind, Player p) {
  decision_.kind = kind;
  decision_.player = p;
  have_decision_ = true;
}

const Decision& Game::Advance() {
  for (int guard = 0; guard < 100000; ++guard) {
    if (have_decision_) return decision_;
    if (over_ || stopped_) {
      decision_.kind = DecisionKind::kNone;
      decision_.player = kNoPlayer;
      decision_.actions.clear();
      return decision_;
    }
    switch (stage_) {
      case Stage::kPhaseBegin:
        BeginPhase();
        break;
      case Stage::kNeutral:
        if (stop_ == StopAt::kNeutral) {
          stopped_ = true;
          break;
        }
        OfferNeutral();
        break;
      case Stage::kRespond:
        OfferRespond();
        break;
      case Stage::kCastTargets:
      case Stage::kCastX:
      case Stage::kCastChoice:
      case Stage::kCastPay:
        ContinueCast();
        break;
      case Stage::kResolve:
        if (batch_.empty()) {
          stage_ = Stage::kNeutral;
          priority_ = state_.active;
          passes_ = 0;
        } else {
          ResolveTop();
        }
        break;
      case Stage::kEntryChoice:
        break;  // a decision is pending
      case Stage::kDiscardPhase: {
        Player ap = state_.active;
        int max = Rules(ap).max_hand_size;
        if (max >= 0 && static_cast<int>(state_.players[ap].hand.size()) > max) {
          decision_.actions.clear();
          for (ObjId o : state_.players[ap].hand)
            decision_.actions.push_back({ActionKind::kObject, o, 0, 0});
          discarding_ = ap;
          pending_discards_ = 1;
          after_discard_ = Stage::kDiscardPhase;
          stage_ = Stage::kCostDiscard;
          Decide(DecisionKind::kDiscard, ap);
        } else {
          stage_ = Stage::kNeutral;
          priority_ = ap;
          passes_ = 0;
        }
        break;
      }
      case Stage::kCostDiscard:
        break;
      case Stage::kPhaseEnd: {
        EndPhase();
        if (over_) break;
        if (stop_ == StopAt::kPhaseEnd) {
          stopped_ = true;
          break;
        }
        bool turn_ends = state_.phase == Phase::kCleanup;
        NextPhase();
        if (turn_ends && stop_ == StopAt::kTurnEnd) {
          stopped_ = true;
          break;
        }
        if (stop_ == StopAt::kTurn && state_.turn >= stop_value_) {
          stopped_ = true;
          break;
        }
        stage_ = Stage::kPhaseBegin;
        break;
      }
      case Stage::kOver:
        over_ = true;
        break;
    }
  }
  // A rules loop that never asks anyone: end the game as a draw.
  over_ = true;
  winner_ = -1;
  decision_.kind = DecisionKind::kNone;
  decision_.actions.clear();
  return decision_;
}

void Game::OfferNeutral() {
  if (passes_ >= 2) {
    stage_ = Stage::kPhaseEnd;
    return;
  }
  Player p = priority_;
  decision_.actions.clear();
  decision_.actions.push_back({ActionKind::kPass});
  GameState& s = state_;
  if (p == s.active && s.phase == Phase::kMain && s.players[p].lands_played == 0) {
    for (ObjId o : s.players[p].hand)
      if (Has((*db_)[s.obj.card[o]].types, kLand))
        decision_.actions.push_back({ActionKind::kPlayLand, o});
  }
  AddSpellAndAbilityActions(p, true);
  if (decision_.actions.size() == 1) {
    Apply(0);
    return;
  }
  Decide(DecisionKind::kNeutral, p);
}

void Game::OfferRespond() {
  if (passes_ >= 2) {
    stage_ = Stage::kResolve;
    return;
  }
  Player p = priority_;
  decision_.actions.clear();
  decision_.actions.push_back({ActionKind::kPass});
  AddSpellAndAbilityActions(p, false);
  if (decision_.actions.size() == 1) {
    Apply(0);
    return;
  }
  Decide(DecisionKind::kRespond, p);
}

void Game::AddSpellAndAbilityActions(Player p, bool neutral) {
  GameState& s = state_;
  for (ObjId o : s.players[p].hand)
    if (CanCast(p, o, neutral)) decision_.actions.push_back({ActionKind::kCast, o});
  for (ObjId o = 0; o < s.obj.count; ++o) {
    if (s.obj.zone[o] != Zone::kBattlefield) continue;
    const Characteristics& ch = Chars(o);
    if (ch.controller != p || ch.blank) continue;
    const CardDef& card = (*db_)[ch.card];
    for (int i = 0; i < static_cast<int>(card.activated.size()); ++i)
      if (CanActivate(p, o, i, neutral))
        decision_.actions.push_back({ActionKind::kActivate, o, static_cast<int16_t>(i)});
  }
}

bool Game::CanCast(Player p, ObjId o, bool neutral) const {
  const GameState& s = state_;
  const CardDef& card = (*db_)[s.obj.card[o]];
  if (Has(card.types, kLand)) return false;
  bool fast = Has(card.types, kInstant) || Has(card.types, kInterrupt) ||
              Has(Chars(o).keywords, kFlash);
  if (fast) {
    if (!FastPhase()) return false;
  } else if (!neutral || p != s.active || s.phase != Phase::kMain || !batch_.empty()) {
    return false;  // T-5 sorcery speed
  }
  StackItem probe;
  probe.card = o;
  probe.controller = p;
  const AbilityBody* body = BodyOf(probe);
  int slots = card.enchant != kNoFilter ? 1 : body ? static_cast<int>(body->targets.size()) : 0;
  for (int slot = 0; slot < slots; ++slot) {
    bool any = false;
    for (ObjId t = 0; t < s.obj.count && !any; ++t)
      any = TargetLegal(probe, slot, Target{Target::kObject, s.Ref(t), kNoPlayer});
    for (Player pl = 0; pl < 2 && !any; ++pl)
      any = TargetLegal(probe, slot, Target{Target::kPlayer, {}, pl});
    if (!any) return false;
  }
  if (!opt_.free_mana && !CanPay(p, TotalCost(probe, card.cost, true), 0, kNoObj)) return false;
  return true;
}

bool Game::CanActivate(Player p, ObjId o, int index, bool neutral) const {
  (void)neutral;
  const GameState& s = state_;
  const Characteristics& ch = Chars(o);
  const CardDef& card = (*db_)[ch.card];
  const ActivatedAbility& a = card.activated[index];
  if (a.mana_ability) return false;  // paid automatically (T-10)
  if (!Has(ch.abilities, card.ActivatedBit(index))) return false;
  if (!FastPhase()) return false;
  if (a.tap && (s.obj.tapped[o] || (s.obj.sick[o] && ch.IsCreature() && !Has(ch.keywords, kHaste))))
    return false;
  if (a.discard > static_cast<int>(s.players[p].hand.size())) return false;
  if (a.life > s.players[p].life) return false;
  StackItem probe;
  probe.source = o;
  probe.ability = static_cast<int16_t>(index);
  probe.controller = p;
  for (int slot = 0; slot < static_cast<int>(a.body.targets.size()); ++slot) {
    bool any = false;
    for (ObjId t = 0; t < s.obj.count && !any; ++t)
      any = TargetLegal(probe, slot, Target{Target::kObject, s.Ref(t), kNoPlayer});
    for (Player pl = 0; pl < 2 && !any; ++pl)
      any = TargetLegal(probe, slot, Target{Target::kPlayer, {}, pl});
    if (!any) return false;
  }
  if (!opt_.free_mana && !CanPay(p, a.cost, 0, a.tap ? o : kNoObj)) return false;
  return true;
}

const AbilityBody* Game::BodyOf(const StackItem& item) const {
  if (item.ability >= 0) {
    const CardDef& card = (*db_)[Chars(item.source).card == kNoCard ? state_.obj.card[item.source]
                                                                     : Chars(item.source).card];
    return &card.activated[item.ability].body;
  }
  const CardDef& card = (*db_)[state_.obj.card[item.card]];
  return card.has_spell ? &card.spell : nullptr;
}

bool Game::TargetLegal(const StackItem& item, int slot, const Target& t) const {
  const GameState& s = state_;
  FilterId fid;
  TargetWhat what;
  ObjId source = item.ability >= 0 ? item.source : item.card;
  if (item.ability < 0 && (*db_)[s.obj.card[item.card]].enchant != kNoFilter) {
    fid = (*db_)[s.obj.card[item.card]].enchant;
    what = TargetWhat::kPermanent;
  } else {
    const AbilityBody* body = BodyOf(item);
    if (!body || slot >= static_cast<int>(body->targets.size())) return false;
    fid = body->targets[slot].filter;
    what = body->targets[slot].what;
  }
  if (t.kind == Target::kPlayer) {
    return what == TargetWhat::kPlayer || what == TargetWhat::kCreatureOrPlayer;
  }
  if (t.kind != Target::kObject || !s.Alive(t.obj)) return false;
  ObjId o = t.obj.id;
  if (what == TargetWhat::kPlayer) return false;
  const Filter& f = db_->filter(fid);
  if (what == TargetWhat::kCreatureOrPlayer) {
    if (s.obj.zone[o] != Zone::kBattlefield || !Chars(o).IsCreature()) return false;
  }
  if (o == item.card) return false;  // a spell never targets itself
  if (!MatchFilter(s, &Chars(0), f, o, ContextFor(source, item.controller, kNoWord))) return false;
  if (s.obj.zone[o] == Zone::kBattlefield) {
    const Characteristics& ch = Chars(o);
    if (Has(ch.keywords, kShroud)) return false;
    ColorMask source_colors = source != kNoObj ? Chars(source).colors : 0;
    for (int c = 0; c < kColorCount; ++c)
      if (Has(source_colors, c) && Has(ch.keywords, kProtWhite + c)) return false;
  }
  return true;
}

// ---------------------------------------------------------------- casting

void Game::StartCast(Player p, const Action& a) {
  casting_ = StackItem{};
  casting_.controller = p;
  casting_.serial = next_serial_++;
  if (a.kind == ActionKind::kCast) {
    casting_.card = a.object;
    MoveTo(a.object, Zone::kStack, p);
    state_.obj.controller[a.object] = p;
    Log(absl::StrCat(p ? "B" : "A", " casts ", ObjectName(a.object)));
  } else {
    casting_.source = a.object;
    casting_.ability = a.index;
    Log(absl::StrCat(p ? "B" : "A", " activates ", ObjectName(a.object), " ability ", a.index + 1));
  }
  cast_slot_ = 0;
  cast_choice_ = 0;
  stage_ = Stage::kCastTargets;
}

void Game::ContinueCast() {
  const GameState& s = state_;
  StackItem& item = casting_;
  const AbilityBody* body = BodyOf(item);
  const CardDef* card = item.card != kNoObj ? &(*db_)[s.obj.card[item.card]] : nullptr;
  if (stage_ == Stage::kCastTargets) {
    int slots = card && card->enchant != kNoFilter ? 1
                : body                              ? static_cast<int>(body->targets.size())
                                                    : 0;
    if (cast_slot_ < slots) {
      decision_.actions.clear();
      for (ObjId t = 0; t < s.obj.count; ++t)
        if (TargetLegal(item, cast_slot_, Target{Target::kObject, s.Ref(t), kNoPlayer}))
          decision_.actions.push_back({ActionKind::kTargetObject, t});
      for (Player pl = 0; pl < 2; ++pl)
        if (TargetLegal(item, cast_slot_, Target{Target::kPlayer, {}, pl}))
          decision_.actions.push_back({ActionKind::kTargetPlayer, kNoObj, 0, pl});
      Decide(DecisionKind::kTarget, item.controller);
      return;
    }
    stage_ = Stage::kCastX;
  }
  if (stage_ == Stage::kCastX) {
    const ManaCost& cost = item.ability >= 0
                               ? (*db_)[Chars(item.source).card].activated[item.ability].cost
                               : card->cost;
    stage_ = Stage::kCastChoice;
    if (cost.x_count > 0) {
      decision_.actions.clear();
      int max_x = 20;
      if (!opt_.free_mana) {
        max_x = 0;
        while (max_x < 20 && CanPay(item.controller, TotalCost(item, cost, item.ability < 0),
                                    max_x + 1, item.source))
          ++max_x;
      }
      for (int x = 0; x <= max_x; ++x) decision_.actions.push_back({ActionKind::kNumber, kNoObj, 0, x});
      Decide(DecisionKind::kX, item.controller);
      return;
    }
  }
  if (stage_ == Stage::kCastChoice) {
    ChoiceKind kind = body ? body->choose : ChoiceKind::kNone;
    int needed = kind == ChoiceKind::kNone                                                 ? 0
                 : (kind == ChoiceKind::kWordPair || kind == ChoiceKind::kCreatureTypePair) ? 2
                                                                                           : 1;
    if (cast_choice_ < needed) {
      decision_.actions.clear();
      auto word = [&](Word w) { decision_.actions.push_back({ActionKind::kWord, kNoObj, 0, w}); };
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
        default:
          for (int t = 0; t < SubtypeCount(); ++t)
            if (SubtypeKindOf(t) == SubtypeKind::kCreature) word(static_cast<Word>(t));
          break;
      }
      Decide(DecisionKind::kChoice, item.controller);
      return;
    }
    stage_ = Stage::kCastPay;
  }
  // Costs (T-8): mana, tapping, life, sacrifice; discards are chosen.
  Player p = item.controller;
  if (item.ability >= 0) {
    const ActivatedAbility& a = (*db_)[Chars(item.source).card].activated[item.ability];
    if (pending_discards_ == 0 && a.discard > 0 && cast_choice_ < 100) {
      pending_discards_ = a.discard;
      cast_choice_ = 100;  // discards asked once
    }
    if (pending_discards_ > 0) {
      decision_.actions.clear();
      for (ObjId o : state_.players[p].hand)
        decision_.actions.push_back({ActionKind::kObject, o});
      discarding_ = p;
      after_discard_ = Stage::kCastPay;
      stage_ = Stage::kCostDiscard;
      Decide(DecisionKind::kDiscard, p);
      return;
    }
    const ObjId src = item.source;
    const Characteristics& sc = Chars(src);
    item.source_power = sc.power;
    item.source_toughness = sc.toughness;
    if (!opt_.free_mana) Pay(p, a.cost, item.x);
    if (a.tap) SetTapped(src, true);
    if (a.life) state_.players[p].life -= a.life, state_.Touch();
    if (a.sacrifice_self) MoveTo(src, Zone::kGraveyard, state_.obj.owner[src]);
  } else {
    if (!opt_.free_mana) Pay(p, TotalCost(item, card->cost, true), item.x);
  }
  FinishCast();
}

ManaCost Game::TotalCost(const StackItem& item, const ManaCost& base, bool spell) const {
  ManaCost c = base;
  if (!spell) return c;
  // L-8: increases, then reductions, then setting a minimum.
  const PlayerRules& r = Rules(item.controller);
  c.generic += r.cost_increase;
  c.generic = std::max(0, c.generic - r.cost_reduce);
  int total = c.ManaValue() + c.x_count * item.x;
  if (total < r.cost_min) c.generic += r.cost_min - total;
  return c;
}

bool Game::CanPay(Player p, const ManaCost& cost, int x, ObjId excluding) const {
  std::vector<ManaSource> sources;
  const GameState& s = state_;
  for (ObjId o = 0; o < s.obj.count; ++o) {
    if (o == excluding || s.obj.zone[o] != Zone::kBattlefield || s.obj.tapped[o]) continue;
    const Characteristics& ch = Chars(o);
    if (ch.controller != p) continue;
    bool sick = ch.IsCreature() && s.obj.sick[o] && !Has(ch.keywords, kHaste);
    if (sick) continue;
    if (ch.land_mana) {
      sources.push_back({o, ch.land_mana, false});
      continue;
    }
    if (ch.blank) continue;
    const CardDef& card = (*db_)[ch.card];
    for (int i = 0; i < static_cast<int>(card.activated.size()); ++i) {
      const ActivatedAbility& a = card.activated[i];
      if (!a.mana_ability || !a.tap || !a.cost.Empty() || !Has(ch.abilities, card.ActivatedBit(i)))
        continue;
      const EffectStep& st = a.body.steps[0];
      sources.push_back({o, static_cast<ColorMask>(st.mana_any ? 0x1F : st.mana_colors),
                         st.mana_colorless});
      break;
    }
  }
  return PlanPayment(cost, x, s.players[p].pool, sources, nullptr, nullptr);
}

bool Game::Pay(Player p, const ManaCost& cost, int x) {
  std::vector<ManaSource> sources;
  GameState& s = state_;
  for (ObjId o = 0; o < s.obj.count; ++o) {
    if (s.obj.zone[o] != Zone::kBattlefield || s.obj.tapped[o]) continue;
    const Characteristics& ch = Chars(o);
    if (ch.controller != p) continue;
    if (ch.IsCreature() && s.obj.sick[o] && !Has(ch.keywords, kHaste)) continue;
    if (ch.land_mana) {
      sources.push_back({o, ch.land_mana, false});
      continue;
    }
    if (ch.blank) continue;
    const CardDef& card = (*db_)[ch.card];
    for (int i = 0; i < static_cast<int>(card.activated.size()); ++i) {
      const ActivatedAbility& a = card.activated[i];
      if (!a.mana_ability || !a.tap || !a.cost.Empty() || !Has(ch.abilities, card.ActivatedBit(i)))
        continue;
      const EffectStep& st = a.body.steps[0];
      sources.push_back({o, static_cast<ColorMask>(st.mana_any ? 0x1F : st.mana_colors),
                         st.mana_colorless});
      break;
    }
  }
  // Lands first, so creatures stay untapped when they are not needed.
  std::stable_sort(sources.begin(), sources.end(), [&](const ManaSource& a, const ManaSource& b) {
    return Has(Chars(a.object).types, kLand) > Has(Chars(b.object).types, kLand);
  });
  std::vector<int> tap;
  std::array<int, 6> after;
  if (!PlanPayment(cost, x, s.players[p].pool, sources, &tap, &after)) return false;
  for (int i : tap) {
    SetTapped(sources[i].object, true);
    Log(absl::StrCat(p ? "B" : "A", " taps ", ObjectName(sources[i].object), " for mana"));
  }
  s.players[p].pool = after;
  s.Touch();
  return true;
}

void Game::FinishCast() {
  StackItem item = casting_;
  const CardDef* card = item.card != kNoObj ? &(*db_)[state_.obj.card[item.card]] : nullptr;
  if (item.ability >= 0 && (*db_)[Chars(item.source).card].activated[item.ability].mana_ability) {
    ResolveSteps(item, (*db_)[Chars(item.source).card].activated[item.ability].body.steps);
    stage_ = batch_.empty() ? Stage::kNeutral : Stage::kRespond;
    return;
  }
  (void)card;
  // Successfully cast (T-8): it joins or starts the batch; AP decides first.
  batch_.push_back(item);
  outcomes_.push_back({item.serial, Outcome::kPending});
  stage_ = Stage::kRespond;
  priority_ = state_.active;
  passes_ = 0;
}

// ---------------------------------------------------------------- applying

void Game::Apply(int index) { Apply(decision_.actions[index]); }

void Game::Apply(const Action& a) {
  have_decision_ = false;
  switch (stage_) {
    case Stage::kNeutral:
    case Stage::kRespond:
      if (a.kind == ActionKind::kPass) {
        ++passes_;
        priority_ = Opponent(priority_);
        return;
      }
      passes_ = 0;
      if (a.kind == ActionKind::kPlayLand) {
        Player p = priority_;
        MoveTo(a.object, Zone::kBattlefield, p);
        state_.obj.controller[a.object] = p;
        ++state_.players[p].lands_played;
        Log(absl::StrCat(p ? "B" : "A", " plays ", ObjectName(a.object)));
        priority_ = state_.active;
        return;
      }
      StartCast(priority_, a);
      return;
    case Stage::kCastTargets: {
      Target t;
      if (a.kind == ActionKind::kTargetPlayer) t = Target{Target::kPlayer, {}, static_cast<Player>(a.value)};
      else t = Target{Target::kObject, state_.Ref(a.object), kNoPlayer};
      casting_.targets[casting_.target_count++] = t;
      ++cast_slot_;
      return;
    }
    case Stage::kCastChoice:
      if (decision_.kind == DecisionKind::kX) {
        casting_.x = static_cast<int16_t>(a.value);
        return;
      }
      casting_.choice[casting_.choice_count++] = static_cast<uint16_t>(a.value);
      ++cast_choice_;
      return;
    case Stage::kCostDiscard: {
      Player p = discarding_;
      Log(absl::StrCat(p ? "B" : "A", " discards ", ObjectName(a.object)));
      MoveTo(a.object, Zone::kGraveyard, state_.obj.owner[a.object]);
      --pending_discards_;
      stage_ = after_discard_;
      if (after_discard_ == Stage::kCastPay && pending_discards_ == 0) cast_choice_ = 101;
      return;
    }
    case Stage::kEntryChoice:
      FinishEntry(entering_, &a);
      return;
    default:
      return;
  }
}

// ---------------------------------------------------------------- resolving

std::vector<ObjId> Game::Resolve(const StackItem& item, const Ref& ref,
                                 std::vector<Player>* players) {
  std::vector<ObjId> out;
  switch (ref.kind) {
    case Ref::kTarget: {
      const Target& t = item.targets[ref.index - 1];
      if (t.kind == Target::kObject && TargetLegal(item, ref.index - 1, t)) out.push_back(t.obj.id);
      if (t.kind == Target::kPlayer && players) players->push_back(t.player);
      break;
    }
    case Ref::kSelf:
      out.push_back(item.ability >= 0 ? item.source : item.card);
      break;
    case Ref::kEnchanted: {
      ObjId src = item.ability >= 0 ? item.source : item.card;
      if (src != kNoObj && state_.obj.attached_to[src] != kNoObj)
        out.push_back(state_.obj.attached_to[src]);
      break;
    }
    case Ref::kOpponent:
      if (players) players->push_back(Opponent(item.controller));
      break;
    case Ref::kYou:
    case Ref::kNone:
      if (players) players->push_back(item.controller);
      break;
  }
  return out;
}

void Game::ResolveSteps(StackItem& item, const std::vector<EffectStep>& steps) {
  ObjId source = item.ability >= 0 ? item.source : item.card;
  CardId source_card = item.ability >= 0 ? Chars(item.source).card : state_.obj.card[item.card];
  for (const EffectStep& st : steps) {
    std::vector<Player> players;
    std::vector<ObjId> objs = Resolve(item, st.target, &players);
    int amount = st.amount.kind == Value::kX ? item.x : st.amount.constant;
    switch (st.op) {
      case Op::kContinuous: {
        EffectRow row;
        row.card = source_card;
        row.tmpl = static_cast<int16_t>(st.continuous);
        row.source = source != kNoObj ? state_.Ref(source) : ObjRef{};
        row.controller = item.controller;
        row.duration = st.duration;
        row.x = item.x;
        row.choice = item.choice;
        row.source_power = item.source_power;
        row.source_toughness = item.source_toughness;
        const EffectTemplate& t = (*db_)[source_card].continuous[st.continuous];
        for (const Part& p : t.parts) {
          if (p.layer != PartLayer::kCopy) continue;
          const Target& ct = item.targets[p.copy_of_target - 1];
          if (ct.kind != Target::kObject || !state_.Alive(ct.obj)) continue;
          const Characteristics& cc = Chars(ct.obj.id);
          row.copy = CopySpec{cc.card, cc.mode, cc.blank};
        }
        std::vector<ObjRef> set;
        if (st.affects != kNoFilter) {
          ObjId excluded = kNoObj;
          if (st.exclude_target > 0 && item.targets[st.exclude_target - 1].kind == Target::kObject)
            excluded = item.targets[st.exclude_target - 1].obj.id;
          FilterContext ctx = ContextFor(source, item.controller, item.choice[0]);
          for (ObjId o = 0; o < state_.obj.count; ++o)
            if (o != excluded && state_.obj.zone[o] != Zone::kNone &&
                MatchFilter(state_, &Chars(0), db_->filter(st.affects), o, ctx))
              set.push_back(state_.Ref(o));
        } else {
          for (ObjId o : objs) set.push_back(state_.Ref(o));
        }
        AddEffectRow(row, set);
        Log(absl::StrCat("effect of ", (*db_)[source_card].name, " applies to ", set.size(),
                         " object(s)"));
        break;
      }
      case Op::kDraw:
        for (Player p : players) Draw(p, amount);
        break;
      case Op::kDamage:
        for (ObjId o : objs) {
          state_.obj.damage[o] = static_cast<int16_t>(state_.obj.damage[o] + amount);
          Log(absl::StrCat(ObjectName(o), " is dealt ", amount, " damage"));
        }
        for (Player p : players) state_.players[p].life -= amount;
        state_.Touch();
        break;
      case Op::kGainLife:
        for (Player p : players) state_.players[p].life += amount;
        state_.Touch();
        break;
      case Op::kLoseLife:
        for (Player p : players) state_.players[p].life -= amount;
        state_.Touch();
        break;
      case Op::kTap:
        for (ObjId o : objs) SetTapped(o, true);
        break;
      case Op::kUntap:
        for (ObjId o : objs) SetTapped(o, false);
        break;
      case Op::kDestroy:
        for (ObjId o : objs) DestroyObject(o);
        break;
      case Op::kExile:
        for (ObjId o : objs) MoveTo(o, Zone::kExile, state_.obj.owner[o]);
        break;
      case Op::kBounce:
        for (ObjId o : objs) MoveTo(o, Zone::kHand, state_.obj.owner[o]);
        break;
      case Op::kRegenerate:
        for (ObjId o : objs) ++state_.obj.regen_shields[o];
        state_.Touch();
        break;
      case Op::kAddCounters:
        for (ObjId o : objs) AddCounters(o, st.counter_kind, amount);
        break;
      case Op::kAddMana: {
        Player p = item.controller;
        int c = st.mana_colorless ? 5 : 0;
        if (!st.mana_colorless)
          for (int k = 0; k < kColorCount; ++k)
            if (Has(st.mana_colors, k)) c = k;
        state_.players[p].pool[c] += amount;
        break;
      }
      case Op::kDiscard:
        for (Player p : players) {
          for (int i = 0; i < amount && !state_.players[p].hand.empty(); ++i)
            MoveTo(state_.players[p].hand.back(), Zone::kGraveyard, p);
        }
        break;
      case Op::kCounterSpell:
        for (ObjId o : objs) {
          for (size_t i = 0; i < batch_.size(); ++i) {
            if (batch_[i].card != o) continue;
            for (auto& [serial, out] : outcomes_)
              if (serial == batch_[i].serial) out = Outcome::kCountered;
            batch_.erase(batch_.begin() + static_cast<long>(i));
            MoveTo(o, Zone::kGraveyard, state_.obj.owner[o]);
            break;
          }
        }
        break;
      case Op::kDelayed:
        delayed_.push_back({item, &st.delayed});
        break;
    }
  }
}

void Game::ResolveTop() {
  StackItem item = batch_.back();
  batch_.pop_back();
  const CardDef* card = item.card != kNoObj ? &(*db_)[state_.obj.card[item.card]] : nullptr;
  // T-11: all targets illegal -> it does nothing.
  bool any_target = item.target_count == 0;
  for (int i = 0; i < item.target_count; ++i) {
    if (item.targets[i].kind == Target::kPlayer || TargetLegal(item, i, item.targets[i]))
      any_target = true;
  }
  Outcome outcome = Outcome::kResolved;
  if (!any_target) {
    outcome = Outcome::kFizzled;
    Log(absl::StrCat(item.card != kNoObj ? ObjectName(item.card) : ObjectName(item.source),
                     " fizzles"));
    if (item.card != kNoObj) MoveTo(item.card, Zone::kGraveyard, state_.obj.owner[item.card]);
  } else if (item.ability >= 0) {
    Log(absl::StrCat("ability of ", ObjectName(item.source), " resolves"));
    ResolveSteps(item, (*db_)[Chars(item.source).card == kNoCard ? state_.obj.card[item.source]
                                                                 : Chars(item.source).card]
                           .activated[item.ability].body.steps);
  } else if (card->has_spell) {
    Log(absl::StrCat(ObjectName(item.card), " resolves"));
    ResolveSteps(item, card->spell.steps);
    MoveTo(item.card, Zone::kGraveyard, state_.obj.owner[item.card]);
  } else {
    EnterBattlefield(item);
  }
  for (auto& [serial, out] : outcomes_)
    if (serial == item.serial) out = outcome;
  if (stage_ == Stage::kResolve) CheckState();
}

void Game::EnterBattlefield(StackItem& item) {
  ObjId o = item.card;
  MoveTo(o, Zone::kBattlefield, item.controller);
  state_.obj.controller[o] = item.controller;
  state_.obj.sick[o] = true;
  Log(absl::StrCat(ObjectName(o), " enters the battlefield"));
  const CardDef& card = (*db_)[state_.obj.card[o]];
  if (card.enchant != kNoFilter && item.target_count > 0 && item.targets[0].kind == Target::kObject)
    Attach(o, item.targets[0].obj.id);
  if (card.enters.choose == ChoiceKind::kNone) {
    FinishEntry(o, nullptr);
    return;
  }
  // Ask the entry choice (a decision during resolution).
  decision_.actions.clear();
  const EntryChoice& e = card.enters;
  auto word = [&](Word w) { decision_.actions.push_back({ActionKind::kWord, kNoObj, 0, w}); };
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
        decision_.actions.push_back({ActionKind::kNumber, kNoObj, 0, static_cast<int32_t>(m)});
      break;
    case ChoiceKind::kCopy:
    case ChoiceKind::kExile: {
      FilterContext ctx = ContextFor(o, item.controller, kNoWord);
      for (ObjId t = 0; t < state_.obj.count; ++t)
        if (t != o && state_.obj.zone[t] == Zone::kBattlefield &&
            MatchFilter(state_, &Chars(0), db_->filter(e.filter), t, ctx))
          decision_.actions.push_back({ActionKind::kObject, t});
      if (e.optional || decision_.actions.empty())
        decision_.actions.push_back({ActionKind::kNoChoice});
      break;
    }
    default:
      break;
  }
  entering_ = o;
  stage_ = Stage::kEntryChoice;
  Decide(DecisionKind::kChoice, item.controller);
}

void Game::FinishEntry(ObjId o, const Action* a) {
  const CardDef& card = (*db_)[state_.obj.card[o]];
  if (a && a->kind != ActionKind::kNoChoice) {
    switch (card.enters.choose) {
      case ChoiceKind::kCopy: {
        // The copiable values are fixed now (L-7): a copy of a copy copies
        // what the first copy copied.
        const Characteristics& src = Chars(a->object);
        CopySpec spec{src.card, src.mode, src.blank};
        if (card.enters.has_except_colors) {
          spec.has_colors = true;
          spec.colors = card.enters.except_colors;
        }
        state_.obj.copy[o] = spec;
        Log(absl::StrCat(ObjectName(o), " enters as a copy of ", ObjectName(a->object)));
        break;
      }
      case ChoiceKind::kExile:
        MoveTo(a->object, Zone::kExile, state_.obj.owner[a->object]);
        state_.obj.linked[o] = state_.Ref(a->object);
        break;
      case ChoiceKind::kMode:
        state_.obj.choice[o] = static_cast<uint16_t>(a->value);
        break;
      default:
        state_.obj.choice[o] = static_cast<uint16_t>(a->value);
        break;
    }
    state_.Touch();
  }
  stage_ = Stage::kResolve;
  CheckState();
}

}  // namespace strata
