// The game: set-up, queries, the mutations tools use, and the loop that
// runs the top frame (Step) and hands an answer to the frame that asked
// (ApplyToFrame). The rules themselves live one idea per file; each file
// holds both halves of its frames (the RunX "advance" half and the ApplyX
// "answer" half):
//   turn.cc          T-1     turn, phases, mana burn, discard to hand size
//   phase_todos.cc   T-12/13 phase effects and phase costs
//   mulligan.cc      G-1     mulligans
//   batch.cc         T-2/3/6 neutral state, batches, announcing an attack
//   legal_actions.cc T-5/9   what may be played, legal targets
//   casting.cc       T-8     casting, interrupt windows, countering
//   costs.cc         T-10    mana sources, paying, cost effects, "unless pays"
//   resolve.cc       T-11    resolution, fizzling, entering, entry choices
//   effects.cc       (Op)    what each effect operation does
//   occurrences.cc   E-1/5   occurrences, leaving together, the state check
//   unique_rules.cc  G-13/14 the legend rule and the world rule (state check)
//   triggers.cc      E-3 B   triggered abilities, E-4
//   prevention.cc    T-4     the damage-prevention step, shields (E-3 A)
//   reactions.cc     E-3 C   reactions, draws, destruction and regeneration
//   combat.cc        T-7     the attack

#include <algorithm>
#include <tuple>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "engine/game_internal.h"

namespace strata {

std::string_view DecisionKindName(DecisionKind k) {
  static constexpr std::string_view kNames[] = {
      "none",          "neutral",       "respond",    "interrupt", "target",     "x",
      "choice",        "discard",       "attackers",  "blockers",  "prevention", "reaction",
      "trigger_order", "optional_cost", "phase_cost", "mulligan",  "bottom",     "search",
      "sacrifice",     "band",          "divide",     "untap"};
  return kNames[static_cast<int>(k)];
}

std::string_view ActionKindName(ActionKind k) {
  static constexpr std::string_view kNames[] = {
      "pass",         "cast",  "activate", "play_land", "attack", "target_object", "target_player",
      "number",       "word",  "object",   "no_choice", "done",   "yes",           "no",
      "phase_effect", "block", "keep",     "mulligan",  "band"};
  return kNames[static_cast<int>(k)];
}

namespace {

// ActionText with a way to name objects (with or without a game).
template <typename Name>
std::string ActionTextWith(const Action& a, Name name) {
  auto player = [](int32_t p) { return std::string(p == 0 ? "A" : p == 1 ? "B" : "?"); };
  switch (a.kind) {
    case ActionKind::kPass:
      return "pass";
    case ActionKind::kCast:
      return absl::StrCat("cast ", name(a.object));
    case ActionKind::kActivate:
      return absl::StrCat("activate ", name(a.object), " ability ", a.index + 1);
    case ActionKind::kPlayLand:
      return absl::StrCat("play land ", name(a.object));
    case ActionKind::kAttack:
      return "announce an attack";
    case ActionKind::kTargetObject:
      return absl::StrCat("target ", name(a.object));
    case ActionKind::kTargetPlayer:
      return absl::StrCat("target player ", player(a.value));
    case ActionKind::kNumber:
      return absl::StrCat("number ", a.value);
    case ActionKind::kWord:
      return absl::StrCat("word ", WordName(static_cast<Word>(a.value)));
    case ActionKind::kObject:
      return absl::StrCat("choose ", name(a.object));
    case ActionKind::kNoChoice:
      return "no choice";
    case ActionKind::kDone:
      return "done";
    case ActionKind::kYes:
      return a.object == kNoObj ? std::string("yes") : absl::StrCat("yes (", name(a.object), ")");
    case ActionKind::kNo:
      return a.object == kNoObj ? std::string("no") : absl::StrCat("no (", name(a.object), ")");
    case ActionKind::kPhaseEffect:
      return absl::StrCat("handle the phase ", a.value ? "cost" : "effect", " of ", name(a.object));
    case ActionKind::kBlock:
      return absl::StrCat(name(a.object), " blocks ", name(static_cast<ObjId>(a.value)));
    case ActionKind::kKeep:
      return absl::StrCat("keep ", a.value, a.value == 1 ? " card" : " cards");
    case ActionKind::kMulligan:
      return absl::StrCat("mulligan to ", a.value);
    case ActionKind::kBand:
      return absl::StrCat(name(a.object), "'s band joins ", name(static_cast<ObjId>(a.value)),
                          "'s");
  }
  return absl::StrCat("action ", static_cast<int>(a.kind));
}

}  // namespace

std::string ActionText(const Action& a) {
  return ActionTextWith(
      a, [](ObjId o) { return o == kNoObj ? std::string("nothing") : absl::StrCat("#", o); });
}

std::string ActionText(const Game& g, const Action& a) {
  return ActionTextWith(a, [&](ObjId o) {
    return o != kNoObj && o >= g.state().obj.count ? absl::StrCat("#", o) : g.ObjectName(o);
  });
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
  static constexpr std::string_view kNames[] = {"none",     "life",       "library", "both",
                                                "turn_cap", "action_cap", "poison"};
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
    combat_.block_target[i] = kNoObj;
    combat_.band[i] = kNoObj;
    turn_.control_seen[i] = kNoPlayer;
  }
}

