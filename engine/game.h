// The engine's contract: read this first.
//
// A Game is the state plus the timing engine, behind one resumable decision
// API (DESIGN.md "The engine is resumable"). Advance() runs the rules until a
// player must decide and returns the decision with its legal actions; the
// caller applies one with Apply() and advances again. Nothing here calls a
// player back: the rules in progress live on an explicit stack of small
// frames (a phase, a batch, a casting, a resolution, an occurrence, an
// attack), so a copy of a Game continues exactly like the original, and
// scripted scenarios, simulations, replays and look-ahead all drive a game
// the same way:
//
//   Game g(db, options);
//   g.Deal(deck_a, deck_b, /*first=*/0);
//   for (const Decision* d = &g.Advance(); d->kind != DecisionKind::kNone;
//        d = &g.Advance())
//     g.Apply(policy.Choose(g, *d));  // an index into d->actions
//
// Invariants. The named checks of engine/invariants.h (in brackets) test
// them after every action in `strata fuzz`, the scenario runner and
// `--checked` runs.
//  1. Advance() returns a decision of kind kNone only when the game is over
//     (Over()) or stopped (SetStop, or no rules left in progress); any other
//     decision has at least one action.
//  2. Apply(i) needs a valid index into the pending decision's actions; any
//     other index (or no decision pending) is refused: false, and nothing
//     changes [apply].
//  3. A copy continues exactly like the original given the same decisions
//     (equal Fingerprint()) [copy].
//  4. A game depends only on (options with its seed, decks, decisions): a
//     replay ends the same [replay]. No global state, no clock, no address.
//  5. No allocation once warm: a Game reused through Reset() for many games
//     allocates nothing per game (tests/alloc_test.cc).
//  6. Characteristics are always current; with checked_layers the cache
//     equals a fresh computation at every read (L-9) [layers].
//  7. Between any two actions the rules hold: every card in one zone
//     [zones], no object appears or vanishes [objects_kept], one batch at a
//     time and empty at a phase's end (T-3) [one_batch, batch_at_phase_end],
//     pools empty after mana burn [pools_after_burn], the right player
//     decides first [first_decision], sorcery speed [sorcery_speed], phase
//     effects once a phase [phase_effect_once], legal attackers and blockers
//     [attackers, blockers], a countered spell never resolves [countered],
//     nothing a state check removes survives it [state_check], life follows
//     the occurrences [life], timestamps only grow [timestamps], no result
//     depends on object numbering [numbering], games end within their caps
//     unless stalled [progress].
//  8. Play changes only on purpose: `strata bench` prints a signature of a
//     fixed set of games, pinned in tests/bench_signature; a refactor never
//     changes it.
//  9. The state has a size budget (the static_assert at the end of this
//     file): a copy is a memcpy-sized value that look-ahead copies often.
//
// Where things are: this header (public types and API); the private part
// of Game below is its data and the member functions of the rule files,
// grouped by file (engine/game.cc lists them, each opens with its rule ids);
// engine/rules_state.h has the records of rules in progress;
// engine/game_internal.h the helpers the rule files share.
#pragma once

#include <cstdint>
#include <limits>
#include <string>
#include <tuple>
#include <vector>

#include "engine/card.h"
#include "engine/deck.h"
#include "engine/layers.h"
#include "engine/mana.h"
#include "engine/rng.h"
#include "engine/rules_state.h"
#include "engine/saturate.h"
#include "engine/state.h"

namespace strata {

// What kind of decision a player faces (DESIGN.md "Policies").
enum class DecisionKind : uint8_t {
  kNone,          // game over or stopped
  kNeutral,       // start a batch, play a land, announce an attack, or pass (T-2, T-6)
  kRespond,       // add to the batch, or pass (T-3)
  kInterrupt,     // interrupt a spell being cast, or pass (T-8)
  kTarget,        // choose a target for the spell or ability being cast
  kX,             // choose X
  kChoice,        // a mode, color, type, word or object asked while casting or entering
  kDiscard,       // choose a card to discard (a cost, or the discard phase)
  kAttackers,     // declare an attacker, or done (T-7)
  kBlockers,      // declare a blocker, or done (T-7)
  kPrevention,    // play a damage-prevention effect, or pass (T-4)
  kReaction,      // play a reaction timed to an occurrence, or pass (E-3 C)
  kTriggerOrder,  // the active player picks which trigger happens next (E-3 B)
  kOptionalCost,  // pay a triggered ability's optional cost now or never (E-3)
  kPhaseCost,     // pay a phase cost or suffer its penalty (T-13)
  kMulligan,      // keep the opening hand, or shuffle it back and draw again (G-1)
  kBottom,        // london mulligan: put a card of the kept hand on the bottom (G-1)
  kSearch,        // a card of the player's own library to find, or done (G-3)
  kSacrifice,     // a permanent to sacrifice as an ability's cost (T-8.1)
  kBand,          // join two attacking bands into one, or done (T-7.3: once attackers are declared)
  kDivide,        // where one point of a combat damage goes, among the creatures offered (T-7.3)
  kUntap,         // a permanent to untap where a limit lets only one of its kind untap (T-1.8)
};
inline constexpr int kDecisionKindCount = static_cast<int>(DecisionKind::kUntap) + 1;
std::string_view DecisionKindName(DecisionKind k);

enum class ActionKind : uint8_t {
  kPass,
  kCast,
  kActivate,
  kPlayLand,
  kAttack,
  kTargetObject,
  kTargetPlayer,
  kNumber,
  kWord,
  kObject,
  kNoChoice,
  kDone,
  kYes,
  kNo,
  kPhaseEffect,
  kBlock,
  kKeep,
  kMulligan,
  kBand  // two attacking bands become one (T-7.3): `object` and `value`, the bands' first creatures
};

// One legal action. `object` is the card, source, target, attacker or chosen
// object (for a kDivide decision, the creature dealt the point, `value` its
// source); `index` an ability number (0-based) or a pending phase ability;
// `value` X, a word, a mode, a player, or the attacker a blocker blocks;
// for keep and mulligan, the number of cards the hand will have once kept.
struct Action {
  ActionKind kind = ActionKind::kPass;
  ObjId object = kNoObj;
  int16_t index = 0;
  int32_t value = 0;
  bool operator==(const Action&) const = default;
};

struct Decision {
  DecisionKind kind = DecisionKind::kNone;
  Player player = kNoPlayer;
  std::vector<Action> actions;
};

class Game;
std::string_view ActionKindName(ActionKind k);
// Any action as one line of text, for logs, replays and fuzz reports:
// "pass", "cast #12", "X blocks Y", "target player B", ... With a game,
// objects are named ("Lightning Bolt#12") and words spelled out.
std::string ActionText(const Action& a);
std::string ActionText(const Game& g, const Action& a);

enum class Outcome : uint8_t { kPending, kResolved, kCountered, kFizzled };

// Why a game ended.
// kPoison came last, so the counts studies saved before it keep their order.
enum class EndReason : uint8_t { kNone, kLife, kLibrary, kBoth, kTurnCap, kActionCap, kPoison };
inline constexpr int kEndReasonCount = 7;
std::string_view EndReasonName(EndReason r);

// The structured game log (off by default): who did what, damage,
// prevention, counters, fizzles, triggers, zone changes. Each entry also has
// a readable line (Game::log()).
enum class LogKind : uint8_t {
  kInfo,
  kPhase,
  kCast,
  kActivate,
  kResolve,
  kFizzle,
  kCounter,
  kTrigger,
  kZoneChange,
  kDamage,
  kPrevent,
  kShield,
  kLife,
  kDraw,
  kMana,
  kRegenerate,
  kDestroy,
  kPlayLand,
  kAttack,
  kBlock,
  kGameOver
};
struct LogEvent {
  int turn = 0;
  Phase phase = Phase::kMain;
  LogKind kind = LogKind::kInfo;
  Player player = kNoPlayer;
  ObjId object = kNoObj, other = kNoObj;
  int amount = 0;
};

// How often each card was cast or played and each ability used or
// triggered: filled when a Game is given one (coverage runs). Indexed by
// card, then by ability bit (CardDef numbering); `played` per card.
struct UsageStats {
  std::vector<uint32_t> played;
  std::vector<std::array<uint32_t, 32>> abilities;
  // Replacements and prevention that acted (E-3 A), and occurrences that no
  // longer happened once their "before" responses had resolved (E-3): by
  // Replaced.
  enum Replaced : uint8_t {
    kDrawReplaced,      // "instead of drawing" (Aladdin's Lamp)
    kRegenerated,       // a destruction replaced by regeneration
    kDamagePrevented,   // a shield or protection prevented damage
    kNoLongerHappened,  // a before response moved the object away
    kNextTimeFired,     // a "next time" delayed trigger fired (E-6)
    kAmountChanged,     // a before trigger changed a pending gain or loss (E-7)
    kReplacedInstead,   // a replacement ("instead") took an occurrence (E-3 A)
    kReplacedKinds
  };
  std::array<uint64_t, kReplacedKinds> replaced{};
  explicit UsageStats(size_t cards = 0) : played(cards), abilities(cards) {}
  void Merge(const UsageStats& o) {
    for (size_t c = 0; c < played.size(); ++c) {
      played[c] += o.played[c];
      for (int b = 0; b < 32; ++b) abilities[c][b] += o.abilities[c][b];
    }
    for (int k = 0; k < kReplacedKinds; ++k) replaced[k] += o.replaced[k];
  }
};

// How a player may redraw an opening hand (RULES.md G-1): `paris`, each new
// hand has one card fewer; `london`, always seven cards, then one card to
// the bottom of the library per mulligan taken; `none`, every dealt hand is
// kept. Either way a kept hand has seven cards less one per mulligan, and
// no mulligan is offered once the next hand would have no card.
enum class Mulligan : uint8_t { kNone, kParis, kLondon };
inline constexpr int kOpeningHandSize = 7;  // cards dealt, and kept without a mulligan
std::string_view MulliganName(Mulligan m);
std::optional<Mulligan> ParseMulligan(std::string_view s);

// The moments at which a rule acts and no decision lets a checker look:
// damage assigned and made final, mana burn and the life check, the state
// check, a regeneration, the beginning of a phase, discarding to the
// maximum hand size. A checker (engine/invariants.h) set with
// Game::SetAudit is called at each, reads the game then, and judges it by
// its own reading of the rules; plain play sets none and pays one test.
enum class AuditPoint : uint8_t {
  kCombatDamageAssigned,  // arg: first new index of the pending damage; +kFirstStrikeStep
  kDamageFinal,           // T-4 over, before prevention applies; arg: first pending index
  kDamageDealt,           // the step's damage dealt, before its state check
  kPhaseEnding,           // T-1.3 begins: nothing of the phase's end done yet
  kPhaseEnded,            // after mana burn and the life check (T-1.4, T-1.5)
  kStateChecked,          // a state check just ran (T-1.5, T-4)
  kRegenerated,           // arg: the object regenerated (E-3)
  kPhaseBegun,            // the phase's own beginning (untap, cleanup) done (T-1)
  kDiscardToMaxBegins,    // the discard phase's discarding to the maximum (T-1)
  kDiscardToMaxEnds,
  kCostsPaying,       // a spell's or ability's mana cost about to be paid (T-8); arg: its item
  kCostsPaid,         // paid, before a {T} cost taps the source
  kResolved,          // a spell or ability resolved, before its state check or prevention step
  kLeftTogether,      // arg objects left their zones together; their occurrences are the last arg
                      // recorded (E-5)
  kGroupTriggered,    // the triggers of the arg occurrences of kLeftTogether collected (E-5)
  kUnlessPayRefused,  // "unless its controller pays" refused (Power Sink, T-8); arg: that player
  kPhaseCostPaying,   // a phase cost about to be paid (T-13); arg: its phase todo
  kPhaseCostPaid,
  kPhaseReady,     // a phase's beginning done and what it owes pushed (the draw phase's draw)
  kStepExecuting,  // a resolving item's effect step about to run (E-); arg: its index
  kStepExecuted,   // it ran; frames it pushed have not (arg: the same index)
  kHappening,      // occurrence arg happens, its when and after triggers not yet collected (E-1)
  kReplacing,      // a replacement takes occurrence arg, its step-A record (E-3 A)
};
inline constexpr int kFirstStrikeStep = 1 << 20;
class RulesAudit {
 public:
  virtual void At(const Game& g, AuditPoint point, int arg) = 0;

