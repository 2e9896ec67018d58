#include "sim/rating.h"

#include <algorithm>
#include <cmath>

namespace strata {

RatingFit FitBradleyTerry(const std::vector<std::vector<double>>& wins, double prior,
                          double tolerance, int max_iterations) {
  const size_t n = wins.size();
  std::vector<std::vector<double>> w(n, std::vector<double>(n, 0.0));
  for (size_t i = 0; i < n; ++i)
    for (size_t j = 0; j < n; ++j)
      if (i != j && wins[i][j] + wins[j][i] > 0) w[i][j] = wins[i][j] + prior;
  std::vector<double> total(n, 0.0);  // W_i: wins of i
  std::vector<bool> played(n, false);
  for (size_t i = 0; i < n; ++i)
    for (size_t j = 0; j < n; ++j) {
      total[i] += w[i][j];
      if (w[i][j] + w[j][i] > 0) played[i] = true;
    }
  RatingFit fit;
  std::vector<double> s(n, 1.0), next(n, 1.0);
  while (fit.iterations < max_iterations) {
    ++fit.iterations;
    // s_i <- W_i / sum_j n_ij / (s_i + s_j), then scale to geometric mean 1.
    double log_sum = 0;
    int rated = 0;
    bool finite = true;
    for (size_t i = 0; i < n; ++i) {
      next[i] = 1.0;
      if (!played[i]) continue;
      double denom = 0;
      for (size_t j = 0; j < n; ++j)
        if (j != i) denom += (w[i][j] + w[j][i]) / (s[i] + s[j]);
      next[i] = total[i] / denom;
      finite &= next[i] > 0 && std::isfinite(next[i]);
      if (finite) log_sum += std::log(next[i]);
      ++rated;
    }
    if (!finite) break;  // a deck that never won (or never lost): no finite fit
    double scale = rated ? std::exp(-log_sum / rated) : 1.0;
    double change = 0;
    for (size_t i = 0; i < n; ++i) {
      if (played[i]) next[i] *= scale;
      change = std::max(change, std::fabs(std::log(next[i]) - std::log(s[i])));
    }
    s.swap(next);
    if (change < tolerance) {
      fit.converged = true;
      break;
    }
  }
  fit.strength = s;
  fit.elo.resize(n);
  for (size_t i = 0; i < n; ++i) fit.elo[i] = 400 * std::log10(fit.strength[i]);
  return fit;
}

bool RatingExists(const std::vector<std::vector<double>>& wins) {
  const size_t n = wins.size();
  std::vector<size_t> decks;
  for (size_t i = 0; i < n; ++i)
    for (size_t j = 0; j < n; ++j)
      if (i != j && wins[i][j] + wins[j][i] > 0) {
        decks.push_back(i);
        break;
      }
  if (decks.empty()) return false;
  // Every deck reachable from the first along "beat" edges, and backwards.
  for (int dir = 0; dir < 2; ++dir) {
    std::vector<bool> seen(n, false);
    std::vector<size_t> todo{decks[0]};
    seen[decks[0]] = true;
    while (!todo.empty()) {
      size_t i = todo.back();
      todo.pop_back();
      for (size_t j = 0; j < n; ++j)
        if (!seen[j] && j != i && (dir ? wins[j][i] : wins[i][j]) > 0) {
          seen[j] = true;
          todo.push_back(j);
        }
    }
    for (size_t i : decks)
      if (!seen[i]) return false;
  }
  return true;
}

}  // namespace strata
