#include "sim/metagame.h"

#include <algorithm>
#include <cmath>

namespace strata {

Metagame SolveMetagame(const std::vector<std::vector<double>>& win_rate) {
  const int n = static_cast<int>(win_rate.size());
  Metagame g;
  if (n == 0) return g;
  std::vector<std::vector<double>> w(n, std::vector<double>(n, 0.5));
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) {
      if (i == j) continue;
      if (!std::isfinite(win_rate[i][j])) return g;
      w[i][j] = win_rate[i][j];
    }
  // The mix y minimizes max_j (W y)_j. With W' = W + 1 > 0 that is the LP
  // maximize sum y subject to W' y <= 1, y >= 0; then x = y / sum y, and
  // the game's value is 1 / sum y - 1. Tableau: n rows (slacks basic at
  // the start, feasible at y = 0), columns y_0..y_n-1, s_0..s_n-1, rhs.
  const int cols = 2 * n;
  std::vector<std::vector<double>> t(n + 1, std::vector<double>(cols + 1, 0.0));
  std::vector<int> basis(n);
  for (int r = 0; r < n; ++r) {
    for (int c = 0; c < n; ++c) t[r][c] = w[r][c] + 1;
    t[r][n + r] = 1;
    t[r][cols] = 1;
    basis[r] = n + r;
  }
  for (int c = 0; c < n; ++c) t[n][c] = -1;  // the objective row: -sum y
  constexpr double kEps = 1e-12;
  for (int guard = 0; guard < 10000; ++guard) {
    // Bland's rule: the first column that improves, then the first row of
    // the smallest ratio (by basic variable index on ties).
    int enter = -1;
    for (int c = 0; c < cols; ++c)
      if (t[n][c] < -kEps) {
        enter = c;
        break;
      }
    if (enter < 0) break;
    int leave = -1;
    double best = 0;
    for (int r = 0; r < n; ++r) {
      if (t[r][enter] <= kEps) continue;
      const double ratio = t[r][cols] / t[r][enter];
      if (leave < 0 || ratio < best - kEps || (ratio <= best + kEps && basis[r] < basis[leave]))
        leave = r, best = ratio;
    }
    if (leave < 0) return g;  // unbounded: impossible with W' > 0
    const double p = t[leave][enter];
    for (double& v : t[leave]) v /= p;
    for (int r = 0; r <= n; ++r) {
      if (r == leave || t[r][enter] == 0) continue;
      const double f = t[r][enter];
      for (int c = 0; c <= cols; ++c) t[r][c] -= f * t[leave][c];
    }
    basis[leave] = enter;
    ++g.pivots;
  }
  std::vector<double> y(n, 0.0);
  for (int r = 0; r < n; ++r)
    if (basis[r] < n) y[basis[r]] = std::max(0.0, t[r][cols]);
  double sum = 0;
  for (double v : y) sum += v;
  if (!(sum > 0)) return g;
  g.share.resize(n);
  for (int i = 0; i < n; ++i) g.share[i] = y[i] / sum;
  g.win_vs_mix.assign(n, 0.0);
  g.value = 0;
  for (int j = 0; j < n; ++j) {
    for (int i = 0; i < n; ++i) g.win_vs_mix[j] += g.share[i] * w[j][i];
    g.value = std::max(g.value, g.win_vs_mix[j]);
  }
  g.solved = true;
  return g;
}

}  // namespace strata