 protected:
  ~RulesAudit() = default;
};

// Where Advance() should stop by itself (scenario `until`).
enum class StopAt : uint8_t { kNever, kNeutral, kPhaseEnd, kTurnEnd, kTurn };

struct GameOptions {
  Edition edition = Edition::kModern;
  bool free_mana = false;         // scenarios: mana costs are paid without mana
  bool checked_layers = false;    // recompute layers on every query and compare (L-9)
  bool check_invariants = false;  // the engine checks its own invariants too (engine/invariants.h)
  bool log = false;
  int turn_cap = 200;     // a game still running after this many turns is a draw
  int action_cap = 2000;  // actions in one turn before the game is a draw
  uint64_t seed = 1;      // the game's own generator (shuffles)
  // Mulligans of a dealt game (G-1). None by default, so scenarios, perft
  // counts and the fuzzer play the games they always did; `strata sim`,
  // `play` and `replay` default to paris.
  Mulligan mulligan = Mulligan::kNone;
};

// ---------------------------------------------------------------- the public API

class Game {
 public:
  Game(const CardDb& db, const GameOptions& options);
  // Starts over exactly as `Game(db(), options)` would, but keeps the
  // capacity of every buffer, so a worker that reuses one Game for many
  // games allocates nothing per game once warm. Usage counting is off again.
  void Reset(const GameOptions& options);

  // --- set-up (scenarios, deck loading) ---
  ObjId AddObject(CardId card, Player owner, Zone zone);
  void StartAt(Phase phase, Player active, int turn);
  // A real game: shuffled libraries, seven-card hands, `first` starts in its
  // untap phase and skips its first draw. With mulligans (options), the
  // first decisions are each player's keep-or-mulligan, `first` first.
  void Deal(const Deck& a, const Deck& b, Player first);
  // Mulligans a player took this game (G-1).
  int mulligans(Player p) const { return turn_.mulligans[p]; }
  // Count casts, plays and ability uses into `usage` (not owned; may be null).
  void SetUsage(UsageStats* usage) { trace_.usage = usage; }
  // A checker called at each AuditPoint (not owned; null: none). Const: it
  // watches and changes nothing. A copy of the game has none.
  void SetAudit(RulesAudit* audit) const { audit_.audit = audit; }
  // What happened to each object this game, for per-card statistics: bits
  // of Seen. Kept for every object, reset when it is added.
  enum Seen : uint8_t { kSeenInHand = 1, kSeenOpening = 2, kSeenCast = 4 };
  uint8_t seen(ObjId o) const { return turn_.seen[o]; }
  // Skip the first draw of the starting player (RULES.md "Game and objects").
  void SkipFirstDraw(bool skip) { timing_.skip_first_draw = skip; }
  GameState& MutableState() {
    state_.Touch();
    return state_;
  }

  // --- the decision API ---
  const Decision& Advance();
  // Applies one of the pending decision's actions; an index that names no
  // offered action (or no decision pending) is refused: false, and nothing
  // changes.
  bool Apply(int action_index);
  void SetStop(StopAt stop, int value = 0) {
    timing_.stop = stop;
    timing_.stop_value = value;
  }
  bool Over() const { return timing_.over; }
  int Winner() const { return timing_.winner; }  // 0, 1, or -1 for a draw / none
  EndReason end_reason() const { return timing_.end_reason; }
  int last_draw_turn(Player p) const { return turn_.last_draw[p]; }
  int lowest_life_turn(Player p) const { return turn_.lowest_life_turn[p]; }
  int refilled_until(Player p) const { return turn_.refilled_until[p]; }

