// `strata perft`: counts every decision sequence from a scenario's board, one
// line per depth. The counts pin the rules: a change in them is a change in
// what the engine offers.
#pragma once

#include <string>
#include <vector>

namespace strata {

// The command line of `strata perft`, as parsed.
struct PerftArgs {
  std::string scenario;  // the scenario file whose board is the position (its steps are ignored)
  int depth = 3;         // counts for 1 to `depth` decisions
};

// Returns the exit status and prints its own errors.
int RunPerftCommand(const PerftArgs& args, const std::vector<std::string>& pool_paths,
                    bool override_cards);

}  // namespace strata