void Game::Reset(const GameOptions& options) {
  // Build the fresh game, hand it this game's buffers emptied, and take it
  // over: every field is the fresh game's (a field added later is reset
  // too), and no buffer is freed. A buffer its group does not name is only
  // reallocated.
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
  for (int p = 0; p < 2; ++p) keep(kept_mana_[p].sources, fresh.kept_mana_[p].sources);
  keep(invariant_failure_, fresh.invariant_failure_);
  // Every group of the rules' bookkeeping names its buffers (game.h).
  auto keep_group = [&](auto mine, auto theirs) {
    std::apply([&](auto&... m) { std::apply([&](auto&... f) { (keep(m, f), ...); }, theirs); },
               mine);
  };
  keep_group(timing_.Buffers(), fresh.timing_.Buffers());
  keep_group(stack_.Buffers(), fresh.stack_.Buffers());
  keep_group(occ_.Buffers(), fresh.occ_.Buffers());
  keep_group(damage_.Buffers(), fresh.damage_.Buffers());
  keep_group(turn_.Buffers(), fresh.turn_.Buffers());
  keep_group(trace_.Buffers(), fresh.trace_.Buffers());
  *this = std::move(fresh);
  audit_.audit = nullptr;  // a new game, which no checker has begun yet
}

ObjId Game::AddObject(CardId card, Player owner, Zone zone) {
  GameState& s = state_;
  // The loaders refuse decks and scenarios beyond the capacity; this guard
  // keeps a caller that did not check from writing past the arrays.
  if (s.obj.count >= kMaxObjects) return kNoObj;
  ObjId o = static_cast<ObjId>(s.obj.count++);
  cache_.Fit(s.obj.count);  // every object has an entry, computed or not
  s.obj.card[o] = card;
  s.SetZone(o, zone);
  s.obj.owner[o] = owner;
  s.obj.controller[o] = owner;
  s.obj.timestamp[o] = s.NewTimestamp();
  s.obj.incarnation[o] = 0;
  s.obj.p1p1[o] = s.obj.m1m1[o] = s.obj.other_counters[o] = 0;
  s.obj.pt[o] = {};
  s.obj.counter_timestamp[o] = 0;
  s.obj.damage[o] = 0;
  s.obj.regen_shields[o] = 0;
  s.obj.tapped[o] = s.obj.sick[o] = s.obj.face_down[o] = s.obj.token[o] = false;
  s.obj.attached_to[o] = kNoObj;
  s.obj.choice[o] = kNoWord;
  s.obj.linked[o] = ObjRef{};
  s.obj.copy[o] = CopySpec{};
  turn_.control_seen[o] = kNoPlayer;
  turn_.seen[o] = zone == Zone::kHand ? kSeenInHand : 0;
  const CardDb::Dealt& dealt = db_->DealtOf(card);  // worked out at load
  turn_.layer_zones |= dealt.layer_zones;
  turn_.phase_cards |= dealt.phase;
  turn_.attack_owed_cards |= dealt.attack_owed;
  turn_.banding_cards |= dealt.banding;
  turn_.your_turn_cards |= dealt.your_turn;
  turn_.linking_cards |= dealt.linking;
  turn_.tapped_enchant_filters |= dealt.tapped_enchant_filter;
  turn_.untap_limit_cards |= dealt.untap_limit;  // T-1.8
  turn_.unique_cards |= dealt.unique;            // G-13, G-14
  for (size_t t = 0; t < dealt.listened.size(); ++t) occ_.listened[t] |= dealt.listened[t];
  turn_.tally_damage |= (*db_)[card].tallies_damage;
  turn_.mana_tap_cards |= dealt.mana_tap;  // T-10.1
  turn_.mana_trigger_cards |= dealt.mana_trigger;
  turn_.state_trigger_cards |= dealt.state_trigger;  // G-16
  turn_.attack_memory_cards |= dealt.attack_memory;  // T-7.5
  if ((*db_)[card].mana_cards) [[unlikely]]
    NoteManaCard((*db_)[card]);
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
    for (ObjId o : state_.players[p].hand) turn_.seen[o] |= kSeenOpening;
  }
  timing_.skip_first_draw = true;
  StartAt(Phase::kUntap, first, 1);
  // Before the first turn (G-1): `first` decides first, then the other.
  if (opt_.mulligan != Mulligan::kNone) Push(Frame::NewMulligan(first));
}

void Game::StartAt(Phase phase, Player active, int turn) {
  state_.phase = phase;
  state_.active = active;
  state_.turn = turn;
  timing_.first_turn = turn;
  timing_.frames.clear();
  Push(FrameKind::kTurn);
  state_.Touch();
}

