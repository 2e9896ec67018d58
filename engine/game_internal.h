// Internal to the engine: included only by engine/*.cc that define Game's
// member functions (game.cc and one file per rule, listed at the top of
// game.cc). Helpers those files share; nothing here is part of the contract
// in game.h.
#pragma once

#include <algorithm>
#include <bit>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "engine/game.h"
#include "engine/saturate.h"
#include "engine/strings.h"

namespace strata {

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

// Phases in which fast effects may be played (T-1: none in untap and cleanup).
inline bool FastPhaseOf(Phase p) {
  return p != Phase::kUntap && p != Phase::kCleanup;
}

// Adds `times` copies of `extra` to a cost (extra targets, combined phase costs).
inline void AddCost(ManaCost& c, const ManaCost& extra, int times = 1) {
  c.generic += extra.generic * times;
  c.colorless += extra.colorless * times;
  c.x_count += extra.x_count * times;
  for (int k = 0; k < kColorCount; ++k) c.colored[k] += extra.colored[k] * times;
  for (int t = 0; t < times; ++t)
    for (auto h : extra.hybrid) c.hybrid.push_back(h);
}

// Protection from a color (T-7 blocks, T-4 damage, targets): has `ch`
// protection from any color of `colors`?
inline bool ProtectedFrom(const Characteristics& ch, ColorMask colors) {
  for (int c = 0; c < kColorCount; ++c)
    if (Has(colors, c) && Has(ch.keywords, kProtWhite + c)) return true;
  return false;
}

// Does a permanent with these characteristics have an activated ability
// other than a mana ability (Game::ActivatablePermanents)?
inline bool HasPlayableAbility(const CardDb& db, const Characteristics& ch) {
  return !ch.blank && ch.card != kNoCard && ch.controller < 2 && db[ch.card].ability_windows;
}

// The mana an untapped permanent with these characteristics makes
// (Game::ManaSources): a land's own, or else that of its first mana ability
// that only taps it (no mana, sacrifice, life or discard cost) and makes a
// fixed number of mana of one kind: one of any of its colors, or N of one
// color or colorless (`made.amount`; AutomaticManaAbility, worked out at
// load: any other mana ability is offered as an action, T-10.2). False if
// it makes none.
// `made.object` is left alone.
inline bool MakesMana(const CardDb& db, const Characteristics& ch, ManaSource& made) {
  if (ch.land_mana) {
    made.colors = static_cast<ColorMask>(ch.land_mana & 0x1F);
    made.colorless = (ch.land_mana & 0x20) != 0;
    return true;
  }
  if (ch.blank || ch.card == kNoCard) return false;
  const CardDef& card = db[ch.card];
  for (int i = 0; i < static_cast<int>(card.activated.size()); ++i) {
    const ActivatedAbility& a = card.activated[i];
    if (!a.mana_ability || a.manual_mana || a.exile_self ||
        !Has(ch.abilities, card.ActivatedBit(i)))
      continue;
    const EffectStep& st = a.body.steps[0];
    made.colors = static_cast<ColorMask>(st.mana_any ? 0x1F : st.mana_colors);
    made.colorless = st.mana_colorless;
    made.amount = static_cast<uint8_t>(st.amount.constant);
    return true;
  }
  return false;
}

// Has this object a triggered ability it has not lost (CollectTriggers
// looks at no other permanent)?
inline bool HasTriggeredAbility(const CardDb& db, const Characteristics& ch) {
  if (ch.blank || ch.card == kNoCard) return false;
  const CardDef& card = db[ch.card];
  for (int i = 0; i < static_cast<int>(card.triggers.size()); ++i)
    if (Has(ch.abilities, card.TriggerBit(i))) return true;
  return false;
}

// Game::Activatable's one definition of membership, inline: the sets are
// found again at every layer version and kept at every kept move.
inline void Game::Activatable::Add(const CardDb& db, ObjId o, const Characteristics& ch) {
  if (HasTriggeredAbility(db, ch)) triggering.Set(o);
  ManaSource made;
  if (ch.controller < 2 && MakesMana(db, ch, made)) mana[ch.controller].Set(o);
  if (HasPlayableAbility(db, ch)) by_player[ch.controller].Set(o);
}

inline void Game::Activatable::Remove(ObjId o) {
  triggering.Reset(o);
  for (ObjBits& mine : mana) mine.Reset(o);
  for (ObjBits& mine : by_player) mine.Reset(o);
}

// May a body (or mode) be played this way (0 batch, 1 interrupt, 2
// immediate)? Defined in legal_actions.cc.
bool BodyAllowed(const AbilityBody& b, int play, Reaction reaction);

}  // namespace strata
