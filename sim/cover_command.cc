#include "sim/cover_command.h"

#include <unistd.h>

#include <cstdio>

#include "sim/card_pool.h"
#include "sim/exit_codes.h"

namespace strata {

int RunCoverCommand(const CoverArgs& args, const std::vector<std::string>& pool_paths,
                    bool override_cards) {
  CardDb db;
  if (!LoadPoolOrPrintError(pool_paths, override_cards, db)) return kExitBadInput;
  CoverOptions opt = args.options;
  opt.edition = *ParseEdition(args.rules);
  opt.progress = isatty(2);
  CoverResult r = RunCoverage(db, opt);
  std::printf("%d games: %d/%d cards cast or played at least %d times, %d/%d abilities used\n",
              r.games, r.cards_done, r.cards, opt.k, r.abilities_done, r.abilities);
  for (auto& m : r.missing) std::printf("  not yet: %s\n", m.c_str());
  return r.missing.empty() ? kExitOk : kExitFailed;
}

}  // namespace strata