  // --- queries ---
  const GameState& state() const { return state_; }
  // The damage assigned and waiting for its prevention step (T-4): public,
  // what the players may prevent or redirect (T-4.1).
  const std::vector<PendingDamage>& PendingDamages() const { return damage_.pending; }
  // The damage dealt to player p this turn by sources of any of `types` (0:
  // any), in a game that tallies it (TurnState::tally_damage; else 0):
  // public, what Simulacrum and Reverse Polarity read (T-4.1).
  int DamageTakenThisTurn(Player p, TypeMask types) const {
    int n = 0;
    for (const auto& t : occ_.damage_taken)
      if (t.player == p && (!types || (t.source_types & types))) n += t.amount;
    return n;
  }
  // Is player p deciding a search of their library (G-3)? They see it then.
  // (Not a choice from their graveyard, G-9: that one is the same decision.)
  bool Searching(Player p) const {
    return timing_.decision.kind == DecisionKind::kSearch && timing_.decision.player == p &&
           !(timing_.frames.back().kind == FrameKind::kSearch &&
             timing_.frames.back().search.graveyard);
  }
  // A name for player p's mana as it is now: which permanents are on the
  // battlefield, their characteristics, tapped and summoning-sick flags,
  // and p's pool. Two calls that return the same number saw the same, in
  // this game or in a copy of it (a number is never given out twice, in
  // any game or thread), so a policy may keep what it works out from that
  // mana under it. It is the stamp of the engine's kept supply (costs.cc).
  // What a permanent with these characteristics makes when tapped to pay a
  // cost (T-10): false if it is no such source; else its colors and amount
  // (the rule ManaSources uses). `made.object` is left alone.
  bool ManaOf(const Characteristics& ch, ManaSource& made) const;
  // The permanents player p controls whose characteristics make mana
  // (ManaOf), tapped or not: the set ManaSources walks.
  const ObjBits& ManaPermanents(Player p) const { return ActivatablePermanents().mana[p]; }
  uint64_t ManaStamp(Player p) const {
    KeptSupply(p);
    return kept_mana_[p].stamp;
  }
  const CardDb& db() const { return *db_; }
  const GameOptions& options() const { return opt_; }
  // Inline: the engine asks millions of times a second, almost always of a
  // fresh cache; the recompute and the checked mode are out of line.
  // Always inline: the engine and the heuristic ask it everywhere, and a
  // large caller (the heuristic's EvaluateBody) had the compiler call it.
  [[gnu::always_inline]] const Characteristics& Chars(ObjId o) const {
    UpdateLayers();
    if (!cache_.library_done && state_.obj.zone[o] == Zone::kLibrary) [[unlikely]]
      RefreshLibrary();
    return cache_.chars[o];
  }
  // Chars of an object known to be on the battlefield (the walks over
  // permanents): never a library's, so no test for one.
  [[gnu::always_inline]] const Characteristics& PermanentChars(ObjId o) const {
    UpdateLayers();
    return cache_.chars[o];
  }
  // Brings the cache up to date for every object but, maybe, libraries'.
  void UpdateLayers() const {
    if (layers_fresh_for_ != state_.version) [[unlikely]]
      RefreshLayers();
  }
  // MatchFilter on this game's characteristics, with the cache completed
  // first if `f` reaches a library (LayerCache::library_done).
  bool Matches(FilterId f, ObjId o, const FilterContext& ctx) const;
  // A filter's combat keys (T-7.2): where `o` is in the attack, and whether it
  // blocks or is blocked by `source`.
  bool InCombatAs(const Filter& f, ObjId o, ObjId source) const;
  bool MatchesTurnHistory(uint8_t bits, ObjId o, ObjId source) const;  // T-7.5
  bool AttackedThisTurn(ObjId o) const;                                // T-7.5
  void RememberAttack(ObjId o);                                        // T-7.5
  // Inline: asked at every listing of plays and payment.
  const PlayerRules& Rules(Player p) const {
    UpdateLayers();
    return cache_.rules[p];
  }
  // T-10.1, for the players' counts of mana: what the triggered mana
  // abilities of the game add as land o is tapped for mana (how many, and
  // their colors in `colors`; 0 in a game without any: costs.cc).
  int ManaOnTapExtra(ObjId o, ColorMask* colors) const {
    return turn_.mana_trigger_cards ? ManaOnTapExtraCounted(o, colors) : 0;
  }
  int ManaOnTapExtraCounted(ObjId o, ColorMask* colors) const;
  // Does the layer cache hold libraries too (LayerCache::library_done)? For
  // tests of the computation that leaves them out.
  bool LibrariesComputed() const { return cache_.library_done; }
  uint32_t next_serial() const { return stack_.next_serial; }
  // The item's target i and the spec it fills: past the fourth, T-8.5's
  // more_targets.
  const Target& TargetAt(const StackItem& item, int i) const {
    return i < 4 ? item.targets[i] : stack_.more_targets[item.more + i - 4].target;
  }
  int SlotAt(const StackItem& item, int i) const {
    return i < 4 ? item.target_slot[i] : stack_.more_targets[item.more + i - 4].slot;
  }
  Outcome OutcomeOf(uint32_t serial) const;
  const std::vector<std::string>& log() const { return trace_.log; }
  const std::vector<LogEvent>& log_events() const { return trace_.log_events; }
  std::string ObjectName(ObjId o) const;
  bool Attacking(ObjId o) const { return combat_.flag[o] == kAttacking; }
  // A replacement took its declaration as an attacker or blocker this
  // attack (E-3 A): it is not offered again until the attack ends.
  bool DeclarationReplaced(ObjId o) const { return combat_.replaced[o]; }
  ObjId Blocking(ObjId o) const { return combat_.block_target[o]; }
  // T-7.3: the band an attacker is in, named by its first creature (the
  // attacker itself when alone); whether a and b are in one band.
  ObjId BandOf(ObjId o) const { return combat_.band[o] == kNoObj ? o : combat_.band[o]; }
  bool SameBand(ObjId a, ObjId b) const { return a == b || BandOf(a) == BandOf(b); }
  bool BandingGame() const { return turn_.banding_cards; }
  // At a kDivide decision (T-7.3): the points of this division still to
  // place, this one included; and the combat damage this step already
  // assigns to o (public: damage is assigned openly).
  int DivisionLeft() const { return combat_.div_amount - combat_.div_done; }
  int CombatDamageAssignedTo(ObjId o) const {
    int n = 0;
    for (size_t i = static_cast<size_t>(combat_.div_begin); i < damage_.pending.size(); ++i)
      if (damage_.pending[i].to.kind == Target::kObject && damage_.pending[i].to.obj.id == o)
        n += damage_.pending[i].amount;
    return n;
  }
  // Does o have banding as an attacker (T-7.3: banding, or banding when
  // attacking)?
  bool BandsAsAttacker(ObjId o) const {
    const KeywordMask k = Chars(o).keywords;
    return Has(k, kBanding) || Has(k, kBandingWhenAttacking);
  }
  // Can't o be regenerated this turn (Incinerate's damage, Hurr Jackal)?
  bool CantBeRegenerated(ObjId o) const { return damage_.no_regen[o]; }
  // Regeneration shields on o (E-3 A).
  int RegenerationShields(ObjId o) const { return state_.obj.regen_shields[o]; }
  uint64_t actions_taken() const { return timing_.actions; }
  // The spell or ability being cast right now (the innermost casting), or
  // nullptr. Public: a spell is revealed as it is cast.
  const StackItem* Casting() const;
  // Could the spell or ability of a cast / activate action target `t` in its
  // `slot` right now (in some mode)? Scripts use it to wait for the moment
  // their targets are legal.
  bool CouldTarget(const Action& a, Player p, int slot, const Target& t, int mode = -1) const;
  // CouldTarget for one action's slot and object after object (below).
  class ObjectTargets;
  // Summoning sickness (RULES.md T-7): a creature that came under its
  // controller's control this turn (entered, played as a land, or changed
  // control) and has no haste can't attack or use {T} abilities.
  bool SummoningSick(ObjId o) const;
  // SummoningSick for an attack: T-5.6's "as though it had haste" lets a
  // sick creature attack (its {T} abilities still wait).
  // T-7: has `controller` controlled o continuously since their most recent
  // turn began? A change of control not yet seen by a state check counts at
  // once. (The sickness of SummoningSick, and T-5.4's `since_turn_began`.)
  bool ControlledSinceTurnBegan(ObjId o, Player controller) const {
    return !state_.obj.sick[o] &&
           (turn_.control_seen[o] == kNoPlayer || turn_.control_seen[o] == controller);
  }
  // SummoningSick of o, a creature on the battlefield with characteristics
  // ch; and for its attack, unless it attacks as though it had haste (T-5.6).
  bool SickCreature(ObjId o, const Characteristics& ch) const {
    return !Has(ch.keywords, kHaste) && !ControlledSinceTurnBegan(o, ch.controller);
  }
  bool SickForAttack(ObjId o, const Characteristics& ch) const {
    return SickCreature(o, ch) && (!ch.combat_count || !AttacksAsThoughHaste(o));
  }
  // T-7.1 alone (not flying, landwalk or protection): do b's and a's
  // combat restrictions let b block a, were a attacking? For players that
  // weigh attacks and blocks before they are offered.
  bool RestrictionsLetBlock(ObjId b, ObjId a) const {
    const Characteristics &ac = Chars(a), &bc = Chars(b);
    return !Has(ac.keywords, kUnblockable) && !Has(bc.keywords, kCantBlock) &&
           (!(ac.combat_count | bc.combat_count) || CombatRulesLetBlock(b, a));
  }
  const std::string& layer_mismatch() const { return layer_mismatch_; }
  // L-9 once, now: brings the cache up to date and compares it with a fresh
  // computation; "" or which object differs. (checked_layers does this at
  // every query; the fuzzer does it once per action.) With
  // `characteristics_known` (an independent evaluator just agreed with every
  // cached characteristic and player's rules) the fresh computation is
  // skipped: only the sets derived from the cache are checked.
  std::string CheckLayerCache(bool characteristics_known = false) const;
  // The first invariant the engine found broken in its own checks (state
  // checks, with GameOptions::check_invariants), or "".
  const std::string& invariant_failure() const { return invariant_failure_; }
  // What a state check should have removed and is still there (a creature
  // with 0 or less toughness, or lethal damage and no destruction under
  // way), or "". Right after a state check it must be "".
  std::string StateCheckLeftovers() const;
  // A hash of everything that decides how the game goes on: two games with
  // the same fingerprint, given the same decisions, play the same.
  uint64_t Fingerprint() const;
  // What of this game, stopped at a phase's end, a scenario board
  // (SCENARIOS.md) can't say, or "": rules in progress, continuous effects of
  // resolved spells, delayed and this-turn effects. `strata fuzz --shrink`
  // starts a scenario only where this is "" (defined in engine/invariants.cc).
  std::string ScenarioGaps() const;
  const Rng& rng() const { return rng_; }
  void SetRng(const Rng& rng) { rng_ = rng; }
  uint64_t layer_checks() const { return layer_checks_; }
  // Moves that kept the layer cache instead of a recompute (KeepLayersAfterMove).
  uint64_t layers_kept() const { return layers_kept_; }

  // Mutations used by set-up, tests and tools; each moves the state version,
  // but SetTapped only where the layers read that object's tapped flag
  // (LayerCache::tapped_read).
  void MoveTo(ObjId o, Zone to, Player zone_owner);
  void SetTapped(ObjId o, bool tapped);
  void Attach(ObjId aura, ObjId to);
  void AddCounters(ObjId o, int kind, int n);
  // Counters of one kind (0 +1/+1, 1 -1/-1, 2 the named kinds' pool) on
  // `o`, and n of them taken off as a cost is paid (G-8: never below 0).
  int CountersOf(ObjId o, int kind) const;
  void RemoveCounters(ObjId o, int kind, int n);
  uint32_t AddEffectRow(const EffectRow& row, const std::vector<ObjRef>& affected);
  void EndEffect(int row);
  void SetLifeTotal(Player p, int life);
  void SetPoisonCounters(Player p, int n) { state_.players[p].poison = n; }  // G-11

  // T-5.6: has o a combat rule "can attack as though it had haste"?
  bool AttacksAsThoughHaste(ObjId o) const;
  // T-5.3, T-5.5: the times ability `index` of o, as it is, was activated
  // this turn (counted for an ability with `per_turn` or `if_activated`).
  int ActivationsThisTurn(ObjId source, int index) const;
  int FindActivation(ObjId source, int index) const;

 private:
  // ---------------------------------------------------------------- internals
  // (a newcomer may stop reading here)
  friend class InvariantChecker;        // reads the rules in progress (engine/invariants.h)
  friend struct GameInternalsForTests;  // tests corrupt what no public call can
  // The rules in progress: frames (engine/rules_state.h, one struct and one
  // program-counter enum per kind).
  using FrameKind = strata::FrameKind;
  using Frame = strata::Frame;
  using Play = PlayAs;
  static constexpr ObjId kAboutDestroying = 0xFFFE;  // a reaction about a destruction's objects
  enum CombatFlag : uint8_t { kNotInCombat, kAttacking, kBlocking };

  // The layer cache's slow paths (Chars, UpdateLayers, Matches): bring it up
  // to date (and, checked, compare it with a fresh computation); add the
  // libraries to a cache computed without them; which entries hold a result.
  void RefreshLayers() const;
  void RefreshLibrary() const;
  bool CachedEntry(ObjId o) const;
  // Does a layer effect of this game reach a library (turn_.layer_zones)?
  bool LibrariesInLayers() const {
    return (turn_.layer_zones >> static_cast<int>(Zone::kLibrary)) & 1;
  }
  // An object as the last layer computation's filters saw it: where, of
  // which types, under whose control (LayerReach).
  struct LayerView {
    Zone zone = Zone::kNone;
    TypeMask types = 0;
    uint8_t players = 0;
    bool source = false;  // its characteristics had static abilities
  };
  LayerView LayerViewOf(ObjId o) const;
  // After MoveTo, with the layer cache good just before it: keeps it good
  // when the move can only have changed the object's own entry.
  void KeepLayersAfterMove(ObjId o, const LayerView& before, Zone to);
  // A write to something the state check reads and the version does not
  // cover (OccurrenceState::check_inputs).
  void StateCheckInputChanged() { ++occ_.check_inputs; }
  // The layer cache holds this state's results, or will after a recount of
  // the self-counting CDAs (LayerCache::recount_version).
  bool CacheGood() const {
    return cache_.version == state_.version || cache_.recount_version == state_.version;
  }
  // Keeps the cache good after a change to `o` alone, if no entry but its
  // own can have changed and its own is now its printed values: no filter
  // of the last computation could match `o` as it was (`before`) or as it
  // is (null: no effect of the game reaches either zone).
  void KeepLayersForOwnChange(ObjId o, const LayerView* before);
  // A permanent entering under `p`'s control (T-7): the controller is set
  // after the move, which keeps the cache as the move did when it can.
  void SetControllerOnEntry(ObjId o, Player p);

