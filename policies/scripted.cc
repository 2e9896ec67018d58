#include "policies/scripted.h"

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

namespace strata {

std::string ScriptValue::Describe() const {
  switch (kind) {
    case kObject:
      if (!spell_tag.empty()) return spell_tag;
      return label.empty() ? absl::StrCat("object ", object) : label;
    case kPlayer: return player ? "B" : "A";
    case kText: return text;
    case kNumber: return absl::StrCat(number);
  }
  return "?";
}

std::string ScriptStep::Describe() const {
  std::string who = player ? "B" : "A";
  switch (kind) {
    case kCast: return absl::StrCat(who, " casts ", card);
    case kActivate: return absl::StrCat(who, " activates ability ", ability);
    case kPlayLand: return absl::StrCat(who, " plays a land");
    case kPass: return absl::StrCat(who, " passes");
  }
  return who;
}

int ScriptedPolicy::Fail(const std::string& message, const Decision& d) {
  script_->errors.push_back(message);
  // Fall back to the most harmless action.
  for (size_t i = 0; i < d.actions.size(); ++i)
    if (d.actions[i].kind == ActionKind::kPass || d.actions[i].kind == ActionKind::kNoChoice)
      return static_cast<int>(i);
  return 0;
}

int ScriptedPolicy::FromValue(const Game& game, const Decision& d, const ScriptValue& v,
                              const char* what) {
  ObjId object = v.object;
  if (!v.spell_tag.empty()) {
    object = kNoObj;
    for (auto& [tag, o] : script_->spell_objects)
      if (tag == v.spell_tag) object = o;
  }
  for (size_t i = 0; i < d.actions.size(); ++i) {
    const Action& a = d.actions[i];
    switch (v.kind) {
      case ScriptValue::kObject:
        if ((a.kind == ActionKind::kTargetObject || a.kind == ActionKind::kObject) &&
            a.object == object)
          return static_cast<int>(i);
        break;
      case ScriptValue::kPlayer:
        if (a.kind == ActionKind::kTargetPlayer && a.value == v.player) return static_cast<int>(i);
        break;
      case ScriptValue::kNumber:
        if (a.kind == ActionKind::kNumber && a.value == v.number) return static_cast<int>(i);
        break;
      case ScriptValue::kText:
        if (a.kind == ActionKind::kWord &&
            absl::AsciiStrToLower(WordName(static_cast<Word>(a.value))) ==
                absl::AsciiStrToLower(std::string(v.text)))
          return static_cast<int>(i);
        break;
    }
  }
  (void)game;
  std::string step = current_ ? absl::StrCat("step ", current_->number, " (", current_->Describe(), ")") : "a step";
  return Fail(absl::StrCat(step, ": ", what, " '", v.Describe(), "' is not legal here"), d);
}

int ScriptedPolicy::Choose(const Game& game, const Decision& d) {
  switch (d.kind) {
    case DecisionKind::kTarget: {
      if (!current_ || next_target_ >= current_->targets.size())
        return Fail(absl::StrCat(current_ ? absl::StrCat("step ", current_->number, " (", current_->Describe(), ")") : "a cast",
                                 ": a target is needed but none is scripted"), d);
      return FromValue(game, d, current_->targets[next_target_++], "target");
    }
    case DecisionKind::kX:
      for (size_t i = 0; i < d.actions.size(); ++i)
        if (d.actions[i].value == (current_ ? current_->x : 0)) return static_cast<int>(i);
      return Fail(absl::StrCat("step ", current_ ? current_->number : 0, ": X = ",
                               current_ ? current_->x : 0, " is not legal"), d);
    case DecisionKind::kChoice: {
      const ScriptValue* v = nullptr;
      if (current_ && next_choice_ < current_->choices.size()) {
        v = &current_->choices[next_choice_++];
      } else if (!leftover_choices_.empty()) {
        ScriptValue front = leftover_choices_.front();
        leftover_choices_.erase(leftover_choices_.begin());
        return FromValue(game, d, front, "choice");
      }
      if (!v) {
        // Unscripted choice: decline if possible, else the first option.
        for (size_t i = 0; i < d.actions.size(); ++i)
          if (d.actions[i].kind == ActionKind::kNoChoice) return static_cast<int>(i);
        return 0;
      }
      return FromValue(game, d, *v, "choice");
    }
    case DecisionKind::kDiscard:
      return 0;
    default:
      break;
  }
  // A new decision to start or respond: the previous cast is over; what it
  // did not use of its choices is asked later (entry choices).
  if (current_) {
    for (size_t i = next_choice_; i < current_->choices.size(); ++i)
      leftover_choices_.push_back(current_->choices[i]);
    current_ = nullptr;
  }
  if (script_->Done()) return 0;
  const ScriptStep& step = script_->steps[script_->next];
  if (step.player != player_) return 0;
  if (!step.at.empty() && step.at != std::string(DecisionKindName(d.kind))) return 0;
  for (size_t i = 0; i < d.actions.size(); ++i) {
    const Action& a = d.actions[i];
    bool match = false;
    switch (step.kind) {
      case ScriptStep::kPass:
        match = a.kind == ActionKind::kPass;
        break;
      case ScriptStep::kCast:
        match = a.kind == ActionKind::kCast &&
                absl::AsciiStrToLower(game.db()[game.state().obj.card[a.object]].name) ==
                    absl::AsciiStrToLower(std::string(step.card));
        break;
      case ScriptStep::kActivate:
        match = a.kind == ActionKind::kActivate && a.object == step.object &&
                a.index == step.ability - 1;
        break;
      case ScriptStep::kPlayLand:
        match = a.kind == ActionKind::kPlayLand &&
                (step.object != kNoObj
                     ? a.object == step.object
                     : absl::AsciiStrToLower(game.db()[game.state().obj.card[a.object]].name) ==
                           absl::AsciiStrToLower(std::string(step.card)));
        break;
    }
    if (!match) continue;
    ++script_->next;
    if (step.kind == ScriptStep::kCast || step.kind == ScriptStep::kActivate) {
      current_ = &step;
      next_target_ = next_choice_ = 0;
      if (!step.tag.empty()) {
        script_->serials.push_back({step.tag, game.next_serial()});
        if (step.kind == ScriptStep::kCast) script_->spell_objects.push_back({step.tag, a.object});
      }
    }
    return static_cast<int>(i);
  }
  return 0;
}

}  // namespace strata
