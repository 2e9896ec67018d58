// Rules scenarios (docs/scenarios.md, the contract of SCENARIOS.md): a board,
// a script of player actions and expectations, run through the real engine
// with the scripted policy.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "engine/card.h"
#include "engine/game.h"
#include "engine/invariants.h"

namespace strata {

struct ScenarioOptions {
  bool log = false;
  // L-9: compare the cache with a fresh computation on every query, and run
  // every rules invariant (engine/invariants.h) after every action;
  // `strata scenario --unchecked` turns both off.
  bool checked_layers = true;
  // A check run beside the invariants (InvariantChecker::SetExtra): tests and
  // `--canary` only.
  std::string extra_name;
  InvariantChecker::ExtraCheck extra;
  bool keep_game = false;  // hand the game back as it ended (ScenarioResult::game)
};

struct ScenarioResult {
  std::string file;
  std::string name;
  bool passed = false;
  std::vector<std::string> failures;  // "zubera.power: expected 6, got 3"
  std::string invariant;              // the violated invariant's name ("zones"), or ""
  std::vector<std::string> log;
  std::shared_ptr<const Game> game;  // with ScenarioOptions::keep_game, when it ran
};

// Runs one scenario file; malformed files fail with file, line and key.
ScenarioResult RunScenarioFile(const CardDb& db, const std::string& path,
                               const ScenarioOptions& options);
ScenarioResult RunScenarioText(const CardDb& db, const std::string& text, const std::string& file,
                               const ScenarioOptions& options);

// The board of a scenario, set up and started, without running its steps.
absl::StatusOr<std::unique_ptr<Game>> LoadScenarioPosition(const CardDb& db,
                                                           const std::string& path);

// Expands files and directories into the sorted list of *.toml files.
std::vector<std::string> ScenarioFiles(const std::vector<std::string>& paths,
                                       std::vector<std::string>* errors);

}  // namespace strata
