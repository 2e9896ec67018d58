// Rules scenarios (docs/scenarios.md, the contract of SCENARIOS.md): a board,
// a script of player actions and expectations, run through the real engine
// with the scripted policy.
#pragma once

#include <string>
#include <vector>

#include "engine/card.h"

namespace strata {

struct ScenarioOptions {
  bool log = false;
  bool checked_layers = true;  // L-9: compare the cache with a fresh computation on every query
};

struct ScenarioResult {
  std::string file;
  std::string name;
  bool passed = false;
  std::vector<std::string> failures;  // "zubera.power: expected 6, got 3"
  std::vector<std::string> log;
};

// Runs one scenario file; malformed files fail with file, line and key.
ScenarioResult RunScenarioFile(const CardDb& db, const std::string& path,
                               const ScenarioOptions& options);
ScenarioResult RunScenarioText(const CardDb& db, const std::string& text, const std::string& file,
                               const ScenarioOptions& options);

// Expands files and directories into the sorted list of *.toml files.
std::vector<std::string> ScenarioFiles(const std::vector<std::string>& paths,
                                       std::vector<std::string>* errors);

}  // namespace strata
