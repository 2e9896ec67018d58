// What a spell or ability does to what it targets, read from its effects
// (never from a card's name): harm (damage, destroy, exile, bounce, tap,
// counter, -N/-N, steal, remove abilities), help (pump, prevent,
// regenerate, untap, draw, gain life, equip) or neither (text and colour
// changes). Players use it to aim; the study's health report uses it to
// count harmful effects a player aimed at its own side.
#pragma once

#include "engine/card.h"
#include "engine/game.h"

namespace strata {

enum class Aim : uint8_t { kNone, kHelp, kHarm };

// The effect of a continuous-effect template on what it affects.
Aim TemplateAim(const EffectTemplate& t);
// What target spec `slot` (0-based) of a body gets: the steps acting on it.
Aim SlotAim(const CardDef& card, const AbilityBody& body, int slot);
// What an Aura does to the object it enchants (its statics, else its triggers).
Aim AuraAim(const CardDef& card);

// The body a stack item runs, and the chosen mode of a modal body (nullptr
// while the mode is not chosen yet, or for a delayed effect).
const AbilityBody* ItemBody(const CardDb& db, const StackItem& item);
const AbilityBody* ItemModeBody(const CardDb& db, const StackItem& item);
// The body of a cast or activate action (the spell, or the ability), or
// nullptr for a permanent spell.
const AbilityBody* ActionBody(const CardDef& card, const Action& a);

// The aim of the target spec being filled by an item being cast (an Aura's
// enchant target included). kNone when unknown.
Aim CastingAim(const CardDb& db, const StackItem& item);

// At a target decision of an item that harms what it targets: is target
// action `a` on the deciding player's own side (itself, or an object it
// controls)? OwnHarm says whether `a` is such a target, and sets `avoidable`
// when another target action of `d` is on the other side.
bool OwnHarm(const Game& g, const Decision& d, const Action& a, bool* avoidable);

// Damage a body's steps deal to target spec `slot` (X counted as `x`).
int SlotDamage(const AbilityBody& body, int slot, int x);
// True when a body only adds mana (a ritual).
bool OnlyAddsMana(const AbilityBody& body);
// Mana a ritual body adds.
int ManaAdded(const AbilityBody& body);
// The prevention step of a body (`prevent`), or nullptr.
const EffectStep* PreventStep(const AbilityBody& body);
// The body's "prevent all combat damage" step (T-7.2: Fog, Maze of Ith), or
// null: such a body waits for a prevention step, where the combat damage
// is known.
const EffectStep* CombatPreventStep(const AbilityBody& body);
// The +power/+toughness a help continuous step on `slot` (or "self" when
// slot < 0) gives until end of turn; false when it has none.
bool PumpOf(const CardDef& card, const AbilityBody& body, int slot, int& power, int& toughness);
// The toughness such a step adds that it reads from its target as it
// resolves (Blood Lust's "-X, where X is its toughness minus 1"), for a
// target of toughness `target_toughness`; PumpOf counts only constants.
int PumpToughnessFrom(const CardDef& card, const AbilityBody& body, int slot, int target_toughness);

}  // namespace strata
