// Paying mana costs from a pool and from untapped mana sources: a small
// bipartite matching of cost symbols to sources, so a payment is found
// whenever one exists (lands are preferred to creatures).
#pragma once

#include <vector>

#include "engine/card.h"

namespace strata {

// One source of one mana: the colors it can make (any of) or colorless.
struct ManaSource {
  ObjId object = kNoObj;
  ColorMask colors = 0;
  bool colorless = false;
};

// Pool: W U B R G C amounts. Returns, if the cost (with X = x) can be paid,
// the sources to tap (indices into `sources`) and the pool after payment.
bool PlanPayment(const ManaCost& cost, int x, std::array<int, 6> pool,
                 const std::vector<ManaSource>& sources, std::vector<int>* tap,
                 std::array<int, 6>* pool_after);

// Whether PlanPayment would find a payment, without choosing one, and with
// the source `excluding` (a cost's own tapping permanent) left out. Exact
// by Hall's theorem: a payment exists if and only if every group of symbols
// has at least as many sources able to pay one of them as it has symbols,
// and only the groups made of whole kinds of symbol need checking (a few
// when a cost has one or two colors). It runs for every card considered at
// every decision, where a matching would cost ten times as much.
bool PaymentExists(const ManaCost& cost, int x, const std::array<int, 6>& pool,
                   const std::vector<ManaSource>& sources, ObjId excluding);

}  // namespace strata