// ---------------------------------------------------------------- queries

const StackItem* Game::Casting() const {
  for (auto f = timing_.frames.rbegin(); f != timing_.frames.rend(); ++f)
    if (f->kind == FrameKind::kCast) return &stack_.items[f->cast.item];
  return nullptr;
}

bool Game::SummoningSick(ObjId o) const {
  const GameState& s = state_;
  if (o >= s.obj.count || s.obj.zone[o] != Zone::kBattlefield) return false;
  const Characteristics& ch = Chars(o);
  return ch.IsCreature() && SickCreature(o, ch);
}

bool Game::SpellOnStack(const StackItem& item) const {
  return item.card != kNoObj && state_.obj.zone[item.card] == Zone::kStack &&
         state_.obj.incarnation[item.card] == item.card_incarnation;
}

// Which cached entries hold a result: libraries' only if computed.
bool Game::CachedEntry(ObjId o) const {
  const Zone z = state_.obj.zone[o];  // none: a token made or gone (G-12)
  return z != Zone::kNone && (cache_.library_done || z != Zone::kLibrary);
}

void Game::RefreshLayers() const {
  if (cache_.version != state_.version) {
    if (cache_.recount_version == state_.version) {
      RecountSelfCdas(*db_, state_, cache_);  // the moves since kept all else
      cache_.version = state_.version;
    } else {
      ComputeLayers(*db_, state_, cache_, nullptr, LibrariesInLayers());
    }
  }
  if (opt_.checked_layers) {
    // L-9: a cached result is only a faster way to the same answer.
    static thread_local LayerCache fresh;
    ComputeLayers(*db_, state_, fresh);
    ++layer_checks_;
    for (ObjId i = 0; i < state_.obj.count; ++i)
      if (CachedEntry(i) && !(fresh.chars[i] == cache_.chars[i]) && layer_mismatch_.empty())
        layer_mismatch_ =
            absl::StrCat("cached characteristics of object ", i, " (",
                         (*db_)[state_.obj.card[i]].name, ") differ from a fresh computation");
  }
  layers_fresh_for_ = opt_.checked_layers ? ~uint64_t{0} : cache_.version;
}

void Game::RefreshLibrary() const {
  ComputeLayers(*db_, state_, cache_);
}

bool Game::Matches(FilterId f, ObjId o, const FilterContext& ctx) const {
  const Filter& filter = db_->filter(f);
  UpdateLayers();
  if (!cache_.library_done && Has(filter.zones, static_cast<int>(Zone::kLibrary))) RefreshLibrary();
  if ((filter.combat || filter.combat_with_self) && !InCombatAs(filter, o, ctx.source))
    return false;
  return MatchFilter(state_, cache_.chars.data(), filter, o, ctx);
}

// A filter's combat keys (docs/rules.md T-7.2), read from the attack as it
// stands: the layers never see them (they hold no combat), so they are
// read here, where targets, effects and combat rules match filters.
// (Out of line: Matches, which calls it only for a filter with combat keys,
// stays as small for every other filter.)
[[gnu::noinline]] bool Game::InCombatAs(const Filter& f, ObjId o, ObjId source) const {
  const uint8_t flag = combat_.flag[o];
  if (f.combat & ~Filter::kCombatPlaces) [[unlikely]]
    if (!MatchesTurnHistory(f.combat, o, source)) return false;
  if (f.combat & Filter::kCombatPlaces) {
    const bool attacking = flag == kAttacking;
    const bool blocked = attacking && combat_.block_target[o] == o;
    uint8_t is = 0;
    if (attacking) is |= Filter::kAttackingCreature;
    if (flag == kBlocking) is |= Filter::kBlockingCreature;
    if (blocked) is |= Filter::kBlockedCreature;
    // Unblocked: attacking once blockers are declared, and not blocked.
    if (attacking && combat_.blockers_declared && !blocked) is |= Filter::kUnblockedCreature;
    if (!(is & f.combat)) return false;
  }
  if (f.combat_with_self) {
    // Blocking the source, or blocked by it: the two still in combat.
    if (source == kNoObj || source == o) return false;
    const uint8_t sf = combat_.flag[source];
    // A blocker of a band blocks each of its creatures (T-7.3).
    const bool blocks_it = flag == kBlocking && sf == kAttacking &&
                           (combat_.block_target[o] == source ||
                            (turn_.banding_cards && combat_.block_target[o] != kNoObj &&
                             SameBand(combat_.block_target[o], source)));
    const bool blocked_by_it = sf == kBlocking && flag == kAttacking &&
                               (combat_.block_target[source] == o ||
                                (turn_.banding_cards && combat_.block_target[source] != kNoObj &&
                                 SameBand(combat_.block_target[source], o)));
    if (!blocks_it && !blocked_by_it) return false;
  }
  return true;
}

