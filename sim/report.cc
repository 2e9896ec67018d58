#include "sim/report.h"

#include <filesystem>
#include <fstream>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"

namespace strata {
namespace {

std::string Quote(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

std::string Num(double v) {
  return absl::StrFormat("%.6f", v);
}

}  // namespace

absl::Status WriteStudy(const std::string& dir, const SimOptions& opt,
                        const std::vector<MatchupStats>& results, const StudyInfo& info) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) return absl::InvalidArgumentError(absl::StrCat("--out ", dir, ": ", ec.message()));
  static constexpr const char* kReasons[] = {"none", "life",     "library",
                                             "both", "turn_cap", "action_cap"};
  int64_t total = 0;
  std::string j = "{\n";
  j += absl::StrCat("  \"strata_version\": ", Quote(STRATA_VERSION), ",\n");
  j += absl::StrCat("  \"command\": ", Quote(info.command), ",\n");
  j += absl::StrCat("  \"seed\": ", opt.seed, ",\n");
  j += absl::StrCat("  \"rules\": ", Quote(info.rules), ",\n");
  j += absl::StrCat("  \"policies\": [", Quote(opt.policies[0]), ", ", Quote(opt.policies[1]),
                    "],\n");
  j += absl::StrCat("  \"games_per_matchup\": ", opt.games, ",\n");
  j += absl::StrCat("  \"paired_seats\": ", opt.pair ? "true" : "false", ",\n");
  j += absl::StrCat("  \"partial\": ", info.partial ? "true" : "false", ",\n");
  j += "  \"matchups\": [\n";
  std::string csv =
      "deck_a,deck_b,games,a_wins,b_wins,draws,a_win_rate,ci_low,ci_high,first_player_wins,"
      "mean_turns\n";
  for (size_t i = 0; i < results.size(); ++i) {
    const MatchupStats& m = results[i];
    total += m.games;
    double rate = (m.a_wins + 0.5 * m.draws) / static_cast<double>(m.games);
    Interval ci = Wilson(m.a_wins + 0.5 * m.draws, static_cast<double>(m.games));
    const std::string& a = opt.decks[m.deck_a].name;
    const std::string& b = opt.decks[m.deck_b].name;
    j += absl::StrCat(
        "    {\"deck_a\": ", Quote(a), ", \"deck_b\": ", Quote(b), ", \"games\": ", m.games,
        ", \"a_wins\": ", m.a_wins, ", \"b_wins\": ", m.b_wins, ", \"draws\": ", m.draws,
        ", \"a_win_rate\": ", Num(rate), ", \"ci95\": [", Num(ci.low), ", ", Num(ci.high),
        "], \"first_player_wins\": ", m.first_player_wins,
        ", \"mean_turns\": ", Num(static_cast<double>(m.turns) / m.games), ", \"end_reasons\": {");
    for (int r = 1; r < 6; ++r)
      j += absl::StrCat(r > 1 ? ", " : "", Quote(kReasons[r]), ": ", m.end_reasons[r]);
    j += "}, \"turn_histogram\": [";
    for (size_t t = 0; t < m.turn_histogram.size(); ++t)
      j += absl::StrCat(t ? ", " : "", m.turn_histogram[t]);
    j += absl::StrCat("]}", i + 1 < results.size() ? "," : "", "\n");
    csv += absl::StrCat(a, ",", b, ",", m.games, ",", m.a_wins, ",", m.b_wins, ",", m.draws, ",",
                        Num(rate), ",", Num(ci.low), ",", Num(ci.high), ",", m.first_player_wins,
                        ",", Num(static_cast<double>(m.turns) / m.games), "\n");
  }
  j += "  ],\n  \"decks\": [\n";
  for (size_t d = 0; d < opt.decks.size(); ++d) {
    double wins = 0, games = 0;
    for (auto& m : results) {
      if (m.deck_a == static_cast<int>(d)) wins += m.a_wins + 0.5 * m.draws, games += m.games;
      if (m.deck_b == static_cast<int>(d)) wins += m.b_wins + 0.5 * m.draws, games += m.games;
    }
    Interval ci = Wilson(wins, games);
    j += absl::StrCat("    {\"deck\": ", Quote(opt.decks[d].name), ", \"games\": ", games,
                      ", \"win_rate\": ", Num(games ? wins / games : 0), ", \"ci95\": [",
                      Num(ci.low), ", ", Num(ci.high), "]}", d + 1 < opt.decks.size() ? "," : "",
                      "\n");
  }
  j += "  ],\n";
  // How this run went: differs between runs of the same study.
  if (info.run_games >= 0) total = info.run_games;
  j += absl::StrCat("  \"run\": {\"threads\": ", info.threads, ", \"games\": ", total,
                    ", \"seconds\": ", Num(info.seconds),
                    ", \"games_per_second\": ", Num(info.seconds > 0 ? total / info.seconds : 0),
                    "}\n}\n");
  for (auto [name, text] : {std::pair{"summary.json", &j}, std::pair{"matchups.csv", &csv}}) {
    std::ofstream out(std::filesystem::path(dir) / name);
    if (!out) return absl::InvalidArgumentError(absl::StrCat(dir, "/", name, ": cannot write"));
    out << *text;
  }
  return absl::OkStatus();
}

}  // namespace strata
