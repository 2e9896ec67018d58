// Paying mana costs from a pool and from untapped mana sources: a small
// bipartite matching of cost symbols to sources, so a payment is found
// whenever one exists (lands are preferred to creatures).
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "engine/card.h"

namespace strata {

// One source of one mana: the colors it can make (any of) or colorless.
// A permanent whose mana ability makes N mana of one kind (Sol Ring: {C}{C})
// is N sources with the same object, `amount` N each: tapped once, it
// makes all N, and what the payment does not use stays in the pool.
struct ManaSource {
  ObjId object = kNoObj;
  ColorMask colors = 0;
  bool colorless = false;
  uint8_t amount = 1;
  bool operator==(const ManaSource&) const = default;
};

// Pool: W U B R G C amounts. Returns, if the cost (with X = x) can be paid,
// the sources to tap (indices into `sources`) and the pool after payment.
bool PlanPayment(const ManaCost& cost, int x, std::array<int, 6> pool,
                 const std::vector<ManaSource>& sources, std::vector<int>* tap,
                 std::array<int, 6>* pool_after);

// Counts by color mask, for the few distinct masks of a cost or of the
// sources: a short search, no table. Add is false once N masks are full.
template <int N>
struct MaskCounts {
  std::array<uint8_t, N> mask;
  std::array<int, N> count;
  int size = 0;
  bool Add(uint8_t m, int n) {
    if (n <= 0) return true;
    for (int i = 0; i < size; ++i)
      if (mask[i] == m) {
        count[i] += n;
        return true;
      }
    if (size == N) return false;
    mask[size] = m;
    count[size++] = n;
    return true;
  }
};

// What a player can pay with, as PaymentExists reads it: the pool and the
// untapped sources counted by the colors each makes (bit 5: colorless; 64
// masks in all, so every one fits). A listing of plays counts it once and
// checks every cost it considers against it.
struct ManaSupply {
  std::array<int, 6> pool{};
  const std::vector<ManaSource>* sources = nullptr;  // kept for the rare matching
  MaskCounts<64> made;
  int total = 0;  // mana in all: a cost of more symbols is a quick no
};
void CountSupply(const std::array<int, 6>& pool, const std::vector<ManaSource>& sources,
                 ManaSupply& supply);
bool PaymentExists(const ManaCost& cost, int x, const ManaSupply& supply, ObjId excluding);

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