  // A frame on top of the stack. Frames already on it do not move (a
  // Frame& stays good: FrameStack); a stack already kMaxFrames deep takes
  // no more, and the game ends as a draw, like a loop without a decision.
  void Push(const Frame& f) {
    if (!timing_.frames.push(f)) FrameStackFull();
  }
  void Push(FrameKind kind) { Push(Frame::Of(kind)); }
  void FrameStackFull();
  // The loop (game.cc).
  void Decide(DecisionKind kind, Player p);
  void Step();  // runs the top frame a little (Advance's loop, inlined there)
  // Applying an action to the frame that asked for it: dispatches to the
  // ApplyX of the frame's file.
  void ApplyToFrame(Frame& f, const Action& a);

  // The turn and its phases, T-1 (turn.cc).
  void RunTurn(Frame& f);
  void RunPhase(Frame& f);
  // `skipped`: a replacement took the phase (E-3 A); only sickness ends.
  void PhaseBeginEffects(bool skipped = false);
  void RunDiscardToMax(Frame& f);
  // G-3: a library searched (library.cc).
  void RunSearch(Frame& f);
  void ApplySearch(Frame& f, const Action& a);
  void RunKeepFewest(Frame& f);
  void ApplyKeepFewest(Frame& f, const Action& a);
  // G-19: the permanents `p` controls that match `find`, read from `source`
  // with "you" that player.
  int CountKeepFewest(FilterId find, ObjId source, Player p) const;
  // T-1.8: the untap phase's limits (Winter Orb): which permanents untap.
  bool ChooseUntaps();
  void RunUntapChoice(Frame& f);
  void ApplyUntapChoice(Frame& f, const Action& a);
  bool UntapKept(ObjId o) const;
  // G-4: hands and graveyards shuffled into libraries, then draws.
  void RunShuffleIn(Frame& f);
  // The player's library in a new random order (the game's generator).
  void ShuffleLibrary(Player p);
  void ApplyDiscardToMax(Frame& f, const Action& a);

  // Phase effects and phase costs, T-12 and T-13 (phase_todos.cc).
  void CollectPhaseTodos();
  bool PhaseCostPending(ObjId o) const;
  // May this phase effect or phase cost be played now (T-12, T-13)?
  bool PhaseTodoPlayable(const PhaseTodo& t) const;
  // Does its permanent still have it (and what does it cost now)?
  bool PhaseTodoCurrent(const PhaseTodo& t, ManaCost* cost) const;
  // The spell-like item of a phase effect or cost: its source and body.
  void PhaseItem(const PhaseTodo& t, StackItem& item) const;
  void ReadSourceValues(StackItem& item) const;  // casting.cc
  void AskPhaseCost(int todo);
  void RunPhaseCost(Frame& f);
  void ResolvePhaseBody(const PhaseTodo& t);
  void ApplyPhaseCost(Frame& f, const Action& a);

  // Mulligans, G-1 (mulligan.cc).
  void RunMulligan(Frame& f);
  void ApplyMulligan(Frame& f, const Action& a);
  // G-1: `p`'s hand back into the library, shuffled, and a new hand drawn.
  void Redraw(Player p);

  // The neutral state and batches, T-2, T-3, T-6 (batch.cc).
  // A window's offer (T-2, T-3, T-4, T-8, E-3 C): `p` may pass (the
  // decision's actions already hold the pass, and any play the caller offers
  // besides) or play what AddPlayableActions finds for `kind`. False,
  // deciding nothing, when passing is all `p` can do; otherwise `p` decides
  // as `as`.
  bool OfferPlays(Player p, DecisionKind kind, DecisionKind as, Reaction reaction = Reaction::kNone,
                  ObjId about = kNoObj);
  void RunNeutral(Frame& f);
  void ApplyNeutral(Frame& f, const Action& a);
  void RunBatch(Frame& f);
  void ApplyBatch(Frame& f, const Action& a);

  // What may be played, T-5, T-9 (legal_actions.cc).
  // Inline for a spell's and an activated ability's body, asked at every
  // probe of a listing of plays; the other sources out of line.
  const AbilityBody* BodyOf(const StackItem& item) const {
    const CardDef& card = (*db_)[item.body_card];
    if (item.from == BodySource::kSpell) return card.has_spell ? &card.spell : nullptr;
    if (item.from == BodySource::kActivated) return &card.activated[item.ability].body;
    return OtherBodyOf(card, item);
  }
  const AbilityBody* OtherBodyOf(const CardDef& card, const StackItem& item) const;
  const AbilityBody* ModeBody(const StackItem& item) const;
  bool CanStart(Player p, const StackItem& probe, Play play, Reaction reaction, ObjId about) const;
  // The object an untargeted reaction is about: its source, or the
  // creature its Aura source enchants for "regenerate enchanted creature".
  ObjId ReactionSubject(const StackItem& probe, const AbilityBody& b) const;
  // G-8.4: the other player's abilities any player may activate (cold).
  [[gnu::noinline, gnu::cold]] void AddAnyPlayerActions(Player p, PlayAs play, Reaction reaction,
                                                        ObjId about);
  void AddPlayableActions(Player p, DecisionKind kind, Reaction reaction = Reaction::kNone,
                          ObjId about = kNoObj);
  bool HasLegalTargets(const StackItem& item, const AbilityBody& body) const;
  void AddTarget(StackItem& item, Target t);  // T-8.5: past the fourth too
  bool TargetLegal(const StackItem& item, int slot, const Target& t) const;
  // What a target slot asks of a target, TargetLegal's first half: found
  // once for a walk over the candidates, not once per candidate. `modal`: a
  // modal body before its mode is chosen, which TargetLegal answers mode by
  // mode; `none`: no target is legal (no body, or no such slot).
  struct TargetRule {
    FilterId filter = kNoFilter;
    TargetWhat what = TargetWhat::kPermanent;
    ObjId source = kNoObj;
    bool modal = false, none = false;
    bool TakesPlayers() const {
      return what == TargetWhat::kPlayer || what == TargetWhat::kCreatureOrPlayer;
    }
  };
  TargetRule TargetRuleOf(const StackItem& item, int slot) const;
  // The probe of a cast or activate action, in `mode` (CouldTarget); false
  // for any other action, or a mode its body does not have.
  bool ActionProbe(const Action& a, Player p, int mode, StackItem& probe) const;
  // TargetLegal's second half for an object: `ctx` is ContextFor the rule's
  // source and the item's controller (a modal rule asks TargetLegal).
  bool ObjectTargetLegal(const StackItem& item, int slot, const TargetRule& rule,
                         const FilterContext& ctx, ObjRef obj) const;
  // Whether some object the slot may reach is a legal target, the rule's
  // context found once for the walk.
  bool SomeObjectTargetLegal(const StackItem& item, int slot, const TargetRule& rule) const;
  // Calls f(o), in object order, for every object that may be a legal target
  // of the slot: the permanents only when its filter reaches no other zone.
  template <typename F>
  void ForEachTargetCandidate(const StackItem& item, int slot, F&& f) const {
    if (TargetZones(item, slot) == 1u << static_cast<int>(Zone::kBattlefield)) {
      state_.ForEachPermanent(f);
    } else {
      for (ObjId o = 0; o < state_.obj.count; ++o) f(o);
    }
  }
  // The zones the slot's filter reaches (every mode's, before one is chosen).
  uint8_t TargetZones(const StackItem& item, int slot) const;

  // Casting and interrupts, T-8 (casting.cc).
  void ActivateManaAbility(Player p, const Action& a);  // T-10.2
  void AddManaNow(const StackItem& item);
  void StartCast(Player p, const Action& a, Play play, ObjId about);
  void RunCast(Frame& f);
  void ApplyCast(Frame& f, const Action& a);
  void RunInterrupts(Frame& f);
  void ApplyInterrupts(Frame& f, const Action& a);
  void CounterSpell(ObjId card);

  // Costs and mana, T-10, L-8 (costs.cc).
  ManaCost TotalCost(const StackItem& item) const;
  // X for a cast: the most its caster can pay, and whether a value fits
  // the targets chosen "with mana value X" (Detonate; casting.cc).
  int MaxPayableX(const StackItem& item) const;
  bool XFitsTargets(const StackItem& item, int x) const;
  // T-8.3: an object's mana value as the rules read it (a target "with
  // mana value X", the first target's as a resolution begins, a sum of mana
  // values): a spell on the stack counts its X as chosen (Spell Blast and
  // Mana Drain at a Fireball); any other object, its characteristics'
  // (casting.cc).
  int ManaValueOf(ObjId o) const;
  // A spell probe's total cost (CanStart: no targets chosen, X = 0): the
  // printed cost itself, not a copy, unless a rule changes its player's
  // costs; else TotalCost, in `scratch`.
  const ManaCost& ProbeSpellCost(const StackItem& probe, ManaCost& scratch) const;
  void ManaSources(Player p, ObjId excluding, std::vector<ManaSource>& out) const;
  bool CanPay(Player p, const ManaCost& cost, int x, ObjId excluding) const;
  // A player's mana supply as CanPay counts it, from kept_mana_ when still
  // good, else counted again and kept (costs.cc).
  const ManaSupply& KeptSupply(Player p) const;
  bool KeptManaGood(Player p) const;
  // "" or how player p's kept supply, if taken as good, differs from a
  // fresh count.
  std::string CheckKeptMana(Player p) const;
  bool Pay(Player p, const ManaCost& cost, int x, ObjId excluding);
  bool PayWith(Player p, const std::vector<ManaSource>& sources, const std::vector<int>& tap,
               std::array<int, 6> after);
  bool HasManaAbility(ObjId o) const;
  // Mana (docs/rules.md T-10.1, costs.cc). The mana the triggered mana
  // abilities of the game add as land `o` is tapped for mana, making
  // `made` (Mana Flare: one more of its kind; Wild Growth: {G}), one entry
  // each, appended to `to`; and how many.
  int ManaTriggerEntries(ObjId o, const ManaSource& made, std::vector<ManaSource>* to,
                         std::vector<std::pair<CardId, int>>* fired = nullptr) const;
  // Counts the triggered mana abilities land's tap for mana set off as used
  // (strata cover, usage statistics), when usage is traced.
  void NoteManaTriggersUsed(ObjId land, const ManaSource& made);
  // Counts the mana ability of o that a payment tapped it for as used (a
  // land type's own is no card's ability); the caller tests trace_.usage.
  void NoteManaAbilityUsed(ObjId o);
  // The colors the lands player p's opponents control could make (Fellwar Stone).
  ColorMask OpponentLandColors(Player p) const;
  // Tap permanent o for mana as player p (a payment's, Drain Power's): its
  // tap is marked for mana, so triggers on it see it (Manabarbs).
  void TapForMana(ObjId o);
  // Drain Power: each untapped land player p controls is tapped for mana,
  // the mana going to their pool.
  void TapLandsForMana(Player p);
  void NoteManaCard(const CardDef& card);
  void EnterTappedByRule(ObjId o);
  void RunUnlessPay(Frame& f);
  void ApplyUnlessPay(Frame& f, const Action& a);

