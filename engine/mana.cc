#include "engine/mana.h"

#include <bit>
#include <functional>

namespace strata {

bool PlanPayment(const ManaCost& cost, int x, std::array<int, 6> pool,
                 const std::vector<ManaSource>& sources, std::vector<int>* tap,
                 std::array<int, 6>* pool_after) {
  // Symbols to pay: each a mask of acceptable colors; bit 5 = colorless.
  constexpr uint8_t kAnyColor = 0x1F, kColorlessBit = 0x20, kGeneric = 0x3F;
  std::vector<uint8_t> symbols;
  for (int c = 0; c < kColorCount; ++c)
    for (int i = 0; i < cost.colored[c]; ++i) symbols.push_back(1u << c);
  for (int i = 0; i < cost.colorless; ++i) symbols.push_back(kColorlessBit);
  for (auto h : cost.hybrid) symbols.push_back(h);
  for (int i = 0; i < cost.generic + cost.x_count * x; ++i) symbols.push_back(kGeneric);
  // Mana in the pool is offered as one-mana sources placed before the
  // permanents, so the matching prefers it but never spends it greedily on
  // a symbol that a land could have paid.
  std::vector<ManaSource> all;
  for (int c = 0; c < 6; ++c)
    for (int i = 0; i < pool[c]; ++i)
      all.push_back({kNoObj, static_cast<ColorMask>(c < 5 ? 1u << c : 0), c == 5});
  const size_t pooled = all.size();
  all.insert(all.end(), sources.begin(), sources.end());
  std::vector<uint8_t>& rest = symbols;
  (void)kAnyColor;
  // Kuhn's matching of the remaining symbols to sources.
  std::vector<int> match_of_source(all.size(), -1);
  auto can = [&](uint8_t sym, const ManaSource& s) {
    uint8_t made = s.colors | (s.colorless ? kColorlessBit : 0);
    return (sym & made) != 0;
  };
  std::vector<char> seen;
  std::function<bool(int)> augment = [&](int i) {
    for (size_t s = 0; s < all.size(); ++s) {
      if (seen[s] || !can(rest[i], all[s])) continue;
      seen[s] = 1;
      if (match_of_source[s] < 0 || augment(match_of_source[s])) {
        match_of_source[s] = i;
        return true;
      }
    }
    return false;
  };
  // Colored symbols first so generic ones do not take the only source of a color.
  std::vector<int> order(rest.size());
  for (size_t i = 0; i < rest.size(); ++i) order[i] = static_cast<int>(i);
  std::stable_sort(order.begin(), order.end(),
                   [&](int a, int b) { return (rest[a] == kGeneric) < (rest[b] == kGeneric); });
  for (int i : order) {
    seen.assign(all.size(), 0);
    if (!augment(i)) return false;
  }
  if (tap) tap->clear();
  for (size_t s = 0; s < all.size(); ++s) {
    if (match_of_source[s] < 0) continue;
    if (s < pooled) {
      int c = all[s].colorless ? 5 : std::countr_zero(static_cast<unsigned>(all[s].colors));
      --pool[c];
    } else if (tap) {
      tap->push_back(static_cast<int>(s - pooled));
    }
  }
  if (pool_after) *pool_after = pool;
  return true;
}

}  // namespace strata