// T-7.5: a filter's keys on what happened this turn, read as the filter
// is: attacked this turn or not (the memory kept in a game with a card that
// reads it), controlled since its controller's most recent turn began
// (T-7.5a: the sickness of T-7, as T-5.4 reads it), toughness less than the
// source's power (T-7.5c: Stone Giant's, as it is now or last was).
bool Game::MatchesTurnHistory(uint8_t bits, ObjId o, ObjId source) const {
  if (bits & (Filter::kAttackedThisTurn | Filter::kNotAttackedThisTurn)) {
    const bool attacked = AttackedThisTurn(o);
    if ((bits & Filter::kAttackedThisTurn) && !attacked) return false;
    if ((bits & Filter::kNotAttackedThisTurn) && attacked) return false;
  }
  if ((bits & Filter::kSinceTurnBegan) && (state_.obj.zone[o] != Zone::kBattlefield ||
                                           !ControlledSinceTurnBegan(o, Chars(o).controller)))
    return false;
  if (bits & Filter::kToughnessBelowSourcePower) {
    if (source == kNoObj) return false;
    if (Chars(o).toughness >= Chars(source).power) return false;
  }
  return true;
}

// T-7.5: declared an attacker this turn, as the object it is now (one that
// left play and came back is new, T-11).
bool Game::AttackedThisTurn(ObjId o) const {
  for (const TurnState::Attacked& a : turn_.attacked)
    if (a.turn == state_.turn && a.object == o && a.incarnation == state_.obj.incarnation[o])
      return true;
  return false;
}

void Game::RememberAttack(ObjId o) {
  std::erase_if(turn_.attacked,
                [&](const TurnState::Attacked& a) { return a.turn != state_.turn; });
  turn_.attacked.push_back({state_.turn, o, state_.obj.incarnation[o]});
}

std::string Game::CheckLayerCache(bool characteristics_known) const {
  UpdateLayers();
  static thread_local LayerCache computed;
  const LayerCache& fresh = characteristics_known ? cache_ : computed;
  if (!characteristics_known) {
    ComputeLayers(*db_, state_, computed);
    for (ObjId i = 0; i < state_.obj.count; ++i)
      if (CachedEntry(i) && !(fresh.chars[i] == cache_.chars[i]))
        return absl::StrCat("cached characteristics of object ", i, " (",
                            (*db_)[state_.obj.card[i]].name, ") differ from a fresh computation");
    for (Player p = 0; p < 2; ++p)
      if (!(fresh.rules[p] == cache_.rules[p]))
        return absl::StrCat("cached rules of player ", p ? "B" : "A",
                            " differ from a fresh computation");
  }
  auto kept_mana = [&] {
    const std::string a = CheckKeptMana(0);
    return a.empty() ? CheckKeptMana(1) : a;
  };
  if (activatable_.version != cache_.version) return kept_mana();
  // The sets as a fresh computation makes them, compared set by set.
  Activatable want;
  for (ObjId i = 0; i < state_.obj.count; ++i)
    if (state_.obj.zone[i] == Zone::kBattlefield) want.Add(*db_, i, fresh.chars[i]);
  auto wrong = [&](ObjId i, bool listed, const std::string& among) {
    return absl::StrCat("object ", i, " (", (*db_)[state_.obj.card[i]].name, ") is ",
                        listed ? "" : "not ", "among ", among, ", unlike a fresh computation");
  };
  auto whose = [](Player p) { return p ? "player B's " : "player A's "; };
  for (ObjId i = 0; i < state_.obj.count; ++i)
    for (Player p = 0; p < 2; ++p)
      if (activatable_.by_player[p].Test(i) != want.by_player[p].Test(i))
        return wrong(i, activatable_.by_player[p].Test(i),
                     absl::StrCat(whose(p), "permanents with an activated ability"));
  for (ObjId i = 0; i < state_.obj.count; ++i)
    for (Player p = 0; p < 2; ++p)
      if (activatable_.mana[p].Test(i) != want.mana[p].Test(i))
        return wrong(i, activatable_.mana[p].Test(i),
                     absl::StrCat(whose(p), "permanents that make mana"));
  for (ObjId i = 0; i < state_.obj.count; ++i)
    if (activatable_.triggering.Test(i) != want.triggering.Test(i))
      return wrong(i, activatable_.triggering.Test(i), "the permanents with a triggered ability");
  return kept_mana();
}

Outcome Game::OutcomeOf(uint32_t serial) const {
  Outcome out = Outcome::kPending;
  for (auto& [s, o] : stack_.outcomes)
    if (s == serial) out = o;  // the latest word on it
  return out;
}

std::string Game::ObjectName(ObjId o) const {
  if (o == kNoObj) return "nothing";
  return absl::StrCat((*db_)[state_.obj.card[o]].name, "#", o);
}

