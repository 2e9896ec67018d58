// The game state: one value made of flat arrays indexed by small integers
// (DESIGN.md). Objects are a structure of arrays; continuous effects made by
// spells and abilities are one flat table; static abilities are read from the
// objects themselves when layers are computed. No pointers between parts, so a
// plain copy of a GameState is a game that continues exactly like the original.
#pragma once

#include <algorithm>
#include <array>
#include <bit>
#include <bitset>
#include <cstdint>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "engine/card.h"
#include "engine/obj_bits.h"
#include "engine/types.h"
#include "engine/words.h"

namespace strata {

// A phase ability granted by another card (Energy Flux), or a combat rule
// (T-7.1): that card, and the ability's index among its granted ones (its
// granted_phase or combat_rules).
struct GrantedPhase {
  CardId card = 0;
  uint8_t index = 0;
  bool operator==(const GrantedPhase&) const = default;
};
// A text change (layer 3): the word `from` reads as `to`.
struct WordChange {
  Word from = 0, to = 0;
  bool operator==(const WordChange&) const = default;
};

// An object's characteristics: printed values, or the result of the layers.
// Trivially copyable so the cache is one flat array.
struct Characteristics {
  CardId card = kNoCard;  // whose name and abilities it has (after copy effects)
  uint8_t mode = 0;       // entry mode, part of the copiable values (Primal Clay)
  bool blank = false;     // face-down: no name, no abilities
  int8_t mana_value = 0;
  ColorMask colors = 0;
  TypeMask types = 0;
  SupertypeMask supertypes = 0;
  bool all_creature_types = false;
  SubtypeSet subtypes;
  KeywordMask keywords = 0;
  uint32_t abilities = 0;   // one bit per non-keyword ability of `card`
  ColorMask land_mana = 0;  // intrinsic mana abilities of basic land types
  int16_t power = 0, toughness = 0;
  Player controller = 0;
  // Phase costs granted by other cards (Energy Flux): (card, granted index).
  CardId extra_phase = kNoCard;  // also has this card's phase abilities (kept by a copy)
  uint8_t granted_count = 0;
  std::array<GrantedPhase, 4> granted{};
  // Combat rules granted in the ability layer (T-7.1): (card, index into
  // its combat_rules); the card's own or an Aura's.
  uint8_t combat_count = 0;
  std::array<GrantedPhase, 3> combat{};
  uint8_t text_count = 0;  // text changes: word -> word (layer 3)
  std::array<WordChange, 4> text{};
  // Protection that spares its source (docs/rules.md T-1.5, the Wards):
  // for each color bit set in `prot_spared`, the protection from it comes
  // from one part alone, granted by `prot_spared_by` of that color with
  // `spares_source`, and doesn't make that object (the Aura) fall off. Any
  // other grant of the same protection clears the bit.
  ColorMask prot_spared = 0;
  std::array<ObjId, kColorCount> prot_spared_by{};
  bool operator==(const Characteristics&) const = default;

  Word MapWord(Word w) const {
    for (int i = 0; i < text_count; ++i)
      if (text[i].from == w) return text[i].to;
    return w;
  }
  bool HasSubtype(int st) const {
    return subtypes.test(st) || (all_creature_types && CreatureTypeMask().test(st));
  }
  bool IsCreature() const { return Has(types, kCreature); }
};
// Copied by the hundred (the layer cache, a copy of a game, each
// occurrence's last known characteristics): a copy is a plain memcpy.
static_assert(std::is_trivially_copyable_v<Characteristics>);

// The copiable values a copy effect fixes when it is created (RULES.md L-7).
struct CopySpec {
  CardId card = kNoCard;
  uint8_t mode = 0;
  bool blank = false;
  bool has_colors = false;
  ColorMask colors = 0;
  CardId keep_phase = kNoCard;  // the copy keeps this card's phase abilities (Vesuvan)
  bool operator==(const CopySpec&) const = default;
};

// A reference to an object that stays valid only while it stays in its zone:
// a zone change makes a new object (RULES.md "Game and objects").
struct ObjRef {
  ObjId id = kNoObj;
  uint16_t incarnation = 0;
  bool operator==(const ObjRef&) const = default;
};

// Copies the first n entries of each array of `from` into `to` (tuples of
// references to std::arrays, as Objects::Arrays() makes them).
template <typename To, typename From, size_t... I>
void CopyPrefixes(To to, From from, int n, std::index_sequence<I...>) {
  (std::copy_n(std::get<I>(from).begin(), n, std::get<I>(to).begin()), ...);
}

// Objects as a structure of arrays. A copy copies only the `count` objects
// that exist (a game fills a sixth of the capacity, and the mc player copies
// games thousands of times a decision); entries past `count` are never read.
struct Objects {
  Objects() = default;
  Objects(const Objects& from) { *this = from; }
  Objects& operator=(const Objects& from);