  // Resolution, T-3, T-11, entering (resolve.cc).
  void RunResolve(Frame& f);
  // `held`: its replacements and "before" responses came (EnterHeld).
  void EnterBattlefield(StackItem& item, bool held = false);
  Occurrence EnterOccurrence(const StackItem& item) const;
  void EnterHeld(Frame& f, StackItem& item);
  void RunEntry(Frame& f);
  void ApplyEntry(Frame& f, const Action& a);
  // Is the spell of `item` still the same object on the stack? (game.cc)
  bool SpellOnStack(const StackItem& item) const;

  // Effect operations (effects.cc).
  void ExecuteStep(StackItem& item, const EffectStep& st, Frame& f);
  void RememberDiscard(Frame& f, ObjId o);
  bool SpellTime(const CardDef& card, Player p) const;  // T-5.2
  bool BeforeAttackers() const;                         // T-5.7
  void ObjectsOf(const StackItem& item, const Ref& ref, std::vector<ObjId>& out,
                 std::vector<Player>* players);
  int Amount(const StackItem& item, const Value& v) const;

  // Occurrences and the state check, E-1, E-5, T-1.5 (occurrences.cc).
  // An occurrence of `kind` by `p` to `o` (or to no object), with `o`'s
  // values now: its last known values once it changes (E-5).
  Occurrence OccurrenceOf(EventKind kind, Player p, ObjId o) const;
  // The active player's phase beginning or ending, now.
  Occurrence PhaseOccurrence(EventKind kind) const {
    Occurrence e = OccurrenceOf(kind, state_.active, kNoObj);
    e.phase = state_.phase;
    return e;
  }
  // The same, written in place (Occur builds its record in the log).
  void FillOccurrence(Occurrence& e, EventKind kind, Player p, ObjId o) const;
  int Record(const Occurrence& e);
  void Happened(int event);
  // Occurrences by their number in the game (what Record returns): the log
  // holds only the last ones, from occ_.first_event on.
  const Occurrence& Event(int event) const { return occ_.events[event - occ_.first_event]; }
  Occurrence& Event(int event) { return occ_.events[event - occ_.first_event]; }
  int EventEnd() const { return occ_.first_event + static_cast<int>(occ_.events.size()); }
  // Drops the occurrences no later step can read (occurrences.cc), when an
  // answer finds at least this many in the log.
  void DropSettledOccurrences();
  static constexpr size_t kSettledOccurrencesKept = 16;
  // Does a card of this game respond before occurrences of this kind?
  bool ListensBefore(EventKind kind) const {
    return occ_.listened[static_cast<int>(Timing::kBefore)] >> static_cast<int>(kind) & 1;
  }
  // Does a card of this game replace occurrences of this kind (E-3 A)?
  bool ListensInstead(EventKind kind) const {
    return occ_.listened[static_cast<int>(Timing::kInstead)] >> static_cast<int>(kind) & 1;
  }
  // Is an occurrence of this kind held at its time point (E-1, E-3): for
  // responses before it, or for its replacements?
  bool Holds(EventKind kind) const { return ListensBefore(kind) || ListensInstead(kind); }
  // Does anything read occurrences of this kind: a triggered ability of a
  // card of this game, at any timing, or the life invariant (life changes
  // and damage)? The log has no other reader, so a lone occurrence of a
  // kind nobody reads is not recorded (Occur, a phase's beginning, a draw,
  // a play, a cast, a permanent spell entering): most taps, untaps and
  // phases of most games.
  bool Observed(EventKind kind) const {
    const unsigned any = occ_.listened[0] | occ_.listened[1] | occ_.listened[2] | occ_.listened[3];
    return (any >> static_cast<int>(kind) & 1) || kind == EventKind::kLifeChange ||
           kind == EventKind::kDamage;
  }
  void Before(const Occurrence& e);
  // Step A of E-3 for an occurrence about to happen: its replacements
  // ("instead") are collected on a record of their own and happen now, in a
  // triggers frame pushed above; the first the active player picks
  // applies, and the occurrence does not happen. True if one applies.
  bool InsteadNow(Occurrence e);
  // Did a replacement take the occurrence whose step-A record InsteadNow
  // made at `record` (once its triggers frame is over)? False for a record
  // that was never made (nothing listened) or is no step-A record.
  bool TakenAtStepA(int record) const {
    return record >= occ_.first_event && record < EventEnd() && Event(record).instead &&
           Event(record).replaced;
  }
  void TakeShield(const QueuedTrigger& q);
  void PreventFirst(const QueuedTrigger& q);
  // A replacement of its own untap: on while its artifact is tapped (T-12).
  bool OwnUntapReplacement(const TriggeredAbility& tr) const;
  // T-5.3, T-5.4: may the ability (`index` of `source`) be activated again
  // this turn, and has its controller controlled it since their turn began?
  bool ActivationAllowedThisTurn(const ActivatedAbility& a, ObjId source, int index) const;
  void CountActivation(ObjId source, int index);
  // Is it a time player p may activate a (turn or phase) limited ability?
  bool ActivationTime(const ActivatedAbility& a, Player p) const {
    return (!a.only_your_turn || p == state_.active) &&
           (a.only_phase < 0 || static_cast<int>(state_.phase) == a.only_phase);
  }
  // Is the replacement (source, card, triggered ability) applying now, its
  // effects resolving? It then does not apply to what they cause.
  bool Replacing(ObjId source, CardId card, int ability) const;
  // A `redirect` step of a replacement of damage: the pending damage it
  // replaces is dealt to `to` instead.
  void RedirectHeldDamage(const StackItem& item, Target to);
  bool InsteadOfDamage(int begin);
  // Step A for each object of a held move (to `to`), tap or untap (kind):
  // a step-A record per object, in one group, and the replacements that
  // fit each, in a triggers frame pushed above. True if there were any.
  bool InsteadOfEach(EventKind kind, const std::vector<ObjRef>& refs, int begin, int end, Zone to,
                     bool shields = false);
  // Takes out (empties the refs of) the moves, taps or untaps a
  // replacement took: their step-A records start at instead_begin.
  void DropReplaced(EventKind kind, std::vector<ObjRef>& refs, int begin, int end,
                    int instead_begin);
  // A `change_target` step of a before trigger on a cast: the spell's
  // targets that match `from` become `to`, where it is a legal target.
  // (On a block: ChangeHeldBlock.)
  void ChangeHeldTargets(const StackItem& item, Target to, FilterId from);
  // A spell's cast taken by a replacement: it is not cast (casting.cc).
  void ReplaceCast(int idx);
  // The same step of a before trigger on a block: the attacker the held
  // blocker was chosen to block, if it matches `from`, becomes `to`,
  // where the blocker may block that attacker.
  void ChangeHeldBlock(const StackItem& trigger, const Occurrence& e, ObjId to, FilterId from);
  // Is the item a replacement's (a trigger timed "instead") effects?
  bool IsReplacement(const StackItem& item) const;
  // A step timed before an occurrence (E-1) inside the frame that makes it
  // happen: its triggers (queued from `first` on) happen now, in a triggers
  // frame pushed above, before the occurrence and before waiting for any
  // resolution's end. True if there were any.
  bool TriggersNow(int first) {
    if (static_cast<int>(occ_.queued.size()) <= first) return false;
    Push(Frame::NewTriggers(first));
    return true;
  }
  bool BeforeNow(Occurrence e) {
    const int first = static_cast<int>(occ_.queued.size());
    e.held = true;
    Before(e);
    return TriggersNow(first);
  }
  void ZoneChange(ObjId o, Zone to);  // to its owner's zone
  // Objects that one effect or one state check moves together leave at the
  // same time (E-5): each to its owner's `to` zone.
  // `before_done`: their "before" responses were collected already (a
  // destruction's, at its step B).
  // `under`: a player who controls the objects put onto the battlefield
  // (Animate Dead's caster, G-9); else their owners do.
  void LeaveTogether(const ObjId* objs, int n, Zone to, bool before_done = false,
                     Player under = kNoPlayer);
  // A permanent put onto the battlefield by an effect, not by resolving
  // (G-9: Resurrection, Animate Dead): its entry choices and entry effects.
  // x: the X its spell was cast with (0 for a permanent put onto the
  // battlefield otherwise: G-8.3, Rock Hydra's counters).
  void StartEntry(ObjId o, Player controller, int16_t x = 0);
  // G-10: does an opponent of `you` control more permanents matching `f`
  // than `you` (Land Tax's intervening "if"), `source` the filter's "self"?
  bool OpponentControlsMore(FilterId f, ObjId source, Player you) const;
  // G-8.2, G-16: a trigger's object condition holds: no object matches its
  // `unless_any` (or, `if_any`, some does), read from `source`.
  bool AnyConditionHolds(const TriggeredAbility& tr, ObjId source, Player you) const;
  Occurrence LeaveOccurrence(ObjId o, Zone to) const;
  void BeforeLeaving(const ObjId* objs, int n, Zone to, bool held);
  bool StillHappens(const Occurrence& e) const;
  // The occurrence in `event`'s group in which `o` left the battlefield, or null.
  const Occurrence* LeftInGroup(ObjId o, int event) const;
  bool DamagedBy(const Occurrence& e, ObjId source, const Occurrence* source_left) const;
  void DealDamage(const PendingDamage& d);
  // Tapping or untapping as a game event. `before_done` (here and below):
  // its "before" responses were collected already, by the OccurFrame that
  // held it at its time point.
  // `replaced_first`: with before_done, it went through its step A (E-3
  // A) too; a {T} cost's tap does not (EffectTaps).
  void Tap(ObjId o, bool tapped, bool before_done = false, bool replaced_first = true);
  // An occurrence of one object or player, recorded only if something reads
  // its kind: the test inline, as most occurrences (taps, phase ends) are
  // read by nothing.
  void Occur(EventKind kind, Player p, ObjId o, int amount = 0, bool before_done = false,
             bool replaced_first = true) {
    if (Observed(kind)) RecordOccurrence(kind, p, o, amount, before_done, replaced_first);
  }
  void RecordOccurrence(EventKind kind, Player p, ObjId o, int amount, bool before_done,
                        bool replaced_first = true);
  void GainLife(Player p, int n, bool before_done = false);
  void LoseLife(Player p, int n, bool before_done = false);
  // An effect's life change (+ gain, - loss), tap or untap, or move of
  // objects together: at once, or, when a card of the game responds before
  // occurrences of its kind, held in an OccurFrame at its time point so its
  // "before" responses come first (E-1, E-3).
  void EffectLifeChange(Player p, int amount);
  // `replaceable` false: held for its "before" responses alone (a tap paid
  // as a {T} cost: a replacement would leave the cost unpaid).
  void EffectTaps(const std::vector<ObjId>& objs, bool tapped, bool replaceable = true);
  // The untap phase's untaps of the active player's permanents as one held
  // occurrence (E-3; a game with replacements of untaps or "before"
  // responses to them). True if a frame was pushed.
  bool HoldUntapStep();
  void EffectMove(const ObjId* objs, int n, Zone to);
  void LandPlayed(ObjId land);
  void RunOccur(Frame& f);
  // After a player's life went down: a new lowest life is a step toward
  // losing (turn_.lowest_life).
  void NoteLifeLow(Player p) {
    if (state_.players[p].life < turn_.lowest_life[p]) {
      turn_.lowest_life[p] = state_.players[p].life;
      turn_.lowest_life_turn[p] = state_.turn;
    }
  }
  // Inline: most of a game's checks (tens of thousands) find nothing changed
  // since a clean one and no player lost, and return here without a call.
  void CheckState() {
    if (StateCheckOwed() || state_.players[0].lost || state_.players[1].lost ||
        opt_.check_invariants || audit_.audit)
      RunStateCheck();
  }
  void RunStateCheck();
  // G-16: queues each state trigger whose condition holds and that is not
  // queued or being played already (a game with such a card only).
  void QueueStateTriggers();
  // Has anything a state check reads changed since the last check that
  // found nothing to do?
  bool StateCheckOwed() const {
    return occ_.clean_version != state_.version || occ_.clean_inputs != occ_.check_inputs;
  }
  // Every neutral and respond window opens on a checked state (T-1.5): what
  // changed since the last check with none following it (tapping: Castle's
  // bonus ends as its creature attacks, a tapped Kormus Bell's Swamps stop
  // being creatures under their Auras) is checked before anyone may play.
  // True if a check ran: it may have pushed a destruction, so the window's
  // frame runs at the next step, not with the Frame& its caller holds.
  // (Asked by RunNeutral and RunBatch, not by every step: a window is one
  // step in six.)
  bool StateCheckOwedAtWindow() {
    if (!StateCheckOwed()) return false;
    RunStateCheck();
    return true;
  }
  void Lose(Player p, EndReason why);
  void EndGame(int winner, EndReason why);

