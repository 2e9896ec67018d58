#include "policies/mc.h"

#include <algorithm>

#include "absl/strings/str_cat.h"

namespace strata {

Game Determinize(const Game& game, Player me, Rng& rng) {
  Game copy = game;
  GameState& s = copy.MutableState();
  auto shuffle = [&](std::vector<CardId>& v) {
    for (size_t i = v.size(); i > 1; --i)
      std::swap(v[i - 1], v[rng.Below(static_cast<uint32_t>(i))]);
  };
  // The opponent's hidden cards: the same objects get the union's cards in
  // a random order, so nothing of the real split survives.
  Player opp = Opponent(me);
  std::vector<ObjId> slots;
  for (ObjId o : s.players[opp].hand) slots.push_back(o);
  for (ObjId o : s.players[opp].library) slots.push_back(o);
  std::vector<CardId> cards;
  for (ObjId o : slots) cards.push_back(s.obj.card[o]);
  std::sort(cards.begin(), cards.end());  // forget where each card really was
  shuffle(cards);
  for (size_t i = 0; i < slots.size(); ++i) s.obj.card[slots[i]] = cards[i];
  // Our own library's order is hidden too.
  std::vector<ObjId> lib = s.players[me].library;
  std::vector<CardId> own;
  for (ObjId o : lib) own.push_back(s.obj.card[o]);
  std::sort(own.begin(), own.end());
  shuffle(own);
  for (size_t i = 0; i < lib.size(); ++i) s.obj.card[lib[i]] = own[i];
  return copy;
}

std::string McPolicy::Name() const {
  return absl::StrCat("mc:rollouts=", rollouts_, ";rollout=", rollout_spec_, ";depth=", depth_);
}

double McPolicy::Rollout(const Game& start, Player me, Rng& rng) {
  Game g = start;
  auto a = MakePolicy(rollout_spec_, rng.Next());
  auto b = MakePolicy(rollout_spec_, rng.Next());
  for (int n = 0; n < depth_; ++n) {
    const Decision& d = g.Advance();
    if (d.kind == DecisionKind::kNone) break;
    g.Apply((d.player == 0 ? **a : **b).ChooseFor(g, d));
  }
  if (g.Over()) return g.Winner() < 0 ? 0.5 : g.Winner() == me ? 1.0 : 0.0;
  // Not finished within the depth: score the life race.
  double diff = g.state().players[me].life - g.state().players[Opponent(me)].life;
  return std::clamp(0.5 + diff / 40.0, 0.0, 1.0);
}

int McPolicy::Choose(const PlayerView& view, const Decision& d) {
  const int n = static_cast<int>(d.actions.size());
  if (n <= 1) return 0;
  const Game& game = *view.whole_game();
  const Player me = d.player;
  // Common random numbers: the r-th rollout of every action starts from the
  // same determinization and uses the same rollout seeds, so actions are
  // compared on the same futures.
  std::vector<uint64_t> seeds(rollouts_);
  for (auto& sd : seeds) sd = rng_.Next();
  // Ties (often: every action loses, or every action wins) go to what the
  // rollout policy itself would do, not to the first action (a pass).
  auto prior_policy = MakePolicy(rollout_spec_, seeds.empty() ? 1 : seeds[0]);
  const int prior = (*prior_policy)->ChooseFor(game, d);
  std::vector<double> totals(n, 0.0);
  for (int i = 0; i < n; ++i) {
    double total = 0;
    for (int r = 0; r < rollouts_; ++r) {
      Rng local(seeds[r]);
      Game g = Determinize(game, me, local);
      g.Advance();  // the same decision, in the determinized copy
      g.Apply(i);
      total += Rollout(g, me, local);
    }
    totals[i] = total;
  }
  int best = prior;
  for (int i = 0; i < n; ++i)
    if (totals[i] > totals[best]) best = i;
  return best;
}

}  // namespace strata
