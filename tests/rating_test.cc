// Bradley-Terry ratings by the MM iteration against known answers.
#include "sim/rating.h"

#include <cmath>

#include "gtest/gtest.h"

namespace strata {
namespace {

// Exact expected win counts from chosen strengths: the fit recovers them.
TEST(BradleyTerry, RecoversStrengthsFromExpectedWins) {
  const std::vector<double> truth = {1.0, 2.0, 0.5, 4.0, 1.5};
  const size_t n = truth.size();
  std::vector<std::vector<double>> wins(n, std::vector<double>(n, 0.0));
  for (size_t i = 0; i < n; ++i)
    for (size_t j = 0; j < n; ++j)
      if (i != j) wins[i][j] = 1000.0 * truth[i] / (truth[i] + truth[j]);
  ASSERT_TRUE(RatingExists(wins));
  RatingFit fit = FitBradleyTerry(wins);
  ASSERT_TRUE(fit.converged);
  double log_mean = 0;
  for (double t : truth) log_mean += std::log(t) / n;
  double elo_sum = 0;
  for (size_t i = 0; i < n; ++i) {
    EXPECT_NEAR(fit.strength[i], truth[i] / std::exp(log_mean), 1e-6);
    EXPECT_NEAR(fit.elo[i], 400 * std::log10(truth[i] / std::exp(log_mean)), 1e-6);
    elo_sum += fit.elo[i];
  }
  EXPECT_NEAR(elo_sum, 0, 1e-9);
}

// By hand: A beat B 3-1 and B beat C 3-1, A and C never met. On a tree each
// pair's odds are fitted exactly: s_A/s_B = s_B/s_C = 3, so with geometric
// mean 1 the strengths are 3, 1, 1/3 and the ratings +-400 log10 3 = 190.85.
TEST(BradleyTerry, HandComputedChain) {
  std::vector<std::vector<double>> wins = {{0, 3, 0}, {1, 0, 3}, {0, 1, 0}};
  ASSERT_TRUE(RatingExists(wins));
  RatingFit fit = FitBradleyTerry(wins);
  ASSERT_TRUE(fit.converged);
  EXPECT_NEAR(fit.strength[0], 3.0, 1e-6);
  EXPECT_NEAR(fit.strength[1], 1.0, 1e-6);
  EXPECT_NEAR(fit.strength[2], 1.0 / 3, 1e-6);
  EXPECT_NEAR(fit.elo[0], 190.848501, 1e-5);
  EXPECT_NEAR(fit.elo[2], -190.848501, 1e-5);
}

// By hand: a cycle (A beats B 2-1, B beats C 2-1, C beats A 2-1) is
// symmetric, so all three are level.
TEST(BradleyTerry, HandComputedCycleIsLevel) {
  std::vector<std::vector<double>> wins = {{0, 2, 1}, {1, 0, 2}, {2, 1, 0}};
  RatingFit fit = FitBradleyTerry(wins);
  ASSERT_TRUE(fit.converged);
  for (int i = 0; i < 3; ++i) EXPECT_NEAR(fit.elo[i], 0, 1e-9);
}

// By hand, three teams, all pairs: A beat B 2-1, A beat C 2-1, B and C
// split 1-1. B and C are symmetric, so s_B = s_C = 1/sqrt(s_A) with
// geometric mean 1, and A's equation 4 = 6 s_A / (s_A + s_B) gives
// s_A = 2 s_B: s_A = 2^(2/3), s_B = s_C = 2^(-1/3).
TEST(BradleyTerry, HandComputedThreeTeams) {
  std::vector<std::vector<double>> wins = {{0, 2, 2}, {1, 0, 1}, {1, 1, 0}};
  RatingFit fit = FitBradleyTerry(wins);
  ASSERT_TRUE(fit.converged);
  EXPECT_NEAR(fit.strength[0], std::pow(2.0, 2.0 / 3), 1e-9);
  EXPECT_NEAR(fit.strength[1], std::pow(2.0, -1.0 / 3), 1e-9);
  EXPECT_NEAR(fit.strength[2], std::pow(2.0, -1.0 / 3), 1e-9);
  EXPECT_NEAR(fit.elo[0] - fit.elo[1], 400 * std::log10(2.0), 1e-7);
}

TEST(BradleyTerry, NoFiniteFitWhenADeckNeverWins) {
  std::vector<std::vector<double>> wins = {{0, 5, 3}, {0, 0, 2}, {0, 1, 0}};
  EXPECT_FALSE(RatingExists(wins));  // A never lost
  wins[1][0] = 1;
  EXPECT_TRUE(RatingExists(wins));
  std::vector<std::vector<double>> never = {{0, 0}, {4, 0}};
  EXPECT_FALSE(RatingExists(never));
  EXPECT_FALSE(FitBradleyTerry(never).converged);
  // Half a win each way: 4.5 to 0.5, odds 9.
  RatingFit fit = FitBradleyTerry(never, 0.5);
  ASSERT_TRUE(fit.converged);
  EXPECT_NEAR(fit.strength[1] / fit.strength[0], 9.0, 1e-6);
}

}  // namespace
}  // namespace strata
