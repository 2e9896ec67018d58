// The scripted policy of rules scenarios (SCENARIOS.md "Steps"): both players
// share one ordered script; when the engine asks player P, P takes the next
// unused step if it is P's and can be taken at this decision, and passes
// otherwise. It goes through the same decision API as every other policy.
#pragma once

#include <memory>
#include <string>
#include <variant>
#include <vector>

#include "policies/policy.h"

namespace strata {

// A scripted value: an object id, a player, a word or a number.
struct ScriptValue {
  enum Kind : uint8_t { kObject, kPlayer, kText, kNumber } kind = kText;
  ObjId object = kNoObj;  // kObject (resolved by the loader); spells: see spell_tag
  std::string spell_tag;  // a step `id` naming a spell cast earlier
  // "token:NAME" (G-12): the first token of that name on the battlefield,
  // found as the step is taken (a token is made by the script, no [[object]]).
  std::string token;
  std::string label;  // the scenario's id for the object, for messages
  Player player = 0;
  std::string text;
  int number = 0;
  std::string Describe() const;
};

struct ScriptStep {
  enum Kind : uint8_t {
    kCast,
    kActivate,
    kPlayLand,
    kPass,
    kAttack,
    kBlock,
    kPay,
    kOrder,
    kHandle,
    kAnswer,  // strata extension: one target, X, choice, discard or trigger-order answer
    kBand     // strata extension: attackers that form one band (T-7.3), in `attackers`
  } kind = kPass;
  int number = 0;  // 1-based, for messages
  int line = 0;
  Player player = 0;
  std::string card;       // kCast, kPlayLand by name
  ObjId object = kNoObj;  // kActivate, kPlayLand by id
  int ability = 1;
  std::vector<ScriptValue> targets;
  bool has_x = false;
  int x = 0;
  std::vector<ScriptValue> choices;
  std::vector<ObjId> attackers;                 // kAttack, kBand
  std::vector<std::string> attacker_labels;     // kAttack: their scenario ids, for messages
  std::vector<std::pair<ObjId, ObjId>> blocks;  // kBlock: blocker, attacker
  bool pay = false;                             // kPay
  bool pay_life = false;                        // kPay: `pay = "life"` (T-13.2)
  std::string for_label;                        // kPay: `for`, the permanent whose cost it answers
  std::vector<ObjId> order;                     // kOrder: trigger sources, first first
  ScriptValue answer;  // kAnswer: an object, a player, a number, a word, "done" or "none"
  std::string at;      // neutral, respond, ...
  std::string tag;     // `id`
  // `never = true`: a negative step, checked at every decision of `player`
  // while the player's ordinary steps around it say so (see Script::nevers).
  bool never = false;
  std::string Describe() const;
};

// A negative step and its window: the ordinary steps (indices into
// Script::steps) of the same player that open and close it.
struct NeverStep {
  ScriptStep step;
  int after = -1;    // the player's previous ordinary step; -1: from the start
  size_t until = 0;  // the player's next ordinary step; steps.size(): to the end
  bool failed = false;
};

// The shared script and what happened to it.
struct Script {
  std::vector<ScriptStep> steps;  // ordinary steps, in file order
  std::vector<NeverStep> nevers;  // negative steps, never taken
  size_t next = 0;
  std::vector<std::string> errors;
  // Tags of cast steps: the serial of the spell and its card object.
  std::vector<std::pair<std::string, uint32_t>> serials;
  std::vector<std::pair<std::string, ObjId>> spell_objects;
  bool Done() const { return next >= steps.size(); }
};

class ScriptedPolicy : public Policy {
 public:
  ScriptedPolicy(Script* script, Player player) : script_(script), player_(player) {}
  int Choose(const PlayerView& view, const Decision& decision) override;
  // The script is the scenario's author: it knows the whole board.
  bool omniscient() const override { return true; }
  std::string Name() const override { return "scripted"; }
  // A script is its own randomness: nothing to reseed.
  void Reset(uint64_t) override {}

 private:
  int Fail(const std::string& message, const Decision& d);
  int ChooseStep(const Game& game, const Decision& d);
  // Does `a` do what `step` says (its first target included)?
  bool Matches(const Game& game, const ScriptStep& step, const Action& a) const;
  // Is the action of a negative step legal at this decision?
  bool LegalNow(const Game& game, const Decision& d, const ScriptStep& step) const;
  void CheckNevers(const Game& game, const Decision& d, size_t used_before);
  int FromValue(const Game& game, const Decision& d, const ScriptValue& v, const char* what);
  int Answer(const Decision& d, const ScriptStep& step);
  Script* script_;
  Player player_;
  int Step(const Game& game, const Decision& d);
  const ScriptStep* current_ = nullptr;  // the step whose cast is in progress
  Action current_action_;                // the action that started it
  Target FirstTarget(const Game& game, const ScriptStep& step) const;
  const ScriptStep* combat_ = nullptr;  // an attack or block step being declared
  size_t next_combat_ = 0;
  const ScriptStep* paying_ = nullptr;  // a pay step: a phase cost chosen, answer next
  const ScriptStep* ordering_ = nullptr;
  const ScriptStep* banding_ = nullptr;  // a band step being formed (T-7.3)
  size_t next_band_ = 1;
  size_t next_order_ = 0;
  size_t next_target_ = 0, next_choice_ = 0;
  std::vector<ScriptValue> leftover_choices_;  // asked later, e.g. as it enters
};

}  // namespace strata
