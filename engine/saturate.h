// Saturating arithmetic for the numbers a game accumulates: life, damage,
// counters, P/T, mana and prevention shields. The loaders keep every number
// a card, deck or scenario gives within the engine's ranges (docs/cards.md);
// saturation keeps what a long game adds up from them defined, where a plain
// int16 sum would wrap (1e9 damage leaving a 2/2 alive) and an int sum past
// INT_MAX would be undefined behaviour.
#pragma once

#include <algorithm>
#include <cstdint>
#include <limits>

namespace strata {

// Life totals stay within +-kLifeLimit.
inline constexpr int kLifeLimit = 1'000'000'000;

// a + b, clamped to T's range.
template <typename T>
constexpr T SaturatedAdd(T a, long long b) {
  const long long v = static_cast<long long>(a) + b;
  return static_cast<T>(
      std::clamp<long long>(v, std::numeric_limits<T>::min(), std::numeric_limits<T>::max()));
}

// A life total after a change of `delta`.
constexpr int LifeAfter(int life, long long delta) {
  return static_cast<int>(
      std::clamp<long long>(static_cast<long long>(life) + delta, -kLifeLimit, kLifeLimit));
}

}  // namespace strata
