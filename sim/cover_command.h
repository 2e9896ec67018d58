// `strata cover`: the coverage run (sim/cover.h) from the command line: random
// games over the whole pool until every card and ability is used K times;
// prints what never got there and exits 1 if anything did not.
#pragma once

#include <string>
#include <vector>

#include "sim/cover.h"

namespace strata {

// The command line of `strata cover`, as parsed.
struct CoverArgs {
  CoverOptions options;  // its edition and progress are set from the rest
  std::string rules = "modern";
};

// Returns the exit status and prints its own errors.
int RunCoverCommand(const CoverArgs& args, const std::vector<std::string>& pool_paths,
                    bool override_cards);

}  // namespace strata
