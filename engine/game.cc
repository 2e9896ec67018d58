#include "engine/game.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "engine/saturate.h"
#include "engine/strings.h"

namespace strata {
namespace {

// A per-thread buffer lent to one call, so a hot path reuses its capacity
// instead of allocating; a nested call finds it lent out (empty) and grows
// its own, which is then kept if larger.
template <typename T>
struct Borrowed {
  explicit Borrowed(std::vector<T>& home) : home_(home) {
    v.swap(home_);
    v.clear();
  }
  ~Borrowed() {
    if (v.capacity() >= home_.capacity()) {
      v.clear();
      home_.swap(v);
    }
  }
  std::vector<T> v;

 private:
  std::vector<T>& home_;
};

}  // namespace

std::string_view DecisionKindName(DecisionKind k) {
  static constexpr std::string_view kNames[] = {
      "none",          "neutral",       "respond",    "interrupt", "target",     "x",
      "choice",        "discard",       "attackers",  "blockers",  "prevention", "reaction",
      "trigger_order", "optional_cost", "phase_cost", "mulligan",  "bottom"};
  return kNames[static_cast<int>(k)];
}

std::string_view MulliganName(Mulligan m) {
  static constexpr std::string_view kNames[] = {"none", "paris", "london"};
  return kNames[static_cast<int>(m)];
}

std::optional<Mulligan> ParseMulligan(std::string_view s) {
  for (int i = 0; i < 3; ++i)
    if (MulliganName(static_cast<Mulligan>(i)) == s) return static_cast<Mulligan>(i);
  return std::nullopt;
}

std::string_view EndReasonName(EndReason r) {
  static constexpr std::string_view kNames[] = {"none", "life",     "library",
                                                "both", "turn_cap", "action_cap"};
  return kNames[static_cast<int>(r)];
}

std::string_view PhaseName(Phase p) {
  static constexpr std::string_view kNames[] = {"untap", "upkeep",  "draw",
                                                "main",  "discard", "cleanup"};
  return kNames[static_cast<int>(p)];
}

std::optional<Phase> ParsePhase(std::string_view s) {
  for (int i = 0; i < 6; ++i)
    if (PhaseName(static_cast<Phase>(i)) == s) return static_cast<Phase>(i);
  return std::nullopt;
}

Game::Game(const CardDb& db, const GameOptions& options)
    : db_(&db), opt_(options), rng_(options.seed) {
  state_.edition = options.edition;
  for (int i = 0; i < kMaxObjects; ++i) {
    state_.obj.attached_to[i] = kNoObj;
    state_.obj.zone[i] = Zone::kNone;
    block_target_[i] = kNoObj;
    control_seen_[i] = kNoPlayer;
  }
}

void Game::Reset(const GameOptions& options) {
  // Build the fresh game, hand it this game's buffers emptied, and take it
  // over: every field is the fresh game's (a field added later is reset
  // too), and no buffer is freed. A buffer missing here is only reallocated.
  Game fresh(*db_, options);
  auto keep = [](auto& mine, auto& theirs) {
    mine.clear();
    mine.swap(theirs);
  };
  keep(state_.effects, fresh.state_.effects);
  keep(state_.effect_sets, fresh.state_.effect_sets);
  for (int p = 0; p < 2; ++p) {
    keep(state_.players[p].library, fresh.state_.players[p].library);
    keep(state_.players[p].hand, fresh.state_.players[p].hand);
    keep(state_.players[p].graveyard, fresh.state_.players[p].graveyard);
  }
  keep(layer_mismatch_, fresh.layer_mismatch_);
  keep(invariant_failure_, fresh.invariant_failure_);
  keep(frames_, fresh.frames_);
  keep(decision_.actions, fresh.decision_.actions);
  keep(items_, fresh.items_);
  keep(batch_, fresh.batch_);
  keep(ibatch_, fresh.ibatch_);
  keep(events_, fresh.events_);
  keep(queued_, fresh.queued_);
  keep(damage_, fresh.damage_);
  keep(phase_todo_, fresh.phase_todo_);
  keep(outcomes_, fresh.outcomes_);
  keep(next_upkeep_, fresh.next_upkeep_);
  keep(delayed_steps_, fresh.delayed_steps_);
  keep(source_shields_, fresh.source_shields_);
  keep(damaged_by_, fresh.damaged_by_);
  keep(died_this_turn_, fresh.died_this_turn_);
  keep(destroying_, fresh.destroying_);
  keep(log_, fresh.log_);
  keep(log_events_, fresh.log_events_);
  *this = std::move(fresh);
}

ObjId Game::AddObject(CardId card, Player owner, Zone zone) {
  GameState& s = state_;
  // The loaders refuse decks and scenarios beyond the capacity; this guard
  // keeps a caller that did not check from writing past the arrays.
  if (s.obj.count >= kMaxObjects) return kNoObj;
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
  control_seen_[o] = kNoPlayer;
  seen_[o] = zone == Zone::kHand ? kSeenInHand : 0;
  auto& pl = s.players[owner];
  if (zone == Zone::kLibrary) pl.library.push_back(o);
  if (zone == Zone::kHand) pl.hand.push_back(o);
  if (zone == Zone::kGraveyard) pl.graveyard.push_back(o);
  s.Touch();
  return o;
}

void Game::Deal(const Deck& a, const Deck& b, Player first) {
  const Deck* decks[2] = {&a, &b};
  for (Player p = 0; p < 2; ++p) {
    static thread_local std::vector<CardId> cards;  // no allocation per game once warm
    cards.assign(decks[p]->main.begin(), decks[p]->main.end());
    for (size_t i = cards.size(); i > 1; --i)  // Fisher-Yates with the game's generator
      std::swap(cards[i - 1], cards[rng_.Below(static_cast<uint32_t>(i))]);
    for (CardId c : cards)
      if (AddObject(c, p, Zone::kLibrary) == kNoObj) break;  // beyond capacity
    for (int i = 0; i < kOpeningHandSize && !state_.players[p].library.empty(); ++i)
      MoveTo(state_.players[p].library.front(), Zone::kHand, p);
    for (ObjId o : state_.players[p].hand) seen_[o] |= kSeenOpening;
  }
  skip_first_draw_ = true;
  StartAt(Phase::kUntap, first, 1);
  // Before the first turn (G-1): `first` decides first, then the other.
  if (opt_.mulligan != Mulligan::kNone) Push(FrameKind::kMulligan, first);
}

void Game::StartAt(Phase phase, Player active, int turn) {
  state_.phase = phase;
  state_.active = active;
  state_.turn = turn;
  first_turn_ = turn;
  frames_.clear();
  Push(FrameKind::kTurn);
  state_.Touch();
}

// ---------------------------------------------------------------- queries

const StackItem* Game::Casting() const {
  for (auto f = frames_.rbegin(); f != frames_.rend(); ++f)
    if (f->kind == FrameKind::kCast) return &items_[f->a];
  return nullptr;
}

bool Game::SummoningSick(ObjId o) const {
  const GameState& s = state_;
  if (o >= s.obj.count || s.obj.zone[o] != Zone::kBattlefield) return false;
  const Characteristics& ch = Chars(o);
  if (!ch.IsCreature() || Has(ch.keywords, kHaste)) return false;
  // A change of control not yet seen by a state check counts at once.
  return s.obj.sick[o] || (control_seen_[o] != kNoPlayer && control_seen_[o] != ch.controller);
}

bool Game::SpellOnStack(const StackItem& item) const {
  return item.card != kNoObj && state_.obj.zone[item.card] == Zone::kStack &&
         state_.obj.incarnation[item.card] == item.card_incarnation;
}

bool Game::AboutMatches(ObjId candidate, ObjId about) const {
  if (about != kAboutDestroying) return candidate == about;
  for (auto f = frames_.rbegin(); f != frames_.rend(); ++f)
    if (f->kind == FrameKind::kDestroy) {
      for (int i = f->a; i < f->b; ++i)
        if (destroying_[i].id == candidate && state_.Alive(destroying_[i])) return true;
      return false;
    }
  return false;
}

bool Game::HasManaAbility(ObjId o) const {
  const Characteristics& ch = Chars(o);
  if (ch.land_mana) return true;
  if (ch.blank || ch.card == kNoCard) return false;
  const CardDef& card = (*db_)[ch.card];
  for (int i = 0; i < static_cast<int>(card.activated.size()); ++i)
    if (card.activated[i].mana_ability && Has(ch.abilities, card.ActivatedBit(i))) return true;
  return false;
}

const Characteristics& Game::Chars(ObjId o) const {
  if (cache_.version != state_.version) ComputeLayers(*db_, state_, cache_);
  if (opt_.checked_layers) {
    // L-9: a cached result is only a faster way to the same answer.
    static thread_local LayerCache fresh;
    ComputeLayers(*db_, state_, fresh);
    ++layer_checks_;
    for (ObjId i = 0; i < state_.obj.count; ++i)
      if (!(fresh.chars[i] == cache_.chars[i]) && layer_mismatch_.empty())
        layer_mismatch_ =
            absl::StrCat("cached characteristics of object ", i, " (",
                         (*db_)[state_.obj.card[i]].name, ") differ from a fresh computation");
  }
  return cache_.chars[o];
}

std::string Game::CheckLayerCache() const {
  if (cache_.version != state_.version) ComputeLayers(*db_, state_, cache_);
  static thread_local LayerCache fresh;
  ComputeLayers(*db_, state_, fresh);
  for (ObjId i = 0; i < state_.obj.count; ++i)
    if (!(fresh.chars[i] == cache_.chars[i]))
      return absl::StrCat("cached characteristics of object ", i, " (",
                          (*db_)[state_.obj.card[i]].name, ") differ from a fresh computation");
  for (Player p = 0; p < 2; ++p)
    if (!(fresh.rules[p] == cache_.rules[p]))
      return absl::StrCat("cached rules of player ", p ? "B" : "A",
                          " differ from a fresh computation");
  return "";
}

const PlayerRules& Game::Rules(Player p) const {
  Chars(0);
  return cache_.rules[p];
}

Outcome Game::OutcomeOf(uint32_t serial) const {
  Outcome out = Outcome::kPending;
  for (auto& [s, o] : outcomes_)
    if (s == serial) out = o;  // the latest word on it
  return out;
}

std::string Game::ObjectName(ObjId o) const {
  if (o == kNoObj) return "nothing";
  return absl::StrCat((*db_)[state_.obj.card[o]].name, "#", o);
}

void Game::AddLog(LogKind kind, Player p, ObjId o, ObjId other, int amount,
                  const std::string& text) {
  log_events_.push_back(LogEvent{state_.turn, state_.phase, kind, p, o, other, amount});
  log_.push_back(absl::StrCat("T", state_.turn, " ", S(PhaseName(state_.phase)), ": ", text));
}

FilterContext Game::ContextFor(ObjId source, Player you, uint16_t choice) const {
  FilterContext ctx;
  ctx.source = source;
  ctx.you = you;
  if (source != kNoObj) ctx.text = &Chars(source);
  ctx.choice = choice;
  return ctx;
}

// ---------------------------------------------------------------- mutations

void Game::MoveTo(ObjId o, Zone to, Player zone_owner) {
  GameState& s = state_;
  Zone from = s.obj.zone[o];
  for (auto& pl : s.players)
    for (auto* v : {&pl.library, &pl.hand, &pl.graveyard})
      v->erase(std::remove(v->begin(), v->end(), o), v->end());
  // A zone change makes a new object (RULES.md "Game and objects").
  s.obj.zone[o] = to;
  ++s.obj.incarnation[o];
  s.obj.timestamp[o] = s.NewTimestamp();
  s.obj.tapped[o] = false;
  s.obj.damage[o] = 0;
  s.obj.regen_shields[o] = 0;
  s.obj.attached_to[o] = kNoObj;
  s.obj.face_down[o] = false;
  s.obj.sick[o] = to == Zone::kBattlefield;
  control_seen_[o] = kNoPlayer;
  s.obj.controller[o] = s.obj.owner[o];
  combat_[o] = kNotInCombat;
  block_target_[o] = kNoObj;
  prevent_shield_[o] = 0;
  no_regen_[o] = false;
  if (to != Zone::kBattlefield) {
    s.obj.copy[o] = CopySpec{};
    s.obj.linked[o] = ObjRef{};
    if (from == Zone::kBattlefield) s.obj.choice[o] = kNoWord;
  }
  if (to == Zone::kHand || to == Zone::kLibrary || from == Zone::kBattlefield)
    s.obj.p1p1[o] = s.obj.m1m1[o] = s.obj.other_counters[o] = 0;
  auto& pl = s.players[zone_owner];
  if (to == Zone::kLibrary) pl.library.insert(pl.library.begin(), o);
  if (to == Zone::kHand) pl.hand.push_back(o);
  if (to == Zone::kGraveyard) pl.graveyard.push_back(o);
  if (to == Zone::kHand) seen_[o] |= kSeenInHand;
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
  if (kind == 0)
    state_.obj.p1p1[o] = SaturatedAdd(state_.obj.p1p1[o], n);
  else if (kind == 1)
    state_.obj.m1m1[o] = SaturatedAdd(state_.obj.m1m1[o], n);
  else
    state_.obj.other_counters[o] = SaturatedAdd(state_.obj.other_counters[o], n);
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
}

// ---------------------------------------------------------------- occurrences

int Game::Record(const Occurrence& e) {
  const int index = static_cast<int>(events_.size());
  events_.push_back(e);
  if (events_.back().group < 0) events_.back().group = index;  // an occurrence of its own
  return index;
}

// Finds the triggered abilities an occurrence sets off and queues them in
// order (E-3 B). A source that just left play still triggers (E-5): the
// occurrence's object is checked with its last known characteristics.
void Game::CollectTriggers(int event, Timing timing) {
  const Occurrence& e = events_[event];
  const GameState& s = state_;
  for (ObjId o = 0; o < s.obj.count; ++o) {
    // A source that left play in this occurrence, or together with its
    // object (E-5), triggers with its last known state.
    const Occurrence* left = s.obj.zone[o] != Zone::kBattlefield ? LeftInGroup(o, event) : nullptr;
    if (s.obj.zone[o] != Zone::kBattlefield && !left) continue;
    const Characteristics& ch = left ? left->last : Chars(o);
    if (ch.blank || ch.card == kNoCard) continue;
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
      if (e.kind == EventKind::kPhaseBegin && !tr.phase.empty() && tr.phase != PhaseName(e.phase))
        continue;
      if (tr.self_source && e.source != o) continue;
      if (tr.combat && !e.combat) continue;
      if (tr.damaged_by_self && !DamagedBy(e, o, left)) continue;
      if (tr.unless_any != kNoFilter) {
        bool any = false;
        FilterContext ctx = ContextFor(o, you, s.obj.choice[o]);
        for (ObjId x = 0; x < s.obj.count && !any; ++x)
          any = s.obj.zone[x] != Zone::kNone &&
                MatchFilter(s, &Chars(0), db_->filter(tr.unless_any), x, ctx);
        if (any) continue;
      }
      if (tr.damage_to == 0 && e.object != kNoObj) continue;
      if (tr.damage_to == 1 && e.object == kNoObj) continue;
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
      queued_.push_back(QueuedTrigger{o, ch.card, static_cast<int16_t>(i), you, event});
      Note(LogKind::kTrigger, you, o, kNoObj, 0, [&] {
        return std::string(absl::StrCat(card.AbilityName(card.TriggerBit(i)), " triggers"));
      });
    }
  }
}