void Game::AddLog(LogKind kind, Player p, ObjId o, ObjId other, int amount,
                  const std::string& text) {
  trace_.log_events.push_back(LogEvent{state_.turn, state_.phase, kind, p, o, other, amount});
  trace_.log.push_back(absl::StrCat("T", state_.turn, " ", S(PhaseName(state_.phase)), ": ", text));
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
  // Counters leave with the object unless it has, as it leaves the
  // battlefield, the ability to keep them (Skullbriar), going elsewhere
  // than a hand or a library. (Read only for an object with counters.)
  const bool counters_stay =
      from == Zone::kBattlefield && to != Zone::kHand && to != Zone::kLibrary &&
      (s.obj.p1p1[o] || s.obj.m1m1[o] || s.obj.other_counters[o] ||
       (s.pt_counters && s.obj.pt[o] != Objects::PtCounters{})) &&
      [&] {
        const Characteristics& ch = Chars(o);
        return !ch.blank && ch.card != kNoCard && (*db_)[ch.card].keeps_counters;
      }();
  const bool cache_good = CacheGood();
  const LayerView before = cache_good ? LayerViewOf(o) : LayerView{};
  // Only the lists of the zone it is in hold it, once (the zones
  // invariant): its owner's, where a look stops at it (a draw's, at the
  // top), else the other player's.
  for (Player which : {s.obj.owner[o], Opponent(s.obj.owner[o])}) {
    auto& pl = s.players[which];
    std::vector<ObjId>* v = from == Zone::kLibrary     ? &pl.library
                            : from == Zone::kHand      ? &pl.hand
                            : from == Zone::kGraveyard ? &pl.graveyard
                                                       : nullptr;
    if (!v) break;
    auto it = std::find(v->begin(), v->end(), o);
    if (it != v->end()) {
      v->erase(it);
      break;
    }
  }
  // A zone change makes a new object (RULES.md "Game and objects"). A
  // token that leaves the battlefield ceases to exist as it arrives (G-12):
  // it was moved (its occurrence says where to), but it is in no zone and
  // no list, so nothing finds it there (no card of a graveyard or hand).
  const Zone arrive = s.obj.token[o] && to != Zone::kBattlefield ? Zone::kNone : to;
  s.SetZone(o, arrive);
  ++s.obj.incarnation[o];
  s.obj.timestamp[o] = s.NewTimestamp();
  // A permanent that "enters the battlefield tapped" arrives so, whatever
  // moved it there: no tap occurs (G-7).
  s.obj.tapped[o] = to == Zone::kBattlefield && (*db_)[s.obj.card[o]].enters_tapped;
  s.obj.damage[o] = 0;
  s.obj.regen_shields[o] = 0;
  s.obj.attached_to[o] = kNoObj;
  s.obj.face_down[o] = false;
  s.obj.sick[o] = to == Zone::kBattlefield;
  turn_.control_seen[o] = kNoPlayer;
  s.obj.controller[o] = s.obj.owner[o];
  combat_.flag[o] = kNotInCombat;
  combat_.block_target[o] = kNoObj;
  damage_.prevent_shield[o] = 0;
  damage_.no_regen[o] = false;
  damage_.no_combat_damage_of[o] = false;
  if (to != Zone::kBattlefield) {
    s.obj.copy[o] = CopySpec{};
    s.obj.linked[o] = ObjRef{};
    if (from == Zone::kBattlefield) s.obj.choice[o] = kNoWord;
  }
  if ((to == Zone::kHand || to == Zone::kLibrary || from == Zone::kBattlefield) && !counters_stay) {
    s.obj.p1p1[o] = s.obj.m1m1[o] = s.obj.other_counters[o] = 0;
    if (s.pt_counters) [[unlikely]]
      s.obj.pt[o] = {};  // G-8.1
  }
  auto& pl = s.players[zone_owner];
  if (arrive == Zone::kLibrary) pl.library.insert(pl.library.begin(), o);
  if (arrive == Zone::kHand) pl.hand.push_back(o);
  if (arrive == Zone::kGraveyard) pl.graveyard.push_back(o);
  if (arrive == Zone::kHand) turn_.seen[o] |= kSeenInHand;
  s.Touch();
  if (cache_good) KeepLayersAfterMove(o, before, arrive);
}

// A move between zones no layer effect of this game reaches (LayerZones; the
// battlefield counts as reached), of an object that is no layer source, can
// change no entry but the object's own, and that is its printed values: no
// effect reaches it where it goes. Most draws, casts, and spells going to the
// graveyard are such moves, and each would cost a full recompute. (A checked
// game compares the cache with a fresh computation at every read.)
//
// Elsewhere, the battlefield too, the last computation's filters tell
// (LayerReach): if none of them could match the object, neither where it was
// nor where it is, no entry but its own can have changed. A land entering
// while Keldon Warlord counts creatures, or a creature of the player Warlord
// does not count, is such a move.
void Game::KeepLayersAfterMove(ObjId o, const LayerView& before, Zone to) {
  const unsigned reached = turn_.layer_zones | 1u << static_cast<int>(Zone::kBattlefield);
  const bool unreached =
      !(reached >> static_cast<int>(before.zone) & 1) && !(reached >> static_cast<int>(to) & 1);
  KeepLayersForOwnChange(o, unreached ? nullptr : &before);
}

