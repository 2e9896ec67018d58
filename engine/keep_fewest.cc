// G-19: "each player chooses a number of lands they control equal to the
// number of lands controlled by the player who controls the fewest, then
// sacrifices the rest" (Balance). The counts are read as the frame first
// runs; the active player chooses the permanents of theirs to sacrifice, one
// decision each, then the other player, knowing the first's choices; then
// every chosen permanent is sacrificed together, one move (E-5) held like an
// effect's (E-1, E-3). Balance's cards in hand are a discard (effects.cc).
// Scenarios: tests/scenarios/g19_*.

#include "engine/game_internal.h"

namespace strata {

int Game::CountKeepFewest(FilterId find, ObjId source, Player p) const {
  const FilterContext ctx = ContextFor(source, p, kNoWord);
  int n = 0;
  state_.ForEachPermanent([&](ObjId o) {
    const std::vector<ObjId>& chosen = turn_.keep_fewest_chosen;
    n += Chars(o).controller == p && Matches(find, o, ctx) &&
         std::find(chosen.begin(), chosen.end(), o) == chosen.end();
  });
  return n;
}

void Game::RunKeepFewest(Frame& f) {
  KeepFewestFrame& k = f.keep_fewest;
  if (k.keep < 0) {
    turn_.keep_fewest_chosen.clear();
    k.keep = static_cast<int16_t>(
        std::min(CountKeepFewest(k.find, k.source, 0), CountKeepFewest(k.find, k.source, 1)));
    k.player = state_.active;
    k.left = CountKeepFewest(k.find, k.source, k.player) - k.keep;
  }
  if (k.left <= 0 && k.player == state_.active) {
    k.player = Opponent(state_.active);
    k.left = CountKeepFewest(k.find, k.source, k.player) - k.keep;
  }
  timing_.decision.actions.clear();
  if (k.left > 0) {
    const FilterContext ctx = ContextFor(k.source, k.player, kNoWord);
    const std::vector<ObjId>& chosen = turn_.keep_fewest_chosen;
    state_.ForEachPermanent([&](ObjId o) {
      if (Chars(o).controller == k.player && Matches(k.find, o, ctx) &&
          std::find(chosen.begin(), chosen.end(), o) == chosen.end())
        timing_.decision.actions.push_back({ActionKind::kObject, o});
    });
  }
  if (!timing_.decision.actions.empty()) {
    Decide(DecisionKind::kSacrifice, k.player);
    return;
  }
  // Both have chosen: the rest go, together.
  thread_local std::vector<ObjId> buffer;
  Borrowed<ObjId> borrowed(buffer);
  std::vector<ObjId>& objs = borrowed.v;
  objs.assign(turn_.keep_fewest_chosen.begin(), turn_.keep_fewest_chosen.end());
  turn_.keep_fewest_chosen.clear();
  timing_.frames.pop_back();  // first: a held move pushes a frame
  std::sort(objs.begin(), objs.end());
  EffectMove(objs.data(), static_cast<int>(objs.size()), Zone::kGraveyard);
}

void Game::ApplyKeepFewest(Frame& f, const Action& a) {
  const Player p = f.keep_fewest.player;
  Note(LogKind::kInfo, p, a.object, kNoObj, 0,
       [&] { return absl::StrCat(Who(p), " chooses to sacrifice ", ObjectName(a.object)); });
  turn_.keep_fewest_chosen.push_back(a.object);
  --f.keep_fewest.left;
}

}  // namespace strata
