// Compiled cards: the immutable tables a TOML card file turns into. A game
// never sees TOML; it refers to cards by CardId and to their filters by index
// into the CardDb's filter pool. Nothing here names a particular card.
#pragma once

#include <algorithm>
#include <bit>
#include <limits>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/inlined_vector.h"
#include "engine/types.h"
#include "engine/words.h"

namespace strata {

// A mana cost: generic, colored symbols, colorless {C}, X and hybrid symbols.
struct ManaCost {
  int generic = 0;
  std::array<uint8_t, kColorCount> colored{};
  int colorless = 0;  // {C}
  int x_count = 0;
  absl::InlinedVector<ColorMask, 2> hybrid;  // each symbol payable by any color of its mask
  int ManaValue() const;
  ColorMask Colors() const;
  std::string ToString() const;
  bool Empty() const;
};

// Words in filters and parts may be a placeholder for the effect's choice.
inline constexpr Word kChoiceWord = 0xFFFE;
using WordList = absl::InlinedVector<Word, 2>;

enum class TargetWhat : uint8_t { kPermanent, kCreatureOrPlayer, kPlayer, kSpell, kCard };

// A filter over current characteristics (docs/cards.md "Filters").
struct Filter {
  bool self = false, other = false, enchanted = false;
  int8_t controller = -1;  // 0 = you, 1 = opponent
  int8_t owner = -1;
  uint8_t zones = 1u << static_cast<int>(Zone::kBattlefield);
  TypeMask types = 0, not_types = 0;
  WordList subtypes, not_subtypes;  // subtype words (text changes apply)
  SupertypeMask supertypes = 0, not_supertypes = 0;
  WordList colors, not_colors;  // color words
  int8_t colorless = -1;
  KeywordMask keywords = 0, not_keywords = 0;
  int8_t no_abilities = -1, tapped = -1, face_down = -1, token = -1;
  // A creature with at least this power (Meekstone: 3); kAnyPower: any.
  static constexpr int16_t kAnyPower = INT16_MIN;
  int16_t min_power = kAnyPower;
  // A creature with at most this power (Dwarven Warriors: 2); kAnyPower: any.
  int16_t max_power = kAnyPower;
  CardId name = kNoCard;  // has this card's name (Plague Rats)
  // "with mana value X" (Detonate): a target's mana value is the spell's X,
  // once X is chosen (targets come first, T-8; legal_actions.cc).
  bool mana_value_x = false;
  // Its place in the attack (docs/rules.md T-7.2): any of these bits
  // (attacking, blocking, blocked, unblocked); 0: anywhere. The layers
  // don't read it (the loader refuses it where they would): the game
  // does, in Game::Matches.
  static constexpr uint8_t kAttackingCreature = 1, kBlockingCreature = 2, kBlockedCreature = 4,
                           kUnblockedCreature = 8, kCombatPlaces = 15;
  // Its history this turn (docs/rules.md T-7.5), kept in the same byte so
  // that a filter without them costs no test more: attacked this turn (or
  // didn't), its controller has controlled it continuously since their most
  // recent turn began (T-7.5a), its toughness is less than the source's
  // power (T-7.5c). Read where `combat` is, by Game::InCombatAs.
  static constexpr uint8_t kAttackedThisTurn = 16, kNotAttackedThisTurn = 32, kSinceTurnBegan = 64,
                           kToughnessBelowSourcePower = 128;
  uint8_t combat = 0;
  // "Blocking or blocked by it": the source (Cockatrice); read as `combat`.
  bool combat_with_self = false;
  std::string name_text;  // as written, resolved once the file's cards are known
  TargetWhat what = TargetWhat::kPermanent;
  bool operator==(const Filter&) const = default;
};
using FilterId = int16_t;
inline constexpr FilterId kNoFilter = -1;

// A number in a card: a constant or something read from the game.
struct Value {
  enum Kind : uint8_t {
    kConst,
    kX,
    kManaValue,
    kLinkedPower,
    kLinkedToughness,
    kSourcePower,
    kSourceToughness,
    kCount,
    kSumManaValue,
    kCardTypes,
    kEventPower,
    kEventToughness,
    kEventAmount,      // of the occurrence that triggered (E-5)
    kTargetPower,      // the first target's power as resolution began (Swords to Plowshares)
    kDiedThisTurn,     // objects matching the filter put into a graveyard from play this turn
    kTargetToughness,  // the first target's toughness as resolution began (Blood Lust)
    kTargetManaValue,  // the first target's mana value as resolution began (Crumble)
    // Damage dealt to "you" (the body's controller) this turn, by sources
    // whose types as they dealt it match the filter's `types` (Simulacrum,
    // Reverse Polarity: docs/rules.md T-4.1)
    kDamageThisTurn,
    // The untapped lands the active player controlled as the turn began
    // (Power Surge, docs/rules.md T-10.1): kept only in a game with a card
    // that reads it (turn_.turn_start_lands_cards).
    kTurnStartUntappedLands,
    // The cards this resolution's discards have put into a graveyard so far
    // (G-9: Recall's "for each card discarded")
    kDiscarded,
    // The counters of a kind (Value::counter_kind) on the body's source as
    // the step resolves (G-8.3: Armageddon Clock's doom counters)
    kCountersOnSource,
    // The counters this resolution's remove_counters steps have removed so
    // far ("remove a counter. If you do, ...": Living Artifact, G-8.3)
    kRemoved,
    // The body's targets its destroy steps have put into a graveyard so far
    // (T-8.5: Volcanic Eruption's "the number of Mountains put into a
    // graveyard this way")
    kDestroyed
  };
  Kind kind = kConst;
  int constant = 0;
  int plus = 0;
  int times = 1;
  // Computed numbers (issue 37): "half, rounded down (up)" divides the
  // scaled number; "if this would reduce it below 1" bounds it. Kept with
  // the value so a resolving body and a continuous effect read it alike.
  int divide = 1;
  bool round_up = false;
  int at_least = std::numeric_limits<int>::min();
  int at_most = std::numeric_limits<int>::max();
  FilterId filter = kNoFilter;
  int8_t counter_kind = 0;  // kCounters: EffectStep::counter_kind's numbers

