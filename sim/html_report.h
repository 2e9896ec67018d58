// `strata sim --out DIR --report`: DIR/report.html, one self-contained page
// (no script, no network: charts as inline SVG) of a study: the matchup
// matrix as a heatmap, the decks' win rates with intervals and ratings, the
// first-player effect, the game lengths of each deck, the equilibrium
// metagame, and per deck the cards ranked by the drawn / not-drawn gap,
// with the health report's warnings.
#pragma once

#include <string>
#include <vector>

#include "sim/report.h"
#include "sim/runner.h"

namespace strata {

// The page's HTML.
std::string HtmlReport(const SimOptions& options, const std::vector<MatchupStats>& results,
                       const StudyInfo& info);

}  // namespace strata
