// Libraries as a whole: shuffled, searched, refilled.
// G-3: a player searches their own library (Demonic Tutor, Untamed
// Wilds): up to N cards matching a filter, one decision each, each moved to
// the hand or the battlefield as it is found (a move an effect makes: held
// for its "before" responses and replacements, E-1, E-3); then the library
// is shuffled.
// G-9: the same frame returns cards chosen from the player's graveyard to
// the hand (Recall), with no shuffle.
// G-4: players shuffle their hands and/or graveyards into their libraries,
// then draw (Timetwister, Winds of Change).
// Scenarios: tests/scenarios/g3_*, g4_*.

#include "engine/game_internal.h"

namespace strata {

void Game::ShuffleLibrary(Player p) {
  auto& lib = state_.players[p].library;
  for (size_t i = lib.size(); i > 1; --i)  // the game's generator: the seed decides
    std::swap(lib[i - 1], lib[rng_.Below(static_cast<uint32_t>(i))]);
}

// One card to find, or the search ends: the player is offered each
// distinct card of their library that matches (one object per card: two
// Forests are the same choice), and "done" where the search names a
// quality (a player may fail to find a card of a stated kind in a hidden
// zone: no one could check); "search for a card" must find one while the
// library holds any.
void Game::RunSearch(Frame& f) {
  const Player p = f.search.player;
  timing_.decision.actions.clear();
  if (f.search.left > 0) {
    const FilterContext ctx = ContextFor(f.search.source, p, kNoWord);
    thread_local std::vector<CardId> offered;
    offered.clear();
    const auto& zone = f.search.graveyard ? state_.players[p].graveyard : state_.players[p].library;
    for (ObjId o : zone) {
      const CardId card = state_.obj.card[o];
      if (std::find(offered.begin(), offered.end(), card) != offered.end()) continue;
      if (f.search.find != kNoFilter && !Matches(f.search.find, o, ctx)) continue;
      offered.push_back(card);
      timing_.decision.actions.push_back({ActionKind::kObject, o});
    }
  }
  if (timing_.decision.actions.empty() && f.search.graveyard) {
    timing_.frames.pop_back();  // G-9: cards from a graveyard: no shuffle
    return;
  }
  if (timing_.decision.actions.empty()) {
    // Found all it may, or nothing left to find: the library is shuffled.
    Note(LogKind::kInfo, p, kNoObj, kNoObj, 0,
         [&] { return absl::StrCat(Who(p), " shuffles their library"); });
    ShuffleLibrary(p);
    timing_.frames.pop_back();
    return;
  }
  if (f.search.find != kNoFilter) timing_.decision.actions.push_back({ActionKind::kDone});
  Decide(DecisionKind::kSearch, p);
}

void Game::ApplySearch(Frame& f, const Action& a) {
  if (a.kind == ActionKind::kDone) {
    f.search.left = 0;
    return;
  }
  const Player p = f.search.player;
  const Zone to = f.search.to;
  Note(LogKind::kInfo, p, a.object, kNoObj, 0, [&] {
    return absl::StrCat(Who(p), f.search.graveyard ? " returns " : " finds ", ObjectName(a.object),
                        " and puts it ",
                        to == Zone::kHand ? "into their hand" : "onto the battlefield");
  });
  --f.search.left;  // first: a held move pushes a frame, which can move `f`
  EffectMove(&a.object, 1, to);
}

// G-4: every taking part player's cards of the zones move into their
// libraries together (E-5), then each library is shuffled, then each
// player draws: the active player first, as `player = "each"` draws
// elsewhere (docs/rules.md G-4).
void Game::RunShuffleIn(Frame& f) {
  ShuffleInFrame& s = f.shuffle_in;
  if (f.pc == ShuffleInFrame::kMove) {
    thread_local std::vector<ObjId> buffer;
    Borrowed<ObjId> borrowed(buffer);
    std::vector<ObjId>& objs = borrowed.v;
    for (Player p = 0; p < 2; ++p) {
      if (!(s.players & (1u << p))) continue;
      const auto& pl = state_.players[p];
      const size_t before = objs.size();
      if (s.zones & (1u << static_cast<int>(Zone::kHand)))
        objs.insert(objs.end(), pl.hand.begin(), pl.hand.end());
      if (s.zones & (1u << static_cast<int>(Zone::kGraveyard)))
        objs.insert(objs.end(), pl.graveyard.begin(), pl.graveyard.end());
      s.put[p] = static_cast<int32_t>(objs.size() - before);
    }
    f.pc = ShuffleInFrame::kShuffle;  // first: a held move pushes a frame, which can move `f`
    EffectMove(objs.data(), static_cast<int>(objs.size()), Zone::kLibrary);
    return;
  }
  const ShuffleInFrame done = s;
  timing_.frames.pop_back();
  for (Player p = 0; p < 2; ++p) {
    if (!(done.players & (1u << p))) continue;
    Note(LogKind::kInfo, p, kNoObj, kNoObj, 0,
         [&] { return absl::StrCat(Who(p), " shuffles their library"); });
    ShuffleLibrary(p);
  }
  // Pushed last, drawn first: the active player draws first.
  for (Player p : {Opponent(state_.active), state_.active}) {
    if (!(done.players & (1u << p))) continue;
    const int n = done.draw == EffectStep::kDrawAsMany ? done.put[p] : done.draw;
    if (n > 0) Push(Frame::NewDraw(p, n));
  }
}

}  // namespace strata