  // Triggers, E-3 B, E-4 (triggers.cc).
  void CollectTriggers(int event, Timing timing);
  // Does `tr`, an ability of source o controlled by `you` (with these
  // characteristics; `left` if o left in the occurrence's group), fit the
  // occurrence, all but its timing and kind?
  bool TriggerFits(const TriggeredAbility& tr, const Occurrence& e, ObjId o, Player you,
                   const Characteristics& ch, const Occurrence* left);
  // Armed "next time" triggers the occurrence fires, each once (E-6).
  void CollectNextTimes(int event, Timing timing);
  const TriggeredAbility& TriggerOf(const QueuedTrigger& q) const;
  std::string TriggerName(const QueuedTrigger& q) const;
  // E-7: a before trigger's change to the size of the life change it waits on.
  void ChangeHeldAmount(const StackItem& item, int by);
  void RunTriggers(Frame& f);
  void ApplyTriggers(Frame& f, const Action& a);

  // The damage-prevention step, T-4, E-3 A (prevention.cc).
  struct DamageState;
  void RunPrevention(Frame& f);
  void Declare(ObjId o, ObjId to, bool tap_replaced = false);
  void DeclareHeld(Frame& f);
  void DeclareAfterItsReplacements(Frame& f);
  // The "before" triggers of a chosen attacker or blocker and of an
  // attacker's tap (E-1): true if some happen now (the frame holds it).
  bool HoldBeforeDeclaring(Frame& f);
  // May o be declared an attacker now (T-7, T-7.1)? The attackers offered,
  // a held one again after its before triggers (E-1), and whether an attack
  // can be announced. (Inline: the neutral state asks it of every permanent
  // of every main phase.) o is a permanent: every caller walks them.
  bool MayAttack(ObjId o) const {
    // The controller first: most permanents asked are the other player's.
    const Characteristics& ch = Chars(o);
    if (ch.controller != state_.active || !ch.IsCreature()) return false;
    if (combat_.flag[o] != kNotInCombat || combat_.replaced[o]) return false;
    return !state_.obj.tapped[o] &&
           (!Has(ch.keywords, kDefender) || Has(ch.keywords, kAttacksDespiteDefender)) &&
           !Has(ch.keywords, kCantAttack) && !SickForAttack(o, ch) &&
           (ch.combat_count == 0 || CombatRulesLetAttack(o));
  }
  // May b block attacker a (T-7: flying and reach, landwalk against the
  // defender's basic land types `defender_lands`, protection; T-7.1: the
  // combat restrictions)? The same two uses.
  bool MayBlock(ObjId b, ObjId a, ColorMask defender_lands) const;
  // T-7.1: do o's combat rules let it attack now ("can't attack unless
  // defending player controls an Island")? Do a's and b's let b block a?
  bool CombatRulesLetAttack(ObjId o) const;
  bool CombatRulesLetBlock(ObjId b, ObjId a) const;
  // T-7.1: must `p`, the active player, announce an attack (a creature of
  // theirs that attacks each turn if able may attack)? Inline: a game with
  // no such card (turn_.attack_owed_cards) answers at once, and the
  // neutral state asks at every decision of every main phase.
  bool AttackOwed(Player p) const { return turn_.attack_owed_cards && SomeAttackOwed(p); }
  bool SomeAttackOwed(Player p) const;
  ColorMask DefenderLandTypes() const;
  int Prevent(const PendingDamage& d, DamageState& shields, bool real);
  // T-7.2: combat damage an effect "prevent all combat damage" stops.
  bool CombatDamagePrevented(const PendingDamage& d) const;
  bool BeforeDamage(int begin);
  void ApplyPrevention(Frame& f, const Action& a);

  // Reactions, draws and destruction, E-3 A, E-3 C (reactions.cc).
  void RunReaction(Frame& f);
  void ApplyReaction(Frame& f, const Action& a);
  void RunDraw(Frame& f);
  void ApplyDraw(Frame& f, const Action& a);
  void RunDestroy(Frame& f);
  // Destruction (E-3, E-5): is `o` in a destruction under way?
  bool BeingDestroyed(ObjId o) const;
  // Is `o` in a held move (tap, untap: `kind`) of an OccurFrame, still to
  // happen?
  bool BeingHeld(ObjId o, EventKind kind) const;
  bool BeingMoved(ObjId o) const { return BeingHeld(o, EventKind::kZoneChange); }
  // An Aura's one state-check condition: true unless `o` enchants and is not
  // attached to a battlefield object its enchant filter allows.
  bool AttachedLegally(ObjId o) const;
  // Is an Aura on `on` of a color `on` has protection from (T-1.5)?
  bool RepelledByProtection(ObjId aura, ObjId on) const;
  // The legend rule and the world rule (docs/rules.md G-13, G-14;
  // unique_rules.cc): the permanents they put into their owners'
  // graveyards now, into `out` (sorted); `held_moves`: skip objects already
  // on their way out. Asked only in a game with such a card
  // (TurnState::unique_cards).
  void UniqueRuleLosers(std::vector<ObjId>& out, bool held_moves) const;
  void Regenerate(ObjId o);
  // Does a regeneration shield on o replace its destruction now (E-3 A)?
  bool Shielded(ObjId o) const { return state_.obj.regen_shields[o] > 0 && !damage_.no_regen[o]; }
  // A reaction's `about`: one object, or every object of the destruction
  // being reacted to (kAboutDestroying).
  bool AboutMatches(ObjId candidate, ObjId about) const;

  // The attack, T-7 (combat.cc).
  void RunAttack(Frame& f);
  void ApplyAttack(Frame& f, const Action& a);
  // T-7.3 (games with banding): the bands that may still be joined, as
  // kBand actions (false: none); a combat damage step with bands and
  // divisions; its damage, each with one place to go (`direct`) or divided
  // by a player point by point (`division`), in order.
  bool OfferBands();
  void BandedDamage(Frame& f);
  template <typename Direct, typename Division>
  void ForEachBandedDamage(bool first, Direct direct, Division division) const;

  // Logging costs nothing when off: the text is only built when it is on.
  template <typename Text>
  void Note(LogKind kind, Player p, ObjId o, ObjId other, int amount, Text&& text) {
    if (opt_.log) AddLog(kind, p, o, other, amount, text());
  }
  void AddLog(LogKind kind, Player p, ObjId o, ObjId other, int amount, const std::string& text);
  FilterContext ContextFor(ObjId source, Player you, uint16_t choice) const;
  std::string Who(Player p) const { return p ? "B" : "A"; }