// "When" responses come at the occurrence, "after" ones right behind them (E-1).
void Game::Happened(int event) {
  CollectTriggers(event, Timing::kWhen);
  CollectTriggers(event, Timing::kAfter);
}

// "Before" responses: collected before the occurrence happens (E-1).
void Game::Before(const Occurrence& e) {
  int ev = Record(e);
  events_[ev].before = true;
  CollectTriggers(ev, Timing::kBefore);
}

void Game::ZoneChange(ObjId o, Zone to) { LeaveTogether(&o, 1, to); }

void Game::LeaveTogether(const ObjId* objs, int n, Zone to) {
  if (n <= 0) return;
  thread_local std::vector<Occurrence> buffer;
  Borrowed<Occurrence> borrowed(buffer);
  std::vector<Occurrence>& moves = borrowed.v;
  for (int i = 0; i < n; ++i) {
    const ObjId o = objs[i];
    Occurrence e;
    e.kind = EventKind::kZoneChange;
    e.object = o;
    e.from = state_.obj.zone[o];
    e.to = to;
    e.last = Chars(o);
    e.player = e.from == Zone::kBattlefield ? e.last.controller : state_.obj.owner[o];
    e.attached_to = state_.obj.attached_to[o];
    e.was_tapped = state_.obj.tapped[o];
    e.incarnation = state_.obj.incarnation[o];  // "before" responses see it still there
    moves.push_back(e);
  }
  for (const Occurrence& e : moves) Before(e);
  for (const Occurrence& e : moves) {
    Note(LogKind::kZoneChange, kNoPlayer, e.object, kNoObj, static_cast<int>(to), [&] {
      return std::string(absl::StrCat(ObjectName(e.object), " moves from ", S(ZoneName(e.from)),
                                      " to ", S(ZoneName(to))));
    });
    MoveTo(e.object, to, state_.obj.owner[e.object]);
  }
  // Only now, with every object moved, do the occurrences happen: a
  // trigger of one of them sees all the others leave too (E-5).
  const int group = static_cast<int>(events_.size());
  for (Occurrence& e : moves) {
    e.incarnation = state_.obj.incarnation[e.object];
    e.group = group;
    if (e.from == Zone::kBattlefield && to == Zone::kGraveyard) died_this_turn_.push_back(e.last.card);
    Record(e);
  }
  for (int ev = group; ev < group + n; ++ev) Happened(ev);
  // What was attached to an object that left play is attached to nothing
  // (after the triggers above looked at it): the object that may come back
  // is a new one, and an Aura must not follow it.
  for (const Occurrence& e : moves) {
    if (e.from != Zone::kBattlefield) continue;
    for (ObjId x = 0; x < state_.obj.count; ++x)
      if (state_.obj.attached_to[x] == e.object) {
        state_.obj.attached_to[x] = kNoObj;
        state_.Touch();
      }
  }
}

// Was the occurrence's object dealt damage this turn by `source` (Sengir
// Vampire)? Both as the objects they were before the occurrence: a creature
// that left and came back is a new object (RULES.md "Game and objects").
bool Game::DamagedBy(const Occurrence& e, ObjId source, const Occurrence* source_left) const {
  auto before = [&](ObjId o, const Occurrence* left) {
    return left ? ObjRef{o, static_cast<uint16_t>(left->incarnation - 1)} : state_.Ref(o);
  };
  const ObjRef creature = e.kind == EventKind::kZoneChange
                              ? ObjRef{e.object, static_cast<uint16_t>(e.incarnation - 1)}
                              : state_.Ref(e.object);
  return std::find(damaged_by_.begin(), damaged_by_.end(),
                   std::pair{creature, before(source, source_left)}) != damaged_by_.end();
}

const Occurrence* Game::LeftInGroup(ObjId o, int event) const {
  const int group = events_[event].group;
  for (int i = group; i < static_cast<int>(events_.size()) && events_[i].group == group; ++i) {
    const Occurrence& e = events_[i];
    if (e.kind == EventKind::kZoneChange && e.object == o && e.from == Zone::kBattlefield &&
        state_.obj.incarnation[o] == e.incarnation)
      return &e;
  }
  return nullptr;
}

void Game::DealDamage(const PendingDamage& d) {
  Occurrence e;
  e.kind = EventKind::kDamage;
  e.source = d.source;
  e.amount = d.amount;
  e.combat = d.combat;
  e.player = d.to.kind == Target::kPlayer ? d.to.player : kNoPlayer;
  e.object = d.to.kind == Target::kObject ? d.to.obj.id : kNoObj;
  if (e.object != kNoObj && state_.Alive(d.to.obj)) e.last = Chars(e.object);
  Before(e);
  if (d.to.kind == Target::kPlayer) {
    e.player = d.to.player;
    state_.players[d.to.player].life = LifeAfter(state_.players[d.to.player].life, -d.amount);
    Note(LogKind::kDamage, d.to.player, d.source, kNoObj, d.amount, [&] {
      return std::string(
          absl::StrCat(ObjectName(d.source), " deals ", d.amount, " damage to ", Who(d.to.player)));
    });
  } else {
    ObjId o = d.to.obj.id;
    if (!state_.Alive(d.to.obj) || state_.obj.zone[o] != Zone::kBattlefield) return;
    e.object = o;
    e.player = Chars(o).controller;
    e.last = Chars(o);
    e.incarnation = state_.obj.incarnation[o];
    state_.obj.damage[o] = SaturatedAdd(state_.obj.damage[o], d.amount);
    if (d.source != kNoObj) damaged_by_.push_back({state_.Ref(o), state_.Ref(d.source)});
    if (d.cant_regenerate) no_regen_[o] = true;
    Note(LogKind::kDamage, kNoPlayer, d.source, o, d.amount, [&] {
      return std::string(
          absl::StrCat(ObjectName(d.source), " deals ", d.amount, " damage to ", ObjectName(o)));
    });
  }
  int ev = Record(e);
  Happened(ev);
}

// A simple occurrence: recorded, and "after" triggers collected (E-1).
void Game::Occur(EventKind kind, Player p, ObjId o, int amount) {
  Occurrence e;
  e.kind = kind;
  e.player = p;
  e.object = o;
  e.amount = amount;
  e.phase = state_.phase;
  if (o != kNoObj) e.last = Chars(o);
  if (o != kNoObj) e.incarnation = state_.obj.incarnation[o];
  Before(e);
  Happened(Record(e));
}

void Game::Tap(ObjId o, bool tapped) {
  if (state_.obj.tapped[o] == tapped) return;
  SetTapped(o, tapped);
  Occur(tapped ? EventKind::kTap : EventKind::kUntap, Chars(o).controller, o);
}

void Game::GainLife(Player p, int n) {
  if (n <= 0) return;  // E-7: a gain reduced to zero is no gain
  state_.players[p].life = LifeAfter(state_.players[p].life, n);
  Occur(EventKind::kLifeChange, p, kNoObj, n);
  Note(LogKind::kLife, p, kNoObj, kNoObj, n,
       [&] { return std::string(absl::StrCat(Who(p), " gains ", n, " life")); });
}

void Game::LoseLife(Player p, int n) {
  if (n <= 0) return;
  state_.players[p].life = LifeAfter(state_.players[p].life, -n);
  Occur(EventKind::kLifeChange, p, kNoObj, -n);
  Note(LogKind::kLife, p, kNoObj, kNoObj, -n,
       [&] { return std::string(absl::StrCat(Who(p), " loses ", n, " life")); });
}

void Game::Lose(Player p, EndReason why) {
  state_.players[p].lost = true;
  if (end_reason_ == EndReason::kNone || end_reason_ == why)
    end_reason_ = why;
  else
    end_reason_ = EndReason::kBoth;
}

void Game::EndGame(int winner, EndReason why) {
  if (over_) return;
  over_ = true;
  winner_ = winner;
  if (why != EndReason::kNone) end_reason_ = why;
  Note(LogKind::kGameOver, kNoPlayer, kNoObj, kNoObj, winner, [&] {
    return std::string(absl::StrCat("game over: ",
                                    winner < 0    ? "draw"
                                    : winner == 0 ? "A wins"
                                                  : "B wins",
                                    " (", S(EndReasonName(end_reason_)), ")"));
  });
}

// State check: 0 toughness puts a creature into the graveyard, lethal damage
// destroys it (regeneration may replace that), Auras on illegal objects go
// to the graveyard, and a player who lost ends the game. What one check
// finds leaves together (E-5); a change of control is noted for T-7.
void Game::CheckState() {
  thread_local std::vector<ObjId> buffer;
  Borrowed<ObjId> borrowed(buffer);
  std::vector<ObjId>& leaving = borrowed.v;
  for (int guard = 0; guard < 16; ++guard) {
    leaving.clear();
    const int destroy_begin = static_cast<int>(destroying_.size());
    for (ObjId o = 0; o < state_.obj.count; ++o) {
      if (state_.obj.zone[o] != Zone::kBattlefield) continue;
      const Characteristics& ch = Chars(o);
      if (control_seen_[o] != ch.controller) {
        // Came under another player's control: summoning sick (T-7).
        if (control_seen_[o] != kNoPlayer) state_.obj.sick[o] = true;
        control_seen_[o] = ch.controller;
      }
      if (ch.IsCreature()) {
        if (ch.toughness <= 0) {
          Note(LogKind::kInfo, kNoPlayer, kNoObj, kNoObj, 0, [&] {
            return std::string(absl::StrCat(ObjectName(o), " has toughness ", ch.toughness));
          });
          leaving.push_back(o);
          continue;
        }
        if (state_.obj.damage[o] >= ch.toughness) {
          if (!BeingDestroyed(o)) destroying_.push_back(state_.Ref(o));
          continue;
        }
      }
      const CardDef& card = (*db_)[state_.obj.card[o]];
      if (card.enchant != kNoFilter) {
        ObjId to = state_.obj.attached_to[o];
        if (to == kNoObj || state_.obj.zone[to] != Zone::kBattlefield ||
            !MatchFilter(state_, &Chars(0), db_->filter(card.enchant), to,
                         ContextFor(o, Chars(o).controller, state_.obj.choice[o]))) {
          Note(LogKind::kInfo, kNoPlayer, kNoObj, kNoObj, 0, [&] {
            return std::string(absl::StrCat(ObjectName(o), " is not attached to a legal object"));
          });
          leaving.push_back(o);
        }
      }
    }
    if (static_cast<int>(destroying_.size()) > destroy_begin)
      Push(FrameKind::kDestroy, destroy_begin, static_cast<int32_t>(destroying_.size()), 1);
    if (leaving.empty()) break;
    LeaveTogether(leaving.data(), static_cast<int>(leaving.size()), Zone::kGraveyard);
  }
  if (opt_.check_invariants && invariant_failure_.empty()) {
    // Invariant "state_check": nothing the check should have removed survives it.
    std::string left = StateCheckLeftovers();
    if (!left.empty()) invariant_failure_ = "state_check: " + left;
  }
  // A player who can't lose (Platinum Angel) doesn't.
  for (Player p = 0; p < 2; ++p)
    if (state_.players[p].lost && Rules(p).cant_lose) state_.players[p].lost = false;
  bool a = state_.players[0].lost, b = state_.players[1].lost;
  if (a || b) EndGame(a && b ? -1 : a ? 1 : 0, EndReason::kNone);
}

// Adds `times` copies of `extra` to a cost (extra targets, combined phase costs).
static void AddCost(ManaCost& c, const ManaCost& extra, int times = 1) {
  c.generic += extra.generic * times;
  c.colorless += extra.colorless * times;
  c.x_count += extra.x_count * times;
  for (int k = 0; k < kColorCount; ++k) c.colored[k] += extra.colored[k] * times;
  for (int t = 0; t < times; ++t)
    for (auto h : extra.hybrid) c.hybrid.push_back(h);
}

// ---------------------------------------------------------------- the loop

void Game::Decide(DecisionKind kind, Player p) {
  decision_.kind = kind;
  decision_.player = p;
  have_decision_ = true;
}

const Decision& Game::Advance() {
  for (int guard = 0; guard < 200000; ++guard) {
    if (have_decision_) return decision_;
    if (over_ || stopped_ || frames_.empty()) {
      decision_.kind = DecisionKind::kNone;
      decision_.player = kNoPlayer;
      decision_.actions.clear();
      return decision_;
    }
    Step();
  }
  // The rules went round without asking anyone: end the game as a draw.
  Note(LogKind::kInfo, kNoPlayer, kNoObj, kNoObj, 0, [&] {
    std::string frames;
    for (auto& f : frames_)
      frames += absl::StrCat(" [", static_cast<int>(f.kind), " pc", f.pc, " ", f.a, ",", f.b, ",",
                             f.c, ",", f.d, "]");
    return "rules loop without a decision; frames:" + frames;
  });
  EndGame(-1, EndReason::kActionCap);
  decision_.kind = DecisionKind::kNone;
  decision_.actions.clear();
  return decision_;
}

bool Game::Step() {
  // Triggers wait while anything resolves (E-4); otherwise they happen now.
  if (!queued_.empty()) {
    bool resolving = false;
    for (auto& f : frames_)
      resolving |= f.kind == FrameKind::kResolve || f.kind == FrameKind::kTriggers ||
                   f.kind == FrameKind::kCast || f.kind == FrameKind::kDestroy;
    if (!resolving) {
      Push(FrameKind::kTriggers);
      return true;
    }
  }
  Frame& f = frames_.back();
  switch (f.kind) {
    case FrameKind::kTurn:
      RunTurn(f);
      break;
    case FrameKind::kPhase:
      RunPhase(f);
      break;
    case FrameKind::kNeutral:
      RunNeutral(f);
      break;
    case FrameKind::kBatch:
      RunBatch(f);
      break;
    case FrameKind::kCast:
      RunCast(f);
      break;
    case FrameKind::kInterrupts:
      RunInterrupts(f);
      break;
    case FrameKind::kResolve:
      RunResolve(f);
      break;
    case FrameKind::kTriggers:
      RunTriggers(f);
      break;
    case FrameKind::kPrevention:
      RunPrevention(f);
      break;
    case FrameKind::kAttack:
      RunAttack(f);
      break;
    case FrameKind::kDraw:
      RunDraw(f);
      break;
    case FrameKind::kDestroy:
      RunDestroy(f);
      break;
    case FrameKind::kReaction:
      RunReaction(f);
      break;
    case FrameKind::kDiscardToMax:
      RunDiscardToMax(f);
      break;
    case FrameKind::kEntry:
      RunEntry(f);
      break;
    case FrameKind::kUnlessPay:
      RunUnlessPay(f);
      break;
    case FrameKind::kMulligan:
      RunMulligan(f);
      break;
  }
  return !have_decision_;
}

