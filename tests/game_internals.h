// Reaches what no public call can change, to corrupt a game on purpose: a
// check that can't fail proves nothing (engine/game.h names it a friend).
// Shared by every test that corrupts a game, so it has one definition.
#pragma once

#include <vector>

#include "engine/game.h"

namespace strata {

struct GameInternalsForTests {
  static std::vector<int>& batch(Game& g) { return g.stack_.batch; }
  static void PushBatchFrame(Game& g) { g.Push(Game::FrameKind::kBatch); }
  static void AddOutcome(Game& g, uint32_t serial, Outcome o) {
    g.stack_.outcomes.push_back({serial, o});
  }
  static void FirstPassesToZero(Game& g) { g.timing_.frames.back().neutral.window.passes = 0; }
  static GameState& raw_state(Game& g) { return g.state_; }  // no version bump
};

}  // namespace strata