  void Replaced(UsageStats::Replaced kind, int n = 1) {
    if (trace_.usage) trace_.usage->replaced[kind] += n;
  }
  void Used(CardId card, int ability_bit) {
    if (!trace_.usage || card == kNoCard) return;
    if (ability_bit < 0)
      ++trace_.usage->played[card];
    else if (ability_bit < 32)
      ++trace_.usage->abilities[card][ability_bit];
  }

  // The data: the card pool, the options, the state, and the rules'
  // bookkeeping in a few groups. Each group names its buffers (Buffers()),
  // which Reset keeps, so a field added to a group needs nothing in Reset.
  // The checker of SetAudit, if any: one test at each AuditPoint. A copy or
  // an assignment leaves the copy's own (none for a new one): a look-ahead
  // copy of a checked game is not the game being checked.
  struct AuditHook {
    RulesAudit* audit = nullptr;
    AuditHook() = default;
    AuditHook(const AuditHook&) {}
    AuditHook& operator=(const AuditHook&) { return *this; }
  };
  mutable AuditHook audit_;
  void Audit(AuditPoint point, int arg = 0) const {
    if (audit_.audit) [[unlikely]]
      audit_.audit->At(*this, point, arg);
  }
  const CardDb* db_;
  GameOptions opt_;
  Rng rng_;
  GameState state_;
  mutable LayerCache cache_;
  // UpdateLayers' one test: the state version the cache was last found to
  // hold (RefreshLayers), or ~0 in checked mode, where every read checks
  // the cache against a fresh computation. Sound because it is only set
  // when cache_.version equals the state version, cache_.version is then
  // only ever set to the state version (recounts, kept caches), and the
  // state version only grows. A cache kept good without a refresh (Keep*)
  // costs one RefreshLayers call that finds nothing to compute.
  mutable uint64_t layers_fresh_for_ = ~uint64_t{0};
  // The permanents each player controls with an activated ability other
  // than a mana ability (CardDef::ability_windows), as of the layer cache's
  // version: listing plays walks these instead of every permanent, and
  // finds them again only when the version moves. Beside them, the
  // permanents with a triggered ability on: trigger collection, at every
  // occurrence a card of the game listens to, looks at these alone. And the
  // permanents each player controls that make mana once untapped
  // (MakesMana): ManaSources, at every listing of plays, looks at these.
  struct Activatable {
    uint64_t version = ~uint64_t{0};
    std::array<ObjBits, 2> by_player{};
    ObjBits triggering;
    std::array<ObjBits, 2> mana{};
    // The one definition of membership (game_internal.h): a permanent
    // with these characteristics joins the sets it belongs to; Remove takes
    // an object out of all of them.
    void Add(const CardDb& db, ObjId o, const Characteristics& ch);
    void Remove(ObjId o);
  };
  mutable Activatable activatable_;
  // Inline: asked at every listing of plays, every mana count and every
  // trigger collection, and found up to date nearly every time.
  const Activatable& ActivatablePermanents() const {
    UpdateLayers();
    if (activatable_.version == cache_.version) [[likely]]
      return activatable_;
    return RebuildActivatable();
  }
  const Activatable& RebuildActivatable() const;
  // Each player's mana supply (untapped sources, pool, counted), kept from
  // one CanPay to the next, across listings of plays, while nothing it
  // reads moves: the state version (zones, characteristics, control),
  // mana_epoch_ (taps and summoning sickness, which move no version), the
  // pool (compared) and the phase costs (none pending). A player's mana
  // changes a few times a turn, and is asked about at every listing.
  struct KeptMana {
    uint64_t version = ~uint64_t{0};
    uint64_t epoch = 0;
    uint64_t stamp = 0;  // ManaStamp: given out at each count
    std::vector<ManaSource> sources;
    ManaSupply supply;
  };
  mutable std::array<KeptMana, 2> kept_mana_;
  uint64_t mana_epoch_ = 0;        // moved by every tap and sickness change
  bool tapping_for_mana_ = false;  // the tap being made is for mana (T-10.1)
  mutable std::string layer_mismatch_;
  std::string invariant_failure_;
  mutable uint64_t layer_checks_ = 0;
  uint64_t layers_kept_ = 0;

  // Where the rules are: the frames, the decision pending, how the game ended.
  struct TimingState {
    FrameStack frames;  // frames never move: a Frame& survives a Push
    Decision decision;
    bool have_decision = false;
    bool over = false, stopped = false;
    int winner = -1;
    EndReason end_reason = EndReason::kNone;
    StopAt stop = StopAt::kNever;
    int stop_value = 0;
    bool skip_first_draw = false;
    int first_turn = 1;
    uint64_t actions = 0, turn_actions = 0;
    auto Buffers() { return std::tie(frames, decision.actions); }
  } timing_;

  // Spells and abilities cast, on a batch or resolving, and their outcomes.
  struct StackState {
    std::vector<StackItem> items;  // every spell or ability cast this game (by index)
    std::vector<int> batch;        // the batch: indices into items (T-3)
    std::vector<int> ibatch;       // the current interrupt batch (T-8)
    std::vector<std::pair<uint32_t, Outcome>> outcomes;
    // "Next time" and next-upkeep effects: the item that made them and the
    // steps to run (owned by the immutable CardDb).
    std::vector<std::pair<StackItem, const std::vector<EffectStep>*>> next_upkeep;
    // T-1.7: effects waiting for their controller's next main phase.
    std::vector<std::pair<StackItem, const std::vector<EffectStep>*>> next_main;
    std::vector<const std::vector<EffectStep>*> delayed_steps;  // bodies of kDelayed items
    // T-8.5: the targets of items past their fourth (StackItem::more), used
    // only by a spell with exactly X targets cast with X above 4.
    std::vector<MoreTarget> more_targets;
    uint32_t next_serial = 1;
    // Batches started this game: a batch starts when the first spell or
    // ability is successfully cast into it (T-8), not when its casting begins.
    uint32_t batches = 0;
    auto Buffers() {
      return std::tie(items, batch, ibatch, outcomes, next_upkeep, next_main, delayed_steps);
    }
  } stack_;

  // Occurrences and what waits on them (E-).
  struct OccurrenceState {
    // Occurrences of the game so far, from number first_event on: those
    // before it were settled and dropped (DropSettledOccurrences), so a
    // copy of the game no longer grows with it.
    std::vector<Occurrence> events;
    int first_event = 0;
    // Times triggers were looked for on an occurrence already dropped: a
    // frame held it without DropSettledOccurrences keeping it (invariant
    // occurrence_kept); none is looked for then.
    int dropped_reads = 0;
    std::vector<QueuedTrigger> queued;  // triggers waiting to happen (E-4)
    // Objects being destroyed, by group: a kDestroy frame owns [begin, end) (E-5).
    std::vector<ObjRef> destroying;
    // Objects an effect taps, untaps or moves, held for the "before"
    // responses to it: a kOccur frame owns [begin, end).
    std::vector<ObjRef> moving;
    // This turn: (creature, source) pairs of damage dealt, and the cards put
    // into a graveyard from play (Sengir Vampire, Ashen-Skin Zubera).
    std::vector<std::pair<ObjRef, ObjRef>> damaged_by;
    std::vector<CardId> died_this_turn;
    // This turn, in a game that tallies it (TurnState::tally_damage): each
    // damage dealt to a player, with its source's types as it dealt it
    // (T-4.1: Simulacrum, Reverse Polarity).
    struct DamageTaken {
      Player player = 0;
      int amount = 0;
      TypeMask source_types = 0;
    };
    std::vector<DamageTaken> damage_taken;
    // This turn, from its beginning to the next's (kept through the cleanup
    // phase, unlike damage_taken), in a game with a card that reads it
    // (TurnState::dealt_to_player_cards): each source that dealt damage to
    // a player, and that player (T-4.2: Whirling Dervish).
    std::vector<std::pair<ObjRef, Player>> dealt_to_players;
    // "Next time" delayed triggers armed and not yet fired (E-6), in the
    // order they were armed.
    std::vector<ArmedNextTime> armed;
    // The occurrences some card of this game can trigger on, per Timing: bit
    // EventKind. Objects only come from AddObject and every characteristic
    // names one of their cards (copies copy objects of the game), so an
    // occurrence whose bit is clear sets nothing off and needs no search.
    std::array<uint32_t, kTimings> listened{};
    // What the state check reads beyond the layers' inputs (damage, the
    // objects being destroyed, and tapped flags in a game whose enchant
    // filters read them: TurnState::tapped_enchant_filters): a count of its
    // changes. And the state version and that count
    // at the last check that found nothing to do: the same again would find
    // nothing again (CheckState).
    uint64_t check_inputs = 0;
    uint64_t clean_version = ~uint64_t{0}, clean_inputs = 0;
    auto Buffers() {
      return std::tie(events, queued, destroying, moving, damaged_by, died_this_turn, damage_taken,
                      dealt_to_players, armed);
    }
  } occ_;

  // "The next time a source matching `from` would deal damage to `to` this
  // turn, prevent that damage" (Circle of Protection).
  // A shield against a kind of source: its parameters are fixed as it is
  // made (issue 36): `text` holds the source's text changes then, so a
  // Sleight of Mind cast on Circle of Protection: Red afterwards leaves the
  // shield it made stopping red sources.
  struct SourceShield {
    Target to;
    FilterId from = kNoFilter;
    ObjId source = kNoObj;
    Player you = 0;
    Characteristics text;
  };
  // The context `sh.from` is matched in: its maker's, as it was made.
  FilterContext ShieldContext(const SourceShield& sh) const {
    FilterContext ctx = ContextFor(sh.source, sh.you, kNoWord);
    if (sh.source != kNoObj) ctx.text = &sh.text;
    return ctx;
  }
  // Damage waiting for its prevention step, and what prevents it (T-4, E-3 A).
  struct DamageState {
    std::vector<PendingDamage> pending;
    std::array<int16_t, kMaxObjects> prevent_shield{};
    std::array<int16_t, 2> player_shield{};
    std::array<bool, kMaxObjects> no_regen{};
    // "Prevent all combat damage that would be dealt this turn" (Fog), and
    // "... dealt to and by that creature this turn" (Maze of Ith): T-7.2.
    // Neither is spent; cleanup ends both, and an object's ends as it
    // leaves the battlefield (it is a new object).
    bool no_combat_damage = false;
    std::array<bool, kMaxObjects> no_combat_damage_of{};
    std::vector<SourceShield> source_shields;
    auto Buffers() { return std::tie(pending, source_shields); }
  } damage_;