  int count = 0;
  std::array<CardId, kMaxObjects> card;
  std::array<Zone, kMaxObjects> zone;
  std::array<Player, kMaxObjects> owner;
  std::array<Player, kMaxObjects> controller;  // before control effects (layer 2)
  std::array<uint32_t, kMaxObjects> timestamp;
  std::array<uint16_t, kMaxObjects> incarnation;
  std::array<int16_t, kMaxObjects> p1p1, m1m1, other_counters;
  // Counters that change P/T otherwise (docs/rules.md G-8.1): +1/+0 (the
  // Clockwork creatures), -0/-2 (Spirit Shackle). Read only in a game whose
  // GameState::pt_counters is set. A count stops at 127 (a byte each: the
  // state's size budget, game.h; the cards' own counts stay far below it).
  struct PtCounters {
    int8_t p1p0 = 0, m0m2 = 0;
    bool operator==(const PtCounters&) const = default;
  };
  std::array<PtCounters, kMaxObjects> pt;
  std::array<uint32_t, kMaxObjects> counter_timestamp;
  std::array<int16_t, kMaxObjects> damage;
  std::array<uint8_t, kMaxObjects> regen_shields;
  std::array<bool, kMaxObjects> tapped, sick, face_down, token;
  std::array<ObjId, kMaxObjects> attached_to;
  std::array<uint16_t, kMaxObjects> choice;  // entry choice: word, color or mode
  std::array<ObjRef, kMaxObjects> linked;    // entry choice: exiled object
  std::array<CopySpec, kMaxObjects> copy;    // entry choice: copy (Clone)

  // Every array above: a new one must be added here to be copied (the
  // static_assert below counts their bytes).
  template <typename Self>
  static auto ArraysOf(Self& o) {
    return std::tie(o.card, o.zone, o.owner, o.controller, o.timestamp, o.incarnation, o.p1p1,
                    o.m1m1, o.other_counters, o.pt, o.counter_timestamp, o.damage, o.regen_shields,
                    o.tapped, o.sick, o.face_down, o.token, o.attached_to, o.choice, o.linked,
                    o.copy);
  }
  auto Arrays() const { return ArraysOf(*this); }
  auto Arrays() { return ArraysOf(*this); }
};

inline Objects& Objects::operator=(const Objects& from) {
  count = from.count;
  constexpr size_t kArrays = std::tuple_size_v<decltype(from.Arrays())>;
  CopyPrefixes(Arrays(), from.Arrays(), count, std::make_index_sequence<kArrays>{});
  return *this;
}

template <typename... T>
constexpr size_t SizeOfAll(const std::tuple<T&...>*) {
  return (sizeof(T) + ...);
}
static_assert(sizeof(Objects) - SizeOfAll(static_cast<decltype(std::declval<Objects&>().Arrays())*>(
                                    nullptr)) <=
                  8,
              "an array of Objects is missing from Objects::Arrays()");

// A continuous effect created by a resolved spell or ability (RULES.md L-4:
// it gets a timestamp when created). Statics are not rows: they are read from
// the objects that have them.
struct EffectRow {
  CardId card = kNoCard;
  int16_t tmpl = -1;  // index into CardDef::continuous
  uint32_t timestamp = 0;
  ObjRef source;
  Player controller = 0;
  Duration duration = Duration::kPermanent;
  int16_t x = 0;
  std::array<uint16_t, 2> choice{kNoWord, kNoWord};
  uint32_t set_begin = 0, set_len = 0;  // the affected objects, fixed on resolution
  CopySpec copy;
  int16_t source_power = 0, source_toughness = 0;
  // The first target's as the spell began to resolve (Blood Lust's "its
  // toughness minus 1"): fixed then, as x is.
  int16_t target_power = 0, target_toughness = 0, target_mana_value = 0;
  // Duration::kThroughNextTurn (T-7.4): it ends at the cleanup of the
  // first turn of `through` after the turn it began (`from_turn`).
  int32_t from_turn = 0;
  Player through = 0;
  bool active = true;
};

// Results of layer 8 for one player (RULES.md L-8).
struct PlayerRules {
  int max_hand_size = 7;  // -1: no maximum
  int cost_increase = 0, cost_reduce = 0, cost_min = 0;
  bool cant_lose = false;
  bool skip_draw = false;
  int damage_reduction = 0;
  bool any_number_of_lands = false, life_for_mana = false;  // T-10.1
  TypeMask enter_tapped = 0;
  TypeMask untap_only_one = 0;  // T-1.8: one permanent of each of these types untaps
  // No rule changes this player's spell costs: a spell costs what it prints.
  bool PrintedCosts() const { return cost_increase == 0 && cost_reduce == 0 && cost_min == 0; }
  bool operator==(const PlayerRules&) const = default;
};

struct PlayerState {
  int life = 20;
  int poison = 0;             // poison counters (docs/rules.md G-11): ten or more lose
  std::array<int, 6> pool{};  // W U B R G C
  bool lost = false;
  int lands_played = 0;
  std::vector<ObjId> library;  // top first
  std::vector<ObjId> hand;
  std::vector<ObjId> graveyard;  // bottom first
};

// What a layer computation's filters could have matched (RULES.md L-9): for
// each player, by zone, the types an object controlled by that player needed
// to match one of the filters evaluated (a filter's types are "one of"), and
// the zones where some filter needed no type at all. An object that no entry
// covers was matched by no filter, so a change to it alone can change no
// entry but its own (Game::KeepLayersForOwnChange).
struct LayerReach {
  std::array<std::array<TypeMask, kZoneCount>, 2> types{};
  std::array<uint8_t, 2> any_type{};  // zone masks

