// The game: state plus the timing engine, behind one resumable decision API
// (DESIGN.md "The engine is resumable"). Advance() runs the rules until a
// player must decide and returns the decision with its legal actions; the
// caller applies one with Apply() and advances again. Nothing here calls a
// player back, so scripted scenarios, simulations, replays and look-ahead
// all drive a game the same way, and a copy of a Game continues exactly like
// the original.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "engine/card.h"
#include "engine/layers.h"
#include "engine/state.h"

namespace strata {

enum class DecisionKind : uint8_t {
  kNone,      // game over or stopped
  kNeutral,   // start a batch (or play a land), or pass (T-2)
  kRespond,   // add to the batch, or pass (T-3)
  kTarget,    // choose a target for the spell or ability being cast
  kX,         // choose X
  kChoice,    // a color, type, word, mode or object asked while casting or entering
  kDiscard,   // choose a card to discard (cost or discard phase)
};
std::string_view DecisionKindName(DecisionKind k);

enum class ActionKind : uint8_t {
  kPass, kCast, kActivate, kPlayLand, kTargetObject, kTargetPlayer, kNumber, kWord, kObject,
  kNoChoice
};

// One legal action. `object` is the card, source, target or chosen object;
// `index` the ability number (0-based) for kActivate; `value` X, a word, a
// mode or a player.
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

enum class Outcome : uint8_t { kPending, kResolved, kCountered, kFizzled };

// A target: an object (with its incarnation), a player, or a spell on the batch.
struct Target {
  enum Kind : uint8_t { kNone, kObject, kPlayer } kind = kNone;
  ObjRef obj;
  Player player = kNoPlayer;
};

// A spell or ability on the batch (or being cast).
struct StackItem {
  ObjId card = kNoObj;    // the spell's card (kNoObj for an ability)
  ObjId source = kNoObj;  // the ability's source
  int16_t ability = -1;   // activated ability index, -1 for a spell
  Player controller = 0;
  std::array<Target, 4> targets{};
  uint8_t target_count = 0;
  int16_t x = 0;
  std::array<uint16_t, 2> choice{kNoWord, kNoWord};
  uint8_t choice_count = 0;
  uint32_t serial = 0;
  int16_t source_power = 0, source_toughness = 0;
};

// Where Advance() should stop by itself (scenario `until`).
enum class StopAt : uint8_t { kNever, kNeutral, kPhaseEnd, kTurnEnd, kTurn };

struct GameOptions {
  Edition edition = Edition::kModern;
  bool free_mana = false;     // scenarios: mana costs are paid without mana
  bool checked_layers = false;  // recompute layers on every query and compare (L-9)
  bool log = false;
};

class Game {
 public:
  Game(const CardDb& db, const GameOptions& options);

  // --- set-up (scenarios, deck loading) ---
  ObjId AddObject(CardId card, Player owner, Zone zone);
  void StartAt(Phase phase, Player active, int turn);
  GameState& MutableState() {
    state_.Touch();
    return state_;
  }

  // --- the decision API ---
  const Decision& Advance();
  void Apply(int action_index);
  void Apply(const Action& action);
  void SetStop(StopAt stop, int value = 0) {
    stop_ = stop;
    stop_value_ = value;
  }
  bool Over() const { return over_; }
  int Winner() const { return winner_; }  // 0, 1, or -1 for a draw / none

  // --- queries ---
  const GameState& state() const { return state_; }
  const CardDb& db() const { return *db_; }
  const GameOptions& options() const { return opt_; }
  const Characteristics& Chars(ObjId o) const;
  const PlayerRules& Rules(Player p) const;
  // Serial number of the next spell or ability cast; outcomes by serial.
  uint32_t next_serial() const { return next_serial_; }
  Outcome OutcomeOf(uint32_t serial) const;
  const std::vector<std::string>& log() const { return log_; }
  std::string ObjectName(ObjId o) const;
  // Layer checks done in checked mode, and the first mismatch found.
  uint64_t layer_checks() const { return layer_checks_; }
  const std::string& layer_mismatch() const { return layer_mismatch_; }

  // Exposed for tests and tools: mutate through these so the version moves.
  void MoveTo(ObjId o, Zone to, Player zone_owner);
  void SetTapped(ObjId o, bool tapped);
  void Attach(ObjId aura, ObjId to);
  void AddCounters(ObjId o, int kind, int n);
  uint32_t AddEffectRow(const EffectRow& row, const std::vector<ObjRef>& affected);
  void EndEffect(int row);
  void SetLifeTotal(Player p, int life);

 private:
  enum class Stage : uint8_t {
    kPhaseBegin, kNeutral, kCastTargets, kCastX, kCastChoice, kCastPay, kRespond, kResolve,
    kEntryChoice, kPhaseEnd, kDiscardPhase, kCostDiscard, kOver
  };

  void Log(const std::string& line);
  void NextPhase();
  void BeginPhase();
  void EndPhase();
  bool FastPhase() const;
  void OfferNeutral();
  void OfferRespond();
  void AddSpellAndAbilityActions(Player p, bool neutral);
  bool CanCast(Player p, ObjId card, bool neutral) const;
  bool CanActivate(Player p, ObjId o, int index, bool neutral) const;
  const AbilityBody* BodyOf(const StackItem& item) const;
  void StartCast(Player p, const Action& a);
  void ContinueCast();
  void OfferTargets();
  bool TargetLegal(const StackItem& item, int slot, const Target& t) const;
  void FinishCast();
  void ResolveTop();
  void ResolveSteps(StackItem& item, const std::vector<EffectStep>& steps);
  void EnterBattlefield(StackItem& item);
  void FinishEntry(ObjId o, const Action* choice);
  void CheckState();
  void Draw(Player p, int n);
  void DestroyObject(ObjId o);
  std::vector<ObjId> Resolve(const StackItem& item, const Ref& ref, std::vector<Player>* players);
  ManaCost TotalCost(const StackItem& item, const ManaCost& base, bool spell) const;
  bool CanPay(Player p, const ManaCost& cost, int x, ObjId excluding) const;
  bool Pay(Player p, const ManaCost& cost, int x);
  void Lose(Player p);
  FilterContext ContextFor(ObjId source, Player you, uint16_t choice) const;
  void Decide(DecisionKind kind, Player p);

  const CardDb* db_;
  GameOptions opt_;
  GameState state_;
  mutable LayerCache cache_;
  mutable uint64_t layer_checks_ = 0;
  mutable std::string layer_mismatch_;

  Stage stage_ = Stage::kPhaseBegin;
  Decision decision_;
  bool have_decision_ = false;
  Player priority_ = 0;
  int passes_ = 0;
  std::vector<StackItem> batch_;
  StackItem casting_;
  int cast_slot_ = 0;
  int cast_choice_ = 0;
  ObjId entering_ = kNoObj;
  std::vector<std::pair<uint32_t, Outcome>> outcomes_;
  uint32_t next_serial_ = 1;
  int pending_discards_ = 0;
  Player discarding_ = 0;
  Stage after_discard_ = Stage::kNeutral;
  bool over_ = false;
  int winner_ = -1;
  StopAt stop_ = StopAt::kNever;
  int stop_value_ = 0;
  int start_turn_ = 1;
  Phase start_phase_ = Phase::kMain;
  std::vector<std::string> log_;
  // "At the beginning of the next upkeep" effects: the item that made them
  // and the steps (owned by the immutable CardDb).
  std::vector<std::pair<StackItem, const std::vector<EffectStep>*>> delayed_;
  bool stopped_ = false;
};

}  // namespace strata
