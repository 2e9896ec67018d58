// Internal to the engine: the records of the rules in progress that Game
// keeps beside the GameState (spells and abilities being cast or resolving,
// occurrences, triggers waiting, damage waiting for its prevention step,
// phase to-dos) and the frames of the rules in progress (one struct and one
// program-counter enum per kind). Plain values, so a copied Game continues
// like the original.
// game.h includes it (Game holds them by value); a newcomer reads game.h
// first.
#pragma once

#include <array>
#include <cstdint>
#include <cstring>
#include <type_traits>
#include <vector>

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
  kEnters,
  kNextTime  // CardDef::next_times: a "next time" delayed trigger (E-6)
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
  // G-8.3: the counters its remove_counters steps removed, at most 127 (in
  // the byte before body_card: the item keeps its size)
  int8_t removed = 0;
  CardId body_card = kNoCard;  // the card whose ability table holds the body
  int16_t ability = -1;        // index into that table
  int8_t mode = -1;            // chosen mode of a modal body
  Player controller = 0;
  std::array<Target, 4> targets{};
  std::array<uint8_t, 4> target_slot{};  // which target spec each target fills
  uint8_t target_count = 0;
  // G-18: the objects its destroy steps destroyed (Cosmic Horror), at most
  // 255 (in the byte after target_count: the item keeps its size)
  uint8_t destroyed = 0;
  int16_t x = 0;
  bool x_chosen = false;  // casting: X is chosen (a target "with mana value X" reads it)
  std::array<uint16_t, 2> choice{kNoWord, kNoWord};
  uint8_t choice_count = 0;
  // T-8.5: exactly X targets may be more than `targets` holds; those past
  // the fourth are Game::StackState::more_targets[more ...] (in the bytes
  // after choice_count: the item keeps its size).
  uint16_t more = 0;
  uint32_t serial = 0;
  int16_t source_power = 0, source_toughness = 0;
  int32_t event = -1;  // the occurrence a trigger responds to (index into events)
  bool countered = false;
  std::array<Player, 4> target_controller{};  // on resolution, before anything changed
  int16_t target_power = 0;                   // the first target's power, likewise
  int16_t target_toughness = 0;               // its toughness, likewise
  int16_t target_mana_value = 0;              // its mana value, likewise
  uint8_t slot = 0;                           // casting: the target spec being filled
  uint8_t in_slot = 0;                        // casting: targets chosen for that spec so far
  int16_t discarded = 0;  // G-9: the cards its discards put into a graveyard (Recall)
};
// T-8.5: games without X targets pay nothing for them: the item keeps its size.
static_assert(sizeof(StackItem) <= 92,
              "StackItem grew: T-8.5's targets past the fourth go to more_targets");

// T-8.5: a target past a stack item's fourth, and the spec it fills.
struct MoreTarget {
  Target target;
  uint8_t slot = 0;
};

// A triggered ability waiting to happen (E-3 B, E-4): the card's
// triggers[index], or next_times[index] for an armed "next time" trigger.
// Or, with `shield`, the regeneration shield on `source`, ordered with the
// replacements of its move to the graveyard at step A (E-3 A: the active
// player orders conflicting ones); `event` is then that move's step-A
// record.
struct QueuedTrigger {
  ObjId source = kNoObj;
  CardId card = kNoCard;
  int16_t index = 0;
  Player controller = 0;
  int32_t event = -1;
  bool next_time = false;
  bool shield = false;
};

