// `strata scenario`: runs rules scenario files (sim/scenario.h) and prints
// PASS or FAIL for each, with what failed; exits 0 only if all hold, so it is
// the rules' regression test.
#pragma once

#include <string>
#include <vector>

namespace strata {

// The command line of `strata scenario`, as parsed.
struct ScenarioArgs {
  std::vector<std::string> paths;  // scenario files or directories
  bool log = false;                // print each scenario's game log
  bool unchecked = false;          // no layer-cache comparison nor invariant checks
  std::string canary;              // power:N: a deliberately false invariant too
};

// Returns the exit status and prints its own errors.
int RunScenarioCommand(const ScenarioArgs& args, const std::vector<std::string>& pool_paths,
                       bool override_cards);

}  // namespace strata
