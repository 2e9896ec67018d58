#include "policies/mc.h"

#include <algorithm>
#include <cmath>

#include "absl/strings/str_cat.h"
#include "policies/aim.h"
#include "policies/heuristic.h"

namespace strata {
namespace {

template <typename T>
void Shuffle(std::vector<T>& v, Rng& rng) {
  for (size_t i = v.size(); i > 1; --i) std::swap(v[i - 1], v[rng.Below(static_cast<uint32_t>(i))]);
}

// Deals the cards of `slots` again in a random order: what was where is
// forgotten first (sorted), so nothing of the real arrangement survives.
void Redeal(GameState& s, const std::vector<ObjId>& slots, Rng& rng) {
  thread_local std::vector<CardId> cards;
  cards.clear();
  for (ObjId o : slots) cards.push_back(s.obj.card[o]);
  std::sort(cards.begin(), cards.end());
  Shuffle(cards, rng);
  for (size_t i = 0; i < slots.size(); ++i) s.obj.card[slots[i]] = cards[i];
}

// Can a card's spell counter a spell (a body or mode that targets one)?
bool Counters(const CardDef& c) {
  if (!c.has_spell) return false;
  if (c.spell.TargetsSpell()) return true;
  for (const AbilityBody& m : c.spell.modes)
    if (m.TargetsSpell()) return true;
  return false;
}

// Does `me`'s deck (every card it owns, wherever it is: it knows its own
// deck list) hold a counterspell?
bool DeckCounters(const Game& g, Player me) {
  const GameState& s = g.state();
  for (ObjId o = 0; o < s.obj.count; ++o)
    if (s.obj.owner[o] == me && s.obj.card[o] != kNoCard && Counters(g.db()[s.obj.card[o]]))
      return true;
  return false;
}

}  // namespace

void Determinize(const Game& game, Player me, Rng& rng, Game& out) {
  out = game;
  GameState& s = out.MutableState();
  const Player opp = Opponent(me);
  thread_local std::vector<ObjId> slots;
  slots.assign(s.players[opp].hand.begin(), s.players[opp].hand.end());
  slots.insert(slots.end(), s.players[opp].library.begin(), s.players[opp].library.end());
  Redeal(s, slots, rng);
  Redeal(s, s.players[me].library, rng);
  // The layers once here, not in each copy a rollout starts from: a copy
  // takes the cache with it, and the redeal made it stale.
  out.UpdateLayers();
}

Game Determinize(const Game& game, Player me, Rng& rng) {
  Game out = game;
  Determinize(game, me, rng, out);
  return out;
}

double ScorePosition(const Game& g, Player me) {
  if (g.Over()) return g.Winner() < 0 ? 0.5 : g.Winner() == me ? 1.0 : 0.0;
  const GameState& s = g.state();
  double value = 0;
  for (Player p : {Player{0}, Player{1}}) {
    const double sign = p == me ? 1.0 : -1.0;
    // Life matters more the lower it gets.
    int life = std::max(s.players[p].life, 0);
    // G-11: ten poison counters lose as 0 life does; each counter is worth
    // two life of the twenty a player starts with.
    if (const int poison = s.players[p].poison) [[unlikely]]
      life = std::min(life, std::max(0, 2 * (kPoisonToLose - poison)));
    value += sign * (std::min(life, 20) + 4.0 * std::sqrt(static_cast<double>(life)));
    value += sign * 1.5 * static_cast<double>(s.players[p].hand.size());
  }
  s.ForEachPermanent([&](ObjId o) {
    const Characteristics& ch = g.Chars(o);
    const double sign = ch.controller == me ? 1.0 : -1.0;
    if (ch.types & (1u << kCreature))
      value +=
          sign * (2.0 + 1.5 * std::max<int>(ch.power, 0) + 0.8 * std::max<int>(ch.toughness, 0));
    else if (ch.types & (1u << kLand))
      value += sign * 1.0;
    else
      value += sign * 2.0;  // an artifact or enchantment in play does something
  });
  return 1.0 / (1.0 + std::exp(-value / 12.0));
}

McPolicy::McPolicy(uint64_t seed, Params params) : rng_(seed), params_(std::move(params)) {
  for (auto& p : players_) p = *MakePolicy(params_.rollout, seed);
}

std::string McPolicy::Name() const {
  return absl::StrCat("mc:rollouts=", params_.rollouts, ",depth=", params_.depth,
                      ",rollout=", params_.rollout, ",margin=", params_.margin, ",decide=",
                      params_.decide == Params::Decide::kCombat ? "combat"
                      : params_.decide == Params::Decide::kAll  ? "all"
                                                                : "tactical");
}

double McPolicy::Rollout(Game& g, Player me, uint64_t seed) {
  players_[0]->Reset(seed);
  players_[1]->Reset(seed ^ 0x5DEECE66Dull);
  const int last_turn = last_.last_turn;
  const int depth = last_turn > 0 ? kLongDepth * params_.depth : params_.depth;
  for (int n = 0; n < depth; ++n) {
    const Decision& d = g.Advance();
    if (d.kind == DecisionKind::kNone) break;
    if (last_turn > 0 && g.state().turn > last_turn) break;
    g.Apply(players_[d.player]->ChooseFor(g, d));
  }
  return ScorePosition(g, me);
}

bool McPolicy::Weighs(const Game& game, Player me, DecisionKind kind) const {
  switch (kind) {
    case DecisionKind::kAttackers:
    case DecisionKind::kBlockers:
      return true;
    case DecisionKind::kTarget:
    case DecisionKind::kX:
    case DecisionKind::kPrevention:
    case DecisionKind::kReaction:
      return params_.decide != Params::Decide::kCombat;
    case DecisionKind::kInterrupt:
    case DecisionKind::kRespond:
      // A deck with counterspells plays on the opponent's turn: whether to
      // counter, or answer in a batch, is tactical for it.
      return params_.decide == Params::Decide::kAll ||
             (params_.decide == Params::Decide::kTactical && DeckCounters(game, me));
    default:
      return params_.decide == Params::Decide::kAll;
  }
}

int McPolicy::Choose(const PlayerView& view, const Decision& d) {
  const int n = static_cast<int>(d.actions.size());
  last_ = Last{};
  if (n <= 1) return 0;
  // An opening hand: the heuristic's rule. Rollouts of a few dozen
  // decisions see too little of a game to weigh a whole hand.
  if (d.kind == DecisionKind::kMulligan || d.kind == DecisionKind::kBottom)
    return ChooseOpeningHand(view, d);
  const Game& game = *view.whole_game();
  const Player me = d.player;
  // A search of its own library (G-3): the rollout policy's pick, on the
  // real game. A determinized copy deals that library again, so its
  // offered cards would not be these, and the library is shuffled once
  // the search ends: there is nothing hidden to guess.
  if (d.kind == DecisionKind::kSearch) {
    players_[me]->Reset(rng_.Next());
    return players_[me]->ChooseFor(game, d);
  }
  seeds_.resize(params_.rollouts);
  for (auto& s : seeds_) s = rng_.Next();
  if (!determinized_) determinized_.emplace(game);
  // The default: what the rollout policy would do here. It is asked on the
  // first rollout's determinized copy, so an omniscient rollout policy
  // can't peek.
  Rng first(seeds_[0]);
  Determinize(game, me, first, *determinized_);
  players_[me]->Reset(first.Next());
  const int prior = players_[me]->ChooseFor(*determinized_, d);
  // Which actions the rollouts weigh against the default. In the neutral
  // state and the batch windows only announcing an attack (when the default
  // doesn't): what to cast is a plan beyond a few turns, which rollouts this
  // short misjudge. Harm aimed at its own side while the other side could
  // take it is never tried.
  const bool weighs = Weighs(game, me, d.kind);
  const bool attack_only =
      !weighs && (d.kind == DecisionKind::kNeutral || d.kind == DecisionKind::kRespond ||
                  d.kind == DecisionKind::kInterrupt);
  if (!weighs && !attack_only) return prior;
  skip_.assign(n, false);
  int tried = 0;
  for (int i = 0; i < n; ++i) {
    bool avoidable = false;
    skip_[i] = (OwnHarm(game, d, d.actions[i], &avoidable) && avoidable) ||
               (attack_only && i != prior && d.actions[i].kind != ActionKind::kAttack);
    tried += !skip_[i] && i != prior;
  }
  if (tried == 0) return prior;
  // A deck holding a counterspell spends its mana on the opponent's turn,
  // so what a choice costs or saves it shows only once that turn and its
  // own next one are played: its rollouts run to the end of the next turn
  // (at most kLongDepth times `depth` decisions) instead of stopping
  // `depth` decisions in, often in the middle of a turn.
  last_.last_turn = DeckCounters(game, me) ? game.state().turn + 1 : 0;
  totals_.assign(n, 0.0);
  for (int r = 0; r < params_.rollouts; ++r) {
    Rng local(seeds_[r]);
    Determinize(game, me, local, *determinized_);
    const uint64_t rollout_seed = local.Next();
    for (int i = 0; i < n; ++i) {
      if (skip_[i]) continue;
      if (!rollout_game_) rollout_game_.emplace(*determinized_);
      Game& g = *rollout_game_;
      g = *determinized_;
      g.Advance();  // the same decision, in the copy
      g.Apply(i);
      totals_[i] += Rollout(g, me, rollout_seed);
      ++last_.rollouts;
    }
  }
  int best = prior;
  for (int i = 0; i < n; ++i)
    if (!skip_[i] && totals_[i] > totals_[best]) best = i;
  if ((totals_[best] - totals_[prior]) / params_.rollouts <= params_.margin) return prior;
  // The rollouts would overrule the default: before they do, the two are
  // played again in kVerify times as many new determinizations (common
  // random numbers again), and the challenger must still lead by the margin
  // over all its rollouts. A few noisy rollouts picked too many poor
  // deviations.
  const int more = kVerify * params_.rollouts;
  last_.verified = true;
  for (int r = 0; r < more; ++r) {
    Rng local(rng_.Next());
    Determinize(game, me, local, *determinized_);
    const uint64_t rollout_seed = local.Next();
    for (int i : {prior, best}) {
      Game& g = *rollout_game_;
      g = *determinized_;
      g.Advance();
      g.Apply(i);
      totals_[i] += Rollout(g, me, rollout_seed);
      ++last_.rollouts;
    }
  }
  if ((totals_[best] - totals_[prior]) / (params_.rollouts + more) <= params_.margin) return prior;
  last_.overruled = true;
  return best;
}

}  // namespace strata
