#include "engine/card_loader.h"

#include "gtest/gtest.h"

namespace strata {
namespace {

TEST(ManaCost, Parses) {
  auto c = ParseManaCost("3UU");
  ASSERT_TRUE(c.ok());
  EXPECT_EQ(c->ManaValue(), 5);
}

}  // namespace
}  // namespace strata