// "The next time X happens this turn, ..." (E-6): a delayed trigger a
// resolved step armed. It fires at the first occurrence that fits
// next_times[index] or, for "A or B", next_times[alt], and is then gone;
// one with `this_turn` ends at cleanup unfired. Its source is the object
// whose step armed it (a spell, or the permanent of an ability), its
// controller that step's controller.
struct ArmedNextTime {
  ObjId source = kNoObj;
  CardId card = kNoCard;
  int16_t index = -1, alt = -1;
  Player controller = 0;
  bool this_turn = true;
  // Armed by a step with `target = N`: it fits only occurrences of that
  // object, as it was when armed ("if the creature would die this turn":
  // Disintegrate). kNoObj: any object its `on` fits.
  ObjRef bound;
  // T-7.5b: bound, and its `on` a time point (a phase's beginning or end,
  // E-2's): no object happens there, so it fires at the first such time,
  // and the bound object, as it was when armed, is its trigger's
  // `event_object` ("destroy that creature at the beginning of the next end
  // step": Stone Giant, Nettling Imp).
  bool carried = false;
  // "A source of your choice" (T-4.1): it fits only damage from that
  // object, the one chosen (a spell chosen on the stack: also the card it
  // became as it left the stack). kNoObj: any source its `on` fits.
  ObjRef chosen;
  bool chosen_on_stack = false;
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
  // The incarnation of what it was attached to just before (`attached_to`),
  // then: whether that is still the same object (G-9: Animate Dead).
  uint16_t attached_incarnation = 0;
  // Occurrences that happen together (objects one effect destroys, moves or
  // sacrifices together, E-5) share the index of the first of them.
  int32_t group = -1;
  Phase phase = Phase::kMain;
  bool combat = false;    // combat damage
  bool for_mana = false;  // a tap: for mana (T-10.1)
  bool before = false;    // recorded "before" it happens (E-1), not the occurrence itself
  // A before-record whose occurrence is held until its triggers have
  // resolved (invariant before_first); the kinds not held yet (a tap paid
  // as a cost, a move made by the rules) collect theirs as they happen.
  bool held = false;
  // A record of step A (E-3) for an occurrence about to happen: the
  // replacements ("instead") that fit it are collected on it, and
  // `replaced` is set as the first of them applies: the occurrence then
  // never happens (invariant replaced_never_happens).
  bool instead = false;
  bool replaced = false;
};
static_assert(std::is_trivially_copyable_v<Occurrence>);  // a game's copy carries its log

