// The legend rule (docs/rules.md G-13) and the world rule (G-14), two parts
// of the state check (RULES.md T-1.5; RULES.md and the seeds are silent:
// the Legends and Fourth Edition rulebooks' meaning). Only one legend of a
// name may be in play, whoever controls it: of two or more legendary
// permanents with the same name, all but the one in play the longest go to
// their owners' graveyards. Only one World permanent may be in play: of two
// or more, all but the newest go. Each is a move to the graveyard, not a
// destruction (regeneration can't save it), made by the state check with
// its other moves (E-5: they leave together). "In play the longest" is read
// from the timestamp the permanent got as it entered (L-4); a tie (two
// entered at once) sends all of them.
// Scenarios: tests/scenarios/g13_*, g14_*.

#include <algorithm>

#include "engine/game_internal.h"

namespace strata {

void Game::UniqueRuleLosers(std::vector<ObjId>& out, bool held_moves) const {
  out.clear();
  struct Entry {
    CardId name;
    uint32_t timestamp;
    ObjId o;
    bool legend, world;
  };
  thread_local std::vector<Entry> seen;
  seen.clear();
  state_.ForEachPermanent([&](ObjId o) {
    // An object already held on its way out (its move's replacements or
    // "before" responses happen now) is left to that move, as the rest of
    // the check leaves it.
    if (held_moves && BeingMoved(o)) return;
    const Characteristics& ch = Chars(o);
    // A face-down permanent has no name (L-1 1b): no legend of any name.
    const bool legend = Has(ch.supertypes, kLegendary) && !ch.blank && ch.card != kNoCard;
    const bool world = Has(ch.supertypes, kWorld);
    if (legend || world) seen.push_back(Entry{ch.card, state_.obj.timestamp[o], o, legend, world});
  });
  if (seen.size() < 2) return;
  for (const Entry& e : seen) {
    bool loses = false;
    for (const Entry& f : seen) {
      if (f.o == e.o) continue;
      // G-13: another legend of its name in play as long or longer.
      if (e.legend && f.legend && f.name == e.name && f.timestamp <= e.timestamp) loses = true;
      // G-14: another World permanent as new or newer.
      if (e.world && f.world && f.timestamp >= e.timestamp) loses = true;
    }
    if (loses) out.push_back(e.o);
  }
  std::sort(out.begin(), out.end());
}

}  // namespace strata
