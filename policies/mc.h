// A look-ahead player. At each decision with a real choice it plays every
// legal action forward in `rollouts` copies of the game, each continued by
// another policy (the rollout policy) for up to `depth` decisions (on a
// deck holding a counterspell, to the end of the next turn), scores
// where each copy ends up, and picks the action with the best mean. Its
// budget is counted in rollouts and decisions, never in time, so its play
// does not depend on the machine or its load.
//
// It does not peek: every rollout starts from a determinization that deals
// again what its player can't see (the opponent's hand with the opponent's
// library, and its own library's order). Rollout r of every action starts
// from the same determinization with the same rollout seeds (common random
// numbers), so actions are compared on the same futures. It keeps what the
// rollout policy itself would do unless another action scores better by more
// than `margin`: a handful of noisy rollouts should not overrule a sound
// default. When one would, the two are first played again in kVerify times
// `rollouts` new determinizations, and the challenger must still lead by
// the margin over all its rollouts (so a decision costs at most
// rollouts x (actions + 2 x kVerify) rollouts). Against heuristic (seeds 7
// to 9, 2,000 games per matchup, rollouts=2, depth=14, 6 to 12 verifying
// rounds; 8 is kVerify x 2) the verification took red_burn vs green_stompy
// from 56.2 to 57.4-59.3%, white_weenie vs blue_control from 52.1 to
// 53.3-54.5%, rg_aggro vs black_removal from 54.6 to 56.8-57.6%. Its
// opening hand it keeps or mulligans by the heuristic's rule
// (ChooseOpeningHand).
//
// Which decisions the rollouts weigh (`decide`): by default the tactical
// ones, whose outcome a few turns show (attackers, blockers, targets, X,
// prevention, reactions), plus, in the neutral state and the batch windows,
// whether to announce an attack the default would not. What to cast and
// when is a plan beyond the horizon, and rollouts this short misjudge it:
// measured against heuristic on red_burn vs green_stompy (800 games each,
// --mulligan none), weighing every decision scored 45.8%, only the casting
// windows 42.5%, only the tactical ones 54.1 to 55.9% (results/strength.md).
// A deck holding a counterspell (its own cards, wherever they are) plays on
// the opponent's turn, so for it interrupts and batch responses are
// tactical too: mc on blue_control against heuristic on white_weenie won
// 32.2-32.7% of games without them and 33.3-34.5% with them (seeds 1 and 7
// to 10, 3,000 to 6,000 games each); the decks without one play as before.
// Such a deck also plays its rollouts to the end of the next turn (at most
// kLongDepth x `depth` decisions) rather than `depth` decisions in: what
// tapping out or holding a counter costs shows on the opponent's turn and
// the one after. mc on blue_control then won 37.2-38.2% instead of
// 33.3-34.5% (seeds 7 to 10, 3,000 games each); stopped at `depth`
// decisions or at the end of the turn, whichever comes first, 34.5%, and
// at 20 decisions 36.3% (seed 7).
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "engine/rng.h"
#include "policies/policy.h"

namespace strata {

class McPolicy : public Policy {
 public:
  struct Params {
    int rollouts = 8;                   // per legal action
    int depth = 40;                     // decisions per rollout before the position is scored
    std::string rollout = "heuristic";  // the policy that plays rollouts (and the default)
    double margin = 0.02;               // how much better than the default an action must score
    // Which decisions the rollouts weigh: attacks and blocks (combat), also
    // targets, X, prevention and reactions, and for a deck holding a
    // counterspell interrupts and batch responses (tactical), or every one
    // (all).
    enum class Decide : uint8_t { kCombat, kTactical, kAll } decide = Decide::kTactical;
  };
  // `rollout` must be a valid policy spec (MakePolicy checks it first).
  McPolicy(uint64_t seed, Params params);
  int Choose(const PlayerView& view, const Decision& decision) override;
  std::string Name() const override;
  void Reset(uint64_t seed) override { rng_.Seed(seed); }
  // It needs the game to copy it, and hides what its player can't see itself.
  bool omniscient() const override { return true; }
  // What the last decision did (for tests): rollouts played, whether a
  // deviation was verified, whether the default was overruled, and the turn
  // at whose end its rollouts stopped (0: after `depth` decisions).
  struct Last {
    int rollouts = 0;
    bool verified = false, overruled = false;
    int last_turn = 0;
  };
  const Last& last() const { return last_; }
  // How many times `rollouts` the verification of a deviation plays.
  static constexpr int kVerify = 4;
  // The bound, in times `depth`, on a rollout that runs to the end of the
  // next turn (a deck holding a counterspell). Such a rollout ends at the
  // turn's end well before it (bounds of 32 and 80 decisions played the
  // same games at depth 14).
  static constexpr int kLongDepth = 4;

 private:
  double Rollout(Game& game, Player me, uint64_t seed);
  bool Weighs(const Game& game, Player me, DecisionKind kind) const;
  Rng rng_;
  Params params_;
  std::unique_ptr<Policy> players_[2];  // rollout players, reseeded for every rollout
  std::optional<Game> determinized_;    // scratch games, reused so a decision does not allocate
  std::optional<Game> rollout_game_;
  std::vector<uint64_t> seeds_;
  std::vector<double> totals_;
  Last last_;
  std::vector<bool>
      skip_;  // actions the rollouts don't weigh  // actions not tried (harm aimed at its own side)
};

// Copies `game` into `out` and deals again everything `me` can't see: the
// opponent's hand and library from their union, and `me`'s library in a new
// order. The result depends only on what `me` may know (and `rng`).
void Determinize(const Game& game, Player me, Rng& rng, Game& out);
Game Determinize(const Game& game, Player me, Rng& rng);

// How good the position is for `me`, in [0, 1]: 1 or 0 when the game is
// over, otherwise a logistic score of life, creatures on the battlefield and
// cards in hand. Reads only what `me` could see (hand sizes, not hands).
double ScorePosition(const Game& game, Player me);

}  // namespace strata