// Damage assigned by a resolving effect or an attack, final after T-4.
struct PendingDamage {
  ObjId source = kNoObj;
  Target to;
  int amount = 0;
  bool cant_regenerate = false;
  bool combat = false;
  // No replacement applies to it any more (E-3 A): it was redirected, or a
  // replacement's own effects dealt it.
  bool replaced = false;
  // The sum of its before triggers' changes to its size (E-7), applied
  // together after prevention as it is dealt.
  int32_t change = 0;
  // Prevention already applied to it at step A, which the active player
  // ordered before its replacements (E-3 A): `amount` is what it left, and
  // prevention does not apply again.
  bool prevented = false;
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

// ---------------------------------------------------------------- frames
//
// The rules in progress are a stack of frames (Game::frames_). A frame is
// its kind, where it is (`pc`, one enum per kind: the `Pc` of its struct
// below) and its own fields (one struct per kind, sharing storage). Each
// kind's advance half (Game::RunX) and answer half (Game::ApplyX) sit
// together in one engine file; the kind's struct names the file.

enum class FrameKind : uint8_t {
  kTurn,
  kPhase,
  kNeutral,
  kBatch,
  kCast,
  kInterrupts,
  kResolve,
  kTriggers,
  kPrevention,
  kAttack,
  kDraw,
  kDestroy,
  kReaction,
  kDiscardToMax,
  kEntry,
  kUnlessPay,
  kMulligan,
  kPhaseCost,
  kOccur,
  kSearch,
  kShuffleIn,
  kUntapChoice,
  kKeepFewest
};

// How a spell or ability being cast will be played: added to the batch
// (T-3), to the interrupt batch (T-8), or resolved at once (prevention,
// reactions, triggers).
enum PlayAs : uint8_t { kPlayBatch, kPlayInterrupt, kPlayImmediate };

// A window in which the players take turns to play or pass (T-2, T-3, T-8):
// two passes in a row close it; after a play the window opens again, the
// player the rules name deciding first. Game::OfferPlays offers the plays.
struct Window {
  int32_t passes;
  Player who;  // who decides next
  void Open(Player first) {
    passes = 0;
    who = first;
  }
  void Pass() {
    ++passes;
    who = Opponent(who);
  }
  bool Closed() const { return passes >= 2; }
};

// turn.cc: the turn (T-1); starts each phase and moves to the next.
struct TurnFrame {
  enum Pc : uint8_t { kStartPhase, kPhaseEnded };
};
// turn.cc: one phase (T-1): what comes before it begins, its beginning,
// discarding, the neutral state, its end (T-1.3: what comes before it and
// when it happens, each resolved before mana burn), mana burn and the life
// check (T-1.4, T-1.5).
struct PhaseFrame {
  // kUntapped: the untap phase's untaps, held for their replacements and
  // "before" responses (E-3), happened in a frame above; the phase's
  // beginning goes on. kBurnt: mana burn, held the same way, happened; the
  // life check comes. kSkipping: the replacements of its beginning (E-3 A)
  // happened; if one took it, the phase is skipped. (Added last: no other
  // value moved.)
  enum Pc : uint8_t {
    kBegin,
    kBegun,
    kDiscard,
    kNeutral,
    kEnd,
    kEnding,
    kBurn,
    kUntapped,
    kBurnt,
    kSkipping,
    kLimited  // T-1.8: the permanents to untap under a limit were chosen
  };
  int32_t ended;  // from kBurn on: the occurrence of its end, or -1 if none was recorded
};
// batch.cc: the neutral state (T-2, T-6).
struct NeutralFrame {
  // kAttackAnswered: the defender began casting a response to an announced
  // attack; the attack is aborted only if it was cast and so started a
  // batch (T-6, T-8), which `batches` (StackState::batches then) tells.
  enum Pc : uint8_t { kStart, kDecide, kAttackAnnounced, kAttackAnswered };
  bool in_attack;  // inside an attack (after attackers or blockers)
  Window window;
  uint32_t batches;
};
static_assert(sizeof(NeutralFrame) <= 16, "in Frame's four words");
// batch.cc: a batch taking additions, then resolving (T-3).
struct BatchFrame {
  // kResolved: the batch has resolved; its "after effects resolve" (E-2)
  // triggers come, then the frame goes.
  enum Pc : uint8_t { kAdditions, kResolve, kResolved };
  Window window;
};
// casting.cc: one spell or ability being cast (T-8).
struct CastFrame {
  enum Pc : uint8_t {
    kMode,
    kTargets,
    kX,
    kChoices,
    kCosts,
    kInterrupts,
    kBeforeCast,
    kCast,
    kJoin,
    // An activated ability's {T} and life costs, each held for its "before"
    // responses and replacements (E-1, E-3) in a frame above, then its
    // sacrifice. (Added last: no other value moved.)
    kCostLife,
    kCostSacrifice,
    // A spell's cast, once its interrupts are over: its replacements
    // (E-3 A) before its "before" triggers (kBeforeCast); then kCastReplaced
    // asks whether one took it.
    kCastInstead,
    kCastReplaced,
    // An ability's "sacrifice a <filter>" cost, after its own sacrifice
    // (T-8.1).
    kCostSacrificeChosen
  };
  int32_t item;       // index into items_
  PlayAs play;        // where it goes once cast
  Reaction reaction;  // the reaction window it is played in, or kNone
  ObjId about;        // a reaction's object (or kAboutDestroying), else kNoObj
  union {
    int32_t discarded;       // cards discarded for its cost so far (while costs are paid)
    int32_t instead_record;  // then the step-A record of its cast's replacements
  };
};
// casting.cc: the interrupt windows of a casting (T-8).
struct InterruptsFrame {
  enum Pc : uint8_t { kStart, kResolve, kDecide };
  int32_t item;  // the item being cast
  Window window;
  int32_t ibatch_begin;  // where this window's interrupt batch begins in ibatch_
};
// resolve.cc: a spell or ability resolving (T-3, T-11).
struct ResolveFrame {
  // kEnterReplaced, kEnter: a permanent spell about to enter the
  // battlefield, held for its move's replacements (their step-A record is
  // `next_step`, which a permanent spell has no other use for) and then
  // its "before" responses (E-1, E-3). (Added last: no other value moved.)
  enum Pc : uint8_t { kStart, kSteps, kFinish, kEnterReplaced, kEnter };
  int32_t item;
  int32_t next_step;
  int32_t damage_begin;    // damage_ size when it began
  int32_t triggers_begin;  // queued_ size when it began
};
// triggers.cc: triggers happening one at a time (E-3 B, E-4).
struct TriggersFrame {
  enum Pc : uint8_t { kPick, kOptionalCost, kPlay, kTake };
  int32_t item;    // the trigger's item
  int32_t chosen;  // index into queued_ of the trigger to happen next
  // The first queued trigger this frame handles (earlier ones belong to a
  // frame further down).
  int32_t first;
};
// prevention.cc: a damage-prevention step (T-4).
struct PreventionFrame {
  // The players' prevention plays, then step A's replacements of each
  // damage (kInstead; kReplaced takes out what they replaced), the "before"
  // responses to what is left (kFinal), and the damage dealt (kDeal).
  enum Pc : uint8_t { kActive, kNonactive, kInstead, kReplaced, kFinal, kDeal };
  int32_t damage_begin;  // the first pending damage of this step
  // The step-A record of pending damage damage_begin + i is occurrence
  // instead_begin + i, and its before-record before_begin + i.
  int32_t instead_begin;
  int32_t before_begin;
  Player who;
};
// combat.cc: the attack (T-7).
struct AttackFrame {
  // kBeforeAttackers, kBeforeBlockers: "before attackers (blockers) are
  // declared" (E-2's time points); kAfterAttackers, kAfterBlockers: the
  // time points' "when" and "after".
  enum Pc : uint8_t {
    kBeforeAttackers,
    kAttackers,
    kAfterAttackers,
    kBeforeBlockers,
    kBlockers,
    kAfterBlockers,
    kFirstStrikeDamage,
    kRegularDamage,
    kEndOfCombat,  // "at end of combat" (T-7.2), attackers and blockers still in combat
    kEnd
  };
  // An attacker or blocker chosen and held before it is declared: `held`
  // (as it was: its incarnation) attacking, or blocking `held_to`. First,
  // for an attacker that taps, the replacements of its tap (kTapInstead,
  // E-3 A: their step-A record is `tap_record`; one that applies leaves
  // it attacking untapped, `tap_replaced`); then its "before" triggers
  // and its tap's (kBefore, E-1).
  // Before all, kDeclareInstead: the replacements of the attack (block)
  // itself (E-3 A; step-A record `tap_record` too): one that applies
  // leaves it undeclared.
  enum Holding : uint8_t { kNotHolding, kTapInstead, kBefore, kDeclareInstead };
  Holding holding;
  bool tap_replaced;
  ObjId held;
  uint16_t held_incarnation;
  ObjId held_to;
  int32_t tap_record;
};
static_assert(sizeof(AttackFrame) <= 16, "in Frame's four words");
// reactions.cc: draws, one at a time (E-3).
struct DrawFrame {
  // Each draw: replacements of it (E-3 A; kGone once one applied: the
  // draw is used up), "before a player draws" triggers (B), reactions (C),
  // a reaction's "instead of drawing", the draw.
  enum Pc : uint8_t { kInstead, kBefore, kReactions, kReplacement, kDraw, kGone };
  Player player;
  int32_t left;    // draws left
  int32_t looked;  // cards looked at instead of drawing
};
// reactions.cc: objects being destroyed together (E-3, E-5).
struct DestroyFrame {
  // The time point before the destruction (E-3): A shields, then the
  // replacements of each move to the graveyard (kInstead; kReplaced takes
  // out what they replaced), B "before it is destroyed" triggers, C
  // reactions; then what is still destroyed leaves. (Values only compared
  // for equality: the later steps were added at the end.)
  enum Pc : uint8_t { kShields, kBefore, kReactions, kLeave, kInstead, kReplaced };
  int32_t begin, end;  // the group in destroying_
  // The step-A record of destroying_[begin + i]'s move is occurrence
  // instead_begin + i.
  int32_t instead_begin;
  // -1: for lethal damage (no longer destroyed once it isn't lethal); else
  // G-18's resolving item whose destroy step this is, plus 1 (0: none
  // counted): what it destroys is added to that item's `destroyed`.
  int32_t item_plus1;
};
// reactions.cc: a reaction window (E-3 C).
struct ReactionFrame {
  enum Pc : uint8_t { kActive, kNonactive, kDone };
  Reaction kind;
  ObjId about;     // a destruction's objects (kAboutDestroying), else kNoObj
  Player drawing;  // a draw's player (only they replace their draw)
  Player who;
};
// turn.cc: discarding to the maximum hand size, or as an effect says.
struct DiscardFrame {
  Player player;
  int32_t count;  // cards to discard; -1: down to the maximum hand size
  bool random;
  // G-9: an effect's discard counts the cards it put into a graveyard on
  // its stack item (item + 1; 0: none, the discard phase's): the card last
  // chosen (+ 1) and its incarnation then (low byte), checked once its move
  // is over. (After the first three: a discard phase's frame is as before.)
  uint8_t last_incarnation;
  uint16_t last_plus1;
  int32_t item_plus1;
};
static_assert(sizeof(DiscardFrame) <= 16, "in Frame's four words");
// library.cc: a player searching their library (G-3): `left` cards still
// to find, each matching `find` (kNoFilter: any card), read from `source`
// controlled by the player; found cards go to `to`; then the library is
// shuffled.
struct SearchFrame {
  Player player;
  Zone to;
  FilterId find;
  int32_t left;
  ObjId source;
  bool graveyard;  // G-9: cards chosen from the graveyard, no shuffle (Recall)
};
static_assert(sizeof(SearchFrame) <= 16, "in Frame's four words");
// library.cc: G-19, each player keeping as many permanents matching `find`
// as the player with the fewest (Balance): the active player chooses the
// rest of theirs one at a time, then the other player; then all the chosen
// are sacrificed together. `keep` is set as the frame first runs (-1
// before); `left` is what the player choosing still has to choose.
struct KeepFewestFrame {
  FilterId find;
  ObjId source;
  Player player;
  int16_t keep;
  int32_t left;
};
static_assert(sizeof(KeepFewestFrame) <= 16, "in Frame's four words");
// library.cc: players shuffling cards of their hands and/or graveyards
// into their libraries, then drawing (G-4: Timetwister, Winds of Change).
// kMove: the cards move together (held like an effect's move, E-1, E-3);
// kShuffle: the libraries are shuffled and the draws pushed.
struct ShuffleInFrame {
  enum Pc : uint8_t { kMove, kShuffle };
  uint8_t players;  // bit p: player p takes part
  uint8_t zones;    // bits of Zone: the zones shuffled in
  int32_t draw;     // cards each draws after; EffectStep::kDrawAsMany: as many as it put in
  std::array<int32_t, 2> put;  // cards each player put into its library
};
// resolve.cc: a choice made as a permanent enters.
// `exiled`: once the choice was made, the card exiled, held for the
// "before" responses and replacements of its move (E-1, E-3): linked to
// `object` if it did go to exile (`exiled_incarnation`: as it was).
struct EntryFrame {
  ObjId object;
  ObjId exiled;
  uint16_t exiled_incarnation;
};
// costs.cc: "counter it unless its controller pays N".
struct UnlessPayFrame {
  ObjId card;
  int32_t amount;
  uint16_t incarnation;
};
// mulligan.cc: keeping or mulliganing (G-1).
struct MulliganFrame {
  enum Pc : uint8_t { kKeepOrMulligan, kBottom };
  Player player;      // who decides
  bool second;        // the other player already kept
  int32_t to_bottom;  // london: cards still to put on the bottom
};
// phase_todos.cc: a phase cost asked (T-13): pay it or suffer its penalty.
struct PhaseCostFrame {
  int32_t todo;  // index into phase_todo_
  Player player;
};
// occurrences.cc: an occurrence an effect makes, held at its time point
// before it happens (E-1, E-3), when some card of the game responds before
// occurrences of its kind: "before" triggers happen first, then it happens
// if it still does. A life change (one player, `amount` gained or, if
// negative, lost), a tap or untap, or objects that move together to `to`
// (E-5): those are [begin, end) of OccurrenceState::moving. A life change
// moves nothing: its `begin` is the number of its before-record, which a
// before trigger's change_amount step finds it by, and `end` the sum of
// those changes to its size, applied together as it happens (E-7). A move's
// `amount` is the number of its first step-A record: moving[begin + i]'s
// is occurrence amount + i.
struct OccurFrame {
  // kInstead: the replacements of a life change (kGone once one applied)
  // or of each move, tap or untap (kReplaced takes out the ones they
  // replaced) (E-3 A).
  enum Pc : uint8_t { kInstead, kBefore, kHappen, kGone, kReplaced };
  EventKind kind;
  Player player;
  Zone to;
  // What comes once the move happened: for the state check's (T-1.5), the
  // check goes on; for a land played (T-6), the play's own occurrence and
  // a state check.
  enum Then : uint8_t { kNothing, kCheckState, kLandPlayed };
  Then then;
  int32_t amount;
  int32_t begin, end;
};

struct Frame {
  FrameKind kind = FrameKind::kTurn;
  uint8_t pc = 0;
  union {
    std::array<int32_t, 4> raw{};  // all fields zero when made; hashed as raw bytes
    PhaseFrame phase;
    NeutralFrame neutral;
    BatchFrame batch;
    CastFrame cast;
    InterruptsFrame interrupts;
    ResolveFrame resolve;
    TriggersFrame triggers;
    PreventionFrame prevention;
    AttackFrame attack;
    DrawFrame draw;
    DestroyFrame destroy;
    ReactionFrame reaction;
    DiscardFrame discard;
    EntryFrame entry;
    UnlessPayFrame unless_pay;
    MulliganFrame mulligan;
    PhaseCostFrame phase_cost;
    OccurFrame occur;
    SearchFrame search;
    ShuffleInFrame shuffle_in;
    KeepFewestFrame keep_fewest;
  };

