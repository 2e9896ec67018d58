// The readable log of one game (`strata replay`, `strata play`): the
// engine's log (Game::log()) with, between its lines, what a reader needs
// and the engine does not write: which deck and player sit in each seat,
// the opening hands as kept, both life totals and hand sizes at each turn's
// first decision, each target chosen, and each attachment made. Gathered by
// watching the decisions (a GameObserver), so the game is the same.
#pragma once

#include <array>
#include <string>
#include <utility>
#include <vector>

#include "engine/game.h"
#include "sim/runner.h"

namespace strata {

class LogAnnotator : public GameObserver {
 public:
  // `seats`: how each seat is named in the notes, e.g. "A (red_burn)";
  // `header`: the first lines, naming decks, players and who starts.
  LogAnnotator(std::array<std::string, 2> seats, std::vector<std::string> header);
  void Before(const Game& g, const Decision& d, int chosen) override;
  void End(const Game& g) override;
  // The header, then the game's log with the notes in place.
  std::vector<std::string> Lines(const Game& g) const;

 private:
  void Note(const Game& g, std::string text);
  void Attachments(const Game& g);
  std::array<std::string, 2> seats_;
  std::vector<std::string> header_;
  std::vector<std::pair<size_t, std::string>> notes_;  // before log line N
  bool hands_done_ = false;
  int last_turn_ = 0;
  std::vector<ObjId> attached_;  // by object, as last seen
};

}  // namespace strata
