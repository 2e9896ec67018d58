// The rules invariants: named checks that hold between any two actions of any
// game, whatever the cards and players. The fuzzer (`strata fuzz`), the
// scenario runner and `--checked` studies run them after every action, so a
// rules bug shows as a named violation at the action that caused it rather
// than as a skewed win rate. Each check reads the game from outside, with its
// own bookkeeping, so it does not share the engine's mistakes; the few that
// need the rules in progress (who decides first in a window) read the frames.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "engine/game.h"

namespace strata {

enum class Invariant : uint8_t {
  kZones,            // every card is in exactly one zone, listed once
  kObjectsKept,      // no object appears or vanishes
  kBatchAtPhaseEnd,  // the batch is empty when a phase ends (T-3)
  kPoolsAfterBurn,   // mana pools are empty after mana burn (T-1.4)
  kFirstDecision,    // AP decides first in T-2/T-3 windows, the caster in T-8's
  kOneBatch,         // only one batch at a time (T-3)
  kSorcerySpeed,     // sorcery-speed plays only from AP's main-phase neutral state (T-5, T-6)
  kPhaseEffectOnce,  // a phase effect or cost is handled at most once a phase (T-12, T-13)
  kAttackers,        // attackers were controlled since the turn began (T-7)
  kBlockers,         // blockers are legal: untapped, the defender's, fliers by fliers (T-7)
  kCountered,        // a countered spell never resolves nor enters play (T-8)
  kStateCheck,       // nothing a state check removes survives it (T-1.5)
  kLife,             // life totals follow the occurrences (E-)
  kLayers,           // the layer cache equals a fresh computation (L-9)
  kTimestamps,       // timestamps only grow (L-4)
  kNumbering,        // layer results don't depend on object numbering (E-5, L-4)
  kApply,            // every offered action applies; any other index is refused
  kCopy,             // a copy given the same decisions continues identically
  kReplay,           // a game replayed from its seed and decisions ends the same
  kProgress,         // a game ends within its caps unless both pass or no one can lose (a stall)
  // The rules read at the moment they act (AuditPoint), by the checker's
  // own reading of them (engine/invariants_audit.cc), and at decisions:
  kManaBurn,          // a phase's end costs each player its unspent mana in life (T-1.4)
  kLifeCheck,         // a player at 0 or less life after mana burn has lost (T-1.5)
  kDamageAssignment,  // combat damage: each creature in combat assigns its power, lethal first
                      // (T-7)
  kPrevention,  // dealt = assigned - prevented; shields spent as much as they prevent (T-4, E-3 A)
  kHandSize,    // the discard phase leaves the active player at the maximum hand size (T-1)
  kRegeneration,     // a regenerated creature is tapped, undamaged and out of combat (E-3)
  kCleanup,          // cleanup removes damage, shields and until-end-of-turn effects (T-1)
  kUntap,            // untap untaps the active player's permanents (T-1)
  kOneLand,          // one land a turn, from the active player's main phase (T-6)
  kOneAttack,        // one attack a turn; attacking taps but for vigilance (T-6, T-7)
  kTapSickness,      // no {T} ability of a creature that came this turn, but for haste (T-7)
  kLastInFirstOut,   // a batch resolves last in, first out (T-3)
  kManaPaid,         // casting spends the mana its cost asks, never a {T} cost's source (T-8, L-8)
  kReferenceLayers,  // every object's characteristics are the reference evaluator's (L-1 to L-8)
  kMulligan,         // the starting player decides first, both decide, hands as the rule says (G-1)
  kPhaseCosts,       // phase costs handled, paid in full, their permanents idle till then (T-12,
                     // T-13)
  kTargets,          // no target offered with shroud or protection from its source's colour (T-8)
  kTriggersWait,     // triggers wait while anything resolves, and happen before any window (E-4)
  kLeaveTogether,    // objects that leave together are one group of occurrences, a new one (E-5)
  kDrawPhase,        // the draw phase draws the active player a card, but the starter's first (T-1)
  kReplacements,     // an "instead" effect replaces one event and is used up (E-6)
  kBeforeFirst,      // a held occurrence's before triggers have all resolved as it happens (E-1)
  kReplacedNeverHappens,  // an occurrence a replacement ("instead") took never happens (E-3 A)
  kOccurrenceKept,  // triggers never look for an occurrence the log dropped as settled (E-1, E-4)
  kSacrificeCost,   // a sacrifice cost offers exactly the payer's permanents that fit (T-8.1),
                    // and Balance's choices leave each player the fewest's count (G-19)
  kCounterCost,     // a counter-removal cost: offered with the counters there, X up to them (G-8)
  kCount
};
inline constexpr int kInvariantCount = static_cast<int>(Invariant::kCount);
std::string_view InvariantName(Invariant i);

// Checks and violations per invariant; sums exactly across games and threads.
struct InvariantTally {
  std::array<uint64_t, kInvariantCount> checks{}, violations{};
  uint64_t total_checks() const {
    uint64_t n = 0;
    for (uint64_t c : checks) n += c;
    return n;
  }
  void Merge(const InvariantTally& o) {
    for (int i = 0; i < kInvariantCount; ++i) {
      checks[i] += o.checks[i];
      violations[i] += o.violations[i];
    }
  }
};

// One game's checker: Begin once the game is set up, OnDecision for every
// decision Advance() returns (before it is answered), AfterApply after the
// answer, End when the game is over. The first violation is kept with its
// detail; counting goes on.
class InvariantChecker : public RulesAudit {
 public:
  // A player as messages name them.
  static std::string Who(Player p) { return p ? "B" : "A"; }
  // Also makes this checker the game's audit (Game::SetAudit) until End, or
  // until the game is reset: the checker must outlive that.
  void Begin(const Game& g);
  // The rule points of AuditPoint (engine/invariants_audit.cc).
  void At(const Game& g, AuditPoint point, int arg) override;
  void OnDecision(const Game& g, const Decision& d);
  // Action `index` of `answered` (the decision OnDecision saw) was applied;
  // `applied` is what Game::Apply returned.
  void AfterApply(const Game& g, const Decision& answered, int index, bool applied);
  // OnDecision, g.Apply(index), AfterApply: for drivers with nothing to do
  // between them. Returns what Apply returned.
  bool Apply(Game& g, const Decision& d, int index);
  // `loops_allowed`: both players pass whenever they may, so a cap is no loop.
  void End(const Game& g, bool loops_allowed);
  // For checks made by a driver that can play on (copy, replay, numbering).
  void Record(Invariant i, bool ok, std::string_view detail);
  // A check beside the rules invariants, run wherever they are: a deliberately
  // false one (a canary, `--canary`) makes the failure path itself testable
  // (failure files, replay, shrinking) while no real invariant fails. It
  // returns "" or what is wrong; a violation reads "name: detail" and
  // failed() is kCount.
  using ExtraCheck = std::function<std::string(const Game&)>;
  void SetExtra(std::string name, ExtraCheck check) {
    extra_name_ = std::move(name);
    extra_ = std::move(check);
  }