Game::LayerView Game::LayerViewOf(ObjId o) const {
  const GameState& s = state_;
  // The entry is what the filters saw, but for a library's left stale
  // (LayerCache::library_done): the printed types cover that case.
  const Characteristics& ch = cache_.chars[o];
  LayerView v;
  v.zone = s.obj.zone[o];
  v.types = static_cast<TypeMask>(ch.types | (*db_)[s.obj.card[o]].types);
  v.players = static_cast<uint8_t>((ch.controller < 2 ? 1u << ch.controller : 3u) |
                                   1u << s.obj.controller[o]);
  // A copy of a card with static abilities was a source (L-7), though the
  // move takes the copy away; a card's statics other than CDAs work on the
  // battlefield alone.
  if (!ch.blank && ch.card != kNoCard) v.source = (*db_)[ch.card].StaticsWorkIn(v.zone);
  return v;
}

void Game::KeepLayersForOwnChange(ObjId o, const LayerView* before) {
  const GameState& s = state_;
  const CardDef& card = (*db_)[s.obj.card[o]];
  // A self-counting CDA's object (Keldon Warlord) is counted again with the
  // other holders, while nothing else acts on it or could see it and its
  // count sees what it saw (the same controller: "you" in its filter).
  const bool holder = card.HasStatics() && SelfCountingCda(*db_, card);
  // A source (statics, CDAs) where it was or where it is. Statics other
  // than CDAs work on the battlefield alone (Glorious Anthem drawn or cast
  // is none); `before` is null only between zones no effect reaches, which
  // the battlefield never is.
  const bool source =
      card.StaticsWorkIn(s.obj.zone[o]) || (before && card.StaticsWorkIn(before->zone));
  if (source && !holder) return;
  if (s.obj.p1p1[o] || s.obj.m1m1[o] || s.obj.face_down[o] || s.obj.copy[o].card != kNoCard ||
      s.obj.copy[o].blank)
    return;
  if (s.pt_counters && s.obj.pt[o] != Objects::PtCounters{}) [[unlikely]]
    return;  // G-8.1
  if (holder && (!cache_.recountable || !cache_.cda_holders.Test(o) || cache_.touched.Test(o) ||
                 cache_.chars[o].controller != s.obj.controller[o]))
    return;
  if (before && ((before->source && !holder) ||
                 cache_.reach.Sees(before->zone, before->players, before->types)))
    return;
  const Characteristics printed = OwnPrintedCharacteristics(*db_, s, o);
  const uint8_t now_players = static_cast<uint8_t>(1u << s.obj.controller[o]);
  if (before && cache_.reach.Sees(s.obj.zone[o], now_players, printed.types)) return;
  // Seen by a self-counting CDA alone (a creature entering beside Keldon
  // Warlord): its objects are counted again, the rest kept.
  const bool recount =
      holder || (before && (cache_.cda_reach.Sees(before->zone, before->players, before->types) ||
                            cache_.cda_reach.Sees(s.obj.zone[o], now_players, printed.types)));
  if (recount && (!cache_.recountable || cache_.count != s.obj.count)) return;
  // Seen by simple statics alone (a creature entering or leaving beside
  // Glorious Anthem): they change its entry and no other.
  // (With none applied, its entry is its printed values, as below.)
  const bool simple = before && cache_.simple_count > 0 &&
                      (cache_.simple_reach.Sees(before->zone, before->players, before->types) ||
                       cache_.simple_reach.Sees(s.obj.zone[o], now_players, printed.types));
  if (simple && (recount || cache_.count != s.obj.count)) return;
  // An effect whose source or linked object it was may read it.
  for (const EffectRow& r : s.effects)
    if (r.active && r.source.id == o && RowReadsItsSource(*db_, r)) return;
  if (turn_.linking_cards)
    for (ObjId x = 0; x < s.obj.count; ++x)
      if (s.obj.linked[x].id == o) return;
  if (!simple)
    cache_.chars[o] = printed;
  else if (!EntryFromSimpleStatics(*db_, s, cache_, o, printed))
    return;
  // A holder gone where the layers are not computed (a library) is counted
  // no more; its entry there is stale, as every library's is.
  if (holder && s.obj.zone[o] == Zone::kLibrary && !cache_.library_done)
    cache_.cda_holders.Reset(o);
  // The caller checked the cache good (CacheGood) and moved the version by
  // one: the results, apart from holders waiting for a recount, were those
  // of `was`.
  const uint64_t was = s.version - 1;
  const bool pending = recount || cache_.version != was;
  // The state check reads permanents alone (CheckState): a change that left
  // every entry but o's, and o off the battlefield before and after, leaves
  // a clean check clean (a recount may change a permanent's toughness).
  const bool off_battlefield = !pending && s.obj.zone[o] != Zone::kBattlefield &&
                               (!before || before->zone != Zone::kBattlefield);
  if (off_battlefield && occ_.clean_version == was) occ_.clean_version = s.version;
  // Nor does it move the mana a count finds (KeptSupply reads permanents,
  // their entries, flags and the pool): a kept supply stays good, and its
  // stamp with it (ManaStamp).
  if (off_battlefield)
    for (KeptMana& k : kept_mana_)
      if (k.version == was) k.version = s.version;
  if (activatable_.version == was) {
    // Only o's entry changed: so may only its place among the activatable.
    activatable_.Remove(o);
    if (s.obj.zone[o] == Zone::kBattlefield) activatable_.Add(*db_, o, cache_.chars[o]);
    activatable_.version = s.version;
  }
  if (pending)
    cache_.recount_version = s.version;
  else
    cache_.version = s.version;
  ++layers_kept_;
}

