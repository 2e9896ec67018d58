#include "sim/perft_command.h"

#include <cstdio>

#include "engine/perft.h"
#include "sim/card_pool.h"
#include "sim/scenario.h"

namespace strata {

int RunPerftCommand(const PerftArgs& args, const std::vector<std::string>& pool_paths,
                    bool override_cards) {
  CardDb db;
  if (!LoadPoolOrPrintError(pool_paths, override_cards, db)) return 1;
  auto position = LoadScenarioPosition(db, args.scenario);
  if (!position.ok()) {
    std::fprintf(stderr, "%s\n", std::string(position.status().message()).c_str());
    return 1;
  }
  for (int depth = 1; depth <= args.depth; ++depth)
    std::printf("depth %d: %llu\n", depth,
                static_cast<unsigned long long>(Perft(**position, depth)));
  return 0;
}

}  // namespace strata