  // A filter of `zones` and `needed` types (0: any), matching objects of
  // `players` (bit 0 and bit 1), was evaluated.
  void Add(uint8_t zones, TypeMask needed, uint8_t players) {
    for (int p = 0; p < 2; ++p) {
      if (!(players >> p & 1)) continue;
      if (needed == 0) {
        any_type[p] |= zones;
        continue;
      }
      for (int z = 0; z < kZoneCount; ++z)
        if (zones >> z & 1) types[p][z] |= needed;
    }
  }
  // Could an evaluated filter match an object in `z`, of `t` types,
  // controlled by one of `players`?
  bool Sees(Zone z, uint8_t players, TypeMask t) const {
    const int zi = static_cast<int>(z);
    for (int p = 0; p < 2; ++p)
      if ((players >> p & 1) && ((any_type[p] >> zi & 1) || (types[p][zi] & t))) return true;
    return false;
  }
  bool operator==(const LayerReach&) const = default;
};

// The cached layer results (RULES.md L-9): stamped with the state version.
// `tapped_read` holds the objects whose tapped flag the computation looked
// at (a tapped artifact's statics, "while tapped" conditions, filters on
// tapped): tapping any other object cannot change the result, so it does not
// move the version (most games never read one).
//
// The entries are as many as the game's objects (Fit), not the capacity: a
// game of two 60-card decks holds 120 entries of 128 bytes where 512 would
// take 64 KiB, and a new game (Game::Reset) no longer clears them all.
struct LayerCache {
  LayerCache() = default;
  // Copies the `count` entries computed (see Objects); the others are made
  // anew, as a computation writes them before any read. Assigning into a
  // cache with room for them allocates nothing; shrinking keeps the room.
  LayerCache(const LayerCache& from) {
    chars.reserve(from.chars.size());
    chars.assign(from.chars.begin(), from.chars.begin() + from.count);
    chars.resize(from.chars.size());
    CopyAllButEntries(from);
  }
  LayerCache& operator=(const LayerCache& from) {
    chars.resize(from.chars.size());
    std::copy_n(from.chars.begin(), from.count, chars.begin());
    CopyAllButEntries(from);
    return *this;
  }

  // Room for entries [0, n): a game calls it as it adds an object, a
  // computation for the objects it computes.
  void Fit(int n) {
    if (static_cast<int>(chars.size()) < n) chars.resize(n);
  }

