// Ratings of decks from a matrix of results: Bradley-Terry strengths
// (P(i beats j) = s_i / (s_i + s_j)) fitted by maximum likelihood with the
// MM iteration (Hunter, "MM algorithms for generalized Bradley-Terry
// models", 2004), reported on the Elo scale: 400 log10 s_i, mean 0.
#pragma once

#include <vector>

namespace strata {

struct RatingFit {
  std::vector<double> strength;  // geometric mean 1
  std::vector<double> elo;       // 400 log10 strength: mean 0
  int iterations = 0;
  bool converged = false;
};

// wins[i][j]: wins of i over j (a draw counts half to each side); square.
// `prior` adds that many wins each way to every pair that played, which
// keeps the fit finite when a deck won or lost every game. A deck with no
// games gets strength 1.
RatingFit FitBradleyTerry(const std::vector<std::vector<double>>& wins, double prior = 0,
                          double tolerance = 1e-13, int max_iterations = 1000000);

// Does the maximum-likelihood fit exist? It does when every split of the
// decks that played into two groups has a win each way across it: the
// directed graph "i beat j at least once" is strongly connected.
bool RatingExists(const std::vector<std::vector<double>>& wins);

}  // namespace strata
