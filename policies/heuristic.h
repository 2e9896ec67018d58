// A rules-aware player. It plays a land and permanents on curve, attacks
// when the race favours it (fights judged with first strike and protection;
// never sending a creature whose absence makes the swing back lethal;
// aggro presses when the opponent's life is within its creatures' power and
// its burn; one winning blocker stops only one of more attackers) and
// blocks to survive (first) or trade well; it discards spare lands,
// uncastable spells and second copies before creatures. Every other
// card it plays by what the card's effects do (policies/aim.h), never by
// name: removal on the opponent's best threat when it attacks or blocks, at
// the end of the opponent's turn or in its own main phase (what kills
// anything kept for what burn can't kill); burn on a creature it kills, or
// the face when lethal (aggro also when the opponent is in range, or
// racing a flier it can't answer);
// pump in a fight it changes; prevention in the
// damage-prevention step for a creature that would die or lethal damage to
// its player; regeneration when its creature is destroyed; counters on
// spells worth countering, once each; rituals only when the mana then casts a spell
// it could not cast before; X as large as it can pay; harmful effects
// (triggers included) at the opponent's side and helpful ones at its own;
// Auras and Equipment on the right side; an opening hand by its lands
// (ChooseOpeningHand), or every one with `keep=all`. Two styles: `aggro`
// attacks and burns faces; `control` holds back, attacks only when
// unopposed and saves burn for creatures. It sees only what its player may see, and its work
// per decision is bounded by the number of objects and actions.
#pragma once

#include <array>
#include <string>

#include "engine/rng.h"
#include "policies/aim.h"
#include "policies/policy.h"

namespace strata {

// The heuristic's opening hand (RULES.md G-1), for any player that wants a
// sensible one (mc uses it): a mulligan decision keeps a hand whose kept
// cards can hold 2 to 5 lands of seven, 2 to 4 of six, at least one of
// five, and any hand of four cards or fewer; a london bottom decision puts
// away the lands beyond about three in seven, then the spells the hand's
// lands can't make the colours of, then the dearest.
int ChooseOpeningHand(const PlayerView& v, const Decision& d);
// The untap step (heuristic_untap.cc, docs/rules.md T-1.8, T-13.1): which
// permanent to untap under a limit; whether to pay a phase cost for its
// untap (`*is_reward`: the cost is one; false otherwise, and then the
// answer is false).
int ChooseUntap(const PlayerView& v, const Decision& d);
bool PayForUntap(const PlayerView& v, const Decision& d, int yes, bool* is_reward);

class HeuristicPolicy : public Policy {
 public:
  enum class Style : uint8_t { kAggro, kControl };
  // `keep_all`: keeps every opening hand (a baseline for its mulligans).
  HeuristicPolicy(uint64_t seed, Style style, bool keep_all = false)
      : rng_(seed), style_(style), keep_all_(keep_all) {}
  int Choose(const PlayerView& view, const Decision& decision) override;
  std::string Name() const override;
  void Reset(uint64_t seed) override {
    rng_.Seed(seed);
    plan_ = Plan{};
    memory_ = {};
    memory_objects_ = 0;
    next_memory_ = 0;
    activations_ = 0;
    casts_ = 0;
    activation_turn_ = -1;
  }

  // The plan made when a spell or ability is started: what the later
  // decisions of its casting (mode, first target, X) pick.
  struct Plan {
    ActionKind kind = ActionKind::kPass;
    ObjId object = kNoObj;
    int16_t index = 0;
    int mode = -1;
    ObjId target = kNoObj;
    Player target_player = kNoPlayer;
    int x = -1;
    int score = -1;
    ObjId source_choice = kNoObj;  // "a source of your choice" (T-4.1)
    int mana_color = -1;           // the color a mana ability makes (T-10.2)
    // A plan to start action `a` in mode `mode`, nothing chosen yet (no
    // score: -1).
    static Plan For(const Action& a, int mode) {
      Plan p;
      p.kind = a.kind;
      p.object = a.object;
      p.index = a.index;
      p.mode = mode;
      return p;
    }
  };