  uint64_t version = ~uint64_t{0};
  int count = 0;                       // entries [0, count) were computed
  std::vector<Characteristics> chars;  // one per object of the game (Fit)
  std::array<PlayerRules, 2> rules;
  std::bitset<kMaxObjects> tapped_read;
  bool library_done = true;  // false: library objects' entries are stale (ComputeLayers)
  // What the computation's filters could have matched: a change to an
  // object they could not match changes only its own entry.
  LayerReach reach;
  // The same for the counts of self-counting CDAs (Keldon Warlord: its power
  // is the creatures you control), kept apart: a change only they could
  // see changes its own entry and their objects' (`cda_holders`), which
  // RecountSelfCdas redoes alone when `recountable` (nothing else acts on
  // those objects or reads them; not in the classic edition's layers).
  LayerReach cda_reach;
  ObjBits cda_holders;
  bool recountable = false;
  // The state version the cache is good for once the holders are counted
  // again: recounts wait for a read, and several moves share one.
  uint64_t recount_version = ~uint64_t{0};
  // Objects some effect other than their own self-counting CDA acted on, or
  // whose power an effect read (a link, a source): every other computed
  // entry is its printed values, with that CDA for a holder.
  ObjBits touched;
  // The simple statics the computation applied, in order: each an
  // unconditional constant +N/+N from a permanent to the objects its filters
  // name (Glorious Anthem, Crusade, Bad Moon). What their filters could match
  // is kept apart from `reach`: an object that only they could see gets its
  // entry from them alone (EntryFromSimpleStatics), no other entry changing.
  static constexpr int kSimpleStatics = 8;
  struct SimpleStatic {
    ObjId object = kNoObj;  // the permanent; its entry's card has the static
    int8_t index = -1;      // among that card's statics
  };
  std::array<SimpleStatic, kSimpleStatics> simple{};
  int simple_count = 0;  // kSimpleStatics + 1: more than that, none of them kept
  LayerReach simple_reach;

 private:
  void CopyAllButEntries(const LayerCache& from) {
    version = from.version;
    count = from.count;
    rules = from.rules;
    tapped_read = from.tapped_read;
    library_done = from.library_done;
    reach = from.reach;
    cda_reach = from.cda_reach;
    cda_holders = from.cda_holders;
    recountable = from.recountable;
    recount_version = from.recount_version;
    touched = from.touched;
    simple = from.simple;
    simple_count = from.simple_count;
    simple_reach = from.simple_reach;
  }
};

}  // namespace strata

namespace strata {

enum class Phase : uint8_t { kUntap, kUpkeep, kDraw, kMain, kDiscard, kCleanup };
std::string_view PhaseName(Phase p);
std::optional<Phase> ParsePhase(std::string_view s);

// Everything the layers read. The timing engine (game.h) keeps its own
// bookkeeping beside it; both are plain values.
struct GameState {
  Edition edition = Edition::kModern;
  int turn = 1;
  Player active = 0;
  Phase phase = Phase::kMain;
  Objects obj;
  std::vector<EffectRow> effects;
  std::vector<ObjRef> effect_sets;
  std::array<PlayerState, 2> players;
  uint32_t next_timestamp = 1;
  // Bumped by every mutation that can change a characteristic (L-9): of
  // objects and effects, not life, damage, mana or the phase, which layers
  // never read (a checked_layers game compares the cache with a fresh
  // computation at every read, so a missed dependency shows).
  uint64_t version = 0;
  // Has a +1/+0 or -0/-2 counter ever been put on an object of this game
  // (G-8.1)? Only then do the layers, moves and checks read Objects::p1p0
  // and m0m2 (a game without those counters runs as before).
  bool pt_counters = false;
  // The objects on the battlefield, a bit each, in step with obj.zone
  // (SetZone keeps both): the walks over permanents, a dozen per decision,
  // visit them alone instead of every card of both decks.
  ObjBits battlefield;
  // The objects on the stack, the same way: the policies look there for
  // what is being cast at every decision, and a game has one or two.
  ObjBits stack;

  void Touch() { ++version; }
  void SetZone(ObjId o, Zone z) {
    obj.zone[o] = z;
    battlefield.Assign(o, z == Zone::kBattlefield);
    stack.Assign(o, z == Zone::kStack);
  }
  // f(o) for every object on the battlefield, in numbering order (as a walk
  // over all objects would find them). f must not move objects.
  template <class F>
  void ForEachPermanent(F&& f) const {
    battlefield.ForEach(obj.count, f);
  }
  uint32_t NewTimestamp() { return next_timestamp++; }
  bool Alive(ObjRef r) const {
    return r.id != kNoObj && r.id < obj.count && obj.incarnation[r.id] == r.incarnation &&
           obj.zone[r.id] != Zone::kNone;
  }
  ObjRef Ref(ObjId id) const { return ObjRef{id, obj.incarnation[id]}; }
};

}  // namespace strata