bool Game::Apply(int index) {
  if (!have_decision_ || index < 0 || index >= static_cast<int>(decision_.actions.size()))
    return false;
  Action a = decision_.actions[index];
  have_decision_ = false;
  ++actions_;
  ++turn_actions_;
  if (turn_actions_ > static_cast<uint64_t>(opt_.action_cap)) {
    EndGame(-1, EndReason::kActionCap);
    return true;
  }
  ApplyToFrame(frames_.back(), a);
  return true;
}

// ---------------------------------------------------------------- turns and phases

bool FastPhaseOf(Phase p) {
  return p != Phase::kUntap && p != Phase::kCleanup;
}

void Game::RunTurn(Frame& f) {
  if (f.pc == 0) {
    f.pc = 1;
    Push(FrameKind::kPhase);
    return;
  }
  // A phase ended.
  if (stop_ == StopAt::kPhaseEnd) {
    stopped_ = true;
    return;
  }
  GameState& s = state_;
  if (s.phase == Phase::kCleanup) {
    if (stop_ == StopAt::kTurnEnd) {
      stopped_ = true;
      return;
    }
    s.phase = Phase::kUntap;
    ++s.turn;
    s.active = Opponent(s.active);
    lands_played_ = {};
    attacked_ = {};
    turn_actions_ = 0;
    if (stop_ == StopAt::kTurn && s.turn >= stop_value_) {
      stopped_ = true;
      return;
    }
    if (s.turn - first_turn_ >= opt_.turn_cap) {
      EndGame(-1, EndReason::kTurnCap);
      return;
    }
  } else {
    s.phase = static_cast<Phase>(static_cast<int>(s.phase) + 1);
  }
  f.pc = 0;
}

void Game::PhaseBeginEffects() {
  GameState& s = state_;
  Player ap = s.active;
  switch (s.phase) {
    case Phase::kUntap:
      for (ObjId o = 0; o < s.obj.count; ++o) {
        if (s.obj.zone[o] != Zone::kBattlefield || Chars(o).controller != ap) continue;
        if (s.obj.tapped[o]) Tap(o, false);
        s.obj.sick[o] = false;  // controlled since this turn began (T-7)
        control_seen_[o] = ap;
      }
      s.Touch();
      break;
    case Phase::kCleanup:
      for (ObjId o = 0; o < s.obj.count; ++o) {
        s.obj.damage[o] = 0;
        s.obj.regen_shields[o] = 0;
        prevent_shield_[o] = 0;
        no_regen_[o] = false;
      }
      player_shield_ = {};
      replace_draw_ = {};
      source_shields_.clear();
      damaged_by_.clear();
      died_this_turn_.clear();
      for (int r = 0; r < static_cast<int>(s.effects.size()); ++r)
        if (s.effects[r].active && s.effects[r].duration == Duration::kEndOfTurn) EndEffect(r);
      s.Touch();
      break;
    default:
      break;
  }
}

// Mandatory phase effects (T-12) and phase costs (T-13) of this phase.
void Game::CollectPhaseTodos() {
  phase_todo_.clear();
  const GameState& s = state_;
  for (ObjId o = 0; o < s.obj.count; ++o) {
    if (s.obj.zone[o] != Zone::kBattlefield) continue;
    const Characteristics& ch = Chars(o);
    if (ch.blank || ch.card == kNoCard) continue;
    const CardDef& card = (*db_)[ch.card];
    // Its own phase abilities, and those a copy kept (Vesuvan Doppelganger).
    for (int i = 0; i < static_cast<int>(card.phase.size()) +
                            (ch.extra_phase != kNoCard && ch.extra_phase != ch.card
                                 ? static_cast<int>((*db_)[ch.extra_phase].phase.size())
                                 : 0);
         ++i) {
      const bool kept = i >= static_cast<int>(card.phase.size());
      const CardId from = kept ? ch.extra_phase : ch.card;
      const int index = kept ? i - static_cast<int>(card.phase.size()) : i;
      const PhaseAbility& ph = (*db_)[from].phase[index];
      if (ph.phase != static_cast<int>(s.phase)) continue;
      if (!kept && !Has(ch.abilities, card.PhaseBit(i))) continue;
      Player whose = ch.controller;
      if (ph.whose == 1) {
        ObjId to = s.obj.attached_to[o];
        if (to == kNoObj) continue;
        whose = Chars(to).controller;
      }
      if (whose != s.active) continue;
      PhaseTodo t;
      t.object = s.Ref(o);
      t.controller = whose;
      t.is_cost = ph.is_cost;
      t.cost = ph.cost;
      t.card = from;
      t.index = static_cast<int16_t>(index);
      t.optional = ph.optional;
      phase_todo_.push_back(t);
    }
    // Granted phase costs (Energy Flux) combine into one per permanent (T-13).
    if (ch.controller != s.active) continue;
    PhaseTodo combined;
    bool any = false;
    for (int g = 0; g < ch.granted_count; ++g) {
      const PhaseAbility& ph = (*db_)[ch.granted[g].first].granted_phase[ch.granted[g].second];
      if (ph.phase != static_cast<int>(s.phase)) continue;
      if (!any) {
        combined.object = s.Ref(o);
        combined.controller = ch.controller;
        combined.is_cost = true;
        combined.card = ch.granted[g].first;
        combined.index = ch.granted[g].second;
        combined.granted = true;
        any = true;
        combined.cost = ph.cost;
      } else {
        AddCost(combined.cost, ph.cost);
      }
    }
    if (any) phase_todo_.push_back(combined);
  }
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
  if (t.done || !s.Alive(t.object) || s.obj.zone[t.object.id] != Zone::kBattlefield) return false;
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
  for (auto& t : phase_todo_)
    if (!t.done && t.is_cost && t.object.id == o && state_.Alive(t.object)) return true;
  return false;
}

void Game::RunPhase(Frame& f) {
  GameState& s = state_;
  switch (f.pc) {
    case 0: {
      Note(LogKind::kPhase, s.active, kNoObj, kNoObj, 0, [&] {
        return std::string(absl::StrCat("begin ", S(PhaseName(s.phase)), " of ", Who(s.active)));
      });
      {
        Occurrence before;  // "before phase X begins" (E-1)
        before.kind = EventKind::kPhaseBegin;
        before.player = s.active;
        before.phase = s.phase;
        Before(before);
      }
      PhaseBeginEffects();
      CheckState();
      CollectPhaseTodos();
      Occurrence e;
      e.kind = EventKind::kPhaseBegin;
      e.player = s.active;
      e.phase = s.phase;
      Happened(Record(e));
      f.pc = 1;
      if (s.phase == Phase::kUpkeep && !next_upkeep_.empty()) {
        auto delayed = std::move(next_upkeep_);
        next_upkeep_.clear();
        for (auto it = delayed.rbegin(); it != delayed.rend(); ++it) {
          StackItem item = it->first;
          item.from = BodySource::kDelayed;
          item.ability = static_cast<int16_t>(delayed_steps_.size());
          delayed_steps_.push_back(it->second);
          items_.push_back(item);
          Push(FrameKind::kResolve, static_cast<int32_t>(items_.size() - 1));
        }
      }
      if (s.phase == Phase::kDraw && !(skip_first_draw_ && s.turn == first_turn_) &&
          !Rules(s.active).skip_draw)
        Push(FrameKind::kDraw, s.active, 1);
      return;
    }
    case 1:
      f.pc = 2;
      if (s.phase == Phase::kDiscard) Push(FrameKind::kDiscardToMax, s.active, -1);
      return;
    case 2:
      f.pc = 3;
      if (FastPhaseOf(s.phase)) Push(FrameKind::kNeutral);
      return;
    case 3: {
      // T-1.3 to T-1.5: end of phase, mana burn, life check.
      Occur(EventKind::kPhaseEnd, s.active, kNoObj);
      for (Player p = 0; p < 2; ++p) {
        int unspent = 0;
        for (int& m : s.players[p].pool) unspent += m, m = 0;
        if (unspent) {
          Note(LogKind::kInfo, kNoPlayer, kNoObj, kNoObj, 0,
               [&] { return std::string(absl::StrCat(Who(p), " burns for ", unspent)); });
          LoseLife(p, unspent);
        }
      }
      for (Player p = 0; p < 2; ++p)
        if (s.players[p].life <= 0) Lose(p, EndReason::kLife);
      s.Touch();
      frames_.pop_back();  // first: the state check may push destructions above it
      CheckState();
      return;
    }
  }
}

void Game::RunDiscardToMax(Frame& f) {
  Player p = static_cast<Player>(f.a);
  int max = Rules(p).max_hand_size;
  int hand = static_cast<int>(state_.players[p].hand.size());
  bool more = f.b < 0 ? (max >= 0 && hand > max) : (f.b > 0 && hand > 0);
  if (!more) {
    frames_.pop_back();
    return;
  }
  if (f.c == 1) {
    // At random: the game's generator picks (Hypnotic Specter).
    auto& hand = state_.players[p].hand;
    ObjId o = hand[rng_.Below(static_cast<uint32_t>(hand.size()))];
    Note(LogKind::kInfo, p, o, kNoObj, 0,
         [&] { return absl::StrCat(Who(p), " discards ", ObjectName(o), " at random"); });
    ZoneChange(o, Zone::kGraveyard);
    --f.b;
    return;
  }
  decision_.actions.clear();
  for (ObjId o : state_.players[p].hand) decision_.actions.push_back({ActionKind::kObject, o});
  Decide(DecisionKind::kDiscard, p);
}

// G-1. The frame: a = the player deciding, b = players done before them,
// c = cards still to put on the bottom; pc 0 asks keep or mulligan, pc 1
// puts the london mulligan's cards on the bottom.

void Game::RunMulligan(Frame& f) {
  const Player p = static_cast<Player>(f.a);
  const PlayerState& pl = state_.players[p];
  const int taken = mulligans_[p];
  const int hand = static_cast<int>(pl.hand.size());
  if (f.pc == 0) {
    // A kept hand has one card fewer per mulligan either way; a paris hand
    // has it already, a london hand after its cards go to the bottom.
    const int keep = opt_.mulligan == Mulligan::kLondon ? std::max(hand - taken, 0) : hand;
    const int next =
        std::min(kOpeningHandSize - taken - 1, hand + static_cast<int>(pl.library.size()));
    if (next >= 1) {
      decision_.actions.clear();
      decision_.actions.push_back({ActionKind::kKeep, kNoObj, 0, keep});
      decision_.actions.push_back({ActionKind::kMulligan, kNoObj, 0, next});
      Decide(DecisionKind::kMulligan, p);
      return;
    }
    // The next hand would have no card: this one is kept.
    Note(LogKind::kInfo, p, kNoObj, kNoObj, keep,
         [&] { return absl::StrCat(Who(p), " keeps ", keep, keep == 1 ? " card" : " cards"); });
    f.c = opt_.mulligan == Mulligan::kLondon ? std::min(taken, hand) : 0;
    f.pc = 1;
    return;
  }
  if (f.c > 0 && hand > 0) {
    decision_.actions.clear();
    for (ObjId o : pl.hand) decision_.actions.push_back({ActionKind::kObject, o});
    Decide(DecisionKind::kBottom, p);
    return;
  }
  // Kept: this is the opening hand the statistics know.
  for (ObjId o : pl.hand) seen_[o] |= kSeenOpening;
  if (f.b == 0) {
    f.a = Opponent(p);
    f.b = 1;
    f.c = 0;
    f.pc = 0;
  } else {
    frames_.pop_back();
  }
}

void Game::Redraw(Player p) {
  auto& pl = state_.players[p];
  while (!pl.hand.empty()) {
    ObjId o = pl.hand.back();
    MoveTo(o, Zone::kLibrary, p);
    seen_[o] &= static_cast<uint8_t>(~(kSeenInHand | kSeenOpening));  // not drawn after all
  }
  auto& lib = pl.library;
  for (size_t i = lib.size(); i > 1; --i)  // the game's generator: the seed decides
    std::swap(lib[i - 1], lib[rng_.Below(static_cast<uint32_t>(i))]);
  const int draw =
      opt_.mulligan == Mulligan::kLondon ? kOpeningHandSize : kOpeningHandSize - mulligans_[p];
  for (int i = 0; i < draw && !lib.empty(); ++i) MoveTo(lib.front(), Zone::kHand, p);
  state_.Touch();
}

// ---------------------------------------------------------------- what may be played