void Game::SetControllerOnEntry(ObjId o, Player p) {
  const bool cache_good = CacheGood();
  const LayerView before = cache_good ? LayerViewOf(o) : LayerView{};
  state_.obj.controller[o] = p;
  state_.Touch();
  if (cache_good) KeepLayersForOwnChange(o, &before);
}

void Game::SetTapped(ObjId o, bool tapped) {
  state_.obj.tapped[o] = tapped;
  ++mana_epoch_;
  if (turn_.tapped_enchant_filters) StateCheckInputChanged();
  // Only a computation that read this object's tapped flag is out of date
  // (a stale cache recomputes anyway, reading the new flag).
  if (cache_.tapped_read.test(o)) state_.Touch();
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
  else if (kind == 2)
    state_.obj.other_counters[o] = SaturatedAdd(state_.obj.other_counters[o], n);
  else {  // G-8.1: from now on this game's layers read them
    state_.pt_counters = true;
    int8_t& c = kind == 3 ? state_.obj.pt[o].p1p0 : state_.obj.pt[o].m0m2;
    c = SaturatedAdd(c, n);
  }
  state_.obj.counter_timestamp[o] = state_.NewTimestamp();
  state_.Touch();
}

int Game::CountersOf(ObjId o, int kind) const {
  const Objects& obj = state_.obj;
  return kind == 0   ? obj.p1p1[o]
         : kind == 1 ? obj.m1m1[o]
         : kind == 2 ? obj.other_counters[o]
         : kind == 3 ? obj.pt[o].p1p0
                     : obj.pt[o].m0m2;
}

// A cost's removal (docs/rules.md G-8): the counters go, their timestamp
// stays (the counters left are no new effect, L-4).
void Game::RemoveCounters(ObjId o, int kind, int n) {
  Objects& obj = state_.obj;
  if (kind >= 3) [[unlikely]] {  // G-8.1
    int8_t& c = kind == 3 ? obj.pt[o].p1p0 : obj.pt[o].m0m2;
    c = static_cast<int8_t>(std::max(0, c - n));
    state_.Touch();
    return;
  }
  int16_t& c = kind == 0 ? obj.p1p1[o] : kind == 1 ? obj.m1m1[o] : obj.other_counters[o];
  c = static_cast<int16_t>(std::max(0, c - n));
  state_.Touch();
}

uint32_t Game::AddEffectRow(const EffectRow& row, const std::vector<ObjRef>& affected) {
  EffectRow r = row;
  r.set_begin = static_cast<uint32_t>(state_.effect_sets.size());
  r.set_len = static_cast<uint32_t>(affected.size());
  state_.effect_sets.insert(state_.effect_sets.end(), affected.begin(), affected.end());
  if (r.timestamp == 0) r.timestamp = state_.NewTimestamp();
  state_.effects.push_back(r);
  const bool cache_exact = cache_.version == state_.version;  // no recount pending
  state_.Touch();
  // A pump on objects nothing else acts on is added to their entries alone.
  if (cache_exact &&
      ApplyRowAlone(*db_, state_, cache_, static_cast<int>(state_.effects.size()) - 1)) {
    if (activatable_.version == cache_.version) activatable_.version = state_.version;
    cache_.version = state_.version;
    ++layers_kept_;
  }
  return r.timestamp;
}

void Game::EndEffect(int row) {
  state_.effects[row].active = false;
  state_.Touch();
}

void Game::SetLifeTotal(Player p, int life) {
  state_.players[p].life = life;
  NoteLifeLow(p);
}

// ---------------------------------------------------------------- the loop

void Game::Decide(DecisionKind kind, Player p) {
  timing_.decision.kind = kind;
  timing_.decision.player = p;
  timing_.have_decision = true;
}

