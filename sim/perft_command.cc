#include "sim/perft_command.h"

#include <cstdio>

#include "engine/perft.h"
#include "sim/card_pool.h"
#include "sim/exit_codes.h"
#include "sim/scenario.h"

namespace strata {

int RunPerftCommand(const PerftArgs& args, const std::vector<std::string>& pool_paths,
                    bool override_cards) {
  CardDb db;
  if (!LoadPoolOrPrintError(pool_paths, override_cards, db)) return kExitBadInput;
  auto position = LoadScenarioPosition(db, args.scenario);
  if (!position.ok()) {
    return BadInput(position.status().message());
  }
  for (int depth = 1; depth <= args.depth; ++depth)
    std::printf("depth %d: %llu\n", depth,
                static_cast<unsigned long long>(Perft(**position, depth)));
  return 0;
}

}  // namespace strata