  // base * times + plus, then divided (rounded down or up), then bounded
  // (card_db.cc).
  int Scale(int base) const;
};

// Where a part of a continuous effect applies, before the edition maps it to
// a concrete (sub)layer (RULES.md L-1, L-2).
enum class PartLayer : uint8_t {
  kCopy,
  kFaceDown,
  kControl,
  kText,
  kType,
  kColor,
  kAbility,
  kPtSet,
  kPtModify,
  kPtSwitch,
  kCounters,
  kRule
};
std::string_view PartLayerName(PartLayer l);

// One part of a continuous effect (docs/cards.md "Parts").
struct Part {
  PartLayer layer = PartLayer::kPtModify;
  int copy_of_target = 0;          // 1-based target of the creating spell
  bool has_except_colors = false;  // the copy keeps these colors
  ColorMask except_colors = 0;
  bool keep_phase = false;  // the copy keeps the source card's phase abilities
  bool replace_word_choice = false;
  // type layer
  TypeMask add_types = 0, remove_types = 0;
  bool has_set_types = false;
  TypeMask set_types = 0;
  WordList add_subtypes;
  bool has_set_creature_types = false;
  WordList set_creature_types;
  bool all_creature_types = false;
  bool has_set_land_types = false;
  WordList set_land_types;
  SupertypeMask add_supertypes = 0, remove_supertypes = 0;
  // color layer
  bool has_set_colors = false;
  WordList set_colors, add_colors;
  // ability layer
  bool remove_all_abilities = false;
  KeywordMask add_keywords = 0, remove_keywords = 0;
  bool add_colorless_mana = false;  // gains "{T}: Add {C}" (Imprisoned in the Moon)
  int grant_phase = -1;             // index into the source card's granted_phase
  int combat_rule = -1;             // index into the source card's combat_rules (T-7.1)
  // The protection this part grants doesn't remove its source: "Enchanted
  // creature has protection from black. This effect doesn't remove Black
  // Ward" (docs/rules.md T-1.5: an Aura of a color the creature has
  // protection from goes to the graveyard, but for this one).
  bool spares_source = false;
  // power / toughness
  bool has_power = false, has_toughness = false;
  Value power, toughness;
  // game rules (RULES.md L-8)
  int max_hand_size = -1;  // -1: unchanged
  bool no_max_hand_size = false;
  int cost_increase = 0, cost_reduce = 0, cost_min = 0;
  bool cant_lose = false;    // player effect (Platinum Angel)
  bool skip_draw = false;    // game-rule effect: skip the draw phase's draw (Null Profusion)
  int damage_reduction = 0;  // player effect: damage to the player is reduced (Urza's Armor)
  // Mana (docs/rules.md T-10.1): any number of lands on the player's turns
  // (Fastbond); the player may pay 1 life for {C} whenever they could
  // activate a mana ability (Channel); the player's artifacts, creatures,
  // lands (these types) enter play tapped as they are played (Kismet).
  bool any_number_of_lands = false, life_for_mana = false;
  TypeMask enter_tapped = 0;
  // docs/rules.md T-1.8: in their untap phase the players untap only one
  // permanent of each of these types (Winter Orb: lands).
  TypeMask untap_only_one = 0;
  int8_t players = 2;  // 0 you, 1 opponents, 2 all
};

// A combat restriction that names what it is about with filters (T-7.1),
// granted in the ability layer like a keyword, and read at each attack and
// block: "can't be blocked except by Walls and/or creatures with flying"
// (Elven Riders), "can't be blocked by Walls" (Juggernaut), "can't block
// creatures with power 2 or greater" (Ironclaw Orcs), "can't attack unless
// defending player controls an Island" (Sea Serpent). The filters are a
// union, read from the creature that has the rule (its controller is
// "you").
struct CombatRule {
  enum Kind : uint8_t {
    kBlockedOnlyBy,   // blockers must match one filter
    kNotBlockedBy,    // no blocker may match any
    kCantBlockThose,  // can't block an attacker matching one
    kAttacksOnlyIf,   // attacks only while the defending player controls a match
    // T-5.6: "can attack as though it had haste" (Instill Energy): no
    // filters; its attacks only, never its {T} abilities.
    kAttacksAsThoughHaste,
  };
  Kind kind = kBlockedOnlyBy;
  absl::InlinedVector<FilterId, 2> filters;
};

struct Condition {
  int8_t source_tapped = -1;
  FilterId you_control = kNoFilter;
  // "As long as it's (not) your turn" (Angry Mob): 1 during the turns of the
  // source's controller, 0 during the others', -1 always.
  int8_t your_turn = -1;
  bool Always() const { return source_tapped < 0 && you_control == kNoFilter && your_turn < 0; }
};

// One continuous effect: a static ability, or the template of an effect a
// spell or ability creates. Its parts act in several layers (RULES.md L-5).
struct EffectTemplate {
  std::string name;
  bool cda = false;
  absl::InlinedVector<FilterId, 2> affects;  // union; empty: the source (static) or target
  Condition condition;
  std::vector<Part> parts;
  int implicit_keyword = -1;  // exists while the object has this keyword (changeling)
};

// kUntilYourUpkeep: "until your next upkeep" (E-6.1: Xenic Poltergeist), a
// continuous effect that ends as its controller's next upkeep begins.
// kThroughNextTurn (T-7.4): until the end of the next turn of the player
// who controls the affected object as the effect begins ("can't attack
// during its controller's next turn": Wall of Dust).
enum class Duration : uint8_t { kPermanent, kEndOfTurn, kUntilYourUpkeep, kThroughNextTurn };

enum class Op : uint8_t {
  kContinuous,
  kDraw,
  kDamage,
  kGainLife,
  kLoseLife,
  kPoison,  // G-11: the players get N poison counters
  kTap,
  kUntap,
  kDestroy,
  kExile,
  kBounce,
  kRegenerate,
  kAddCounters,
  kRemoveCounters,  // "remove N <kind> counters from it" as an effect (G-8.2: Clockwork Beast)
  kCounterSpell,
  kAddMana,
  kDiscard,
  kDelayed,
  kPrevent,          // a shield: prevent the next N damage to the target this turn
  kReplaceNextDraw,  // the next draw this turn: look at the top N, keep one, rest to the bottom
  kSacrifice,
  kCounterUnlessPay,  // counter target spell unless its controller pays N (Power Sink)
  kTurnFaceDown,
  kAttach,        // attach the source (Equipment) to the target
  kNextTime,      // arms a "next time" delayed trigger (E-6): CardDef::next_times
  kChangeAmount,  // a before trigger changes the size of the gain or loss it waits on (E-7)
  kRedirect,      // a replacement of damage: that damage is dealt to the target instead (E-3 A)
  kChangeTarget,  // "when ... would" (E-1): a spell's targets, before it is cast, become another
  kMill,          // each player puts the top N cards of their library into their graveyard
  kSearch,        // each player searches their library for up to N cards, then shuffles (G-3)
  kDiscardHand,   // each player discards their whole hand, together (G-4)
  kShuffleIn,     // each player shuffles their hand and/or graveyard into their library, then draws
  kPreventCombat,      // all combat damage this turn, or all dealt to and by the objects (T-7.2)
  kCantBeRegenerated,  // the objects can't be regenerated this turn (Hurr Jackal, E-3 C)
  kEmptyPool,          // each player loses their unspent mana (T-10.1: Mana Short, Drain Power)
  // The objects (cards in a graveyard) are put onto the battlefield under
  // their owners' control, new objects making their entry choices (G-9)
  kReturnToBattlefield,
  kExtraTurn,  // the player takes an extra turn after this one (T-1.6: Time Walk)
  // Each player puts `amount` token creatures of `token`'s definition onto
  // the battlefield under their control (G-12: The Hive, Goblin Warrens)
  kCreateToken,
  // The player returns N cards of their choice from their graveyard to
  // their hand, all of it if it holds fewer (G-9: Recall)
  kReturnFromGraveyard,
  // Each player keeps as many of their permanents matching `from` (or, with
  // no filter, cards in hand) as the player with the fewest has, and
  // sacrifices (discards) the rest (G-19: Balance)
  kKeepFewest,
};

// A reference to who or what an effect step acts on.
struct Ref {
  enum Kind : uint8_t {
    kNone,
    kTarget,
    kSelf,
    kYou,
    kOpponent,
    kEnchanted,
    kEventObject,      // the object of the occurrence that triggered (last known)
    kEventController,  // its controller when it last was on the battlefield
    kEachPlayer,
    kTargetController,  // the controller of the first target as resolution began
    // The controller of the occurrence's source (the damage's) as it is now,
    // or as it last was (Backfire, Eye for an Eye: T-4.1)
    kEventSourceController,
    // The object the occurrence's object was attached to just before it,
    // while still that object on the battlefield (an Aura leaving: "that
    // creature", Animate Dead; G-9)
    kEventEnchanted
  } kind = kNone;
  int index = 0;  // target slot, 1-based
};

// A counter kind's number (EffectStep::counter_kind): 0 +1/+1, 1 -1/-1, 2
// any other name (one pool), 3 +1/+0 and 4 -0/-2 (docs/rules.md G-8.1).
inline int CounterKindOf(std::string_view c) {
  return c == "p1p1" ? 0 : c == "m1m1" ? 1 : c == "p1p0" ? 3 : c == "m0m2" ? 4 : 2;
}

struct EffectStep {
  Op op = Op::kDraw;
  Ref target;
  Value amount;          // count / amount
  int counter_kind = 0;  // CounterKindOf: 0 p1p1, 1 m1m1, 2 other (counter_name), 3, 4
  // add_counters (G-8.2): "can't cause the total number of them on it to be
  // greater than N" (Clockwork Beast: 7); 0: no such limit.
  int16_t up_to_total = 0;
  // remove_counters in a before trigger on damage: each counter removed
  // prevents 1 of that damage ("for each 1 damage that would be dealt to
  // it, if it has a +1/+1 counter on it, remove one and prevent that 1
  // damage": Rock Hydra, docs/rules.md G-8.3).
  bool prevent_removed = false;
  // next_time in an activated ability (T-5.5): armed only if that ability
  // of the source has been activated this many times or more this turn,
  // read as it resolves (Dragon Whelp: 4); 0: always.
  int8_t if_activated = 0;
  std::string counter_name;   // as the card names it ("charge", "carrion"), for its text
  ColorMask mana_colors = 0;  // add_mana: choices
  bool mana_any = false, mana_colorless = false;
  // add_mana (T-10.1): one more mana of a kind the tapped land made (Mana
  // Flare, `mana = "event"`); one of a color a land an opponent controls
  // could make (Fellwar Stone, `mana = "opponent_lands"`).
  bool mana_event = false, mana_opponent_lands = false;
  // add_mana (T-10.2): mana of the color chosen as it was cast or activated
  // (`mana = "chosen"`, with the body's `choose = "color"`: Black Lotus).
  bool mana_chosen = false;
  // delayed: when its effects happen: 0 at the beginning of the next
  // upkeep, 1 at the beginning of its controller's next main phase (T-1.7:
  // Mana Drain), its values read as the spell resolved.
  int8_t delayed_at = 0;
  // empty_pool (T-10.1): first tap each land the player controls (Mana
  // Short), for mana (Drain Power: its mana goes to the pool first); the
  // mana lost goes to the controller's pool (`give`).
  bool tap_lands = false, for_mana = false, give = false;
  int continuous = -1;  // index into CardDef::continuous
  Duration duration = Duration::kPermanent;
  FilterId affects = kNoFilter;
  int exclude_target = 0;
  // G-17: `affects` read from target N's player: "you" in its filter is
  // that player ("all artifacts target player owns": Hurkyl's Recall); 0:
  // the controller, as everywhere.
  int relative_to = 0;
  std::vector<EffectStep> delayed;
  FilterId condition = kNoFilter;  // `if`: only when the target matches (Hydroblast: red)
  bool cant_regenerate = false;    // damage: creatures dealt damage can't be regenerated this turn
  // G-18: "if <it> is destroyed this way": done only if a destroy step of
  // this body before it destroyed something (Cosmic Horror).
  bool if_destroyed = false;
  bool divide = false;        // damage: divided evenly among the targets, rounded down
  FilterId from = kNoFilter;  // prevent: only damage from a source matching this
  int controller_of = 0;      // continuous: the effect's controller is target N's controller
  bool random = false;        // discard: at random
  Zone to = Zone::kHand;      // search: where the cards found go (hand or battlefield)
  // shuffle_into_library: the zones shuffled in (bits of Zone), and the
  // cards each player then draws (kDrawAsMany: as many as they put in).
  uint8_t zones = 0;
  static constexpr int kDrawAsMany = -1;
  int draw = 0;
  // next_time: the trigger it arms and the other occurrence ("A or B") that
  // fires it too, indices into CardDef::next_times (-1: none); `duration`
  // is how long it waits (end of turn by default, E-6).
  int16_t next_time = -1, next_time_or = -1;
  // create_token: the token's definition, a CardDef with `token` set (G-12).
  CardId token = kNoCard;
};

enum class ChoiceKind : uint8_t {
  kNone,
  kColor,
  kCreatureType,
  kBasicLandType,
  kWordPair,
  kCreatureTypePair,
  kCopy,
  kMode,
  kExile,
  kColorPair,
  kLandTypePair,
  // "A source of your choice" (T-4.1): a permanent or a spell on the stack,
  // chosen as it is cast; a next-time trigger with `source = "chosen"`
  // waits on damage from that source alone
  kSource
};

struct TargetSpec {
  FilterId filter = kNoFilter;
  TargetWhat what = TargetWhat::kPermanent;
  int max = 1;                 // up to this many targets (Fireball)
  int min = 1;                 // at least this many, distinct (G-15: "two target artifacts")
  bool x = false;              // T-8.5: exactly X targets (`max = "x"`): min 0, max 20
  ManaCost extra_target_cost;  // added for each target beyond the first
};

// When a spell or ability may be played outside batches (E-3 C reactions):
// regeneration while a creature is headed to the graveyard, replacing a draw.
enum class Reaction : uint8_t { kNone, kDestroy, kDraw };

struct AbilityBody {
  std::vector<TargetSpec> targets;
  ChoiceKind choose = ChoiceKind::kNone;
  std::vector<EffectStep> steps;
  std::vector<AbilityBody> modes;  // a modal body: one mode is chosen as it is cast
  Reaction reaction = Reaction::kNone;
  bool prevention = false;  // prevents damage: playable in damage-prevention steps (T-4)
  bool TargetsSpell() const {
    for (auto& t : targets)
      if (t.what == TargetWhat::kSpell) return true;
    return false;
  }
};

// The kinds of window a body can be played in, one bit each: a batch (T-2,
// T-3), an interrupt (T-8), a damage-prevention step (T-4), and a reaction
// to each kind of occurrence (E-3 C). `play` is the engine's PlayAs.
inline uint8_t WindowBit(int play, Reaction reaction) {
  if (play < 2) return static_cast<uint8_t>(1u << play);
  return static_cast<uint8_t>(4u << static_cast<int>(reaction));
}
// The windows some mode of `b` is allowed in (BodyAllowed, mode by mode).
uint8_t BodyWindows(const AbilityBody& b);

struct ActivatedAbility {
  std::string name;
  ManaCost cost;
  bool tap = false, sacrifice_self = false;
  // "Exile <this>" as a cost (T-8.1: Feldon's Cane): moved to exile as
  // the costs are paid, as a sacrifice of itself is to the graveyard.
  bool exile_self = false;
  bool sorcery = false;  // only as a sorcery (equip)
  // "Activate only during your turn" (Disrupting Scepter), "only during
  // your upkeep" (Colossus of Sardia): -1 is any phase.
  bool only_your_turn = false;
  int8_t only_phase = -1;
  // "Activate only if you have exactly N cards in hand" (T-5.1: Library of
  // Alexandria's seven); -1: any number.
  int8_t only_hand_size = -1;
  // "Activate no more than N times each turn" (T-5.3: Vampire Bats' two;
  // "only once each turn" is one): 0, no limit. "Activate only if you've
  // controlled <this> continuously since your most recent turn began"
  // (T-5.4: Rocket Launcher).
  uint8_t per_turn = 0;
  bool since_turn_began = false;
  // T-5.7: "activate only ... before attackers are declared": only in a
  // phase up to the main phase, while the active player's attack has not
  // begun this turn.
  bool before_attackers = false;
  bool only_opponents_turn = false;  // T-5.7: `turn = "opponents"` (Nettling Imp)
  // Some limit ActivationAllowedThisTurn reads: per_turn, since_turn_began,
  // before_attackers, only_opponents_turn (one test for the offer).
  bool limited = false;
  // Its activations are counted (T-5.3, T-5.5): it has a `per_turn` limit,
  // or an effect reads the count (`if_activated`).
  bool counted = false;
  int discard = 0, life = 0;
  bool discard_random = false;  // the `discard` cards are picked at random (Coral Helm)
  // "Sacrifice a <filter>" (Atog: an artifact): a permanent its controller
  // controls matching it, chosen as the cost is paid (T-8.1).
  FilterId sacrifice = kNoFilter;
  // "Remove N <kind> counters from it" (docs/rules.md G-8): counters of
  // this kind (EffectStep::counter_kind's numbers; -1: none) removed from
  // the source as the cost is paid, `remove_counters` of them, or with
  // `remove_counters_x` any number, chosen as X is (the value "x" reads
  // it): Triskelion, the Mana Batteries.
  int8_t remove_counter_kind = -1;
  bool remove_counters_x = false;
  int remove_counters = 0;
  std::string remove_counter_name;  // for its text
  // "Any player may activate this ability" (docs/rules.md G-8.4: Armageddon
  // Clock): offered to the permanent's controller's opponent too, who pays
  // it and controls the ability on the stack.
  bool any_player = false;
  bool mana_ability = false;
  // T-10.2: a mana ability the payment does not use (a cost beyond {T}, or
  // mana of a color chosen as it is activated: Black Lotus, Apprentice
  // Wizard, Celestial Prism): offered as an action wherever its controller
  // may play something, its mana added at once, never on the stack.
  bool manual_mana = false;
  AbilityBody body;
};

// T-10: a mana ability the automatic payment taps (Game::ManaSources,
// MakesMana): {T} its only cost, one step making a fixed number of mana,
// one of any of its colors or N of one color or colorless. Any other mana
// ability is T-10.2's (`manual_mana`): offered as an action.
inline bool AutomaticManaAbility(const ActivatedAbility& a) {
  if (!a.mana_ability || !a.tap || !a.cost.Empty() || a.sacrifice_self || a.life || a.discard ||
      a.body.steps.size() != 1 || a.body.choose != ChoiceKind::kNone)
    return false;
  const EffectStep& st = a.body.steps[0];
  if (st.mana_chosen) return false;
  const unsigned colors = st.mana_any ? 0x1Fu : st.mana_colors;
  const int amount = st.amount.kind == Value::kConst ? st.amount.constant : 0;
  return amount >= 1 && amount <= 8 && (amount == 1 || std::popcount(colors) <= 1);
}

// The occurrences every game event passes through (RULES.md E-).
enum class EventKind : uint8_t {
  kZoneChange,
  kDraw,
  kCast,
  kPhaseBegin,
  kDamage,
  kPlay,
  kPhaseEnd,
  kLifeChange,
  kAttack,
  kBlock,
  kTap,
  kUntap,
  // E-2: "after an effect resolves" needs one to resolve (kResolve: a
  // spell or activated ability that resolved, not one countered or
  // fizzled); "after effects resolve", "after attackers (blockers) are
  // declared" name time points that need nothing to happen (a batch
  // resolved, whatever its effects did; an attack's declarations, with
  // no creature declared too).
  kResolve,
  kEffectsResolved,
  kAttackersDeclared,
  kBlockersDeclared,
  // "At end of combat" (docs/rules.md T-7.2): a time point after the
  // combat damage of every attack with an attacker, while attackers and
  // blockers are still in combat.
  kEndOfCombat,
  // G-16: a state trigger ("when you control no Islands"): no occurrence
  // has this kind; the state check queues such a trigger while its
  // condition holds (Game::QueueStateTriggers).
  kState
};
inline constexpr int kEventKinds = static_cast<int>(EventKind::kState) + 1;
// When a triggered ability responds to its occurrence (RULES.md E-1), or
// kInstead: a replacement, applied at step A of E-3, after which the
// occurrence does not happen; its effects happen in its place.
enum class Timing : uint8_t { kBefore, kWhen, kAfter, kInstead };
inline constexpr int kTimings = 4;

struct TriggeredAbility {
  std::string name;
  Timing timing = Timing::kAfter;
  EventKind event = EventKind::kZoneChange;
  Zone from = Zone::kNone, to = Zone::kNone;
  FilterId filter = kNoFilter;  // on the occurrence's object (last known values)
  int8_t player = -1;           // 0 you, 1 opponent: who draws, casts, is dealt damage ...
  bool self_source = false;     // damage: dealt by the source itself
  // damage: dealt by a source matching this (its current values, or its
  // last known ones): "by creatures" (Uncle Istvan), "enchanted creature
  // deals" (Spirit Link) (T-4.1)
  FilterId source_filter = kNoFilter;
  // damage, in a next-time trigger: dealt by the source chosen as the body
  // that armed it was cast ("a source of your choice", T-4.1)
  bool chosen_source = false;
  bool combat = false;           // damage: combat damage only
  bool damaged_by_self = false;  // zone change: the object was dealt damage by the source this turn
  // damaged_by_self or if_dealt_damage_to_opponent: one test for both in
  // TriggerFits (set at load; in the byte before unless_any).
  bool rare_checks = false;
  FilterId unless_any = kNoFilter;  // only if no object matches (Pestilence at end of turn)
  // `if_any` (G-8.2): unless_any's filter read the other way, only if some
  // object matches (Clockwork Beast: "if it attacked or blocked this combat").
  bool if_any = false;
  int8_t damage_to = -1;    // damage: 0 to a player, 1 to a creature
  int8_t life_change = -1;  // life_change: 0 a gain only, 1 a loss only
  // tap: only a tap for mana (T-10.1: Manabarbs). A trigger on it whose
  // body only adds mana is a triggered mana ability (Mana Flare, Wild
  // Growth): its mana is made as the land is tapped, inside the payment.
  bool for_mana = false, mana_trigger = false;
  bool not_first_land = false;  // play: not the first land its player played this turn (Fastbond)
  // Only while its source is tapped ("if Mana Vault is tapped", E-3 A
  // family): read as it triggers; on an artifact it stays on while the
  // artifact is tapped, being about that (T-12).
  bool source_tapped = false;
  // "If <this> dealt damage to an opponent this turn" (an intervening "if",
  // docs/rules.md T-4.2: Whirling Dervish), read as it would trigger.
  bool if_dealt_damage_to_opponent = false;
  std::string phase;
  // "If an opponent controls more <filter> than you" (an intervening "if",
  // G-10: Land Tax): read as it would trigger, and again as it resolves.
  FilterId if_opponent_more = kNoFilter;
  // "If <this> is untapped" (an intervening "if", G-10: Howling Mine): read
  // as it would trigger, and again as it resolves.
  bool if_untapped = false;
  bool has_optional_cost = false;
  ManaCost optional_cost;
  AbilityBody body;
};

// Copiable values an entry mode sets (Primal Clay).
struct EntryMode {
  bool has_power = false, has_toughness = false;
  int power = 0, toughness = 0;
  KeywordMask keywords = 0;
  bool has_subtypes = false;
  SubtypeSet subtypes;
  TypeMask add_types = 0;
};

// "During your upkeep, do X" (T-12) or "pay C during your upkeep or suffer P"
// (T-13). Phase costs may also be granted by a static ability (Energy Flux).
struct PhaseAbility {
  std::string name;
  int phase = 1;  // Phase: 0 untap ... 5 cleanup
  // Whose phase: 0 the controller's, 1 the enchanted permanent's
  // controller's, 2 each player's, played by that player (T-12.1).
  int8_t whose = 0;
  bool is_cost = false;   // T-13 phase cost
  bool optional = false;  // "you may": not forced before the phase ends
  // T-13.1: a phase cost whose body happens when it is paid ("you may pay
  // {4} during your upkeep to untap it"), nothing when refused.
  bool reward = false;
  // T-13.2: "unless that player pays {1} or 1 life" (Erosion): this much
  // life may be paid in place of the mana; 0, none.
  int16_t or_life = 0;
  // T-13.3: "sacrifice a creature other than it; if you can't, <penalty>"
  // (Lord of the Pit): a phase cost paid by sacrificing a permanent of its
  // payer that fits, in place of mana; mandatory while one fits.
  FilterId sacrifice = kNoFilter;
  ManaCost cost;
  AbilityBody body;  // the effect (T-12), the penalty for not paying (T-13) or the reward (T-13.1)
};

struct EntryChoice {
  ChoiceKind choose = ChoiceKind::kNone;
  FilterId filter = kNoFilter;
  bool optional = false;
  ColorMask except_colors = 0;
  bool has_except_colors = false;
  bool keep_phase = false;  // a copy keeps this card's phase abilities (Vesuvan)
  std::vector<EntryMode> modes;
  AbilityBody body;  // effects as it enters (Ixidron turns creatures face down)
  bool has_effects = false;
};

// A card as the engine knows it: printed characteristics plus ability tables.
// Non-keyword abilities are numbered statics first, then activated, then
// triggered; an object's ability mask has one bit per number.
struct CardDef {
  std::string name, file;
  int line = 0;
  // A token's definition (G-12), made by the loader from a create_token
  // step's `token` table: no card of the pool (no deck, list or count holds
  // it; not found by name), only what a token object's printed values are.
  bool token = false;
  // What of docs/rules.md T-10.1 the card uses (Game::NoteManaCard): a rule
  // part about mana or lands, a mana ability of computed colors, the value
  // turn_start_untapped_lands.
  // kManualMana: a mana ability with a cost beyond {T} or a color chosen
  // as it is activated (docs/rules.md T-10.2; Black Lotus).
  static constexpr uint8_t kManaRule = 1, kComputedMana = 2, kTurnStartLands = 4, kManualMana = 8;
  // Beside them, in the same byte (one test as a card is dealt), what of
  // docs/rules.md G-8.3, G-8.4 and T-4.2 it uses (Game::NoteManaCard; the
  // heuristic reads the first and last): an ability any player may
  // activate; a trigger reading whether its source dealt damage to an
  // opponent this turn; counters removed in place of damage.
  static constexpr uint8_t kAnyPlayer = 16, kDealtToPlayer = 32, kPreventRemoved = 64;
  uint8_t mana_cards = 0;
  ManaCost cost;
  ColorMask colors = 0;
  TypeMask types = 0;
  SupertypeMask supertypes = 0;
  SubtypeSet subtypes;
  KeywordMask keywords = 0;
  int power = 0, toughness = 0;
  bool power_star = false, toughness_star = false;
  // Its counters stay on it as it moves from the battlefield to any zone
  // but a hand or a library (Skullbriar, the Walking Grave).
  bool keeps_counters = false;
  // It enters the battlefield tapped, however it enters (Nevinyrral's
  // Disk): no tap happens, it is simply tapped on arrival (docs/rules.md G-7).
  bool enters_tapped = false;
  // Some value of it reads the damage dealt this turn (Value::kDamageThisTurn):
  // a game dealt it keeps that tally (T-4.1; Game::tally_damage).
  bool tallies_damage = false;
  // G-16: some trigger is a state trigger (event kState).
  bool state_triggered = false;
  // T-13.3: some phase cost of it is paid by a sacrifice (Lord of the Pit).
  bool phase_sacrifice = false;
  // Some part of it limits the untap phase's untaps (T-1.8: Winter Orb).
  bool untap_limit = false;
  FilterId enchant = kNoFilter;
  // An Aura that enchants a card in a graveyard (Animate Dead, G-9): its
  // enchant filter read on the battlefield, where the card it returns is.
  FilterId enchant_returned = kNoFilter;
  bool has_equip = false;
  ManaCost equip;
  EntryChoice enters;
  std::vector<EffectTemplate> statics;
  std::vector<EffectTemplate> keyword_statics;  // changeling's CDA: no mask bit
  // A source of static effects (L-1): printed statics or a keyword's CDA.
  bool HasStatics() const { return !statics.empty() || !keyword_statics.empty(); }
  // Is it a source where it is? Only CDAs work outside the battlefield (L-3).
  bool StaticsWorkIn(Zone z) const {
    if (!HasStatics() || z == Zone::kBattlefield) return HasStatics();
    for (const auto* templates : {&statics, &keyword_statics})
      for (const EffectTemplate& t : *templates)
        if (t.cda) return true;
    return false;
  }
  std::vector<ActivatedAbility> activated;
  std::vector<TriggeredAbility> triggers;
  std::vector<PhaseAbility> phase;
  std::vector<PhaseAbility> granted_phase;  // granted to others by this card's statics
  std::vector<CombatRule> combat_rules;     // granted by this card's statics (T-7.1)
  bool has_spell = false;
  AbilityBody spell;
  // T-5.2: "cast this spell only during an opponent's turn (1) / your turn
  // (0)" (-1: any), "after their upkeep step" (a phase: cast only in a
  // later one; -1: any) (Reset).
  int8_t spell_turn = -1, spell_after_phase = -1;
  bool spell_before_attackers = false;  // T-5.7 (Siren's Call)
  bool SpellTimeLimited() const {
    return spell_turn >= 0 || spell_after_phase >= 0 || spell_before_attackers;
  }
  // T-7.5: some filter of it reads which creatures attacked this turn: a
  // game dealt it keeps that memory (TurnState::attacked).
  bool reads_attacks = false;
  std::vector<EffectTemplate> continuous;  // made by spell and ability steps
  // "The next time ..." delayed triggers its steps arm (E-6): not abilities
  // of the card (no mask bit), they set nothing off until a step arms them.
  std::vector<TriggeredAbility> next_times;
  int AbilityCount() const {
    return static_cast<int>(statics.size() + activated.size() + triggers.size() + phase.size());
  }
  uint32_t AllAbilitiesMask() const;
  // Printed values every layer computation starts from, worked out once by
  // Precompute() when the card is loaded (layers run thousands of times a game).
  int8_t printed_mana_value = 0;
  uint32_t printed_abilities = 0;
  ColorMask printed_land_mana = 0;  // from basic land types
  // The windows (WindowBit) the card's spell, and its activated abilities
  // other than mana abilities, can ever be played in: listing plays skips a
  // card whose bit is clear without asking anything of the state.
  uint8_t spell_windows = 0, ability_windows = 0;
  void Precompute();
  int ActivatedBit(int i) const { return static_cast<int>(statics.size()) + i; }
  int TriggerBit(int i) const { return static_cast<int>(statics.size() + activated.size()) + i; }
  int PhaseBit(int i) const {
    return static_cast<int>(statics.size() + activated.size() + triggers.size()) + i;
  }
  std::string AbilityName(int bit) const;
  std::string TypeLine() const;
};

// Has `c` the keyword printed, or does a static ability or an effect it
// makes give it (a part's add_keywords)? For per-game flags that skip work
// no card of the game can need (Game::AttackOwed).
bool GivesKeyword(const CardDef& c, int keyword);

// The whole pool: cards, the filters they use, and a name index.
struct CardDb {
  std::vector<CardDef> cards;
  std::vector<Filter> filters;
  absl::flat_hash_map<std::string, CardId> by_name;  // lowercased name
  // What the walks run at every window and state check read of a card,
  // packed apart from the large CardDef (a cache miss each): four bytes a
  // card, the whole pool in a few cache lines. The loader keeps it in step
  // with `cards` (IndexHot).
  struct Hot {
    uint8_t spell_windows = 0;  // CardDef::spell_windows
    bool enchants = false;      // CardDef::enchant is set: an Aura
    bool fast = false;          // an instant or an interrupt: no sorcery timing (T-5)
    uint8_t symbols = 0;        // the printed cost's symbols, X as none, at most 255
  };
  std::vector<Hot> hot;
  // What dealing one of a card's objects tells a game (Game::AddObject's
  // per-game flags), worked out once here rather than for every object of
  // every game: the zones its layer effects reach (LayerZones), whether it
  // has or grants phase abilities, has or gives "attacks each turn if
  // able", has a static ability that reads whose turn it is, links an
  // object as it enters, is an Aura whose enchant filter reads the tapped
  // flag; its triggers on lands tapped for mana and triggered mana
  // abilities; and the occurrences its triggers listen to, per Timing.
  struct Dealt {
    uint8_t layer_zones = 0;
    bool phase = false, attack_owed = false, your_turn = false, linking = false;
    bool tapped_enchant_filter = false;
    bool banding = false;        // has or gives banding (T-7.3)
    bool untap_limit = false;    // a limit on the untap phase's untaps (T-1.8)
    bool unique = false;         // is, or makes something, legendary or World (G-13, G-14)
    bool state_trigger = false;  // has a state trigger (G-16)
    bool attack_memory = false;  // reads which creatures attacked this turn (T-7.5)
    bool mana_tap = false,
         mana_trigger = false;  // a trigger on a tap for mana, a triggered mana ability (T-10.1)
    std::array<uint32_t, kTimings> listened{};
  };
  std::vector<Dealt> dealt;
  const Dealt& DealtOf(CardId id) const { return dealt[id]; }

