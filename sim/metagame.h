// The equilibrium metagame of a round robin: the mix of decks that no
// single deck beats on average. The matchup matrix W (W[i][j] the score of
// deck i against deck j, a mirror 1/2) is a symmetric zero-sum game; its
// optimal mixed strategy x has sum_i x_i W[j][i] <= 1/2 for every deck j,
// with equality on the decks the mix uses. Solved exactly (up to floating
// point) by the simplex method on the game's linear program, with Bland's
// rule (no cycling).
#pragma once

#include <vector>

namespace strata {

struct Metagame {
  bool solved = false;             // false: a matchup is missing (not a round robin)
  std::vector<double> share;       // by deck, summing to 1
  std::vector<double> win_vs_mix;  // sum_i share_i W[d][i]: 1/2 on the mix's decks
  double value = 0.5;              // max_d win_vs_mix[d]: 1/2 up to rounding
  int pivots = 0;
};

// `win_rate[i][j]`: the score of deck i against deck j (NaN where they did
// not play; the diagonal is ignored and taken as 1/2).
Metagame SolveMetagame(const std::vector<std::vector<double>>& win_rate);

}  // namespace strata