 private:
  struct Context;
  Context MakeContext(const PlayerView& v, DecisionKind window) const;
  Plan Evaluate(const PlayerView& v, const Context& cx, DecisionKind window, const Action& a);
  void EvaluateBody(const PlayerView& v, const Context& cx, DecisionKind window, const Action& a,
                    const CardDef& c, const AbilityBody& body, int mode, Plan& best);
  // G-8: abilities whose counters are a resource (heuristic_counters.cc);
  // false leaves the ability to EvaluateBody.
  bool EvaluateCounters(const PlayerView& v, const Context& cx, DecisionKind window,
                        const Action& a, const CardDef& c, const AbilityBody& body, int mode,
                        Plan& best);
  // G-8.2: "put up to X counters on it, no more than N" (heuristic_counters2.cc):
  // true, the ability judged (Clockwork Beast).
  bool EvaluateWinding(const PlayerView& v, const Context& cx, const Action& a, const CardDef& c,
                       const AbilityBody& body, int mode, Plan& best);
  // G-8.3, G-8.4: a removal of its own counters any player may activate,
  // "put a +1/+1 counter on it" in its upkeep (heuristic_counters3.cc): true,
  // the ability judged (Armageddon Clock, Rock Hydra).
  bool EvaluateCounters3(const PlayerView& v, const Context& cx, const Action& a, const CardDef& c,
                         const AbilityBody& body, int mode, Plan& best);
  // G-9: a body whose first target is a card in a graveyard, or (`body`
  // null) an Aura that returns one (heuristic_graveyard.cc); false when
  // `c` has neither.
  bool EvaluateGraveyard(const PlayerView& v, const Context& cx, const Action& a, const CardDef& c,
                         const AbilityBody* body, int mode, Plan& best);
  // G-12: a body that creates tokens (heuristic_tokens.cc); false when it
  // makes none.
  bool EvaluateTokens(const PlayerView& v, const Context& cx, const Action& a, const CardDef& c,
                      const AbilityBody& body, int mode, Plan& best);
  // E-6, T-5.4: an ability that destroys its own permanent at the end step
  // (Rocket Launcher; heuristic_delayed.cc).
  bool EvaluateSelfDoomed(const PlayerView& v, const Context& cx, const Action& a, const CardDef& c,
                          const AbilityBody& body, int mode, Plan& best);
  // T-7.5, T-5.7: a body that destroys a chosen creature, or the active
  // player's creatures that didn't attack, at the next end step (Nettling
  // Imp, Siren's Call, Stone Giant; heuristic_attacks3.cc); false when it
  // arms no such destruction.
  bool EvaluateCarriedDoom(const PlayerView& v, const Context& cx, const Action& a,
                           const CardDef& c, const AbilityBody& body, int mode, Plan& best);
  // T-10.2, T-1.6: a mana ability offered as an action, an extra turn
  // (heuristic_power.cc).
  Plan EvaluateManualMana(const PlayerView& v, const Context& cx, const Action& a,
                          const CardDef& c);
  static bool EvaluateExtraTurn(const Context& cx, const AbilityBody& body, Plan& p);
  // G-9, T-5.2, T-8.2: Recall, Reset, exactly N targets (heuristic_oslist.cc);
  // false leaves the body to EvaluateBody.
  bool EvaluateOslist(const PlayerView& v, const Context& cx, const Action& a, const CardDef& c,
                      const AbilityBody& body, int mode, Plan& best);
  // T-7.2: Fog and Maze of Ith in a prevention step (heuristic_eval.cc).
  void EvaluateCombatPrevention(const PlayerView& v, const Context& cx, const Action& a,
                                const AbilityBody& body, int mode, Plan& p, Plan& best);
  // T-4.1: a body that waits on a chosen source's damage, in a prevention
  // step (heuristic_damage.cc).
  void EvaluateSourceChoice(const PlayerView& v, const Context& cx, const Action& a,
                            const CardDef& c, const AbilityBody& body, const EffectStep& st,
                            int mode, Plan& p, Plan& best);
  // T-4.1: a body that reads the damage dealt this turn (Simulacrum,
  // Reverse Polarity); false when the body reads none (heuristic_damage.cc).
  bool EvaluateTally(const PlayerView& v, const Context& cx, const Action& a, const CardDef& c,
                     const AbilityBody& body, int mode, Plan& p, Plan& best);
  int ChooseStart(const PlayerView& v, const Decision& d);
  int ChooseTarget(const PlayerView& v, const Decision& d);
  int ChooseBlock(const PlayerView& v, const Decision& d);
  int ChooseSurvivalBlock(const PlayerView& v, const Decision& d, int incoming);
  int ChooseAttacker(const PlayerView& v, const Decision& d);
  // T-7.3 (heuristic_banding.cc): which bands to join; where a point of
  // divided combat damage goes.
  int ChooseBand(const PlayerView& v, const Decision& d);
  int ChooseDivide(const PlayerView& v, const Decision& d);
  int ChooseChoice(const PlayerView& v, const Decision& d);
  int ChooseX(const PlayerView& v, const Decision& d);
  int ChooseDiscard(const PlayerView& v, const Decision& d);
  int ChooseSearch(const PlayerView& v, const Decision& d);
  static int RefillScore(const PlayerView& v, const Context& cx, const AbilityBody& body,
                         bool spell);
  bool AttackIsGood(const PlayerView& v) const;
  bool PlanFor(const PlayerView& v) const;  // the plan is for the item being cast
  void Replan(const PlayerView& v);

  // What it did to which object lately (so two spells don't go at one
  // target in one window): a small ring, no allocation.
  enum class Did : uint8_t { kNothing, kHarmed, kHelped, kShielded };
  struct Memory {
    int16_t turn = -1;
    Phase phase = Phase::kUntap;
    Did did = Did::kNothing;
    ObjId object = kNoObj;
  };
  void Remember(const PlayerView& v, Did did, ObjId o);
  // Inline: the evaluation asks it of every permanent it weighs, from
  // other files (heuristic_eval.cc).
  bool Remembers(const PlayerView& v, Did did, ObjId o) const {
    if (!(memory_objects_ >> (o & 63) & 1)) return false;  // most objects asked about
    const int16_t turn = static_cast<int16_t>(v.turn());
    const Phase phase = v.phase();
    for (const Memory& m : memory_)
      if (m.object == o && m.did == did && m.turn == turn && m.phase == phase) return true;
    return false;
  }

  Rng rng_;
  Style style_;
  bool keep_all_ = false;
  Plan plan_;
  std::array<Memory, 16> memory_{};
  // A bit for each object number (mod 64) the memory holds: Remembers
  // answers no at once for the others (asked of every permanent weighed).
  uint64_t memory_objects_ = 0;
  int next_memory_ = 0;
  // This turn's activations and casts: bounds on a free loop the
  // evaluation does not see (an ability that costs nothing; a spell of
  // mana value 0 that comes back to the hand each time, as Spellbook made
  // a 0/0 creature by Titania's Song and returned as it dies).
  int activations_ = 0;
  int casts_ = 0;
  int activation_turn_ = -1;
};

}  // namespace strata