  bool ok() const { return failure_.empty(); }
  const std::string& failure() const { return failure_; }  // "name: detail"
  Invariant failed() const { return failed_; }
  // The violated check's name ("zones", a canary's name), or "".
  std::string failed_name() const { return failure_.substr(0, failure_.find(':')); }
  const InvariantTally& tally() const { return tally_; }

 private:
  void Observe(const Game& g);  // the bookkeeping shared by every point

  InvariantTally tally_;
  std::string extra_name_;
  ExtraCheck extra_;
  std::string failure_;
  Invariant failed_ = Invariant::kCount;
  int objects_ = 0;
  int turn_ = 0, phase_ = -1, observed_turn_ = -1;
  uint32_t next_timestamp_ = 0;
  int events_seen_ = 0;  // an occurrence number (Game::EventEnd)
  size_t outcomes_seen_ = 0;
  std::array<long long, 2> life_{};
  std::vector<uint16_t> incarnation_;
  std::vector<uint8_t> controller_, on_battlefield_;
  std::vector<int> came_turn_;  // the turn an object surely came under its controller, or -1
  // Surely under its controller since this turn began: seen as it is at a
  // look in an earlier turn (or set up so).
  std::vector<uint8_t> settled_;
  std::vector<uint32_t> countered_;
  std::vector<int> phase_plays_;  // phase todo indices played this phase
  // engine/reference_layers.h's check, made anew for each game by Begin.
  std::function<std::string(const Game&, bool*)> reference_;
  std::vector<int> phase_costs_;  // phase todo indices whose cost was paid or refused this phase
  // The phase cost being paid as its payment began (kPhaseCostPaying): due
  // then, and the mana it asked. Paying can turn the cost off (the
  // Tabernacle at Pendrell Vale tapped for its own granted cost under
  // Mycosynth Lattice: a tapped artifact's abilities are off, T-12), so
  // the payment is checked against what was asked as it began.
  bool phase_cost_was_due_ = false;
  int phase_cost_asked_ = 0;
  // The decision OnDecision saw, kept: the game's own is replaced by Apply.
  DecisionKind decided_kind_ = DecisionKind::kNone;
  Player decided_player_ = kNoPlayer;
  std::vector<Action> decided_;
  // This turn: lands played and attacks begun, per player (T-6).
  std::array<int, 2> lands_this_turn_{};
  bool attack_began_ = false;
  int rules_turn_ = -1;  // the turn the two above are of
  // The batch as last seen, by spell serial, bottom first (T-3).
  std::vector<uint32_t> batch_seen_, batch_now_;
  // Rule points: what the point before saw (mana burn, prevention, discard).
  std::array<int, 2> life_at_phase_end_{}, unspent_at_phase_end_{};
  struct ExpectedDamage {
    ObjId source, object;
    Player player;
    int amount;
  };
  std::vector<ExpectedDamage> expected_damage_;
  std::array<int, 2> expected_player_shield_{};
  std::vector<std::pair<ObjId, int>> expected_object_shield_;
  size_t expected_source_shields_ = 0;
  int damage_events_from_ = 0;
  int hand_before_discard_ = 0;
  int mana_before_paying_ = 0, life_before_paying_ = 0;
  std::vector<uint8_t> untapped_before_paying_;
  // The mana each of those would make tapped, read as the payment begins
  // (its own and its triggered mana abilities', T-10.1), as the engine's
  // sources are: once tapped, a permanent's mana may change (a tapped
  // artifact's abilities are off, T-12: under Mycosynth Lattice, Urborg,
  // Tomb of Yawgmoth stops making itself a Swamp as it taps for mana).
  std::vector<uint8_t> mana_if_tapped_;
  // The active player's permanents whose untap in this untap phase a
  // replacement took (E-3 A): the untap invariant lets them stay tapped.
  std::vector<ObjRef> untap_replaced_;
  // T-1.8: the permanents of a kind their controller's untap limit (Smoke,
  // Winter Orb) covered as the last turn ended, before the untap phase's
  // untaps: an untap can turn a limit off (Titania's Song untapped under
  // Mycosynth Lattice takes Smoke's abilities), so the limit that kept one
  // tapped is the one read before the untaps (fuzz seed 100, game 10375).
  std::vector<ObjRef> untap_limited_;
  void CheckManaPaid(const Game& g, const StackItem& item);
  void MarkUntappedBeforePaying(const Game& g, Player p);
  // The mana p spent since MarkUntappedBeforePaying: the pool's fall plus
  // one for each permanent tapped meanwhile.
  int SpentSincePaying(const Game& g, Player p) const;
  // engine/invariants_obligations.cc: mulligans, phase costs, targets.
  // At each decision, and with no decision as the first phase begins (the
  // mulligans are over then).
  void CheckMulligan(const Game& g, const Decision* d);
  void CheckTargets(const Game& g, const Decision& d);
  void CheckPhaseEffectsOffered(const Game& g, const Decision& d);
  // first_decision in a damage-prevention step (T-4): the active player,
  // then the other; a player who passed is not asked again in that step.
  // Passes by the step's frame depth, forgotten when its damage is final.
  void CheckPreventionWindow(const Game& g, const Decision& d);
  std::vector<std::pair<size_t, Player>> prevention_passed_;
  size_t prevention_depth_ = 0;
  void CheckDrawReplaced(const Game& g, const Decision& d);
  void CheckTriggersWait(const Game& g, const Decision* d);
  void CheckLeftTogether(const Game& g, int n);
  int last_group_ = -1;             // the group of the last objects that left together
  size_t queued_before_group_ = 0;  // triggers queued as that group's occurrences happened
  void CheckGroupTriggered(const Game& g, int n);
  void CheckBeforeFirst(const Game& g, int event);
  void CheckReplacedNeverHappens(const Game& g, int event);
  void CollectPhaseCosts(const Game& g);
  void CheckPhaseCostsHandled(const Game& g);
  void NotePhaseCostPaying(const Game& g, int todo);
  void CheckPhaseCostPaid(const Game& g, int todo);
  void CheckNoPendingSourceTapped(const Game& g, const char* paying);
  bool mulligans_over_ = true;
  std::array<bool, 2> mulligan_asked_{};
  // Each phase cost the checker finds due at a phase's beginning (its own
  // reading of the cards), until handled.
  struct PhaseCostDue {
    ObjRef object;
    Player controller;
  };
  std::vector<PhaseCostDue> phase_costs_due_;
  std::vector<std::pair<ObjId, int>> attached_seen_;  // (attached to, timestamp) per object
  // The effect step running (AuditPoint::kStepExecuting to kStepExecuted),
  // and what it may change as it began (engine/invariants_audit.cc).
  const EffectStep* step_ = nullptr;
  int step_amount_ = 0;
  size_t step_damage_from_ = 0, step_destroying_from_ = 0;
  std::vector<int16_t> step_shields_;
  std::array<int16_t, 2> step_player_shields_{};
  std::vector<int> step_named_;  // times each object is named by the step's target
  std::array<int, 2> step_named_players_{};
  bool step_names_all_ = false;  // named otherwise than by target: any object may gain
  void StepBegins(const Game& g, int step);
  void CheckStepDone(const Game& g);
  // A state check the rules owe (after a damage step or a phase's end), or null.
  const char* state_check_due_ = nullptr;
  void CheckStateCheckRan(const Game& g);
  void CheckCombatAssignment(const Game& g, int begin, bool first_strike);
  void ExpectDamage(const Game& g, int begin);
  void CheckDamageDealt(const Game& g);
  // T-4.1: a damage left at the end of its prevention step that a
  // permanent's standing prevention ("prevent all damage ... by creatures",
  // "all combat damage to and by enchanted creature") fits, read from the
  // card's text apart from the engine's replacement path: "" or what.
  std::string StandingPreventionMissed(const Game& g, const PendingDamage& d) const;
  // T-4.1: the damage dealt to each player since the engine's tally began
  // (this turn's cleanup clears it), summed from the damage occurrences, in
  // a game that tallies it; the key is the tally's turn.
  int damage_tally_key_ = -1;
  std::array<int, 2> damage_tally_{};
  // "" or what a state check left.
  std::string StateCheckLeft(const Game& g) const;
  // A turn-cap game in which no one could lose over the last kStallTurns
  // turns is a stall, not a loop.
  static constexpr int kStallTurns = 20;
};

// The checks of [apply], [copy] and [replay] need a driver that can try
// actions and play on; these are theirs, shared by `strata fuzz`, its
// shrinking and the conformance kit (tests/conformance). Each returns "" or
// what went wrong, for InvariantChecker::Record.
//
// [apply], the refusing half: the indices `d` (the decision pending in `g`)
// offers no action at, d.actions.size() and -1, are refused, and with
// `compare` nothing changed (the fingerprint is the same).
std::string CheckRefusesUnoffered(Game& g, const Decision& d, bool compare);
// [apply], the accepting half: each of `d`'s actions, applied to a copy of
// `g` of its own, is accepted.
std::string CheckOfferedApply(const Game& g, const Decision& d);
// [copy]: `copy`, made of `game` `decisions.size()` decisions ago and fed
// the same decisions (Advance, Apply each), is where `game` is now (the
// detail reads after "a copy made at ...").
std::string CheckCopyContinues(Game& copy, std::span<const int32_t> decisions, const Game& game);
// [replay]: `replay`, set up as `game` was (the same options with its seed,
// decks and first player) or a copy of it made on the way, fed `decisions`
// to the end, ends where `game` ended: the same fingerprint and winner (the
// detail reads after "the game replayed ...").
std::string CheckReplayEnds(Game& replay, std::span<const int32_t> decisions, const Game& game);

// The layer results of `s` computed with its objects numbered in reverse
// must be the same objects' results: "" or what differs (E-5: no result may
// depend on object ids).
std::string CheckNumbering(const CardDb& db, const GameState& s);

}  // namespace strata