// Inlined into Advance, its only caller: a game takes thousands of steps,
// most of them a frame's few lines, and a call per step cost as much.
[[gnu::always_inline]] inline void Game::Step() {
  // Triggers wait while anything resolves (E-4); otherwise they happen now.
  if (!occ_.queued.empty()) {
    bool resolving = false;
    for (auto& f : timing_.frames)
      resolving |= f.kind == FrameKind::kResolve || f.kind == FrameKind::kTriggers ||
                   f.kind == FrameKind::kCast || f.kind == FrameKind::kDestroy;
    if (!resolving) {
      Push(Frame::NewTriggers(0));
      return;
    }
  }
  Frame& f = timing_.frames.back();
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
    case FrameKind::kSearch:
      RunSearch(f);
      break;
    case FrameKind::kUntapChoice:
      RunUntapChoice(f);
      break;
    case FrameKind::kKeepFewest:
      RunKeepFewest(f);
      break;
    case FrameKind::kShuffleIn:
      RunShuffleIn(f);
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
    case FrameKind::kPhaseCost:
      RunPhaseCost(f);
      break;
    case FrameKind::kOccur:
      RunOccur(f);
      break;
  }
}

const Decision& Game::Advance() {
  for (int guard = 0; guard < 200000; ++guard) {
    if (timing_.have_decision) return timing_.decision;
    if (timing_.over || timing_.stopped || timing_.frames.empty()) {
      timing_.decision.kind = DecisionKind::kNone;
      timing_.decision.player = kNoPlayer;
      timing_.decision.actions.clear();
      return timing_.decision;
    }
    Step();
  }
  // The rules went round without asking anyone: end the game as a draw.
  Note(LogKind::kInfo, kNoPlayer, kNoObj, kNoObj, 0, [&] {
    std::string frames;
    for (auto& f : timing_.frames)
      frames += absl::StrCat(" [", static_cast<int>(f.kind), " pc", f.pc, " ",
                             absl::StrJoin(f.Words(), ","), "]");
    return "rules loop without a decision; frames:" + frames;
  });
  EndGame(-1, EndReason::kActionCap);
  timing_.decision.kind = DecisionKind::kNone;
  timing_.decision.actions.clear();
  return timing_.decision;
}

void Game::FrameStackFull() {
  if (timing_.over) return;
  Note(LogKind::kInfo, kNoPlayer, kNoObj, kNoObj, 0,
       [&] { return absl::StrCat("rules loop: ", FrameStack::kMaxFrames, " frames deep"); });
  EndGame(-1, EndReason::kActionCap);
}

bool Game::Apply(int index) {
  if (!timing_.have_decision || index < 0 ||
      index >= static_cast<int>(timing_.decision.actions.size()))
    return false;
  // Now and then, not at every answer: the walk costs more than a few
  // occurrences more in a copy.
  if (occ_.events.size() >= kSettledOccurrencesKept) DropSettledOccurrences();
  Action a = timing_.decision.actions[index];
  timing_.have_decision = false;
  ++timing_.actions;
  ++timing_.turn_actions;
  if (timing_.turn_actions > static_cast<uint64_t>(opt_.action_cap)) {
    EndGame(-1, EndReason::kActionCap);
    return true;
  }
  ApplyToFrame(timing_.frames.back(), a);
  return true;
}

// The answer goes to the frame that asked; each frame's file answers it.
void Game::ApplyToFrame(Frame& f, const Action& a) {
  // T-10.2: a mana ability offered as an action, in whichever window,
  // leaves the window as it was.
  if (turn_.manual_mana_cards && a.kind == ActionKind::kActivate &&
      (*db_)[Chars(a.object).card].activated[a.index].manual_mana) [[unlikely]]
    return ActivateManaAbility(timing_.decision.player, a);
  switch (f.kind) {
    case FrameKind::kNeutral:
      return ApplyNeutral(f, a);
    case FrameKind::kBatch:
      return ApplyBatch(f, a);
    case FrameKind::kInterrupts:
      return ApplyInterrupts(f, a);
    case FrameKind::kPrevention:
      return ApplyPrevention(f, a);
    case FrameKind::kReaction:
      return ApplyReaction(f, a);
    case FrameKind::kPhaseCost:
      return ApplyPhaseCost(f, a);
    case FrameKind::kCast:
      return ApplyCast(f, a);
    case FrameKind::kTriggers:
      return ApplyTriggers(f, a);
    case FrameKind::kAttack:
      return ApplyAttack(f, a);
    case FrameKind::kDraw:
      return ApplyDraw(f, a);
    case FrameKind::kUnlessPay:
      return ApplyUnlessPay(f, a);
    case FrameKind::kMulligan:
      return ApplyMulligan(f, a);
    case FrameKind::kDiscardToMax:
      return ApplyDiscardToMax(f, a);
    case FrameKind::kSearch:
      return ApplySearch(f, a);
    case FrameKind::kUntapChoice:
      return ApplyUntapChoice(f, a);
    case FrameKind::kKeepFewest:
      return ApplyKeepFewest(f, a);
    case FrameKind::kEntry:
      return ApplyEntry(f, a);
    default:
      return;
  }
}

}  // namespace strata