  // The fields as raw words, whatever the kind (hashing, debugging).
  std::array<int32_t, 4> Words() const {
    std::array<int32_t, 4> w;
    std::memcpy(&w, &raw, sizeof w);
    return w;
  }

  static Frame Of(FrameKind kind) {
    Frame f;
    f.kind = kind;
    return f;
  }
  static Frame NewNeutral(bool in_attack) {
    Frame f = Of(FrameKind::kNeutral);
    f.neutral.in_attack = in_attack;
    return f;
  }
  static Frame NewBatch(Player first) {
    Frame f = Of(FrameKind::kBatch);
    f.batch.window.Open(first);
    return f;
  }
  static Frame NewCast(int32_t item, PlayAs play, Reaction reaction, ObjId about) {
    Frame f = Of(FrameKind::kCast);
    f.cast.item = item;
    f.cast.play = play;
    f.cast.reaction = reaction;
    f.cast.about = about;
    return f;
  }
  static Frame NewInterrupts(int32_t item) {
    Frame f = Of(FrameKind::kInterrupts);
    f.interrupts.item = item;
    return f;
  }
  static Frame NewResolve(int32_t item) {
    Frame f = Of(FrameKind::kResolve);
    f.resolve.item = item;
    return f;
  }
  static Frame NewTriggers(int32_t first) {
    Frame f = Of(FrameKind::kTriggers);
    f.triggers.first = first;
    return f;
  }
  static Frame NewPrevention(int32_t damage_begin) {
    Frame f = Of(FrameKind::kPrevention);
    f.prevention.damage_begin = damage_begin;
    return f;
  }
  static Frame NewDraw(Player player, int32_t count) {
    Frame f = Of(FrameKind::kDraw);
    f.draw.player = player;
    f.draw.left = count;
    return f;
  }
  static Frame NewDestroy(int32_t begin, int32_t end, bool lethal, int32_t item = -1) {
    Frame f = Of(FrameKind::kDestroy);
    f.destroy.begin = begin;
    f.destroy.end = end;
    f.destroy.item_plus1 = lethal ? -1 : item + 1;
    return f;
  }
  static Frame NewReaction(Reaction kind, ObjId about, Player drawing) {
    Frame f = Of(FrameKind::kReaction);
    f.reaction.kind = kind;
    f.reaction.about = about;
    f.reaction.drawing = drawing;
    return f;
  }
  static Frame NewDiscard(Player player, int32_t count, bool random, int32_t item = -1) {
    Frame f = Of(FrameKind::kDiscardToMax);
    f.discard.player = player;
    f.discard.count = count;
    f.discard.random = random;
    f.discard.item_plus1 = item + 1;
    return f;
  }
  static Frame NewSearch(Player player, int32_t count, FilterId find, Zone to, ObjId source,
                         bool graveyard = false) {
    Frame f = Of(FrameKind::kSearch);
    f.search.graveyard = graveyard;
    f.search.player = player;
    f.search.left = count;
    f.search.find = find;
    f.search.to = to;
    f.search.source = source;
    return f;
  }
  static Frame NewUntapChoice() { return Of(FrameKind::kUntapChoice); }
  static Frame NewKeepFewest(FilterId find, ObjId source) {
    Frame f = Of(FrameKind::kKeepFewest);
    f.keep_fewest.find = find;
    f.keep_fewest.source = source;
    f.keep_fewest.player = kNoPlayer;
    f.keep_fewest.keep = -1;
    f.keep_fewest.left = 0;
    return f;
  }
  static Frame NewShuffleIn(uint8_t players, uint8_t zones, int32_t draw) {
    Frame f = Of(FrameKind::kShuffleIn);
    f.shuffle_in.players = players;
    f.shuffle_in.zones = zones;
    f.shuffle_in.draw = draw;
    f.shuffle_in.put = {0, 0};
    return f;
  }
  static Frame NewEntry(ObjId object) {
    Frame f = Of(FrameKind::kEntry);
    f.entry.object = object;
    f.entry.exiled = kNoObj;
    return f;
  }
  static Frame NewUnlessPay(ObjId card, int32_t amount, uint16_t incarnation) {
    Frame f = Of(FrameKind::kUnlessPay);
    f.unless_pay.card = card;
    f.unless_pay.amount = amount;
    f.unless_pay.incarnation = incarnation;
    return f;
  }
  static Frame NewMulligan(Player first) {
    Frame f = Of(FrameKind::kMulligan);
    f.mulligan.player = first;
    return f;
  }
  static Frame NewPhaseCost(int32_t todo, Player player) {
    Frame f = Of(FrameKind::kPhaseCost);
    f.phase_cost.todo = todo;
    f.phase_cost.player = player;
    return f;
  }
  static Frame NewOccur(EventKind kind, Player player, int32_t amount, int32_t begin, int32_t end,
                        Zone to) {
    Frame f = Of(FrameKind::kOccur);
    f.occur.kind = kind;
    f.occur.player = player;
    f.occur.amount = amount;
    f.occur.begin = begin;
    f.occur.end = end;
    f.occur.to = to;
    return f;
  }
};
static_assert(sizeof(Frame) <= 20, "a frame is small: the stack of frames is copied with the game");
static_assert(std::is_trivially_copyable_v<Frame>);

// The stack of frames, whose frames never move. Every RunX and ApplyX holds
// a Frame& to its own frame while it pushes others (a destruction from the
// state check, a draw, a resolution); a std::vector that grew under such a
// reference reallocated and freed the frame (issue 40: the phase began
// twice). Here the storage is reserved once for kMaxFrames and never
// reallocated while frames are on it: a copy or an assignment reserves
// before it copies, and push refuses a frame beyond the capacity (the game
// then ends, Game::Push), so a reference to a frame stays good until that
// frame is popped. Only an empty stack may take new storage.
class FrameStack {
 public:
  // Deeper than any game the rules allow plays (a few dozen at most); a
  // loop of frames pushing frames stops here instead of growing memory.
  static constexpr size_t kMaxFrames = 256;

