// Internal to the engine: the records of the rules in progress that Game
// keeps beside the GameState (spells and abilities being cast or resolving,
// occurrences, triggers waiting, damage waiting for its prevention step,
// phase to-dos). Plain values, so a copied Game continues like the original.
// game.h includes it (Game holds them by value); a newcomer reads game.h
// first.
#pragma once

#include <array>
#include <cstdint>

#include "engine/card.h"
#include "engine/mana.h"
#include "engine/state.h"

namespace strata {

// A target: an object (with its incarnation) or a player.
struct Target {
  enum Kind : uint8_t { kNone, kObject, kPlayer } kind = kNone;
  ObjRef obj;
  Player player = kNoPlayer;
};

// Where the body of a spell or ability comes from.
enum class BodySource : uint8_t {
  kSpell,
  kActivated,
  kTrigger,
  kPhase,
  kGrantedPhase,
  kDelayed,
  kEnters
};

// A spell or ability being cast, on a batch, or resolving.
struct StackItem {
  ObjId card = kNoObj;  // the spell's card (kNoObj for an ability)
  // The spell's card as it went onto the stack: a card that leaves the stack
  // and is cast again is a new object (RULES.md "Game and objects"), so a
  // spell is always found by card and incarnation, never by card alone.
  uint16_t card_incarnation = 0;
  ObjId source = kNoObj;  // the ability's source
  BodySource from = BodySource::kSpell;
  CardId body_card = kNoCard;  // the card whose ability table holds the body
  int16_t ability = -1;        // index into that table
  int8_t mode = -1;            // chosen mode of a modal body
  Player controller = 0;
  std::array<Target, 4> targets{};
  std::array<uint8_t, 4> target_slot{};  // which target spec each target fills
  uint8_t target_count = 0;
  int16_t x = 0;
  std::array<uint16_t, 2> choice{kNoWord, kNoWord};
  uint8_t choice_count = 0;
  uint32_t serial = 0;
  int16_t source_power = 0, source_toughness = 0;
  int32_t event = -1;  // the occurrence a trigger responds to (index into events)
  bool countered = false;
  std::array<Player, 4> target_controller{};  // on resolution, before anything changed
  int16_t target_power = 0;                   // the first target's power, likewise
  uint8_t slot = 0;                           // casting: the target spec being filled
  uint8_t in_slot = 0;                        // casting: targets chosen for that spec so far
};

// A triggered ability waiting to happen (E-3 B, E-4).
struct QueuedTrigger {
  ObjId source = kNoObj;
  CardId card = kNoCard;
  int16_t index = 0;
  Player controller = 0;
  int32_t event = -1;
};

// An occurrence (E-): what happened, with last known values of its object.
struct Occurrence {
  EventKind kind = EventKind::kDraw;
  Player player = kNoPlayer;  // who draws, casts, is dealt damage, ...
  ObjId object = kNoObj;
  ObjId source = kNoObj;  // damage source
  Zone from = Zone::kNone, to = Zone::kNone;
  int amount = 0;
  Characteristics last;        // the object's characteristics just before (E-5)
  ObjId attached_to = kNoObj;  // what it was attached to just before
  bool was_tapped = false;     // tapped just before (a tapped artifact's abilities are off, T-12)
  // The object's incarnation right after the occurrence: what "it" means to
  // an effect that refers back to the occurrence's object.
  uint16_t incarnation = 0;
  // Occurrences that happen together (objects one effect destroys, moves or
  // sacrifices together, E-5) share the index of the first of them.
  int32_t group = -1;
  Phase phase = Phase::kMain;
  bool combat = false;  // combat damage
  bool before = false;  // recorded "before" it happens (E-1), not the occurrence itself
};

// Damage assigned by a resolving effect or an attack, final after T-4.
struct PendingDamage {
  ObjId source = kNoObj;
  Target to;
  int amount = 0;
  bool cant_regenerate = false;
  bool combat = false;
};

// A mandatory phase effect or a phase cost still to handle this phase.
struct PhaseTodo {
  ObjRef object;
  Player controller = 0;
  bool is_cost = false;
  ManaCost cost;  // combined phase costs (T-13)
  CardId card = kNoCard;
  int16_t index = 0;
  bool granted = false;
  bool optional = false;  // "you may": the phase may end without it
  bool done = false;
};

}  // namespace strata