  // The attack (T-6, T-7).
  struct CombatState {
    std::array<uint8_t, kMaxObjects> flag{};  // CombatFlag
    std::array<ObjId, kMaxObjects> block_target{};
    std::array<bool, 2> attacked{};
    // Creatures whose declaration as an attacker or blocker a replacement
    // took this attack (E-3 A): not offered again until the attack ends,
    // so a player can't choose them over and over.
    std::bitset<kMaxObjects> replaced{};
    // Blockers are declared this attack: an attacker not blocked now is
    // unblocked (T-7.2).
    bool blockers_declared = false;
    // T-7.3, in games with banding (turn_.banding_cards): each attacker's
    // band, by the band's first creature (kNoObj: alone), kept until the
    // attack ends even for a creature that left combat, so that a blocker
    // of it still finds the band; bands are offered until "done".
    std::array<ObjId, kMaxObjects> band{};
    bool bands_done = false;
    // A combat damage step's divisions in progress (BandedDamage): the
    // step's first pending damage, the division being made (its index
    // among the step's, recomputed at each point: nothing changes between
    // them) and how many of its points are placed.
    bool dividing = false;
    int16_t div_job = 0, div_done = 0, div_amount = 0;
    int32_t div_begin = 0;
  } combat_;

  // This turn and this game, per player and per object.
  struct TurnState {
    std::vector<PhaseTodo> phase_todo;
    std::array<int, 2> replace_draw{};  // Aladdin's Lamp: look at this many on the next draw
    std::array<uint8_t, 2> lands_played{};
    std::array<uint8_t, 2> mulligans{};
    // Each player's steps toward losing, by which the progress invariant
    // tells a stall from a loop: the turn of their last draw that left their
    // library smaller than ever before (not from an empty library, which
    // either lost or was no loss; a library refilled by Timetwister over and
    // over is no step: fuzz seed 39, game 367), and their lowest life so far
    // with the turn it was reached; 0 before any.
    std::array<int, 2> last_draw{};
    // A draw that leaves the library no smaller than ever found it refilled
    // (Timetwister, Wheel of Fortune): the turn by which drawing once a turn
    // would empty it, counted from that draw; 0 before any. Until then
    // decking binds no one, and a game may outlast the turn cap (fuzz seed
    // 100, games 38772 and 62988: sixteen Timetwisters, refilled on turns
    // 195 and 199 of 201).
    std::array<int, 2> refilled_until{};
    static constexpr int kNoLifeYet = std::numeric_limits<int>::max();
    std::array<int, 2> smallest_library{kNoLifeYet, kNoLifeYet};
    std::array<int, 2> lowest_life{kNoLifeYet, kNoLifeYet};
    std::array<int, 2> lowest_life_turn{};
    std::array<uint8_t, kMaxObjects> seen{};  // Seen bits
    // The controller each permanent had at the last state check (kNoPlayer:
    // not seen yet): a change of control makes it summoning sick (T-7).
    std::array<Player, kMaxObjects> control_seen{};
    // This game: the zones its cards' layer effects reach (LayerZones, bit
    // Zone). Without the library, layers leave libraries out until a card in
    // one is asked about (LayerCache::library_done); a move between zones
    // outside it keeps the cache (KeepLayersAfterMove).
    uint8_t layer_zones = 0;
    // Whether some card of this game has phase abilities or grants them
    // (objects only come from AddObject, and copies copy objects of the
    // game, as for OccurrenceState::listened): without, no phase has
    // anything to do (CollectPhaseTodos).
    bool phase_cards = false;
    // Whether some card of this game has or gives "attacks each turn if
    // able" (T-7.1), printed or in a part (the same reasoning): without,
    // no attack is owed and the neutral state need not look (AttackOwed).
    bool attack_owed_cards = false;
    // Whether some card of this game has or gives banding (T-7.3), printed
    // or in a part: without, no band is offered, a blocked creature is
    // blocked alone and the combat damage is assigned as T-7 says, on the
    // path that has no band to look for (Game::BandedDamage is the other).
    bool banding_cards = false;
    // Whether some card of this game has a static ability that applies only
    // in its controller's turn or only outside it (E-6: Angry Mob). Without,
    // a new turn changes no characteristic, and the layer cache is kept.
    bool your_turn_cards = false;
    // Whether some card of this game links an object to itself as it enters
    // (an entry choice of an object to exile: Objects::linked). Without,
    // no object is linked, and a kept cache need not look for links.
    bool linking_cards = false;
    // Whether some card of this game is an Aura whose enchant filter reads
    // the tapped flag. Without, tapping or untapping changes nothing the
    // state check reads (AttachedLegally is its only reader of the flag).
    bool tapped_enchant_filters = false;
    // Whether some card of this game limits the untap phase's untaps
    // (T-1.8: Winter Orb). Without, the untap phase asks no one which
    // permanents untap. `untap_chosen`: the permanents chosen to untap in
    // this untap phase, of the types in `untap_used`; `untap_kept`: those
    // the limit keeps tapped (read as the untaps happen and by the invariant
    // `untap`; both cleared as the next untap phase's choice begins).
    bool untap_limit_cards = false;
    // Whether some card of this game is, or makes something, legendary or
    // World (G-13, G-14). Without, the state check looks for no second
    // legend of a name and no second World permanent.
    bool unique_cards = false;
    TypeMask untap_used = 0;
    std::vector<ObjId> untap_chosen, untap_kept;
    // G-19: the permanents chosen so far to be sacrificed by the keep_fewest
    // frame on top (Balance), sacrificed together as the last choice is made.
    std::vector<ObjId> keep_fewest_chosen;
    // Whether some card of this game reads the damage dealt this turn
    // (CardDef::tallies_damage: Simulacrum). Without, no damage is tallied
    // (OccurrenceState::damage_taken stays empty).
    bool tally_damage = false;
    // G-8.4: some card of this game has an ability any player may activate
    // (Armageddon Clock): the listing of plays looks at the other player's
    // permanents too. T-4.2: some card reads whether its source dealt damage
    // to an opponent this turn (Whirling Dervish; with tally_damage).
    bool any_player_cards = false, dealt_to_player_cards = false;
    // Mana (docs/rules.md T-10.1), each set as such a card is dealt, so a
    // game without them pays mana as before: a trigger on a tap for mana
    // (the taps of a payment are marked), a triggered mana ability (its
    // mana counted with the land's), a mana ability of computed colors
    // (Fellwar Stone), a rule about mana or lands (Channel, Fastbond,
    // Kismet), the untapped lands at a turn's start (Power Surge).
    bool mana_tap_cards = false, mana_trigger_cards = false, computed_mana_cards = false;
    bool mana_rule_cards = false, turn_start_lands_cards = false;
    bool manual_mana_cards = false;  // T-10.2: a mana ability offered as an action
    std::array<int16_t, 2> turn_start_lands{};
    // T-1.6: the extra turns to come, the one taken next last (the one made
    // last comes first: each is "after this one").
    std::vector<Player> extra_turns;
    Player after_extra = kNoPlayer;  // whose turn comes once they are over
    // T-5.3: the activations of abilities limited to N each turn, one entry
    // per object (as it is: its incarnation) and ability, with the turn it
    // counts in; an entry of another turn counts none (ActivationsThisTurn).
    struct Activation {
      int turn = 0;
      ObjId object = kNoObj;
      uint16_t incarnation = 0;
      int16_t ability = 0;
      uint8_t count = 0;
    };
    std::vector<Activation> activations;
    // E-6.1: whether an effect "until your next upkeep" was made this game.
    // Without, an upkeep's beginning ends no effect.
    bool until_upkeep_effects = false;
    // T-7.4: whether an effect "through its controller's next turn" was
    // made this game. Without, a cleanup looks for none of them.
    bool next_turn_effects = false;
    // G-16: whether some card of this game has a state trigger. Without,
    // the state check looks for none.
    bool state_trigger_cards = false;
    // T-7.5: whether some card of this game reads which creatures attacked
    // this turn; `attacked`: the attackers declared, as the objects they
    // were, with the turn (entries of an older turn count none and are
    // dropped as the next is added). Without, no attack is remembered.
    bool attack_memory_cards = false;
    struct Attacked {
      int turn = 0;
      ObjId object = kNoObj;
      uint16_t incarnation = 0;
    };
    std::vector<Attacked> attacked;
    auto Buffers() { return std::tie(phase_todo, extra_turns, activations, attacked); }
  } turn_;

  // The log and usage counts (off unless asked).
  struct TraceState {
    UsageStats* usage = nullptr;
    std::vector<std::string> log;
    std::vector<LogEvent> log_events;
    auto Buffers() { return std::tie(log, log_events); }
  } trace_;
};

// CouldTarget(a, p, slot, an object, mode) for object after object, as a
// policy weighing its candidates asks it: the probe, the slot's rule and
// its context are found once, when made, not once per object. The game
// must not change while one is in use.
class Game::ObjectTargets {
 public:
  ObjectTargets(const Game& game, const Action& a, Player p, int slot, int mode = -1);
  bool Could(ObjId o) const {
    return acts_ && game_->ObjectTargetLegal(probe_, slot_, rule_, ctx_, game_->state_.Ref(o));
  }

 private:
  const Game* game_;
  StackItem probe_;
  TargetRule rule_;
  FilterContext ctx_;
  int slot_;
  bool acts_ = false;  // a cast or an activation; no other action targets
};

// The state's size budget (invariant 9). Measured when set (g++ 12, x86-64):
// Game 28,232 bytes, of which the GameState is 22,896; beside it, 128 bytes
// per object for its layer cache entry (LayerCache::chars), so a game of
// two 60-card decks holds 43,592 bytes and one of 512 objects 93,768. The
// budgets sit just above; a change that needs more says why here.
inline constexpr size_t kGameStateSizeBudget = 24 * 1024;
inline constexpr size_t kGameSizeBudget = 32 * 1024;
static_assert(sizeof(GameState) <= kGameStateSizeBudget, "GameState over its size budget");
static_assert(sizeof(Game) <= kGameSizeBudget, "Game over its size budget");

}  // namespace strata