  FrameStack() = default;
  FrameStack(const FrameStack& o) { *this = o; }
  FrameStack(FrameStack&&) noexcept = default;
  FrameStack& operator=(FrameStack&&) noexcept = default;
  FrameStack& operator=(const FrameStack& o) {
    if (this == &o) return *this;
    if (v_.capacity() < kMaxFrames) {
      v_.clear();
      v_.reserve(kMaxFrames);
    }
    v_.assign(o.v_.begin(), o.v_.end());
    return *this;
  }
  // False, and nothing pushed, when the stack is full.
  [[nodiscard]] bool push(const Frame& f) {
    if (v_.size() >= kMaxFrames) return false;
    if (v_.capacity() < kMaxFrames) v_.reserve(kMaxFrames);  // only when empty (above)
    v_.push_back(f);
    return true;
  }
  void pop_back() { v_.pop_back(); }
  void clear() { v_.clear(); }
  void swap(FrameStack& o) noexcept { v_.swap(o.v_); }
  bool empty() const { return v_.empty(); }
  size_t size() const { return v_.size(); }
  Frame& back() { return v_.back(); }
  const Frame& back() const { return v_.back(); }
  Frame& operator[](size_t i) { return v_[i]; }
  const Frame& operator[](size_t i) const { return v_[i]; }
  auto begin() { return v_.begin(); }
  auto end() { return v_.end(); }
  auto begin() const { return v_.begin(); }
  auto end() const { return v_.end(); }
  auto rbegin() { return v_.rbegin(); }
  auto rend() { return v_.rend(); }
  auto rbegin() const { return v_.rbegin(); }
  auto rend() const { return v_.rend(); }

 private:
  std::vector<Frame> v_;  // capacity kMaxFrames whenever it holds a frame
};

}  // namespace strata
