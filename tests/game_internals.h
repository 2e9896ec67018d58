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
  // Would the next state check skip itself (nothing it reads changed)?
  static bool StateCheckWouldSkip(const Game& g) {
    return g.occ_.clean_version == g.state_.version && g.occ_.clean_inputs == g.occ_.check_inputs;
  }
  static bool PhaseCards(const Game& g) { return g.turn_.phase_cards; }
  // The occurrences the log holds now, and how many the game recorded.
  static size_t OccurrencesHeld(const Game& g) { return g.occ_.events.size(); }
  static int OccurrencesRecorded(const Game& g) { return g.EventEnd(); }
};

}  // namespace strata
