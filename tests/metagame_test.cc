// The equilibrium metagame (sim/metagame.h) against games solved by hand:
// rock-paper-scissors, weighted, a dominant deck, and on random matrices
// the defining property: no deck beats the mix on average.
#include "sim/metagame.h"

#include <cmath>
#include <random>

#include "gtest/gtest.h"

namespace strata {
namespace {

using Matrix = std::vector<std::vector<double>>;

TEST(Metagame, RockPaperScissors) {
  const Matrix w = {{0.5, 1, 0}, {0, 0.5, 1}, {1, 0, 0.5}};
  const Metagame g = SolveMetagame(w);
  ASSERT_TRUE(g.solved);
  for (int i = 0; i < 3; ++i) {
    EXPECT_NEAR(g.share[i], 1.0 / 3, 1e-12);
    EXPECT_NEAR(g.win_vs_mix[i], 0.5, 1e-12);
  }
  EXPECT_NEAR(g.value, 0.5, 1e-12);
}

TEST(Metagame, WeightedCycleByHand) {
  // R beats S 90%, S beats P 70%, P beats R 60%: the edges' margins are
  // a = 0.4, b = 0.2, c = 0.1, and the mix is (b, c, a) / (a + b + c).
  const Matrix w = {{0.5, 0.9, 0.4}, {0.1, 0.5, 0.7}, {0.6, 0.3, 0.5}};
  const Metagame g = SolveMetagame(w);
  ASSERT_TRUE(g.solved);
  EXPECT_NEAR(g.share[0], 0.2 / 0.7, 1e-12);
  EXPECT_NEAR(g.share[1], 0.1 / 0.7, 1e-12);
  EXPECT_NEAR(g.share[2], 0.4 / 0.7, 1e-12);
  for (double v : g.win_vs_mix) EXPECT_NEAR(v, 0.5, 1e-12);
}

TEST(Metagame, ADominantDeckIsTheWholeMix) {
  const Matrix w = {{0.5, 0.6, 0.55}, {0.4, 0.5, 0.9}, {0.45, 0.1, 0.5}};
  const Metagame g = SolveMetagame(w);
  ASSERT_TRUE(g.solved);
  EXPECT_NEAR(g.share[0], 1, 1e-12);
  EXPECT_NEAR(g.share[1], 0, 1e-12);
  EXPECT_NEAR(g.win_vs_mix[1], 0.4, 1e-12);
  EXPECT_NEAR(g.win_vs_mix[2], 0.45, 1e-12);
}

TEST(Metagame, AMissingMatchupIsNoRoundRobin) {
  const double nan = std::nan("");
  const Matrix w = {{0.5, 0.6, nan}, {0.4, 0.5, 0.7}, {nan, 0.3, 0.5}};
  EXPECT_FALSE(SolveMetagame(w).solved);
}

TEST(Metagame, NoDeckBeatsTheMixOnRandomMatrices) {
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> u(0, 1);
  for (int trial = 0; trial < 200; ++trial) {
    const int n = 2 + trial % 12;
    Matrix w(n, std::vector<double>(n, 0.5));
    for (int i = 0; i < n; ++i)
      for (int j = i + 1; j < n; ++j) {
        // Often exact ties and 0/1, as small studies give.
        double v = trial % 3 == 0 ? std::round(u(rng) * 4) / 4 : u(rng);
        w[i][j] = v, w[j][i] = 1 - v;
      }
    const Metagame g = SolveMetagame(w);
    ASSERT_TRUE(g.solved) << "trial " << trial;
    double sum = 0;
    for (int i = 0; i < n; ++i) {
      EXPECT_GE(g.share[i], 0);
      sum += g.share[i];
      EXPECT_LE(g.win_vs_mix[i], 0.5 + 1e-9) << "trial " << trial << " deck " << i;
      if (g.share[i] > 1e-9) {
        EXPECT_NEAR(g.win_vs_mix[i], 0.5, 1e-9);
      }
    }
    EXPECT_NEAR(sum, 1, 1e-12);
  }
}

}  // namespace
}  // namespace strata
