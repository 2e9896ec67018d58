#include "policies/scripted.h"

#include <algorithm>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "engine/strings.h"

namespace strata {

std::string ScriptValue::Describe() const {
  switch (kind) {
    case kObject:
      if (!spell_tag.empty()) return spell_tag;
      return label.empty() ? absl::StrCat("object ", object) : label;
    case kPlayer:
      return player ? "B" : "A";
    case kText:
      return text;
    case kNumber:
      return absl::StrCat(number);
  }
  return "?";
}

std::string ScriptStep::Describe() const {
  std::string who = player ? "B" : "A";
  switch (kind) {
    case kCast:
      return absl::StrCat(who, " casts ", card);
    case kActivate:
      return absl::StrCat(who, " activates ability ", ability);
    case kPlayLand:
      return absl::StrCat(who, " plays a land");
    case kPass:
      return absl::StrCat(who, " passes");
    case kAttack:
      if (attacker_labels.empty()) return absl::StrCat(who, " attacks");
      return absl::StrCat(who, " attacks with ", absl::StrJoin(attacker_labels, ", "));
    case kBlock:
      return absl::StrCat(who, " blocks");
    case kPay:
      return absl::StrCat(who,
                          pay_life ? " pays in life"
                          : pay    ? " pays"
                                   : " does not pay",
                          for_label.empty() ? "" : " for " + for_label);
    case kOrder:
      return absl::StrCat(who, " orders triggers");
    case kHandle:
      return absl::StrCat(who, " handles a phase effect");
    case kAnswer:
      return absl::StrCat(who, " answers ", answer.Describe());
    case kBand:
      return absl::StrCat(who, " bands ", absl::StrJoin(attacker_labels, ", "));
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

// The first token named `name` that exists (G-12: one that left the
// battlefield is in no zone), or kNoObj.
static ObjId TokenNamed(const Game& game, const std::string& name) {
  const GameState& s = game.state();
  for (ObjId o = 0; o < s.obj.count; ++o)
    if (s.obj.token[o] && s.obj.zone[o] != Zone::kNone &&
        absl::AsciiStrToLower(game.db()[s.obj.card[o]].name) == absl::AsciiStrToLower(name))
      return o;
  return kNoObj;
}

int ScriptedPolicy::FromValue(const Game& game, const Decision& d, const ScriptValue& v,
                              const char* what) {
  ObjId object = v.object;
  if (!v.spell_tag.empty()) {
    object = kNoObj;
    for (auto& [tag, o] : script_->spell_objects)
      if (tag == v.spell_tag) object = o;
  }
  if (!v.token.empty()) object = TokenNamed(game, v.token);
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
  std::string step = current_
                         ? absl::StrCat("step ", current_->number, " (", current_->Describe(), ")")
                         : "a step";
  return Fail(absl::StrCat(step, ": ", what, " '", v.Describe(), "' is not legal here"), d);
}

// `for` on a pay step: the decision is about that permanent. Decisions whose
// actions carry no object (optional triggered costs) can't be told apart, so
// a `for` step never answers them rather than answering the wrong one.
static bool ForMatches(const ScriptStep& step, const Decision& d) {
  if (step.object == kNoObj) return true;
  return std::any_of(d.actions.begin(), d.actions.end(),
                     [&](const Action& a) { return a.object == step.object; });
}

int ScriptedPolicy::Choose(const PlayerView& view, const Decision& d) {
  const Game& game = *view.whole_game();
  size_t used_before = script_->next;
  int choice = ChooseStep(game, d);
  if (!script_->nevers.empty()) CheckNevers(game, d, used_before);
  return choice;
}

// An answer step answers exactly the decision it meets: the value names the
// action (an object, a player, a number, a word), "done" stops choosing
// targets and "none" declines a choice.
int ScriptedPolicy::Answer(const Decision& d, const ScriptStep& step) {
  const ScriptValue& v = step.answer;
  for (size_t i = 0; i < d.actions.size(); ++i) {
    const Action& a = d.actions[i];
    bool match = false;
    switch (v.kind) {
      case ScriptValue::kObject:
        match = (a.kind == ActionKind::kTargetObject || a.kind == ActionKind::kObject) &&
                a.object == v.object;
        break;
      case ScriptValue::kPlayer:
        match = a.kind == ActionKind::kTargetPlayer && a.value == v.player;
        break;
      case ScriptValue::kNumber:
        match = a.kind == ActionKind::kNumber && a.value == v.number;
        break;
      case ScriptValue::kText:
        if (v.text == "done")
          match = a.kind == ActionKind::kDone;
        else if (v.text == "none")
          match = a.kind == ActionKind::kNoChoice;
        else
          match = a.kind == ActionKind::kWord &&
                  absl::AsciiStrToLower(WordName(static_cast<Word>(a.value))) ==
                      absl::AsciiStrToLower(v.text);
        break;
    }
    if (match) return static_cast<int>(i);
  }
  return Fail(absl::StrCat("step ", step.number, " (", step.Describe(), ") is not offered at this ",
                           S(DecisionKindName(d.kind)), " decision"),
              d);
}

int ScriptedPolicy::ChooseStep(const Game& game, const Decision& d) {
  // strata extension: the next step, if it is this player's answer step,
  // answers this target, X, choice, discard, trigger-order or search
  // decision.
  if ((d.kind == DecisionKind::kTarget || d.kind == DecisionKind::kX ||
       d.kind == DecisionKind::kChoice || d.kind == DecisionKind::kDiscard ||
       d.kind == DecisionKind::kTriggerOrder || d.kind == DecisionKind::kSearch ||
       d.kind == DecisionKind::kSacrifice || d.kind == DecisionKind::kDivide ||
       d.kind == DecisionKind::kUntap) &&
      !script_->Done() &&
      // Targets its own step names are that step's, not the next answer's.
      !(d.kind == DecisionKind::kTarget && current_ && next_target_ < current_->targets.size())) {
    const ScriptStep& next = script_->steps[script_->next];
    if (next.kind == ScriptStep::kAnswer && next.player == player_) {
      ++script_->next;
      return Answer(d, next);
    }
  }
  auto index_of = [&](auto pred) -> int {
    for (size_t i = 0; i < d.actions.size(); ++i)
      if (pred(d.actions[i])) return static_cast<int>(i);
    return -1;
  };
  auto first_of = [&](ActionKind k) {
    return index_of([&](const Action& a) { return a.kind == k; });
  };
  // The end of a declaration the script has no (more) step for. None is
  // offered while a creature must attack or block (T-7.1): that is a
  // mandatory thing, done without a step (the first creature offered).
  auto done_or_first = [&]() { return std::max(first_of(ActionKind::kDone), 0); };
  switch (d.kind) {
    case DecisionKind::kTarget: {
      if (!current_) return 0;  // a mandatory phase effect or trigger: the first legal target
      if (next_target_ >= current_->targets.size()) {
        int done = first_of(ActionKind::kDone);
        if (done >= 0) return done;
        return Fail(absl::StrCat("step ", current_->number, " (", current_->Describe(),
                                 "): a target is needed but none is scripted"),
                    d);
      }
      return FromValue(game, d, current_->targets[next_target_++], "target");
    }
    case DecisionKind::kX:
      for (size_t i = 0; i < d.actions.size(); ++i)
        if (d.actions[i].value == (current_ ? current_->x : 0)) return static_cast<int>(i);
      return Fail(absl::StrCat("step ", current_ ? current_->number : 0,
                               ": X = ", current_ ? current_->x : 0, " is not legal"),
                  d);
    case DecisionKind::kChoice: {
      bool modes = !d.actions.empty() && d.actions[0].kind == ActionKind::kNumber && current_ &&
                   next_choice_ == 0 && next_target_ == 0;
      // A modal spell without a mode given takes the first mode its targets fit.
      auto first_fitting_mode = [&]() {
        Target t = FirstTarget(game, *current_);
        if (t.kind == Target::kNone) return 0;
        for (size_t i = 0; i < d.actions.size(); ++i)
          if (game.CouldTarget(current_action_, player_, 0, t, d.actions[i].value - 1))
            return static_cast<int>(i);
        return 0;
      };
      // A mode number given for a spell whose mode was the only one offered
      // (the engine chose it): skip it.
      bool numbers = std::any_of(d.actions.begin(), d.actions.end(),
                                 [](const Action& a) { return a.kind == ActionKind::kNumber; });
      if (current_ && next_choice_ == 0 && !numbers && !current_->choices.empty() &&
          current_->choices[0].kind == ScriptValue::kNumber && current_->choices.size() > 1)
        ++next_choice_;
      if (current_ && next_choice_ < current_->choices.size()) {
        const ScriptValue& v = current_->choices[next_choice_];
        if (modes && v.kind != ScriptValue::kNumber) return first_fitting_mode();
        ++next_choice_;
        return FromValue(game, d, v, "choice");
      }
      if (modes) return first_fitting_mode();
      if (!leftover_choices_.empty()) {
        ScriptValue front = leftover_choices_.front();
        leftover_choices_.erase(leftover_choices_.begin());
        return FromValue(game, d, front, "choice");
      }
      // Unscripted choice: decline if possible, else the first option.
      int none = first_of(ActionKind::kNoChoice);
      return none >= 0 ? none : 0;
    }
    case DecisionKind::kDiscard:
    case DecisionKind::kUntap:   // unscripted: the first permanent offered (T-1.8)
    case DecisionKind::kSearch:  // unscripted: the first card offered
      return 0;
    case DecisionKind::kMulligan: {
      // A scenario's board is set up, not dealt: should it be, it keeps.
      int keep = first_of(ActionKind::kKeep);
      return keep >= 0 ? keep : 0;
    }
    case DecisionKind::kAttackers:
    case DecisionKind::kBlockers: {
      // An attack step whose last attacker left nothing else to declare is
      // never told it is done: it must not answer the blockers decision
      // that follows (nor a block step a later attack).
      if (combat_ && (combat_->kind == ScriptStep::kAttack) != (d.kind == DecisionKind::kAttackers))
        combat_ = nullptr;
      if (!combat_) {
        // A block step is taken at the blockers decision.
        if (d.kind == DecisionKind::kBlockers && !script_->Done()) {
          const ScriptStep& st = script_->steps[script_->next];
          if (st.kind == ScriptStep::kBlock && st.player == player_) {
            combat_ = &st;
            next_combat_ = 0;
            ++script_->next;
          }
        }
        if (!combat_) return done_or_first();
      }
      if (next_combat_ >= (combat_->kind == ScriptStep::kAttack ? combat_->attackers.size()
                                                                : combat_->blocks.size())) {
        combat_ = nullptr;
        return done_or_first();
      }
      size_t k = next_combat_++;
      int i = combat_->kind == ScriptStep::kAttack
                  ? index_of([&](const Action& a) {
                      return a.kind == ActionKind::kObject && a.object == combat_->attackers[k];
                    })
                  : index_of([&](const Action& a) {
                      return a.kind == ActionKind::kBlock && a.object == combat_->blocks[k].first &&
                             a.value == combat_->blocks[k].second;
                    });
      if (i < 0)
        return Fail(absl::StrCat("step ", combat_->number, " (", combat_->Describe(),
                                 "): ", combat_->kind == ScriptStep::kAttack ? "attacker" : "block",
                                 " ", k + 1, " is not legal"),
                    d);
      return i;
    }
    case DecisionKind::kDivide:
      return 0;  // unscripted: the first creature offered
    case DecisionKind::kBand: {
      // A band step (T-7.3): its first attacker's band joins each other's,
      // one join a decision; several band steps in a row, then done.
      for (;;) {
        if (!banding_ && !script_->Done()) {
          const ScriptStep& next = script_->steps[script_->next];
          if (next.kind == ScriptStep::kBand && next.player == player_) {
            banding_ = &next;
            next_band_ = 1;
            ++script_->next;
          }
        }
        if (!banding_) return done_or_first();
        while (next_band_ < banding_->attackers.size()) {
          const ObjId x = banding_->attackers[0], y = banding_->attackers[next_band_++];
          const ObjId bx = game.BandOf(x), by = game.BandOf(y);
          if (bx == by) continue;
          const int i = index_of([&](const Action& a) {
            return a.kind == ActionKind::kBand && a.object == std::min(bx, by) &&
                   a.value == std::max(bx, by);
          });
          if (i >= 0) return i;
          return Fail(absl::StrCat("step ", banding_->number, " (", banding_->Describe(),
                                   "): that band is not legal"),
                      d);
        }
        banding_ = nullptr;
      }
    }
    case DecisionKind::kOptionalCost:
    case DecisionKind::kPhaseCost: {
      const ScriptStep* st = paying_;
      paying_ = nullptr;
      if (!st && !script_->Done()) {
        const ScriptStep& next = script_->steps[script_->next];
        if (next.kind == ScriptStep::kPay && next.player == player_ &&
            (next.at.empty() || next.at == std::string(DecisionKindName(d.kind))) &&
            ForMatches(next, d)) {
          st = &next;
          ++script_->next;
        }
      }
      int yes = first_of(ActionKind::kYes), no = first_of(ActionKind::kNo);
      // T-13.2: a phase cost's second yes (value 1) pays it in life; `pay =
      // true` takes the mana when it is offered, the life otherwise.
      if (st && st->pay) {
        const int mana =
            index_of([](const Action& a) { return a.kind == ActionKind::kYes && !a.value; });
        const int life =
            index_of([](const Action& a) { return a.kind == ActionKind::kYes && a.value == 1; });
        yes = st->pay_life ? life : mana >= 0 ? mana : yes;
      }
      if (st && st->pay) {
        if (yes >= 0) return yes;
        return Fail(absl::StrCat("step ", st->number, " (", st->Describe(), "): cannot pay"), d);
      }
      return no >= 0 ? no : 0;  // unscripted: decline
    }
    case DecisionKind::kTriggerOrder: {
      if (!ordering_ && !script_->Done()) {
        const ScriptStep& next = script_->steps[script_->next];
        if (next.kind == ScriptStep::kOrder && next.player == player_) {
          ordering_ = &next;
          next_order_ = 0;
          ++script_->next;
        }
      }
      if (!ordering_) return 0;
      while (next_order_ < ordering_->order.size()) {
        ObjId want = ordering_->order[next_order_++];
        int i = index_of([&](const Action& a) { return a.object == want; });
        if (i >= 0) return i;
      }
      ordering_ = nullptr;
      return 0;
    }
    default:
      break;
  }
  return Step(game, d);
}

Target ScriptedPolicy::FirstTarget(const Game& game, const ScriptStep& step) const {
  if (step.targets.empty()) return Target{};
  const ScriptValue& v = step.targets[0];
  if (v.kind == ScriptValue::kPlayer) return Target{Target::kPlayer, {}, v.player};
  if (v.kind != ScriptValue::kObject) return Target{};
  ObjId o = v.object;
  if (!v.spell_tag.empty()) {
    o = kNoObj;
    for (auto& [tag, obj] : script_->spell_objects)
      if (tag == v.spell_tag) o = obj;
  }
  if (!v.token.empty()) o = TokenNamed(game, v.token);
  if (o == kNoObj) return Target{};
  return Target{Target::kObject, game.state().Ref(o), kNoPlayer};
}

// Neutral, respond, interrupt, prevention and reaction decisions: take the
// next step if it is this player's and can be taken here; otherwise pass.
int ScriptedPolicy::Step(const Game& game, const Decision& d) {
  // The previous cast is over; what it did not use of its choices is asked
  // later (entry choices).
  // A block declaration is over once its player decides anything else (the
  // last block may leave no "done" to answer).
  if (combat_ && combat_->kind == ScriptStep::kBlock) combat_ = nullptr;
  if (current_) {
    for (size_t i = next_choice_; i < current_->choices.size(); ++i)
      leftover_choices_.push_back(current_->choices[i]);
    current_ = nullptr;
  }
  auto pass_or_first = [&]() {
    for (size_t i = 0; i < d.actions.size(); ++i)
      if (d.actions[i].kind == ActionKind::kPass) return static_cast<int>(i);
    return 0;  // no pass: a mandatory phase effect must be handled
  };
  if (script_->Done()) return pass_or_first();
  const ScriptStep& step = script_->steps[script_->next];
  if (step.player != player_) return pass_or_first();
  if (!step.at.empty() && step.at != std::string(DecisionKindName(d.kind)) &&
      step.kind != ScriptStep::kPay)
    return pass_or_first();
  for (size_t i = 0; i < d.actions.size(); ++i) {
    const Action& a = d.actions[i];
    if (!Matches(game, step, a)) continue;
    ++script_->next;
    if (step.kind == ScriptStep::kAttack) {
      combat_ = &step;
      next_combat_ = 0;
    }
    if (step.kind == ScriptStep::kPay) paying_ = &step;
    if (step.kind == ScriptStep::kCast || step.kind == ScriptStep::kActivate ||
        step.kind == ScriptStep::kHandle) {
      current_ = &step;
      current_action_ = a;
      next_target_ = next_choice_ = 0;
      if (!step.tag.empty()) {
        script_->serials.push_back({step.tag, game.next_serial()});
        if (step.kind == ScriptStep::kCast) script_->spell_objects.push_back({step.tag, a.object});
      }
    }
    return static_cast<int>(i);
  }
  return pass_or_first();
}

bool ScriptedPolicy::Matches(const Game& game, const ScriptStep& step, const Action& a) const {
  auto card_is = [&](ObjId o, const std::string& name) {
    return absl::AsciiStrToLower(game.db()[game.state().obj.card[o]].name) ==
           absl::AsciiStrToLower(name);
  };
  bool match = false;
  switch (step.kind) {
    case ScriptStep::kPass:
      match = a.kind == ActionKind::kPass;
      break;
    case ScriptStep::kCast:
      match = a.kind == ActionKind::kCast &&
              (step.object != kNoObj ? a.object == step.object : card_is(a.object, step.card));
      break;
    case ScriptStep::kActivate:
      match =
          a.kind == ActionKind::kActivate && a.object == step.object && a.index == step.ability - 1;
      break;
    case ScriptStep::kPlayLand:
      match = a.kind == ActionKind::kPlayLand &&
              (step.object != kNoObj ? a.object == step.object : card_is(a.object, step.card));
      break;
    case ScriptStep::kAttack:
      match = a.kind == ActionKind::kAttack;
      break;
    case ScriptStep::kHandle:
      match = a.kind == ActionKind::kPhaseEffect && a.value == 0 && a.object == step.object;
      break;
    case ScriptStep::kPay:
      // A phase cost is handled as an instant: choose it now, answer next.
      match = a.kind == ActionKind::kPhaseEffect && a.value == 1 &&
              (step.object == kNoObj || a.object == step.object);
      break;
    default:
      break;
  }
  if (match && (step.kind == ScriptStep::kCast || step.kind == ScriptStep::kActivate)) {
    // The step can be taken only where its first target is legal.
    Target t = FirstTarget(game, step);
    if (t.kind != Target::kNone && !game.CouldTarget(a, player_, 0, t)) match = false;
  }
  return match;
}

// Legality is the engine's own: what it offers at this decision, or, for an
// attack or a phase cost that is only asked after a first choice, what it
// offers next in a copy of the game where that choice was made.
bool ScriptedPolicy::LegalNow(const Game& game, const Decision& d, const ScriptStep& step) const {
  if (!step.at.empty() && step.at != std::string(DecisionKindName(d.kind))) return false;
  auto has = [&](auto pred) { return std::any_of(d.actions.begin(), d.actions.end(), pred); };
  // The actions of P's next decision, of this kind, once action i is taken.
  auto next_actions = [&](size_t i, DecisionKind kind) {
    Game copy = game;
    copy.Apply(static_cast<int>(i));
    const Decision& next = copy.Advance();
    if (next.kind != kind || next.player != player_) return std::vector<Action>{};
    return next.actions;
  };
  auto attackers_in = [&](const std::vector<Action>& actions) {
    return !actions.empty() &&
           std::all_of(step.attackers.begin(), step.attackers.end(), [&](ObjId o) {
             return std::any_of(actions.begin(), actions.end(), [&](const Action& a) {
               return a.kind == ActionKind::kObject && a.object == o;
             });
           });
  };
  switch (step.kind) {
    case ScriptStep::kAttack:
      if (d.kind == DecisionKind::kAttackers) return attackers_in(d.actions);
      for (size_t i = 0; i < d.actions.size(); ++i)
        if (d.actions[i].kind == ActionKind::kAttack)
          return attackers_in(next_actions(i, DecisionKind::kAttackers));
      return false;
    case ScriptStep::kBlock:
      if (d.kind != DecisionKind::kBlockers) return false;
      return std::all_of(step.blocks.begin(), step.blocks.end(), [&](const auto& b) {
        return has([&](const Action& a) {
          return a.kind == ActionKind::kBlock && a.object == b.first && a.value == b.second;
        });
      });
    case ScriptStep::kBand:
      // Each join of the first attacker's band with another's is offered.
      if (d.kind != DecisionKind::kBand) return false;
      return std::all_of(step.attackers.begin() + 1, step.attackers.end(), [&](ObjId y) {
        const ObjId bx = game.BandOf(step.attackers[0]), by = game.BandOf(y);
        return has([&](const Action& a) {
          return a.kind == ActionKind::kBand && a.object == std::min(bx, by) &&
                 a.value == std::max(bx, by);
        });
      });
    case ScriptStep::kPay: {
      ActionKind answer = step.pay ? ActionKind::kYes : ActionKind::kNo;
      auto answers = [&](const Action& a) {
        return a.kind == answer && (step.object == kNoObj || a.object == step.object) &&
               (!step.pay_life || a.value == 1);
      };
      if (d.kind == DecisionKind::kPhaseCost || d.kind == DecisionKind::kOptionalCost)
        return ForMatches(step, d) && has(answers);
      for (size_t i = 0; i < d.actions.size(); ++i) {
        if (!Matches(game, step, d.actions[i])) continue;
        auto next = next_actions(i, DecisionKind::kPhaseCost);
        if (std::any_of(next.begin(), next.end(), answers)) return true;
      }
      return false;
    }
    default:
      return has([&](const Action& a) { return Matches(game, step, a); });
  }
}

// Do two steps name the same action: the same kind, card or object,
// ability, attackers and blocks? (Targets, X and choices aside: "never
// while sick; then it activates" names the activation alone.)
static bool SameAction(const ScriptStep& a, const ScriptStep& b) {
  return a.kind == b.kind && a.player == b.player && a.card == b.card && a.object == b.object &&
         a.ability == b.ability && a.attackers == b.attackers && a.blocks == b.blocks;
}

// A negative step is checked at every decision of its player after the
// player's previous ordinary step was used and until the next one is used:
// at the decision that uses it too, unless that step is the same action
// (the never step's window ends as its action becomes legal and is taken).
// Before, the decision that used the closing step was never checked, so a
// never step followed by another of the same decision (B never blocks the
// attacker with the Wall; B blocks it with the Bears) checked nothing.
void ScriptedPolicy::CheckNevers(const Game& game, const Decision& d, size_t used_before) {
  for (NeverStep& n : script_->nevers) {
    if (n.failed || n.step.player != player_) continue;
    if (n.after >= 0 && static_cast<size_t>(n.after) >= used_before) continue;
    if (n.until < script_->steps.size() && used_before > n.until) continue;
    // At the decision that takes the window's closing step, the never step
    // still counts, unless that step is the same action, now legal ("never
    // while sick; then it activates").
    if (n.until < script_->steps.size() && script_->next > n.until &&
        SameAction(script_->steps[n.until], n.step))
      continue;
    if (!LegalNow(game, d, n.step)) continue;
    n.failed = true;
    script_->errors.push_back(absl::StrCat(
        "step ", n.step.number, " (", n.step.Describe(), ") was legal at T", game.state().turn, " ",
        S(PhaseName(game.state().phase)), " ", S(DecisionKindName(d.kind))));
  }
}

}  // namespace strata