  // The card named `name`, in any letter case; failing that, the card
  // whose name reads the same once both are folded (FoldCardName):
  // `Juzam Djinn` finds `Juzám Djinn`, `Aether Storm` finds `Æther Storm`.
  CardId Find(std::string_view name) const;
  const CardDef& operator[](CardId id) const { return cards[id]; }
  // A card of the pool: not a token's definition (G-12). Lists, counts,
  // random decks and coverage read only these.
  bool InPool(CardId id) const { return !cards[id].token; }
  size_t PoolSize() const { return cards.size() - token_defs; }
  int token_defs = 0;  // how many of `cards` are tokens' definitions
  const Hot& HotOf(CardId id) const { return hot[id]; }
  // Fills `hot` and `dealt` once the pool is loaded (the card loader).
  void IndexHot();
  const Filter& filter(FilterId f) const { return filters[f]; }
  // Known names closest to `name` (for error messages), whole words
  // weighed first (`Bolt` is near `Lightning Bolt`), only names near
  // enough to be a misspelling: none when nothing is.
  std::vector<std::string> Closest(std::string_view name, int n = 3) const;
  // "closest: A, B, C", or what to do when no name is close, for the
  // parentheses after an unknown name.
  std::string ClosestNote(std::string_view name) const;

  // Names the pool's cards were once spelt by (data/card_aliases.toml,
  // docs/decks.md), folded (FoldCardName), to the card. Find does not read
  // them: a deck, scenario or fuzz failure file that names a card by one
  // gets the card and a note saying so (FindAlias, AliasNote).
  absl::flat_hash_map<std::string, CardId> aliases;
  // The card `name` is an old spelling of, or kNoCard.
  CardId FindAlias(std::string_view name) const;
  // "'OLD' is an old spelling of 'NAME'; loaded as that".
  std::string AliasNote(std::string_view name, CardId id) const;
};

// A card name as the tools of the ecosystem may spell it, reduced to one
// form: letters lowercased, accents dropped (`á` is `a`), ligatures spelt
// out (`Æ` is `ae`), typographic quotes and dashes made plain, spaces
// collapsed, and a split card's halves joined by one `/` whatever the
// separator (`Fire // Ice`, `Fire/Ice`). docs/decks.md has the table.
std::string FoldCardName(std::string_view name);

}  // namespace strata
