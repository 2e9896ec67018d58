#include "engine/perft.h"

namespace strata {

uint64_t Perft(const Game& position, int depth) {
  if (depth == 0) return 1;
  Game g = position;
  const Decision& d = g.Advance();
  if (d.kind == DecisionKind::kNone) return 1;
  uint64_t total = 0;
  const int n = static_cast<int>(d.actions.size());
  for (int i = 0; i < n; ++i) {
    Game child = g;
    child.Apply(i);
    total += Perft(child, depth - 1);
  }
  return total;
}

}  // namespace strata
