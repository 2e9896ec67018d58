#include "engine/mana.h"

#include <bit>

namespace strata {

bool PlanPayment(const ManaCost& cost, int x, std::array<int, 6> pool,
                 const std::vector<ManaSource>& sources, std::vector<int>* tap,
                 std::array<int, 6>* pool_after) {
  // Symbols to pay: each a mask of acceptable colors; bit 5 = colorless.
  constexpr uint8_t kColorlessBit = 0x20, kGeneric = 0x3F;
  // Every symbol needs a mana of its own: too few in all is a quick no.
  int symbols =
      cost.colorless + static_cast<int>(cost.hybrid.size()) + cost.generic + cost.x_count * x;
  for (int c = 0; c < kColorCount; ++c) symbols += cost.colored[c];
  int available = static_cast<int>(sources.size());
  for (int m : pool) available += m;
  if (symbols > available) return false;
  // Scratch buffers kept per thread: a payment check allocates nothing once
  // warm (it runs for every card in hand at every decision).
  struct Scratch {
    std::vector<uint8_t> symbols;
    std::vector<ManaSource> all;
    std::vector<int> match_of_source, order;
    std::vector<char> seen;
  };
  static thread_local Scratch scratch;
  std::vector<uint8_t>& rest = scratch.symbols;
  rest.clear();
  for (int c = 0; c < kColorCount; ++c)
    for (int i = 0; i < cost.colored[c]; ++i) rest.push_back(1u << c);
  for (int i = 0; i < cost.colorless; ++i) rest.push_back(kColorlessBit);
  for (auto h : cost.hybrid) rest.push_back(h);
  for (int i = 0; i < cost.generic + cost.x_count * x; ++i) rest.push_back(kGeneric);
  // Mana in the pool is offered as one-mana sources placed before the
  // permanents, so the matching prefers it but never spends it greedily on
  // a symbol that a land could have paid.
  std::vector<ManaSource>& all = scratch.all;
  all.clear();
  for (int c = 0; c < 6; ++c)
    for (int i = 0; i < pool[c]; ++i)
      all.push_back({kNoObj, static_cast<ColorMask>(c < 5 ? 1u << c : 0), c == 5});
  const size_t pooled = all.size();
  all.insert(all.end(), sources.begin(), sources.end());
  // Kuhn's matching of the remaining symbols to sources.
  std::vector<int>& match_of_source = scratch.match_of_source;
  match_of_source.assign(all.size(), -1);
  auto can = [&](uint8_t sym, const ManaSource& s) {
    uint8_t made = s.colors | (s.colorless ? kColorlessBit : 0);
    return (sym & made) != 0;
  };
  std::vector<char>& seen = scratch.seen;
  auto augment = [&](auto& self, int i) -> bool {
    for (size_t s = 0; s < all.size(); ++s) {
      if (seen[s] || !can(rest[i], all[s])) continue;
      seen[s] = 1;
      if (match_of_source[s] < 0 || self(self, match_of_source[s])) {
        match_of_source[s] = i;
        return true;
      }
    }
    return false;
  };
  // Colored symbols first so generic ones do not take the only source of a
  // color (each group in its own order).
  std::vector<int>& order = scratch.order;
  order.clear();
  for (int generic = 0; generic < 2; ++generic)
    for (size_t i = 0; i < rest.size(); ++i)
      if ((rest[i] == kGeneric) == (generic == 1)) order.push_back(static_cast<int>(i));
  for (int i : order) {
    seen.assign(all.size(), 0);
    if (!augment(augment, i)) return false;
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

namespace {
constexpr uint8_t kColorlessBit = 0x20, kGeneric = 0x3F;
uint8_t MaskOf(const ManaSource& s) {
  return static_cast<uint8_t>((s.colors | (s.colorless ? kColorlessBit : 0)) & kGeneric);
}
}  // namespace

void CountSupply(const std::array<int, 6>& pool, const std::vector<ManaSource>& sources,
                 ManaSupply& supply) {
  supply.pool = pool;
  supply.sources = &sources;
  supply.made.size = 0;
  supply.total = static_cast<int>(sources.size());
  for (int c = 0; c < 6; ++c) {
    supply.made.Add(static_cast<uint8_t>(c < 5 ? 1u << c : kColorlessBit), pool[c]);
    supply.total += pool[c];
  }
  for (const ManaSource& s : sources) supply.made.Add(MaskOf(s), 1);
}

bool PaymentExists(const ManaCost& cost, int x, const std::array<int, 6>& pool,
                   const std::vector<ManaSource>& sources, ObjId excluding) {
  ManaSupply supply;
  CountSupply(pool, sources, supply);
  return PaymentExists(cost, x, supply, excluding);
}

bool PaymentExists(const ManaCost& cost, int x, const ManaSupply& supply, ObjId excluding) {
  // Every symbol needs a mana of its own (Hall's condition for all the
  // symbols at once, below, with fewer sources counted): most costs a
  // listing finds unpayable stop here.
  int symbols =
      cost.generic + cost.colorless + cost.x_count * x + static_cast<int>(cost.hybrid.size());
  for (int c = 0; c < kColorCount; ++c) symbols += cost.colored[c];
  if (symbols > supply.total) return false;
  // The cost's kinds of symbol (the colors each accepts, as in PlanPayment)
  // and how many of each.
  MaskCounts<6> need;
  bool fits = true;
  for (int c = 0; c < kColorCount; ++c)
    fits &= need.Add(static_cast<uint8_t>(1u << c), cost.colored[c]);
  fits &= need.Add(kColorlessBit, cost.colorless);
  for (auto h : cost.hybrid) fits &= need.Add(h, 1);
  fits &= need.Add(kGeneric, cost.generic + cost.x_count * x);
  if (!fits) {
    // Hybrid symbols of many pairs: rare, so the matching decides.
    static thread_local std::vector<ManaSource> rest;  // no allocation once warm
    rest.clear();
    for (const ManaSource& s : *supply.sources)
      if (excluding == kNoObj || s.object != excluding) rest.push_back(s);
    return PlanPayment(cost, x, supply.pool, rest, nullptr, nullptr);
  }
  // The source left out (a cost's own tapping permanent) takes its entries
  // (one per mana it makes) from its mask's count.
  uint8_t without = 0;
  int without_count = 0;
  if (excluding != kNoObj)
    for (const ManaSource& s : *supply.sources) {
      if (s.object == excluding) {
        // Entries of several kinds (a land with Wild Growth, docs/rules.md
        // T-10.1): the matching decides.
        if (without_count > 0 && MaskOf(s) != without) [[unlikely]] {
          static thread_local std::vector<ManaSource> rest;  // no allocation once warm
          rest.clear();
          for (const ManaSource& r : *supply.sources)
            if (r.object != excluding) rest.push_back(r);
          return PlanPayment(cost, x, supply.pool, rest, nullptr, nullptr);
        }
        without = MaskOf(s);
        ++without_count;
      } else if (without_count > 0) {
        break;  // a source's entries are side by side
      }
    }
  const MaskCounts<64>& made = supply.made;
  // Hall's condition for every union of kinds.
  for (unsigned group = 1; group < (1u << need.size); ++group) {
    uint8_t colors = 0;
    for (int i = 0; i < need.size; ++i)
      if (group >> i & 1) colors |= need.mask[i];
    int symbols = 0, able = (without & colors) ? -without_count : 0;
    for (int i = 0; i < need.size; ++i)
      if ((need.mask[i] & ~colors) == 0) symbols += need.count[i];
    for (int i = 0; i < made.size; ++i)
      if (made.mask[i] & colors) able += made.count[i];
    if (symbols > able) return false;
  }
  return true;
}

}  // namespace strata
