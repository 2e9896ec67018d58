// The layer system (RULES.md L-1 to L-9): computes every object's
// characteristics from printed values and continuous effects, layer by layer,
// in the edition of the game, with dependencies found by trying effects on
// the state rather than declared per card.
#pragma once

#include <string>
#include <vector>

#include "engine/card.h"
#include "engine/state.h"

namespace strata {

// Printed characteristics of a card (or of copiable values, or face down).
Characteristics PrintedCharacteristics(const CardDb& db, const CopySpec& spec, Player controller);

// Who is asking when a filter is evaluated: the source (for self, other,
// enchanted), its controller ("you"), the source's text changes and choice.
struct FilterContext {
  ObjId source = kNoObj;
  Player you = 0;
  const Characteristics* text = nullptr;
  Word choice = kNoWord;
};
bool MatchFilter(const GameState& s, const Characteristics* chars, const Filter& f, ObjId o,
                 const FilterContext& ctx);

// Optional trace of the order effects were applied in, for tests and --log.
struct LayerTrace {
  struct Entry {
    std::string step;    // "4", "7c", ...
    std::string effect;  // "Blood Moon static 1"
    uint32_t timestamp;
    bool by_dependency;  // applied out of timestamp order because of L-6
    bool dropped;        // does not apply: its source no longer has the ability
  };
  std::vector<Entry> entries;
};

// Computes all characteristics from scratch into `out` (chars and rules) and
// stamps it with the state's version. Without `with_library` the objects in
// libraries are left out (out.library_done is false and their entries are
// stale): exact for every other object when no layer effect of the game
// reads a library (LayersReachLibrary), and about half the work, as nobody
// asks what a card in a library is until it leaves.
void ComputeLayers(const CardDb& db, const GameState& s, LayerCache& out,
                   LayerTrace* trace = nullptr, bool with_library = true);

// After a change that only self-counting CDAs saw (LayerCache::cda_reach,
// `recountable`), brings the entries of their objects (cda_holders) up to
// date: each is its printed values with its CDA applied again, counting the
// other entries as they stand. Exact: nothing else acts on those objects,
// and their counts read no power or toughness.
void RecountSelfCdas(const CardDb& db, const GameState& s, LayerCache& cache);
// Is `card`'s only static such a CDA (Keldon Warlord, Plague Rats)?
bool SelfCountingCda(const CardDb& db, const CardDef& card);

// Does the computation of an effect row read its source object? A pump
// spell's row does not: the spell going to the graveyard after it resolves
// changes no entry (Game::KeepLayersForOwnChange).
bool RowReadsItsSource(const CardDb& db, const EffectRow& r);

// A new effect row that only adds constants (or X) to power and toughness,
// on objects no other effect touches (LayerCache::touched; not CDA
// holders), outside the classic edition's layers: applied to those entries
// alone, as the computation would (Giant Growth). False, changing nothing,
// when the row is not such a row.
bool ApplyRowAlone(const CardDb& db, const GameState& s, LayerCache& cache, int row);

// The entry of object `o`, which only the cache's simple statics could see
// (LayerCache::simple_reach) and which no other effect acts on: `printed`,
// then each simple static whose filters match it, as the computation would
// apply them. False when the cache can't tell (more simple statics than it
// keeps, or sums large enough for their order to matter): then the layers
// are computed again.
bool EntryFromSimpleStatics(const CardDb& db, const GameState& s, LayerCache& cache, ObjId o,
                            const Characteristics& printed);

// The zones (bit Zone) in which a continuous effect of `card` (statics, CDAs,
// effects its spells and abilities make) affects or reads objects. A game
// with a card reaching libraries computes them with everything else; a move
// between zones no effect of the game reaches changes only the moved
// object's characteristics (Game::MoveTo).
uint8_t LayerZones(const CardDb& db, CardId card);
inline bool LayersReachLibrary(const CardDb& db, CardId card) {
  return (LayerZones(db, card) >> static_cast<int>(Zone::kLibrary)) & 1;
}

// What object `o` of `s` is before any effect: its card's printed values, in
// its entry mode (Primal Clay), under its controller.
Characteristics OwnPrintedCharacteristics(const CardDb& db, const GameState& s, ObjId o);

// The layer names of an edition's steps, in order ("1a", "1b", "2", ...).
std::vector<std::string> EditionSteps(Edition e);

}  // namespace strata
