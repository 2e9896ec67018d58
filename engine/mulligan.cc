// Mulligans (RULES.md G-1): before the first turn each player, the starting
// player first, keeps the hand or shuffles it back and draws again (paris or
// london); london puts cards on the bottom once kept.
// Tests: tests/mulligan_test.cc (scenarios start after the deal).

#include "engine/game_internal.h"

namespace strata {

// G-1 (the frame: MulliganFrame): kKeepOrMulligan asks keep or mulligan,
// kBottom puts the london mulligan's cards on the bottom.
void Game::RunMulligan(Frame& f) {
  const Player p = f.mulligan.player;
  const PlayerState& pl = state_.players[p];
  const int taken = turn_.mulligans[p];
  const int hand = static_cast<int>(pl.hand.size());
  if (f.pc == MulliganFrame::kKeepOrMulligan) {
    // A kept hand has one card fewer per mulligan either way; a paris hand
    // has it already, a london hand after its cards go to the bottom.
    const int keep = opt_.mulligan == Mulligan::kLondon ? std::max(hand - taken, 0) : hand;
    const int next =
        std::min(kOpeningHandSize - taken - 1, hand + static_cast<int>(pl.library.size()));
    if (next >= 1) {
      timing_.decision.actions.clear();
      timing_.decision.actions.push_back({ActionKind::kKeep, kNoObj, 0, keep});
      timing_.decision.actions.push_back({ActionKind::kMulligan, kNoObj, 0, next});
      Decide(DecisionKind::kMulligan, p);
      return;
    }
    // The next hand would have no card: this one is kept.
    Note(LogKind::kInfo, p, kNoObj, kNoObj, keep,
         [&] { return absl::StrCat(Who(p), " keeps ", keep, keep == 1 ? " card" : " cards"); });
    f.mulligan.to_bottom = opt_.mulligan == Mulligan::kLondon ? std::min(taken, hand) : 0;
    f.pc = MulliganFrame::kBottom;
    return;
  }
  if (f.mulligan.to_bottom > 0 && hand > 0) {
    timing_.decision.actions.clear();
    for (ObjId o : pl.hand) timing_.decision.actions.push_back({ActionKind::kObject, o});
    Decide(DecisionKind::kBottom, p);
    return;
  }
  // Kept: this is the opening hand the statistics know.
  for (ObjId o : pl.hand) turn_.seen[o] |= kSeenOpening;
  if (!f.mulligan.second) {
    f.mulligan.player = Opponent(p);
    f.mulligan.second = true;
    f.mulligan.to_bottom = 0;
    f.pc = MulliganFrame::kKeepOrMulligan;
  } else {
    timing_.frames.pop_back();
  }
}

void Game::Redraw(Player p) {
  auto& pl = state_.players[p];
  while (!pl.hand.empty()) {
    ObjId o = pl.hand.back();
    MoveTo(o, Zone::kLibrary, p);
    turn_.seen[o] &= static_cast<uint8_t>(~(kSeenInHand | kSeenOpening));  // not drawn after all
  }
  ShuffleLibrary(p);
  auto& lib = pl.library;
  const int draw =
      opt_.mulligan == Mulligan::kLondon ? kOpeningHandSize : kOpeningHandSize - turn_.mulligans[p];
  for (int i = 0; i < draw && !lib.empty(); ++i) MoveTo(lib.front(), Zone::kHand, p);
}

void Game::ApplyMulligan(Frame& f, const Action& a) {
  GameState& s = state_;
  const Player p = timing_.decision.player;
  if (f.pc == MulliganFrame::kBottom) {
    // London: to the bottom of the library, out of the opening hand.
    Note(LogKind::kInfo, p, a.object, kNoObj, 0,
         [&] { return absl::StrCat(Who(p), " puts ", ObjectName(a.object), " on the bottom"); });
    MoveTo(a.object, Zone::kLibrary, p);
    auto& lib = s.players[p].library;
    lib.erase(lib.begin());
    lib.push_back(a.object);
    turn_.seen[a.object] &= static_cast<uint8_t>(~(kSeenInHand | kSeenOpening));
    --f.mulligan.to_bottom;
    return;
  }
  if (a.kind == ActionKind::kKeep) {
    Note(LogKind::kInfo, p, kNoObj, kNoObj, a.value, [&] {
      return absl::StrCat(Who(p), " keeps ", a.value, a.value == 1 ? " card" : " cards");
    });
    f.mulligan.to_bottom =
        opt_.mulligan == Mulligan::kLondon
            ? std::min<int>(turn_.mulligans[p], static_cast<int>(s.players[p].hand.size()))
            : 0;
    f.pc = MulliganFrame::kBottom;
    return;
  }
  ++turn_.mulligans[p];
  Note(LogKind::kInfo, p, kNoObj, kNoObj, a.value,
       [&] { return absl::StrCat(Who(p), " mulligans to ", a.value); });
  Redraw(p);
}

}  // namespace strata
