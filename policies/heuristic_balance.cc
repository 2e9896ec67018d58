// The heuristic's reading of docs/rules.md G-19, each player keeping as
// many as the player with the fewest (Balance): what the rest costs each
// side. A permanent kind costs each side its cheapest permanents beyond the
// fewest (the ones it would choose to sacrifice: heuristic.cc's kSacrifice
// answer gives up the least worth); a land is worth at least a card here,
// since a land lost is a turn of mana lost. Cards in hand beyond the
// fewest cost a card each.
#include <algorithm>
#include <array>
#include <vector>

#include "policies/heuristic_internal.h"

namespace strata::heuristic_detail {

namespace {
constexpr int kCardWorth = 15;  // a card in hand, or a land, at the least
}  // namespace

int KeepFewestGain(const PlayerView& v, const AbilityBody& body, ObjId source, Player me,
                   bool spell) {
  int gain = 0;
  thread_local std::array<std::vector<int>, 2> worths;  // mine, theirs; no allocation once warm
  for (const EffectStep& st : body.steps) {
    if (st.op != Op::kKeepFewest) continue;
    if (st.from == kNoFilter) {
      // The spell leaves my hand as it is cast.
      const int mine = v.HandSize(me) - (spell ? 1 : 0), theirs = v.HandSize(Opponent(me));
      gain += kCardWorth * ((theirs - std::min(mine, theirs)) - (mine - std::min(mine, theirs)));
      continue;
    }
    worths[0].clear();
    worths[1].clear();
    for (ObjId o : v.Battlefield()) {
      const Characteristics* ch = v.Chars(o);
      if (!ch || ch->controller > 1 || !v.Matches(st.from, o, source, ch->controller)) continue;
      const int worth = Has(ch->types, kLand) ? std::max(WorthOf(v, o), kCardWorth) : WorthOf(v, o);
      worths[ch->controller == me ? 0 : 1].push_back(worth);
    }
    const size_t fewest = std::min(worths[0].size(), worths[1].size());
    std::array<int, 2> lost{};
    for (int side = 0; side < 2; ++side) {
      std::sort(worths[side].begin(), worths[side].end());
      for (size_t i = 0; i + fewest < worths[side].size(); ++i) lost[side] += worths[side][i];
    }
    gain += lost[1] - lost[0];
  }
  return gain;
}

}  // namespace strata::heuristic_detail