const AbilityBody* Game::BodyOf(const StackItem& item) const {
  const CardDef& card = (*db_)[item.body_card];
  switch (item.from) {
    case BodySource::kSpell:
      return card.has_spell ? &card.spell : nullptr;
    case BodySource::kActivated:
      return &card.activated[item.ability].body;
    case BodySource::kTrigger:
      return &card.triggers[item.ability].body;
    case BodySource::kPhase:
      return &card.phase[item.ability].body;
    case BodySource::kGrantedPhase:
      return &card.granted_phase[item.ability].body;
    case BodySource::kEnters:
      return &card.enters.body;
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

namespace {
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
}  // namespace

bool Game::HasLegalTargets(const StackItem& item, const AbilityBody& body) const {
  const GameState& s = state_;
  for (int slot = 0; slot < static_cast<int>(body.targets.size()); ++slot) {
    bool any = false;
    for (ObjId t = 0; t < s.obj.count && !any; ++t)
      any = TargetLegal(item, slot, Target{Target::kObject, s.Ref(t), kNoPlayer});
    for (Player pl = 0; pl < 2 && !any; ++pl)
      any = TargetLegal(item, slot, Target{Target::kPlayer, {}, pl});
    if (!any) return false;
  }
  return true;
}

bool Game::CanStart(Player p, const StackItem& probe, Play play, Reaction reaction,
                    ObjId about) const {
  const GameState& s = state_;
  const AbilityBody* body = BodyOf(probe);
  bool fast_timing = true;
  if (probe.from == BodySource::kSpell) {
    const CardDef& card = (*db_)[probe.body_card];
    if (Has(card.types, kLand)) return false;
    bool fast = Has(card.types, kInstant) || Has(card.types, kInterrupt) ||
                Has(Chars(probe.card).keywords, kFlash);
    if (!fast) {
      // T-5: sorceries and permanents start a batch in their controller's
      // main phase, from the neutral state.
      if (play != kPlayBatch || p != s.active || s.phase != Phase::kMain || !batch_.empty())
        return false;
      bool neutral =
          !frames_.empty() && frames_.back().kind == FrameKind::kNeutral && frames_.back().a == 0;
      if (!neutral) return false;
      fast_timing = false;
    }
    if (!body) {
      // A permanent spell: an Aura needs something to enchant.
      if (card.enchant != kNoFilter) {
        bool any = false;
        for (ObjId t = 0; t < s.obj.count && !any; ++t)
          any = TargetLegal(probe, 0, Target{Target::kObject, s.Ref(t), kNoPlayer});
        if (!any) return false;
      }
      if (play != kPlayBatch) return false;
      if (!opt_.free_mana && !CanPay(p, TotalCost(probe), 0, kNoObj)) return false;
      return true;
    }
    if (!opt_.free_mana && !CanPay(p, TotalCost(probe), 0, kNoObj)) return false;
  } else if (probe.from == BodySource::kActivated) {
    const Characteristics& ch = Chars(probe.source);
    const CardDef& card = (*db_)[probe.body_card];
    const ActivatedAbility& a = card.activated[probe.ability];
    if (a.mana_ability) return false;  // paid automatically (T-10)
    if (a.sorcery &&
        (play != kPlayBatch || p != s.active || s.phase != Phase::kMain || !batch_.empty() ||
         frames_.empty() || frames_.back().kind != FrameKind::kNeutral || frames_.back().a != 0))
      return false;  // equip: only as a sorcery
    if (!Has(ch.abilities, card.ActivatedBit(probe.ability))) return false;
    if (PhaseCostPending(probe.source)) return false;  // T-13
    if (a.tap && (s.obj.tapped[probe.source] || SummoningSick(probe.source))) return false;
    if (a.discard > static_cast<int>(s.players[p].hand.size())) return false;
    if (a.life > s.players[p].life) return false;
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
      // it is the object's own ability (Drudge Skeletons).
      bool targets_about = false;
      for (int slot = 0; slot < static_cast<int>(b.targets.size()); ++slot)
        for (ObjId t = 0; t < s.obj.count && !targets_about; ++t)
          targets_about = AboutMatches(t, about) &&
                          TargetLegal(item, slot, Target{Target::kObject, s.Ref(t), kNoPlayer});
      if (b.targets.empty() && !AboutMatches(probe.source, about)) return false;
      if (!b.targets.empty() && !targets_about) return false;
    }
    return true;
  };
  if (body->modes.empty()) return fits(*body, -1);
  for (int m = 0; m < static_cast<int>(body->modes.size()); ++m)
    if (fits(body->modes[m], m)) return true;
  return false;
}

void Game::AddPlayableActions(Player p, DecisionKind kind, Reaction reaction, ObjId about) {
  const GameState& s = state_;
  Play play = kind == DecisionKind::kInterrupt                                     ? kPlayInterrupt
              : (kind == DecisionKind::kNeutral || kind == DecisionKind::kRespond) ? kPlayBatch
                                                                                   : kPlayImmediate;
  for (ObjId o : s.players[p].hand) {
    StackItem probe;
    probe.card = o;
    probe.body_card = s.obj.card[o];
    probe.from = BodySource::kSpell;
    probe.controller = p;
    if (CanStart(p, probe, play, reaction, about))
      decision_.actions.push_back({ActionKind::kCast, o});
  }
  for (ObjId o = 0; o < s.obj.count; ++o) {
    if (s.obj.zone[o] != Zone::kBattlefield) continue;
    const Characteristics& ch = Chars(o);
    if (ch.controller != p || ch.blank || ch.card == kNoCard) continue;
    const CardDef& card = (*db_)[ch.card];
    for (int i = 0; i < static_cast<int>(card.activated.size()); ++i) {
      StackItem probe;
      probe.source = o;
      probe.body_card = ch.card;
      probe.from = BodySource::kActivated;
      probe.ability = static_cast<int16_t>(i);
      probe.controller = p;
      if (CanStart(p, probe, play, reaction, about))
        decision_.actions.push_back({ActionKind::kActivate, o, static_cast<int16_t>(i)});
    }
  }
  // Phase effects and phase costs are played as instants (T-12, T-13).
  if (play == kPlayBatch) {
    for (int i = 0; i < static_cast<int>(phase_todo_.size()); ++i) {
      const PhaseTodo& t = phase_todo_[i];
      if (t.controller != p || !PhaseTodoPlayable(t)) continue;
      decision_.actions.push_back(
          {ActionKind::kPhaseEffect, t.object.id, static_cast<int16_t>(i), t.is_cost});
    }
  }
}

bool Game::CouldTarget(const Action& a, Player p, int slot, const Target& t, int mode) const {
  StackItem probe;
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
  return TargetLegal(probe, slot, t);
}

bool Game::TargetLegal(const StackItem& item, int slot, const Target& t) const {
  const GameState& s = state_;
  FilterId fid;
  TargetWhat what;
  ObjId source = item.card != kNoObj ? item.card : item.source;
  const CardDef& card = (*db_)[item.body_card];
  if (item.from == BodySource::kSpell && !card.has_spell && card.enchant != kNoFilter) {
    fid = card.enchant;
    what = TargetWhat::kPermanent;
  } else {
    const AbilityBody* body = ModeBody(item);
    if (!body) {
      // A modal body before its mode is chosen: legal for some mode.
      const AbilityBody* b = BodyOf(item);
      if (!b) return false;
      for (int m = 0; m < static_cast<int>(b->modes.size()); ++m) {
        StackItem probe = item;
        probe.mode = static_cast<int8_t>(m);
        if (TargetLegal(probe, slot, t)) return true;
      }
      return false;
    }
    if (slot >= static_cast<int>(body->targets.size())) return false;
    fid = body->targets[slot].filter;
    what = body->targets[slot].what;
  }
  if (t.kind == Target::kPlayer)
    return what == TargetWhat::kPlayer || what == TargetWhat::kCreatureOrPlayer;
  if (t.kind != Target::kObject || !s.Alive(t.obj)) return false;
  ObjId o = t.obj.id;
  if (o == item.card) return false;  // a spell never targets itself
  switch (what) {
    case TargetWhat::kPlayer:
      return false;
    case TargetWhat::kSpell: {
      // Interrupts target only the spell being cast (T-8): the innermost casting.
      bool being_cast = false;
      for (auto it = frames_.rbegin(); it != frames_.rend(); ++it)
        if (it->kind == FrameKind::kInterrupts) {
          being_cast = items_[it->a].card == o && SpellOnStack(items_[it->a]) &&
                       items_[it->a].card_incarnation == t.obj.incarnation;
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
  if (!MatchFilter(s, &Chars(0), db_->filter(fid), o, ContextFor(source, item.controller, kNoWord)))
    return false;
  if (s.obj.zone[o] == Zone::kBattlefield) {
    const Characteristics& ch = Chars(o);
    if (Has(ch.keywords, kShroud)) return false;
    ColorMask source_colors = source != kNoObj ? Chars(source).colors : 0;
    for (int c = 0; c < kColorCount; ++c)
      if (Has(source_colors, c) && Has(ch.keywords, kProtWhite + c)) return false;
  }
  return true;
}

// ---------------------------------------------------------------- mana

void Game::ManaSources(Player p, ObjId excluding, std::vector<ManaSource>& sources) const {
  sources.clear();
  const GameState& s = state_;
  // Lands first, so creatures stay untapped when they are not needed.
  for (int lands = 1; lands >= 0; --lands)
    for (ObjId o = 0; o < s.obj.count; ++o) {
      if (o == excluding || s.obj.zone[o] != Zone::kBattlefield || s.obj.tapped[o]) continue;
      const Characteristics& ch = Chars(o);
      if (ch.controller != p || Has(ch.types, kLand) != (lands == 1)) continue;
      if (SummoningSick(o)) continue;
      if (PhaseCostPending(o)) continue;  // T-13: not before its phase cost is handled
      if (ch.land_mana) {
        sources.push_back(
            {o, static_cast<ColorMask>(ch.land_mana & 0x1F), (ch.land_mana & 0x20) != 0});
        continue;
      }
      if (ch.blank || ch.card == kNoCard) continue;
      const CardDef& card = (*db_)[ch.card];
      for (int i = 0; i < static_cast<int>(card.activated.size()); ++i) {
        const ActivatedAbility& a = card.activated[i];
        if (!a.mana_ability || !a.tap || !a.cost.Empty() ||
            !Has(ch.abilities, card.ActivatedBit(i)))
          continue;
        const EffectStep& st = a.body.steps[0];
        sources.push_back(
            {o, static_cast<ColorMask>(st.mana_any ? 0x1F : st.mana_colors), st.mana_colorless});
        break;
      }
    }
}

bool Game::CanPay(Player p, const ManaCost& cost, int x, ObjId excluding) const {
  static thread_local std::vector<ManaSource> sources;  // no allocation once warm
  ManaSources(p, excluding, sources);
  return PlanPayment(cost, x, state_.players[p].pool, sources, nullptr, nullptr);
}

bool Game::Pay(Player p, const ManaCost& cost, int x, ObjId excluding) {
  // Buffers kept per thread (no allocation once warm): tapping below only
  // records occurrences, it never pays another cost.
  static thread_local std::vector<ManaSource> sources;
  static thread_local std::vector<int> tap;
  ManaSources(p, excluding, sources);
  std::array<int, 6> after;
  if (!PlanPayment(cost, x, state_.players[p].pool, sources, &tap, &after)) return false;
  // Mana abilities are not interrupted (T-10): they add mana at once.
  for (int i : tap) {
    Tap(sources[i].object, true);
    const Characteristics& mc = Chars(sources[i].object);
    if (usage_ && !mc.land_mana && mc.card != kNoCard) {
      const CardDef& mcard = (*db_)[mc.card];
      for (int k = 0; k < static_cast<int>(mcard.activated.size()); ++k)
        if (mcard.activated[k].mana_ability) {
          Used(mc.card, mcard.ActivatedBit(k));
          break;
        }
    }
    Note(LogKind::kMana, p, sources[i].object, kNoObj, 1, [&] {
      return std::string(
          absl::StrCat(Who(p), " taps ", ObjectName(sources[i].object), " for mana"));
    });
  }
  state_.players[p].pool = after;
  return true;
}

ManaCost Game::TotalCost(const StackItem& item) const {
  const CardDef& card = (*db_)[item.body_card];
  ManaCost c;
  switch (item.from) {
    case BodySource::kSpell:
      c = card.cost;
      break;
    case BodySource::kActivated:
      c = card.activated[item.ability].cost;
      break;
    default:
      return c;
  }
  if (const AbilityBody* b = ModeBody(item)) {
    // Extra targets cost extra (Fireball).
    int extra = -1;
    for (int i = 0; i < item.target_count; ++i) extra += item.target_slot[i] == 0;
    if (!b->targets.empty() && extra > 0) AddCost(c, b->targets[0].extra_target_cost, extra);
  }
  if (item.from != BodySource::kSpell) return c;
  // L-8: increases, then reductions, then setting a minimum.
  const PlayerRules& r = Rules(item.controller);
  c.generic += r.cost_increase;
  c.generic = std::max(0, c.generic - r.cost_reduce);
  int total = c.ManaValue() + c.x_count * item.x;
  if (total < r.cost_min) c.generic += r.cost_min - total;
  return c;
}

// ---------------------------------------------------------------- neutral state and batches

// T-2 (and T-6): from the neutral state the active player, then the other,
// may start a batch; the phase (or this part of the attack) ends when both
// decline. f.a: 1 inside an attack; f.b: passes in a row; f.c: who decides;
// pc 1 = a player decides, pc 2 = the defender answers an announced attack.
void Game::RunNeutral(Frame& f) {
  GameState& s = state_;
  if (f.pc == 0) {
    f.pc = 1;
    f.b = 0;
    f.c = s.active;
  }
  if (f.pc == 1) {
    if (stop_ == StopAt::kNeutral && f.a == 0 && batch_.empty()) {
      stopped_ = true;
      return;
    }
    decision_.actions.clear();
    Player p = static_cast<Player>(f.c);
    if (f.b >= 2) {
      // The phase can't end while a mandatory phase effect or a phase cost
      // is unhandled (T-12, T-13): its controller must handle it now.
      for (int i = 0; i < static_cast<int>(phase_todo_.size()) && f.a == 0; ++i) {
        PhaseTodo& t = phase_todo_[i];
        if (t.optional || !PhaseTodoPlayable(t)) continue;
        decision_.actions.push_back(
            {ActionKind::kPhaseEffect, t.object.id, static_cast<int16_t>(i), t.is_cost});
        f.c = t.controller;
        Decide(DecisionKind::kNeutral, t.controller);
        return;
      }
      frames_.pop_back();
      return;
    }
    decision_.actions.push_back({ActionKind::kPass});
    if (f.a == 0 && p == s.active && s.phase == Phase::kMain && lands_played_[p] == 0) {
      for (ObjId o : s.players[p].hand)
        if (Has((*db_)[s.obj.card[o]].types, kLand))
          decision_.actions.push_back({ActionKind::kPlayLand, o});
    }
    if (f.a == 0 && p == s.active && s.phase == Phase::kMain && !attacked_[p]) {
      bool any = false;
      for (ObjId o = 0; o < s.obj.count && !any; ++o) {
        if (s.obj.zone[o] != Zone::kBattlefield) continue;
        const Characteristics& ch = Chars(o);
        any = ch.controller == p && ch.IsCreature() && !s.obj.tapped[o] && !SummoningSick(o) &&
              !Has(ch.keywords, kDefender);
      }
      if (any) decision_.actions.push_back({ActionKind::kAttack});
    }
    AddPlayableActions(p, DecisionKind::kNeutral);
    if (decision_.actions.size() == 1) {
      ++f.b;
      f.c = Opponent(p);
      return;
    }
    Decide(DecisionKind::kNeutral, p);
    return;
  }
  // pc 2: an attack was announced; the defender may start a batch (T-6).
  Player nap = Opponent(s.active);
  decision_.actions.clear();
  decision_.actions.push_back({ActionKind::kPass});
  AddPlayableActions(nap, DecisionKind::kRespond);
  if (decision_.actions.size() == 1) {
    f.pc = 1;
    f.b = 0;
    f.c = s.active;
    attacked_[s.active] = true;
    Push(FrameKind::kAttack);
    return;
  }
  f.c = nap;
  Decide(DecisionKind::kNeutral, nap);
}

void Game::RunBatch(Frame& f) {
  // T-3: after each addition the active player decides first; the batch is
  // complete when both pass in succession, then resolves last in, first out.
  if (f.pc == 0) {
    if (f.b >= 2) {
      f.pc = 1;
      return;
    }
    Player p = static_cast<Player>(f.c);
    decision_.actions.clear();
    decision_.actions.push_back({ActionKind::kPass});
    AddPlayableActions(p, DecisionKind::kRespond);
    if (decision_.actions.size() == 1) {
      ++f.b;
      f.c = Opponent(p);
      return;
    }
    Decide(DecisionKind::kRespond, p);
    return;
  }
  if (batch_.empty()) {
    frames_.pop_back();
    return;
  }
  int idx = batch_.back();
  batch_.pop_back();
  Push(FrameKind::kResolve, idx);
}

// ---------------------------------------------------------------- casting

void Game::StartCast(Player p, const Action& a, Play play, ObjId about) {
  StackItem item;
  item.controller = p;
  item.serial = next_serial_++;
  if (a.kind == ActionKind::kCast) {
    item.card = a.object;
    item.body_card = state_.obj.card[a.object];
    item.from = BodySource::kSpell;
    MoveTo(a.object, Zone::kStack, p);
    state_.obj.controller[a.object] = p;
    item.card_incarnation = state_.obj.incarnation[a.object];
    seen_[a.object] |= kSeenCast;
    Used(item.body_card, -1);
    Note(LogKind::kCast, p, a.object, kNoObj, 0,
         [&] { return std::string(absl::StrCat(Who(p), " casts ", ObjectName(a.object))); });
    Occurrence e;
    e.kind = EventKind::kPlay;
    e.player = p;
    e.object = a.object;
    e.last = Chars(a.object);
    e.incarnation = state_.obj.incarnation[a.object];
    Happened(Record(e));
  } else if (a.kind == ActionKind::kActivate) {
    item.source = a.object;
    item.body_card = Chars(a.object).card;
    item.from = BodySource::kActivated;
    item.ability = a.index;
    Used(item.body_card, (*db_)[item.body_card].ActivatedBit(a.index));
    Note(LogKind::kActivate, p, a.object, kNoObj, a.index, [&] {
      return std::string(
          absl::StrCat(Who(p), " activates ", ObjectName(a.object), " ability ", a.index + 1));
    });
  } else {
    // A phase effect or phase cost played as an instant.
    PhaseTodo& t = phase_todo_[a.index];
    t.done = true;  // played: handled for this phase, whatever becomes of it (T-12)
    PhaseItem(t, item);
    if (!t.granted) Used(t.card, (*db_)[t.card].PhaseBit(t.index));
    Note(LogKind::kInfo, kNoPlayer, kNoObj, kNoObj, 0, [&] {
      return std::string(absl::StrCat(Who(p), " handles the phase ", t.is_cost ? "cost" : "effect",
                                      " of ", ObjectName(t.object.id)));
    });
  }
  items_.push_back(item);
  int reaction = 0;
  for (auto& fr : frames_)
    if (fr.kind == FrameKind::kReaction) reaction = fr.a;
  Push(FrameKind::kCast, static_cast<int32_t>(items_.size() - 1), play | (reaction << 4), about);
}

// The casting of one spell or ability (T-8): mode, targets, X, choices,
// costs, interrupts, then it is successfully cast and joins its batch.
// pc: 0 mode, 1 targets, 2 X, 3 choices, 4 costs, 5 interrupts, 6 cast.
void Game::RunCast(Frame& f) {
  StackItem& item = items_[f.a];
  const int play = f.b & 0xF;
  const Reaction reaction = static_cast<Reaction>(f.b >> 4);
  const GameState& s = state_;
  const CardDef& card = (*db_)[item.body_card];
  const AbilityBody* body = BodyOf(item);
  decision_.actions.clear();
  switch (f.pc) {
    case 0:
      if (body && !body->modes.empty() && item.mode < 0) {
        for (int m = 0; m < static_cast<int>(body->modes.size()); ++m) {
          StackItem probe = item;
          probe.mode = static_cast<int8_t>(m);
          if (BodyAllowed(body->modes[m],
                          play == kPlayBatch       ? 0
                          : play == kPlayInterrupt ? 1
                                                   : 2,
                          reaction) &&
              HasLegalTargets(probe, body->modes[m]))
            decision_.actions.push_back({ActionKind::kNumber, kNoObj, 0, m + 1});
        }
        if (decision_.actions.size() == 1) {
          item.mode = static_cast<int8_t>(decision_.actions[0].value - 1);
        } else {
          Decide(DecisionKind::kChoice, item.controller);
          return;
        }
      }
      f.pc = 1;
      return;
    case 1: {
      const AbilityBody* b = ModeBody(item);
      int slots = b ? static_cast<int>(b->targets.size())
                    : (item.from == BodySource::kSpell && card.enchant != kNoFilter ? 1 : 0);
      if (item.slot >= slots) {
        f.pc = 2;
        return;
      }
      int max = b ? b->targets[item.slot].max : 1;
      for (ObjId t = 0; t < s.obj.count; ++t) {
        Target tg{Target::kObject, s.Ref(t), kNoPlayer};
        bool chosen = false;
        for (int i = 0; i < item.target_count; ++i)
          chosen |= item.targets[i].kind == Target::kObject && item.targets[i].obj.id == t;
        if (!chosen && item.target_count < 4 && TargetLegal(item, item.slot, tg) &&
            (f.c == kNoObj || play != kPlayImmediate || reaction == Reaction::kNone ||
             AboutMatches(t, static_cast<ObjId>(f.c))))
          decision_.actions.push_back({ActionKind::kTargetObject, t});
      }
      for (Player pl = 0; pl < 2; ++pl) {
        bool chosen = false;
        for (int i = 0; i < item.target_count; ++i)
          chosen |= item.targets[i].kind == Target::kPlayer && item.targets[i].player == pl;
        if (!chosen && item.target_count < 4 &&
            TargetLegal(item, item.slot, Target{Target::kPlayer, {}, pl}))
          decision_.actions.push_back({ActionKind::kTargetPlayer, kNoObj, 0, pl});
      }
      if (item.in_slot > 0) decision_.actions.push_back({ActionKind::kDone});
      if (item.in_slot >= max || decision_.actions.empty() ||
          (decision_.actions.size() == 1 && decision_.actions[0].kind == ActionKind::kDone)) {
        ++item.slot;
        item.in_slot = 0;
        return;
      }
      Decide(DecisionKind::kTarget, item.controller);
      return;
    }
    case 2: {
      f.pc = 3;
      ManaCost cost = TotalCost(item);
      if (cost.x_count > 0) {
        int max_x = 20;
        if (!opt_.free_mana) {
          max_x = 0;
          while (max_x < 20 && CanPay(item.controller, cost, max_x + 1, kNoObj)) ++max_x;
        }
        for (int x = 0; x <= max_x; ++x)
          decision_.actions.push_back({ActionKind::kNumber, kNoObj, 0, x});
        Decide(DecisionKind::kX, item.controller);
      }
      return;
    }
    case 3: {
      const AbilityBody* b = ModeBody(item);
      ChoiceKind kind = b ? b->choose : ChoiceKind::kNone;
      int needed = kind == ChoiceKind::kNone ? 0
                   : (kind == ChoiceKind::kWordPair || kind == ChoiceKind::kCreatureTypePair ||
                      kind == ChoiceKind::kColorPair || kind == ChoiceKind::kLandTypePair)
                       ? 2
                       : 1;
      if (item.choice_count >= needed) {
        f.pc = 4;
        return;
      }
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
    case 4: {
      // Costs (T-8): discards are chosen; then mana, tapping, life, sacrifice.
      Player p = item.controller;
      if (item.from == BodySource::kActivated) {
        const ActivatedAbility& a = card.activated[item.ability];
        if (f.c >= 0 && a.discard > 0 && (f.b >> 8) < a.discard) {
          for (ObjId o : s.players[p].hand) decision_.actions.push_back({ActionKind::kObject, o});
          if (!decision_.actions.empty()) {
            Decide(DecisionKind::kDiscard, p);
            return;
          }
        }
        const Characteristics& sc = Chars(item.source);
        item.source_power = sc.power;
        item.source_toughness = sc.toughness;
        if (!opt_.free_mana) Pay(p, a.cost, item.x, a.tap ? item.source : kNoObj);
        if (a.tap) Tap(item.source, true);
        if (a.life) LoseLife(p, a.life);
        if (a.sacrifice_self) ZoneChange(item.source, Zone::kGraveyard);
      } else if (item.from == BodySource::kSpell) {
        if (!opt_.free_mana) Pay(p, TotalCost(item), item.x, kNoObj);
      }
      f.pc = 5;
      return;
    }
    case 5:
      f.pc = 6;
      // Every casting can be interrupted (T-8; seed 000: interrupts "can
      // interrupt any casting, even if effects aren't generally usable at
      // the time"): spells and abilities for a batch, interrupts (a counter
      // war nests one window inside another), damage-prevention effects,
      // reactions, and phase effects played as instants. Triggered
      // abilities are not cast (E-3 B).
      if (item.from != BodySource::kTrigger) Push(FrameKind::kInterrupts, f.a);
      return;
    case 6: {
      if (item.countered || (item.card != kNoObj && !SpellOnStack(item))) {
        frames_.pop_back();
        return;
      }
      f.pc = 7;
      if (item.from == BodySource::kSpell) {
        // Successfully cast: its "when cast" triggers (Iron Star) are
        // processed now, before it joins its batch (T-8), even when it is an
        // interrupt inside another casting.
        const int before = static_cast<int>(queued_.size());
        Occurrence e;
        e.kind = EventKind::kCast;
        e.player = item.controller;
        e.object = item.card;
        e.last = Chars(item.card);
        e.incarnation = item.card_incarnation;
        Happened(Record(e));
        if (static_cast<int>(queued_.size()) > before) Push(FrameKind::kTriggers, 0, 0, 0, before);
      }
      return;
    }
    case 7: {
      const int idx = f.a;
      frames_.pop_back();
      if (items_[idx].countered) return;
      outcomes_.push_back({items_[idx].serial, Outcome::kPending});
      if (play == kPlayBatch)
        batch_.push_back(idx);
      else if (play == kPlayInterrupt)
        ibatch_.push_back(idx);
      else
        Push(FrameKind::kResolve, idx);
      return;
    }
  }
}

// T-8: batches of interrupts during a casting; the caster has priority.
// f.a: the item being cast; f.b passes; f.c who decides; f.d where this
// window's interrupt batch begins in ibatch_; pc 1 resolves.
void Game::RunInterrupts(Frame& f) {
  StackItem& item = items_[f.a];
  if (f.pc == 0) {
    f.pc = 2;
    f.b = 0;
    f.c = item.controller;
    f.d = static_cast<int32_t>(ibatch_.size());
  }
  if (f.pc == 2) {
    if (item.countered) {
      frames_.pop_back();
      return;
    }
    if (f.b >= 2) {
      if (static_cast<int>(ibatch_.size()) <= f.d) {
        frames_.pop_back();  // no interrupt batch started: successfully cast
        return;
      }
      f.pc = 1;
      return;
    }
    Player p = static_cast<Player>(f.c);
    decision_.actions.clear();
    decision_.actions.push_back({ActionKind::kPass});
    if (item.card != kNoObj) AddPlayableActions(p, DecisionKind::kInterrupt);
    if (decision_.actions.size() == 1) {
      ++f.b;
      f.c = Opponent(p);
      return;
    }
    Decide(DecisionKind::kInterrupt, p);
    return;
  }
  // pc 1: the interrupt batch resolves last in, first out; then another may start.
  if (static_cast<int>(ibatch_.size()) <= f.d) {
    f.pc = 2;
    f.b = 0;
    f.c = item.controller;
    return;
  }
  int idx = ibatch_.back();
  ibatch_.pop_back();
  Push(FrameKind::kResolve, idx);
}

// ---------------------------------------------------------------- resolving

void Game::ObjectsOf(const StackItem& item, const Ref& ref, std::vector<ObjId>& out,
                     std::vector<Player>* players) {
  out.clear();
  ObjId self = item.card != kNoObj ? item.card : item.source;
  switch (ref.kind) {
    case Ref::kTarget:
      // Every target chosen for that spec (Fireball may have several).
      for (int i = 0; i < item.target_count; ++i) {
        if (item.target_slot[i] != ref.index - 1) continue;
        const Target& t = item.targets[i];
        if (t.kind == Target::kObject && TargetLegal(item, item.target_slot[i], t))
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
        const Occurrence& e = events_[item.event];
        if (e.object != kNoObj && state_.obj.incarnation[e.object] == e.incarnation)
          out.push_back(e.object);
      }
      break;
    case Ref::kEventController:
      if (players && item.event >= 0) {
        const Occurrence& e = events_[item.event];
        players->push_back(e.object != kNoObj ? e.last.controller : e.player);
      }
      break;
    case Ref::kTargetController:
      if (players && item.target_count > 0) players->push_back(item.target_controller[0]);
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
      base = item.event >= 0 ? events_[item.event].last.power : 0;
      break;
    case Value::kEventToughness:
      base = item.event >= 0 ? events_[item.event].last.toughness : 0;
      break;
    case Value::kEventAmount:
      base = item.event >= 0 ? events_[item.event].amount : 0;
      break;
    case Value::kTargetPower:
      base = item.target_power;
      break;
    case Value::kDiedThisTurn: {
      base = 0;
      const Filter& f = db_->filter(v.filter);
      for (CardId c : died_this_turn_)
        base += (f.name == kNoCard || f.name == c) && (!f.types || ((*db_)[c].types & f.types));
      break;
    }
    default:
      return v.constant;
  }
  return SaturatedAdd<int32_t>(0, static_cast<long long>(base) * v.times + v.plus);
}

void Game::CounterSpell(ObjId card) {
  // The live spell is the item whose card is this very object on the stack;
  // an earlier cast of the same card was another object (spell identity).
  for (int idx = static_cast<int>(items_.size()) - 1; idx >= 0; --idx) {
    StackItem& it = items_[idx];
    if (it.card != card || !SpellOnStack(it) || it.countered) continue;
    it.countered = true;
    outcomes_.push_back({it.serial, Outcome::kCountered});
    batch_.erase(std::remove(batch_.begin(), batch_.end(), idx), batch_.end());
    Note(LogKind::kCounter, kNoPlayer, card, kNoObj, 0,
         [&] { return std::string(absl::StrCat(ObjectName(card), " is countered")); });
    // Costs are not refunded (T-8).
    ZoneChange(card, Zone::kGraveyard);
    return;
  }
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
    for (ObjId o = 0; o < state_.obj.count; ++o)
      if (state_.obj.zone[o] != Zone::kNone &&
          MatchFilter(state_, &Chars(0), db_->filter(st.affects), o, ctx))
        objs.push_back(o);
  }
  if (st.condition != kNoFilter) {
    // `if`: only targets that match (Hydroblast: if it is red).
    ObjId src = item.card != kNoObj ? item.card : item.source;
    FilterContext ctx = ContextFor(src, item.controller, kNoWord);
    objs.erase(std::remove_if(objs.begin(), objs.end(),
                              [&](ObjId o) {
                                return !MatchFilter(state_, &Chars(0), db_->filter(st.condition), o,
                                                    ctx);
                              }),
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
      row.x = item.x;
      row.choice = item.choice;
      row.source_power = item.source_power;
      row.source_toughness = item.source_toughness;
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
          if (o != excluded && state_.obj.zone[o] != Zone::kNone &&
              MatchFilter(state_, &Chars(0), db_->filter(st.affects), o, ctx))
            set.push_back(state_.Ref(o));
      } else {
        for (ObjId o : objs) set.push_back(state_.Ref(o));
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
        Push(FrameKind::kDraw, *it, amount);
      break;
    case Op::kDamage: {
      // Damage waits for its prevention step (T-4).
      int n = static_cast<int>(objs.size() + players.size());
      int each = st.divide && n > 0 ? amount / n : amount;
      for (ObjId o : objs)
        damage_.push_back({source, Target{Target::kObject, state_.Ref(o), kNoPlayer}, each,
                           st.cant_regenerate, false});
      for (Player p : players) damage_.push_back({source, Target{Target::kPlayer, {}, p}, each});
      break;
    }
    case Op::kGainLife:
      for (Player p : players) GainLife(p, amount);
      break;
    case Op::kLoseLife:
      for (Player p : players) LoseLife(p, amount);
      break;
    case Op::kTap:
      for (ObjId o : objs) Tap(o, true);
      break;
    case Op::kUntap:
      for (ObjId o : objs) Tap(o, false);
      break;
    case Op::kDestroy: {
      // Everything one effect destroys is destroyed together (E-5).
      const int begin = static_cast<int>(destroying_.size());
      for (ObjId o : objs) {
        if (st.cant_regenerate) no_regen_[o] = true;
        destroying_.push_back(state_.Ref(o));
      }
      if (static_cast<int>(destroying_.size()) > begin)
        Push(FrameKind::kDestroy, begin, static_cast<int32_t>(destroying_.size()), 0);
      break;
    }
    case Op::kExile:
    case Op::kBounce:
    case Op::kSacrifice: {
      // Moved together: they leave at the same time (E-5).
      const Zone to = st.op == Op::kExile ? Zone::kExile
                      : st.op == Op::kBounce ? Zone::kHand
                                             : Zone::kGraveyard;
      std::sort(objs.begin(), objs.end());
      objs.erase(std::unique(objs.begin(), objs.end()), objs.end());
      objs.erase(std::remove_if(objs.begin(), objs.end(),
                                [&](ObjId o) { return state_.obj.zone[o] == to; }),
                 objs.end());
      LeaveTogether(objs.data(), static_cast<int>(objs.size()), to);
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
    case Op::kAddCounters:
      for (ObjId o : objs) AddCounters(o, st.counter_kind, amount);
      break;
    case Op::kAddMana: {
      int c = st.mana_colorless ? 5 : 0;
      if (!st.mana_colorless)
        for (int k = 0; k < kColorCount; ++k)
          if (Has(st.mana_colors, k)) c = k;
      state_.players[item.controller].pool[c] = SaturatedAdd(state_.players[item.controller].pool[c], amount);
      break;
    }
    case Op::kDiscard:
      for (Player p : players) Push(FrameKind::kDiscardToMax, p, amount, st.random ? 1 : 0);
      break;
    case Op::kCounterSpell:
      for (ObjId o : objs) CounterSpell(o);
      break;
    case Op::kDelayed:
      next_upkeep_.push_back({item, &st.delayed});
      break;
    case Op::kPrevent:
      if (st.from != kNoFilter) {
        for (ObjId o : objs)
          source_shields_.push_back({Target{Target::kObject, state_.Ref(o), kNoPlayer}, st.from,
                                     source, item.controller});
        for (Player p : players)
          source_shields_.push_back(
              {Target{Target::kPlayer, {}, p}, st.from, source, item.controller});
        break;
      }
      for (ObjId o : objs) prevent_shield_[o] = SaturatedAdd(prevent_shield_[o], amount);
      for (Player p : players) player_shield_[p] = SaturatedAdd(player_shield_[p], amount);
      Note(LogKind::kShield, kNoPlayer, kNoObj, kNoObj, amount, [&] {
        return std::string(absl::StrCat("a shield will prevent the next ", amount, " damage"));
      });
      break;
    case Op::kReplaceNextDraw:
      replace_draw_[item.controller] = amount;
      break;
    case Op::kCounterUnlessPay:
      for (auto it = objs.rbegin(); it != objs.rend(); ++it)
        Push(FrameKind::kUnlessPay, *it, amount, state_.obj.incarnation[*it]);
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
  }
  (void)f;
}

// A spell or ability resolves (T-3, T-11); triggers it caused wait until it
// has finished (E-4), then damage it assigned gets its prevention step (T-4).
// f.a: item; f.b: next step; f.c: damage_ size when it began. pc: 0 start,
// 1 steps, 2 finish.
void Game::RunResolve(Frame& f) {
  StackItem& item = items_[f.a];
  const CardDef& card = (*db_)[item.body_card];
  if (f.pc == 0) {
    f.c = static_cast<int32_t>(damage_.size());
    f.d = static_cast<int32_t>(queued_.size());
    // Who controls each target as it begins to resolve (exchanges of control).
    for (int i = 0; i < item.target_count; ++i)
      if (item.targets[i].kind == Target::kObject && state_.Alive(item.targets[i].obj))
        item.target_controller[i] = Chars(item.targets[i].obj.id).controller;
    if (item.target_count > 0 && item.targets[0].kind == Target::kObject &&
        state_.Alive(item.targets[0].obj))
      item.target_power = Chars(item.targets[0].obj.id).power;
    if (item.countered) {
      frames_.pop_back();
      return;
    }
    if (item.card != kNoObj && !SpellOnStack(item)) {
      // Its card left the stack (and maybe came back as a new object): this
      // spell is gone and resolves no more.
      Note(LogKind::kInfo, item.controller, item.card, kNoObj, 0, [&] {
        return absl::StrCat(ObjectName(item.card), " is no longer on the stack");
      });
      frames_.pop_back();
      return;
    }
    bool any_target = item.target_count == 0;
    for (int i = 0; i < item.target_count; ++i)
      if (item.targets[i].kind == Target::kPlayer ||
          TargetLegal(item, item.target_slot[i], item.targets[i]))
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
      outcomes_.push_back({item.serial, Outcome::kFizzled});
      if (SpellOnStack(item))
        ZoneChange(item.card, Zone::kGraveyard);
      frames_.pop_back();
      return;
    }
    if (item.from == BodySource::kSpell && !card.has_spell) {
      f.pc = 2;
      EnterBattlefield(item);
      return;
    }
    Note(LogKind::kResolve, item.controller, item.card != kNoObj ? item.card : item.source, kNoObj,
         0, [&] {
           return std::string(absl::StrCat(
               item.card != kNoObj ? ObjectName(item.card)
                                   : absl::StrCat("ability of ", ObjectName(item.source)),
               " resolves"));
         });
    f.pc = 1;
    f.b = 0;
    return;
  }
  if (f.pc == 1) {
    const std::vector<EffectStep>* steps = nullptr;
    if (item.from == BodySource::kDelayed) {
      steps = delayed_steps_[item.ability];
    } else if (const AbilityBody* b = ModeBody(item)) {
      steps = &b->steps;
    }
    if (!steps || f.b >= static_cast<int>(steps->size())) {
      f.pc = 2;
      return;
    }
    ExecuteStep(item, (*steps)[f.b++], f);
    return;
  }
  // pc 2: finish. Triggers it caused come first (E-4), then the prevention
  // step for its damage (T-4), before anything else waiting resolves.
  int idx = f.a, damage_begin = f.c, triggers_begin = f.d;
  frames_.pop_back();
  StackItem& done = items_[idx];
  if (SpellOnStack(done))
    ZoneChange(done.card, Zone::kGraveyard);
  outcomes_.push_back({done.serial, Outcome::kResolved});
  if (static_cast<int>(damage_.size()) > damage_begin)
    Push(FrameKind::kPrevention, damage_begin);
  else
    CheckState();
  if (static_cast<int>(queued_.size()) > triggers_begin)
    Push(FrameKind::kTriggers, 0, 0, 0, triggers_begin);
}

void Game::EnterBattlefield(StackItem& item) {
  ObjId o = item.card;
  MoveTo(o, Zone::kBattlefield, item.controller);
  state_.obj.controller[o] = item.controller;
  state_.Touch();
  Note(LogKind::kInfo, kNoPlayer, kNoObj, kNoObj, 0,
       [&] { return std::string(absl::StrCat(ObjectName(o), " enters the battlefield")); });
  const CardDef& card = (*db_)[state_.obj.card[o]];
  if (card.enchant != kNoFilter && item.target_count > 0 && item.targets[0].kind == Target::kObject)
    Attach(o, item.targets[0].obj.id);
  Occurrence e;
  e.kind = EventKind::kZoneChange;
  e.object = o;
  e.from = Zone::kStack;
  e.to = Zone::kBattlefield;
  e.player = item.controller;
  e.last = Chars(o);
  e.incarnation = state_.obj.incarnation[o];
  Happened(Record(e));
  if (card.enters.choose != ChoiceKind::kNone) Push(FrameKind::kEntry, o);
  if (card.enters.has_effects) {
    StackItem enters;
    enters.source = o;
    enters.body_card = state_.obj.card[o];
    enters.from = BodySource::kEnters;
    enters.controller = item.controller;
    enters.serial = next_serial_++;
    items_.push_back(enters);
    Push(FrameKind::kResolve, static_cast<int32_t>(items_.size() - 1));
  }
}

void Game::RunEntry(Frame& f) {
  ObjId o = static_cast<ObjId>(f.a);
  const CardDef& card = (*db_)[state_.obj.card[o]];
  const EntryChoice& e = card.enters;
  Player p = Chars(o).controller;
  decision_.actions.clear();
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
      FilterContext ctx = ContextFor(o, p, kNoWord);
      for (ObjId t = 0; t < state_.obj.count; ++t)
        if (t != o && state_.obj.zone[t] == Zone::kBattlefield &&
            MatchFilter(state_, &Chars(0), db_->filter(e.filter), t, ctx))
          decision_.actions.push_back({ActionKind::kObject, t});
      if (e.optional || decision_.actions.empty())
        decision_.actions.push_back({ActionKind::kNoChoice});
      break;
    }
    default:
      frames_.pop_back();
      return;
  }
  Decide(DecisionKind::kChoice, p);
}

// ---------------------------------------------------------------- triggers

// E-3 B: triggered effects happen one at a time, in the order the active
// player picks; a trigger with a cost is paid for now or never. They do not
// go on a batch. pc 0 pick, 1 optional cost asked.
void Game::RunTriggers(Frame& f) {
  // f.d: the first queued trigger this frame handles (earlier ones belong
  // to a frame further down).
  if (f.pc == 0) {
    const int first = f.d;
    if (static_cast<int>(queued_.size()) <= first || over_) {
      frames_.pop_back();
      return;
    }
    // The active player orders simultaneous triggers: those of one
    // occurrence, or of occurrences that happened together (E-5).
    auto together = [&](const QueuedTrigger& q) {
      const QueuedTrigger& head = queued_[first];
      return q.event == head.event ||
             (q.event >= 0 && head.event >= 0 && events_[q.event].group == events_[head.event].group);
    };
    int same = 0;
    for (size_t i = first; i < queued_.size(); ++i) same += together(queued_[i]);
    if (same > 1) {
      decision_.actions.clear();
      for (int i = first; i < static_cast<int>(queued_.size()); ++i)
        if (together(queued_[i]))
          decision_.actions.push_back({ActionKind::kObject, queued_[i].source, 0, i});
      Decide(DecisionKind::kTriggerOrder, state_.active);
      return;
    }
    f.b = first;
    f.pc = 3;
  }
  if (f.pc == 3) {
    QueuedTrigger q = queued_[f.b];
    queued_.erase(queued_.begin() + f.b);
    StackItem item;
    item.source = q.source;
    item.body_card = q.card;
    item.from = BodySource::kTrigger;
    item.ability = q.index;
    item.controller = q.controller;
    item.event = q.event;
    item.serial = next_serial_++;
    items_.push_back(item);
    f.a = static_cast<int32_t>(items_.size() - 1);
    Used(q.card, (*db_)[q.card].TriggerBit(q.index));
    const TriggeredAbility& tr = (*db_)[q.card].triggers[q.index];
    if (tr.has_optional_cost) {
      if (!opt_.free_mana && !CanPay(q.controller, tr.optional_cost, 0, kNoObj)) {
        f.pc = 0;
        return;
      }
      // The answers name the trigger's source, so a script can tell which
      // of several optional costs it answers.
      decision_.actions.clear();
      decision_.actions.push_back({ActionKind::kYes, q.source});
      decision_.actions.push_back({ActionKind::kNo, q.source});
      f.pc = 1;
      Decide(DecisionKind::kOptionalCost, q.controller);
      return;
    }
    f.pc = 2;
  }
  if (f.pc == 2) {
    f.pc = 0;
    StackItem& item = items_[f.a];
    const AbilityBody* body = BodyOf(item);
    if (body && !HasLegalTargets(item, *body)) return;  // nothing to target: it does nothing
    Push(FrameKind::kCast, f.a, kPlayImmediate, kNoObj);
    frames_.back().pc = 0;
  }
}

// ---------------------------------------------------------------- damage prevention

// T-4: after damage is assigned, the active player then the other may play
// damage-prevention effects; then the damage is final, damage triggers
// happen, and lethal damage destroys. f.a: first pending damage; f.c who
// decides; pc 0 AP, 1 NAP, 2 final.
void Game::RunPrevention(Frame& f) {
  if (f.pc < 2) {
    Player p = f.pc == 0 ? state_.active : Opponent(state_.active);
    decision_.actions.clear();
    decision_.actions.push_back({ActionKind::kPass});
    AddPlayableActions(p, DecisionKind::kPrevention);
    if (decision_.actions.size() == 1) {
      ++f.pc;
      return;
    }
    f.c = p;
    Decide(DecisionKind::kPrevention, p);
    return;
  }
  thread_local std::vector<PendingDamage> pending_buffer;
  Borrowed<PendingDamage> borrowed(pending_buffer);
  std::vector<PendingDamage>& pending = borrowed.v;
  pending.assign(damage_.begin() + f.a, damage_.end());
  damage_.resize(f.a);
  frames_.pop_back();
  for (PendingDamage& d : pending) {
    if (d.to.kind == Target::kObject && !state_.Alive(d.to.obj)) continue;
    // Shields against a kind of source (E-3 A): all of that damage.
    bool blocked = false;
    for (size_t i = 0; i < source_shields_.size() && !blocked; ++i) {
      const SourceShield& sh = source_shields_[i];
      bool same =
          d.to.kind == sh.to.kind &&
          (d.to.kind == Target::kPlayer ? d.to.player == sh.to.player : d.to.obj == sh.to.obj);
      if (!same || d.source == kNoObj ||
          !MatchFilter(state_, &Chars(0), db_->filter(sh.from), d.source,
                       ContextFor(sh.source, sh.you, kNoWord)))
        continue;
      blocked = true;
      source_shields_.erase(source_shields_.begin() + static_cast<long>(i));
    }
    // Protection from a color prevents damage from sources of that color.
    if (!blocked && d.to.kind == Target::kObject && d.source != kNoObj) {
      const Characteristics& to = Chars(d.to.obj.id);
      ColorMask from = Chars(d.source).colors;
      for (int c = 0; c < kColorCount; ++c)
        blocked |= Has(from, c) && Has(to.keywords, kProtWhite + c);
    }
    if (blocked) {
      Note(LogKind::kPrevent, kNoPlayer, d.source, kNoObj, d.amount,
           [&] { return absl::StrCat(d.amount, " damage is prevented"); });
      continue;
    }
    // Damage to a player may be reduced (Urza's Armor), then shields (E-3 A).
    if (d.to.kind == Target::kPlayer)
      d.amount = std::max(0, d.amount - Rules(d.to.player).damage_reduction);
    int16_t* shield =
        d.to.kind == Target::kPlayer ? &player_shield_[d.to.player] : &prevent_shield_[d.to.obj.id];
    if (d.to.kind == Target::kObject && !state_.Alive(d.to.obj)) continue;
    int prevented = std::min<int>(*shield, d.amount);
    *shield = static_cast<int16_t>(*shield - prevented);
    d.amount -= prevented;
    if (prevented)
      Note(LogKind::kPrevent, kNoPlayer, d.source, kNoObj, prevented,
           [&] { return std::string(absl::StrCat(prevented, " damage is prevented")); });
    if (d.amount > 0) DealDamage(d);
  }
  CheckState();
}

// "Counter target spell unless its controller pays N" (Power Sink): the
// spell's controller decides. f.a the spell's card, f.b N, f.c its incarnation.
void Game::RunUnlessPay(Frame& f) {
  ObjId card = static_cast<ObjId>(f.a);
  if (state_.obj.zone[card] != Zone::kStack || state_.obj.incarnation[card] != f.c) {
    frames_.pop_back();
    return;
  }
  Player p = state_.obj.controller[card];
  ManaCost cost;
  cost.generic = f.b;
  decision_.actions.clear();
  if (opt_.free_mana || CanPay(p, cost, 0, kNoObj))
    decision_.actions.push_back({ActionKind::kYes, card, 0, f.b});
  decision_.actions.push_back({ActionKind::kNo, card, 0, f.b});
  Decide(DecisionKind::kOptionalCost, p);
}

// ---------------------------------------------------------------- occurrences with choices

// A draw (E-3): reactions timed to it (Aladdin's Lamp), a replacement, then
// the card is drawn and "whenever a player draws" triggers. f.a player,
// f.b draws left. pc 0 reactions, 1 replacement, 2 draw.
void Game::RunDraw(Frame& f) {
  Player p = static_cast<Player>(f.a);
  if (f.b <= 0 || over_) {
    frames_.pop_back();
    return;
  }
  auto& lib = state_.players[p].library;
  if (f.pc == 0) {
    f.pc = 1;
    Occurrence e;  // "before a player draws" (E-1), then reactions to the draw
    e.kind = EventKind::kDraw;
    e.player = p;
    Before(e);
    Push(FrameKind::kReaction, static_cast<int32_t>(Reaction::kDraw), p);
    return;
  }
  if (f.pc == 1) {
    f.pc = 2;
    int look = std::min<int>(replace_draw_[p], static_cast<int>(lib.size()));
    if (look > 0) {
      // Instead of drawing: look at the top cards, keep one, the rest go to
      // the bottom; then draw the kept one.
      replace_draw_[p] = 0;
      decision_.actions.clear();
      for (int i = 0; i < look; ++i) decision_.actions.push_back({ActionKind::kObject, lib[i]});
      Note(LogKind::kInfo, kNoPlayer, kNoObj, kNoObj, 0, [&] {
        return std::string(
            absl::StrCat(Who(p), " looks at the top ", look, " cards instead of drawing"));
      });
      f.c = look;
      Decide(DecisionKind::kChoice, p);
      return;
    }
  }
  // pc 2: the draw happens.
  f.pc = 0;
  --f.b;
  if (lib.empty()) {
    Note(LogKind::kInfo, kNoPlayer, kNoObj, kNoObj, 0,
         [&] { return std::string(absl::StrCat(Who(p), " draws from an empty library")); });
    Lose(p, EndReason::kLibrary);
    return;
  }
  ObjId top = lib.front();
  MoveTo(top, Zone::kHand, p);
  Note(LogKind::kDraw, p, top, kNoObj, 1,
       [&] { return std::string(absl::StrCat(Who(p), " draws ", ObjectName(top))); });
  Occurrence e;
  e.kind = EventKind::kDraw;
  e.player = p;
  e.object = top;
  e.last = Chars(top);
  e.incarnation = state_.obj.incarnation[top];
  e.from = Zone::kLibrary;
  e.to = Zone::kHand;
  Happened(Record(e));
}

std::string Game::StateCheckLeftovers() const {
  for (ObjId o = 0; o < state_.obj.count; ++o) {
    if (state_.obj.zone[o] != Zone::kBattlefield || !Chars(o).IsCreature()) continue;
    const Characteristics& ch = Chars(o);
    if (ch.toughness <= 0 || (state_.obj.damage[o] >= ch.toughness && !BeingDestroyed(o)))
      return absl::StrCat(ObjectName(o), " (", ch.power, "/", ch.toughness, ", damage ",
                          state_.obj.damage[o], ") survived a state check");
  }
  return "";
}

bool Game::BeingDestroyed(ObjId o) const {
  const ObjRef ref = state_.Ref(o);
  for (const Frame& f : frames_)
    if (f.kind == FrameKind::kDestroy)
      for (int i = f.a; i < f.b; ++i)
        if (destroying_[i] == ref) return true;
  return false;
}

void Game::Regenerate(ObjId o) {
  --state_.obj.regen_shields[o];
  state_.obj.damage[o] = 0;
  Tap(o, true);
  combat_[o] = kNotInCombat;
  Note(LogKind::kRegenerate, kNoPlayer, o, kNoObj, 0,
       [&] { return std::string(absl::StrCat(ObjectName(o), " regenerates")); });
}

// Objects one effect (or one state check) destroys, headed to the graveyard
// together (E-3, E-5): A. a regeneration shield already there replaces the
// destruction at once, and nothing reacts to it; C. for the rest each player
// may react (regenerate them), the active player first; then a shield a
// reaction made replaces it, and the others leave together.
// f.a, f.b: the group in destroying_; f.c 1: for lethal damage (no longer
// destroyed once the damage isn't lethal); pc 0 shields and reactions, 1 the rest.
void Game::RunDestroy(Frame& f) {
  const bool lethal = f.c == 1;
  auto destroyed = [&](ObjRef r) {
    if (!state_.Alive(r) || state_.obj.zone[r.id] != Zone::kBattlefield) return false;
    if (!lethal) return true;
    const Characteristics& ch = Chars(r.id);
    return ch.IsCreature() && state_.obj.damage[r.id] >= ch.toughness;
  };
  auto shielded = [&](ObjId o) { return state_.obj.regen_shields[o] > 0 && !no_regen_[o]; };
  if (f.pc == 0) {
    f.pc = 1;
    bool can_react = false;
    for (int i = f.a; i < f.b; ++i) {
      ObjRef& r = destroying_[i];
      if (!destroyed(r)) {
        r = ObjRef{};
        continue;
      }
      if (shielded(r.id)) {
        Regenerate(r.id);
        r = ObjRef{};
        continue;
      }
      can_react |= !no_regen_[r.id];
    }
    if (can_react)
      Push(FrameKind::kReaction, static_cast<int32_t>(Reaction::kDestroy), kAboutDestroying);
    return;
  }
  thread_local std::vector<ObjId> buffer;
  Borrowed<ObjId> borrowed(buffer);
  std::vector<ObjId>& leaving = borrowed.v;
  const int begin = f.a, end = f.b;
  for (int i = begin; i < end; ++i) {
    const ObjRef r = destroying_[i];
    if (!destroyed(r) || std::find(leaving.begin(), leaving.end(), r.id) != leaving.end()) continue;
    if (shielded(r.id)) {
      Regenerate(r.id);
      continue;
    }
    Note(LogKind::kDestroy, kNoPlayer, r.id, kNoObj, 0,
         [&] { return std::string(absl::StrCat(ObjectName(r.id), " is destroyed")); });
    leaving.push_back(r.id);
  }
  frames_.pop_back();
  destroying_.resize(begin);
  LeaveTogether(leaving.data(), static_cast<int>(leaving.size()), Zone::kGraveyard);
}

// E-3 C: the active player plays all their reactions, one at a time, each
// resolving fully; then the other player. f.a reaction kind, f.b the object
// or player it is about; pc 0 AP, 1 NAP.
void Game::RunReaction(Frame& f) {
  if (f.pc >= 2 || over_) {
    frames_.pop_back();
    return;
  }
  Player p = f.pc == 0 ? state_.active : Opponent(state_.active);
  Reaction kind = static_cast<Reaction>(f.a);
  decision_.actions.clear();
  decision_.actions.push_back({ActionKind::kPass});
  ObjId about = kind == Reaction::kDestroy ? static_cast<ObjId>(f.b) : kNoObj;
  if (kind == Reaction::kDraw && p != static_cast<Player>(f.b)) {
    ++f.pc;  // only the drawing player replaces their draw
    return;
  }
  AddPlayableActions(p, DecisionKind::kReaction, kind, about);
  if (decision_.actions.size() == 1) {
    ++f.pc;
    return;
  }
  f.c = p;
  Decide(DecisionKind::kReaction, p);
}

// ---------------------------------------------------------------- the attack

// T-7: declare attackers, a neutral-state loop, blockers, another loop, then
// damage (first strike first), each with its prevention step.
// pc 0 attackers, 1 after attackers, 2 blockers, 3 after blockers,
// 4 first-strike damage, 5 regular damage, 6 end.
void Game::RunAttack(Frame& f) {
  GameState& s = state_;
  Player ap = s.active, nap = Opponent(ap);
  decision_.actions.clear();
  switch (f.pc) {
    case 0: {
      for (ObjId o = 0; o < s.obj.count; ++o) {
        if (s.obj.zone[o] != Zone::kBattlefield || combat_[o] != kNotInCombat) continue;
        const Characteristics& ch = Chars(o);
        if (ch.controller != ap || !ch.IsCreature() || s.obj.tapped[o] ||
            Has(ch.keywords, kDefender) || SummoningSick(o))
          continue;
        decision_.actions.push_back({ActionKind::kObject, o});
      }
      decision_.actions.push_back({ActionKind::kDone});
      if (decision_.actions.size() == 1) {
        f.pc = 1;
        return;
      }
      Decide(DecisionKind::kAttackers, ap);
      return;
    }
    case 1: {
      bool any = false;
      for (ObjId o = 0; o < s.obj.count; ++o) any |= combat_[o] == kAttacking;
      if (!any) {
        f.pc = 6;
        return;
      }
      f.pc = 2;
      Push(FrameKind::kNeutral, 1);
      return;
    }
    case 2: {
      // Each untapped creature blocks at most one attacker; fliers only by
      // flying or reach; landwalk can't be blocked when the defender has
      // such a land.
      ColorMask defender_lands = 0;
      for (ObjId o = 0; o < s.obj.count; ++o)
        if (s.obj.zone[o] == Zone::kBattlefield && Chars(o).controller == nap)
          for (int c = 0; c < kColorCount; ++c)
            if (Chars(o).HasSubtype(BasicLandSubtype(c))) defender_lands |= 1u << c;
      for (ObjId b = 0; b < s.obj.count; ++b) {
        if (s.obj.zone[b] != Zone::kBattlefield || combat_[b] != kNotInCombat) continue;
        const Characteristics& bc = Chars(b);
        if (bc.controller != nap || !bc.IsCreature() || s.obj.tapped[b]) continue;
        for (ObjId a = 0; a < s.obj.count; ++a) {
          if (combat_[a] != kAttacking || s.obj.zone[a] != Zone::kBattlefield) continue;
          const Characteristics& ac = Chars(a);
          if (Has(ac.keywords, kFlying) && !Has(bc.keywords, kFlying) && !Has(bc.keywords, kReach))
            continue;
          bool walk = false;
          for (int c = 0; c < kColorCount; ++c)
            walk |= Has(ac.keywords, kPlainswalk + c) && Has(defender_lands, c);
          if (walk) continue;
          bool protected_from = false;
          for (int c = 0; c < kColorCount; ++c)
            protected_from |= Has(ac.keywords, kProtWhite + c) && Has(bc.colors, c);
          if (protected_from) continue;
          decision_.actions.push_back({ActionKind::kBlock, b, 0, a});
        }
      }
      decision_.actions.push_back({ActionKind::kDone});
      if (decision_.actions.size() == 1) {
        f.pc = 3;
        return;
      }
      Decide(DecisionKind::kBlockers, nap);
      return;
    }
    case 3:
      f.pc = 4;
      Push(FrameKind::kNeutral, 1);
      return;
    case 4:
    case 5: {
      const bool first = f.pc == 4;
      f.pc = first ? 5 : 6;
      int begin = static_cast<int>(damage_.size());
      auto strikes_now = [&](ObjId o) { return Has(Chars(o).keywords, kFirstStrike) == first; };
      for (ObjId a = 0; a < s.obj.count; ++a) {
        if (combat_[a] != kAttacking || s.obj.zone[a] != Zone::kBattlefield) continue;
        const Characteristics& ac = Chars(a);
        int power = ac.power;
        absl::InlinedVector<ObjId, 8> blockers;
        bool was_blocked = block_target_[a] == a;  // marks "was blocked"
        for (ObjId b = 0; b < s.obj.count; ++b)
          if (combat_[b] == kBlocking && block_target_[b] == a &&
              s.obj.zone[b] == Zone::kBattlefield)
            blockers.push_back(b);
        for (ObjId b : blockers)
          if (strikes_now(b) && Chars(b).power > 0)
            damage_.push_back(
                {b, Target{Target::kObject, s.Ref(a), kNoPlayer}, Chars(b).power, false, true});
        if (!strikes_now(a) || power <= 0) continue;
        if (!was_blocked) {
          damage_.push_back({a, Target{Target::kPlayer, {}, nap}, power, false, true});
          continue;
        }
        // Blocked: lethal damage to each blocker in order; trample sends the
        // rest to the player.
        bool trample = Has(ac.keywords, kTrample);
        for (size_t i = 0; i < blockers.size() && power > 0; ++i) {
          const Characteristics& bc = Chars(blockers[i]);
          int lethal = std::max(0, bc.toughness - s.obj.damage[blockers[i]]);
          int give = (i + 1 == blockers.size() && !trample) ? power : std::min(power, lethal);
          if (give > 0)
            damage_.push_back(
                {a, Target{Target::kObject, s.Ref(blockers[i]), kNoPlayer}, give, false, true});
          power -= give;
        }
        if (trample && power > 0)
          damage_.push_back({a, Target{Target::kPlayer, {}, nap}, power, false, true});
      }
      if (static_cast<int>(damage_.size()) > begin) Push(FrameKind::kPrevention, begin);
      return;
    }
    default:
      for (ObjId o = 0; o < s.obj.count; ++o) {
        combat_[o] = kNotInCombat;
        block_target_[o] = kNoObj;
      }
      Note(LogKind::kInfo, kNoPlayer, kNoObj, kNoObj, 0,
           [&] { return std::string("the attack ends"); });
      frames_.pop_back();
      return;
  }
}

// Paying or refusing a phase cost (T-13) is chosen as an instant; the answer
// is asked at once and handled by the kReaction frame marked 100.
void Game::AskPhaseCost(int todo) {
  PhaseTodo& t = phase_todo_[todo];
  t.done = true;
  Player p = t.controller;
  decision_.actions.clear();
  if (opt_.free_mana || CanPay(p, t.cost, 0, t.object.id))
    decision_.actions.push_back({ActionKind::kYes, t.object.id, static_cast<int16_t>(todo)});
  decision_.actions.push_back({ActionKind::kNo, t.object.id, static_cast<int16_t>(todo)});
  Push(FrameKind::kReaction, 100, todo, p);
  frames_.back().pc = 5;
  Decide(DecisionKind::kPhaseCost, p);
}

// ---------------------------------------------------------------- actions

void Game::ApplyToFrame(Frame& f, const Action& a) {
  GameState& s = state_;
  switch (f.kind) {
    case FrameKind::kNeutral:
      if (f.pc == 2) {
        // The defender answered an announced attack.
        if (a.kind == ActionKind::kPass) {
          f.pc = 1;
          f.b = 0;
          f.c = s.active;
          attacked_[s.active] = true;
          Note(LogKind::kInfo, kNoPlayer, kNoObj, kNoObj, 0,
               [&] { return std::string(absl::StrCat(Who(s.active), " attacks")); });
          Push(FrameKind::kAttack);
          return;
        }
        Note(LogKind::kInfo, kNoPlayer, kNoObj, kNoObj, 0,
             [&] { return std::string("the attack is aborted: the defender starts a batch"); });
        f.pc = 1;
        f.b = 0;
        f.c = s.active;
        Push(FrameKind::kBatch, 0, 0, s.active);
        StartCast(Opponent(s.active), a, kPlayBatch, kNoObj);
        return;
      }
      if (a.kind == ActionKind::kPass) {
        ++f.b;
        f.c = Opponent(static_cast<Player>(f.c));
        return;
      }
      if (a.kind == ActionKind::kAttack) {
        Note(LogKind::kInfo, kNoPlayer, kNoObj, kNoObj, 0,
             [&] { return std::string(absl::StrCat(Who(s.active), " announces an attack")); });
        f.pc = 2;
        return;
      }
      if (a.kind == ActionKind::kPlayLand) {
        Player p = static_cast<Player>(f.c);
        MoveTo(a.object, Zone::kBattlefield, p);
        s.obj.controller[a.object] = p;  // sick until p's next turn (T-7)
        s.Touch();
        ++lands_played_[p];
        seen_[a.object] |= kSeenCast;
        Used(s.obj.card[a.object], -1);
        Note(LogKind::kPlayLand, p, a.object, kNoObj, 0,
             [&] { return std::string(absl::StrCat(Who(p), " plays ", ObjectName(a.object))); });
        Occurrence e;
        e.kind = EventKind::kPlay;
        e.player = p;
        e.object = a.object;
        e.last = Chars(a.object);
        e.incarnation = s.obj.incarnation[a.object];
        Happened(Record(e));
        f.b = 0;
        f.c = s.active;
        CheckState();  // a state check follows every permanent's entry
        return;
      }
      {
        Player p = static_cast<Player>(f.c);
        f.b = 0;
        f.c = s.active;
        if (a.kind == ActionKind::kPhaseEffect && phase_todo_[a.index].is_cost) {
          AskPhaseCost(a.index);
          return;
        }
        Push(FrameKind::kBatch, 0, 0, s.active);
        StartCast(p, a, kPlayBatch, kNoObj);
      }
      return;
    case FrameKind::kBatch:
      if (a.kind == ActionKind::kPass) {
        ++f.b;
        f.c = Opponent(static_cast<Player>(f.c));
        return;
      }
      f.b = 0;
      f.c = s.active;
      if (a.kind == ActionKind::kPhaseEffect && phase_todo_[a.index].is_cost) {
        AskPhaseCost(a.index);
        return;
      }
      StartCast(decision_.player, a, kPlayBatch, kNoObj);
      return;
    case FrameKind::kInterrupts:
      if (a.kind == ActionKind::kPass) {
        ++f.b;
        f.c = Opponent(static_cast<Player>(f.c));
        return;
      }
      f.b = 0;
      f.c = items_[f.a].controller;  // the caster keeps priority (T-8)
      StartCast(decision_.player, a, kPlayInterrupt, kNoObj);
      return;
    case FrameKind::kPrevention:
      if (a.kind == ActionKind::kPass) {
        ++f.pc;
        return;
      }
      StartCast(decision_.player, a, kPlayImmediate, kNoObj);
      return;
    case FrameKind::kReaction:
      if (f.a == 100) {
        // A phase cost: pay it, or suffer the penalty now.
        frames_.pop_back();
        PhaseTodo& t = phase_todo_[a.index];
        if (a.kind == ActionKind::kYes) {
          if (!opt_.free_mana) Pay(t.controller, t.cost, 0, t.object.id);
          Note(LogKind::kInfo, kNoPlayer, kNoObj, kNoObj, 0, [&] {
            return std::string(absl::StrCat(Who(t.controller), " pays the phase cost of ",
                                            ObjectName(t.object.id)));
          });
          return;
        }
        Note(LogKind::kInfo, kNoPlayer, kNoObj, kNoObj, 0, [&] {
          return std::string(absl::StrCat(Who(t.controller), " does not pay the phase cost of ",
                                          ObjectName(t.object.id)));
        });
        StackItem item;
        PhaseItem(t, item);
        item.controller = t.controller;
        item.serial = next_serial_++;
        items_.push_back(item);
        Push(FrameKind::kResolve, static_cast<int32_t>(items_.size() - 1));
        return;
      }
      if (a.kind == ActionKind::kPass) {
        ++f.pc;
        return;
      }
      StartCast(
          decision_.player, a, kPlayImmediate,
          static_cast<Reaction>(f.a) == Reaction::kDestroy ? static_cast<ObjId>(f.b) : kNoObj);
      return;
    case FrameKind::kCast: {
      StackItem& item = items_[f.a];
      switch (decision_.kind) {
        case DecisionKind::kChoice:
          if (f.pc == 0) {
            item.mode = static_cast<int8_t>(a.value - 1);
            f.pc = 1;
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
          item.target_slot[item.target_count] = item.slot;
          item.targets[item.target_count++] =
              a.kind == ActionKind::kTargetPlayer
                  ? Target{Target::kPlayer, {}, static_cast<Player>(a.value)}
                  : Target{Target::kObject, s.Ref(a.object), kNoPlayer};
          ++item.in_slot;
          return;
        case DecisionKind::kX:
          item.x = static_cast<int16_t>(a.value);
          return;
        case DecisionKind::kDiscard:
          Note(LogKind::kInfo, kNoPlayer, kNoObj, kNoObj, 0, [&] {
            return std::string(
                absl::StrCat(Who(item.controller), " discards ", ObjectName(a.object)));
          });
          ZoneChange(a.object, Zone::kGraveyard);
          f.b += 256;
          return;
        default:
          return;
      }
    }
    case FrameKind::kTriggers:
      if (f.pc == 0) {
        f.b = a.value;
        f.pc = 3;
        return;
      }
      if (f.pc == 1) {
        const StackItem& item = items_[f.a];
        const TriggeredAbility& tr = (*db_)[item.body_card].triggers[item.ability];
        if (a.kind == ActionKind::kYes) {
          if (!opt_.free_mana) Pay(item.controller, tr.optional_cost, 0, kNoObj);
          f.pc = 2;
        } else {
          Note(LogKind::kInfo, kNoPlayer, kNoObj, kNoObj, 0, [&] {
            return std::string(absl::StrCat(Who(item.controller), " declines to pay for ",
                                            (*db_)[item.body_card].AbilityName(
                                                (*db_)[item.body_card].TriggerBit(item.ability))));
          });
          f.pc = 0;
        }
      }
      return;
    case FrameKind::kAttack:
      if (a.kind == ActionKind::kDone) {
        ++f.pc;
        return;
      }
      if (f.pc == 0) {
        combat_[a.object] = kAttacking;
        if (!Has(Chars(a.object).keywords, kVigilance)) Tap(a.object, true);
        Note(LogKind::kAttack, kNoPlayer, a.object, kNoObj, 0,
             [&] { return std::string(absl::StrCat(ObjectName(a.object), " attacks")); });
        Occur(EventKind::kAttack, state_.active, a.object);
      } else {
        combat_[a.object] = kBlocking;
        block_target_[a.object] = static_cast<ObjId>(a.value);
        block_target_[a.value] = static_cast<ObjId>(a.value);  // the attacker was blocked
        Note(LogKind::kBlock, kNoPlayer, a.object, static_cast<ObjId>(a.value), 0, [&] {
          return std::string(absl::StrCat(ObjectName(a.object), " blocks ",
                                          ObjectName(static_cast<ObjId>(a.value))));
        });
        Occur(EventKind::kBlock, Opponent(state_.active), a.object);
      }
      return;
    case FrameKind::kDraw: {
      // Aladdin's Lamp: keep the chosen card on top, the rest to the bottom.
      Player p = static_cast<Player>(f.a);
      auto& lib = s.players[p].library;
      std::vector<ObjId> looked(lib.begin(), lib.begin() + f.c);
      lib.erase(lib.begin(), lib.begin() + f.c);
      for (ObjId o : looked)
        if (o != a.object) lib.push_back(o);
      lib.insert(lib.begin(), a.object);
      s.Touch();
      return;
    }
    case FrameKind::kUnlessPay: {
      frames_.pop_back();
      if (a.kind == ActionKind::kYes) {
        ManaCost cost;
        cost.generic = a.value;
        if (!opt_.free_mana) Pay(decision_.player, cost, 0, kNoObj);
        return;
      }
      // Not paid: countered, and its controller taps all lands with mana
      // abilities and loses all unspent mana (Power Sink).
      CounterSpell(a.object);
      for (ObjId o = 0; o < state_.obj.count; ++o)
        if (state_.obj.zone[o] == Zone::kBattlefield && Chars(o).controller == decision_.player &&
            Has(Chars(o).types, kLand) && HasManaAbility(o))
          Tap(o, true);
      state_.players[decision_.player].pool = {};
      state_.Touch();
      return;
    }
    case FrameKind::kMulligan: {
      const Player p = decision_.player;
      if (f.pc == 1) {
        // London: to the bottom of the library, out of the opening hand.
        Note(LogKind::kInfo, p, a.object, kNoObj, 0, [&] {
          return absl::StrCat(Who(p), " puts ", ObjectName(a.object), " on the bottom");
        });
        MoveTo(a.object, Zone::kLibrary, p);
        auto& lib = s.players[p].library;
        lib.erase(lib.begin());
        lib.push_back(a.object);
        seen_[a.object] &= static_cast<uint8_t>(~(kSeenInHand | kSeenOpening));
        --f.c;
        return;
      }
      if (a.kind == ActionKind::kKeep) {
        Note(LogKind::kInfo, p, kNoObj, kNoObj, a.value, [&] {
          return absl::StrCat(Who(p), " keeps ", a.value, a.value == 1 ? " card" : " cards");
        });
        f.c = opt_.mulligan == Mulligan::kLondon
                  ? std::min<int>(mulligans_[p], static_cast<int>(s.players[p].hand.size()))
                  : 0;
        f.pc = 1;
        return;
      }
      ++mulligans_[p];
      Note(LogKind::kInfo, p, kNoObj, kNoObj, a.value,
           [&] { return absl::StrCat(Who(p), " mulligans to ", a.value); });
      Redraw(p);
      return;
    }
    case FrameKind::kDiscardToMax:
      Note(LogKind::kInfo, kNoPlayer, kNoObj, kNoObj, 0, [&] {
        return std::string(absl::StrCat(Who(decision_.player), " discards ", ObjectName(a.object)));
      });
      ZoneChange(a.object, Zone::kGraveyard);
      if (f.b > 0) --f.b;
      return;
    case FrameKind::kEntry: {
      ObjId o = static_cast<ObjId>(f.a);
      const CardDef& card = (*db_)[s.obj.card[o]];
      frames_.pop_back();
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
        case ChoiceKind::kExile:
          ZoneChange(a.object, Zone::kExile);
          s.obj.linked[o] = s.Ref(a.object);
          break;
        default:
          s.obj.choice[o] = static_cast<uint16_t>(a.value);
          break;
      }
      s.Touch();
      return;
    }
    default:
      return;
  }
}

}  // namespace strata
