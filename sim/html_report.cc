#include "sim/html_report.h"

#include <algorithm>
#include <cmath>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "engine/game.h"
#include "engine/strings.h"
#include "sim/metagame.h"

namespace strata {
namespace {

constexpr double kZ = 1.959963984540054;

std::string Esc(const std::string& s) {
  std::string out;
  for (char c : s) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&#39;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

std::string Pct(double v, int decimals = 1) {
  if (!std::isfinite(v)) return "-";
  return absl::StrFormat("%.*f%%", decimals, 100 * v);
}

// A win rate's colour: red (0) through near-white (1/2) to blue (1).
std::string Heat(double v) {
  if (!std::isfinite(v)) return "#eeeeee";
  v = std::clamp(v, 0.0, 1.0);
  const double lo[3] = {202, 0, 32}, mid[3] = {247, 247, 247}, hi[3] = {5, 113, 176};
  const double t = v < 0.5 ? v / 0.5 : (v - 0.5) / 0.5;
  const double* a = v < 0.5 ? lo : mid;
  const double* b = v < 0.5 ? mid : hi;
  return absl::StrFormat("#%02x%02x%02x", static_cast<int>(a[0] + t * (b[0] - a[0])),
                         static_cast<int>(a[1] + t * (b[1] - a[1])),
                         static_cast<int>(a[2] + t * (b[2] - a[2])));
}

// Text colour readable on Heat(v).
const char* Ink(double v) {
  return std::isfinite(v) && std::fabs(v - 0.5) > 0.3 ? "#ffffff" : "#222222";
}

// The games and the score of each pair of decks, either way round.
struct PairCounts {
  std::vector<std::vector<double>> games, wins;  // wins[i][j]: i's score against j
};
PairCounts CountPairs(const SimOptions& opt, const std::vector<MatchupStats>& results) {
  const size_t n = opt.decks.size();
  PairCounts p{std::vector<std::vector<double>>(n, std::vector<double>(n, 0.0)),
               std::vector<std::vector<double>>(n, std::vector<double>(n, 0.0))};
  for (const MatchupStats& m : results) {
    p.games[m.deck_a][m.deck_b] += static_cast<double>(m.games);
    p.games[m.deck_b][m.deck_a] += static_cast<double>(m.games);
    p.wins[m.deck_a][m.deck_b] += m.a_wins + 0.5 * m.draws;
    p.wins[m.deck_b][m.deck_a] += m.b_wins + 0.5 * m.draws;
  }
  return p;
}

// The matrix as a heatmap: the score of the row deck against the column
// deck, each cell with its interval's half-width below the rate and its
// games and interval in its tooltip, and each row's average at its end.
std::string MatrixSvg(const SimOptions& opt, const StudyRatings& r, const PairCounts& pairs,
                      const std::vector<int>& rows, const std::vector<int>& cols) {
  const int cell = 46, left = 150, top = 120;
  const int w = left + cell * static_cast<int>(cols.size() + 1) + 90;  // the last label's slant
  const int h = top + cell * static_cast<int>(rows.size()) + 10;
  std::string s = absl::StrFormat(
      "<svg xmlns='http://www.w3.org/2000/svg' width='%d' height='%d' role='img' "
      "aria-label='matchup matrix'>\n",
      w, h);
  for (size_t j = 0; j < cols.size(); ++j)
    s += absl::StrFormat(
        "<text x='%d' y='%d' transform='rotate(-45 %d %d)' font-size='12'>%s</text>\n",
        left + cell * static_cast<int>(j) + cell / 2, top - 8,
        left + cell * static_cast<int>(j) + cell / 2, top - 8, Esc(opt.decks[cols[j]].name));
  const int avg_x = left + cell * static_cast<int>(cols.size());
  s += absl::StrFormat(
      "<text x='%d' y='%d' transform='rotate(-45 %d %d)' font-size='12' "
      "font-style='italic'>row average</text>\n",
      avg_x + cell / 2, top - 8, avg_x + cell / 2, top - 8);
  for (size_t i = 0; i < rows.size(); ++i) {
    const int y = top + cell * static_cast<int>(i);
    s += absl::StrFormat("<text x='%d' y='%d' text-anchor='end' font-size='12'>%s</text>\n",
                         left - 8, y + cell / 2 + 4, Esc(opt.decks[rows[i]].name));
    double sum = 0;
    int counted = 0;
    for (size_t j = 0; j < cols.size(); ++j) {
      const double v = rows[i] == cols[j] ? std::nan("") : r.win_rate[rows[i]][cols[j]];
      const double games = rows[i] == cols[j] ? 0 : pairs.games[rows[i]][cols[j]];
      const Interval ci = Wilson(games > 0 ? pairs.wins[rows[i]][cols[j]] : 0, games);
      const int x = left + cell * static_cast<int>(j);
      s += absl::StrFormat(
          "<rect x='%d' y='%d' width='%d' height='%d' fill='%s' stroke='#ffffff'><title>%s vs "
          "%s: %s</title></rect>\n",
          x, y, cell, cell, Heat(v), Esc(opt.decks[rows[i]].name), Esc(opt.decks[cols[j]].name),
          std::isfinite(v) ? absl::StrFormat("%s [%s, %s] over %.0f games", Pct(v), Pct(ci.low),
                                             Pct(ci.high), games)
                           : Pct(v));
      if (std::isfinite(v)) {
        sum += v, ++counted;
        s += absl::StrFormat(
            "<text x='%d' y='%d' text-anchor='middle' font-size='13' fill='%s'>%.0f</text>\n",
            x + cell / 2, y + cell / 2 + 1, Ink(v), 100 * v);
        s += absl::StrFormat(
            "<text x='%d' y='%d' text-anchor='middle' font-size='9' fill='%s'>&#177;%.0f</text>\n",
            x + cell / 2, y + cell / 2 + 13, Ink(v), 50 * (ci.high - ci.low));
      }
    }
    const double avg = counted > 0 ? sum / counted : std::nan("");
    s += absl::StrFormat(
        "<rect x='%d' y='%d' width='%d' height='%d' fill='%s' stroke='#888888'><title>%s: %s "
        "average over its %d opponents</title></rect>\n",
        avg_x + 4, y, cell - 4, cell, Heat(avg), Esc(opt.decks[rows[i]].name), Pct(avg), counted);
    if (std::isfinite(avg))
      s += absl::StrFormat(
          "<text x='%d' y='%d' text-anchor='middle' font-size='13' fill='%s'>%.0f</text>\n",
          avg_x + 2 + cell / 2, y + cell / 2 + 5, Ink(avg), 100 * avg);
  }
  return s + "</svg>\n";
}

// Points with 95% interval whiskers on a 0-100% axis, one row each.
struct IntervalRow {
  std::string label, note;
  double value, low, high;
};
std::string IntervalSvg(const std::vector<IntervalRow>& rows, const std::string& label,
                        int left = 190) {
  const int width = 420, row_h = 24, top = 28, right = 260;
  const int h = top + row_h * static_cast<int>(rows.size()) + 24;
  auto x = [&](double v) { return left + static_cast<int>(std::lround(width * v)); };
  std::string s = absl::StrFormat(
      "<svg xmlns='http://www.w3.org/2000/svg' width='%d' height='%d' role='img' "
      "aria-label='%s'>\n",
      left + width + right, h, Esc(label));
  for (int t = 0; t <= 100; t += 25) {
    s += absl::StrFormat(
        "<line x1='%d' y1='%d' x2='%d' y2='%d' stroke='%s' stroke-dasharray='%s'/>\n", x(t / 100.0),
        top - 6, x(t / 100.0), h - 20, t == 50 ? "#888888" : "#dddddd", t == 50 ? "4 3" : "");
    s += absl::StrFormat("<text x='%d' y='%d' text-anchor='middle' font-size='11'>%d%%</text>\n",
                         x(t / 100.0), h - 6, t);
  }
  for (size_t i = 0; i < rows.size(); ++i) {
    const IntervalRow& r = rows[i];
    const int y = top + row_h * static_cast<int>(i) + row_h / 2;
    s += absl::StrFormat("<text x='%d' y='%d' text-anchor='end' font-size='12'>%s</text>\n",
                         left - 10, y + 4, Esc(r.label));
    if (std::isfinite(r.low))
      s += absl::StrFormat(
          "<line x1='%d' y1='%d' x2='%d' y2='%d' stroke='#2c7bb6' stroke-width='2'/>\n", x(r.low),
          y, x(r.high), y);
    if (std::isfinite(r.value))
      s += absl::StrFormat(
          "<circle cx='%d' cy='%d' r='5' fill='#2c7bb6'><title>%s: %s [%s, %s]</title></circle>\n",
          x(r.value), y, Esc(r.label), Pct(r.value), Pct(r.low), Pct(r.high));
    s += absl::StrFormat("<text x='%d' y='%d' font-size='12'>%s %s</text>\n", left + width + 10,
                         y + 4, Pct(r.value), Esc(r.note));
  }
  return s + "</svg>\n";
}

// A histogram by turn (the last bar is 40 and more): a deck's games by
// their length, or its wins by its own turns taken (its kill turns).
std::string TurnsSvg(const std::string& label, const std::string& deck,
                     const std::array<int64_t, 41>& h, const std::string& what, const char* unit,
                     const char* color, const std::string& extra = "") {
  const int w = 310, ht = 110, left = 10, bottom = 92, bar = 5;
  int64_t most = 1, count = 0, turns = 0;
  for (size_t t = 0; t < h.size(); ++t) {
    most = std::max(most, h[t]);
    count += h[t];
    turns += static_cast<int64_t>(t) * h[t];
  }
  std::string s = absl::StrFormat(
      "<svg xmlns='http://www.w3.org/2000/svg' width='%d' height='%d' role='img' "
      "aria-label='%s %s'>\n",
      w, ht + 12, label, Esc(deck));
  s += absl::StrFormat("<text x='%d' y='12' font-size='12' font-weight='bold'>%s</text>\n", left,
                       Esc(deck));
  s += absl::StrFormat(
      "<text x='%d' y='26' font-size='11' fill='#555555'>%s%lld %s%s</text>\n", left,
      count > 0 ? absl::StrFormat("mean %.1f %s, ", static_cast<double>(turns) / count, unit)
                : std::string(),
      static_cast<long long>(count), what, Esc(extra));
  for (size_t t = 0; t < h.size(); ++t) {
    const int bh = static_cast<int>(std::lround(60.0 * h[t] / most));
    s += absl::StrFormat(
        "<rect x='%d' y='%d' width='%d' height='%d' fill='%s'><title>%zu%s %s: %lld "
        "%s</title></rect>\n",
        left + static_cast<int>(t) * (bar + 1), bottom - bh, bar, bh, color, t, t == 40 ? "+" : "",
        unit, static_cast<long long>(h[t]), what);
  }
  for (int t = 0; t <= 40; t += 10)
    s += absl::StrFormat("<text x='%d' y='%d' font-size='10' text-anchor='middle'>%d</text>\n",
                         left + t * (bar + 1) + bar / 2, bottom + 12, t);
  return s + "</svg>\n";
}

// Each deck's list with its shape: land count, the spells' mana curve,
// and per colour the symbols its spells ask for and the lands that make it.
std::string DeckListsHtml(const CardDb& db, const SimOptions& opt, const std::vector<int>& order) {
  std::string h = "<h2 id='lists'>Deck lists</h2>\n<div class='lists'>\n";
  for (int d : order) {
    const Deck& deck = opt.decks[d];
    const DeckShape shape = ShapeOf(db, deck);
    h += absl::StrFormat("<div class='deck'><h3>%s</h3><p class='note'>%d cards, %d lands",
                         Esc(deck.name), shape.cards, shape.lands);
    std::string colours;
    for (int k = 0; k < kColorCount; ++k)
      if (shape.pips[k] > 0 || shape.sources[k] > 0)
        absl::StrAppend(&colours, colours.empty() ? "" : "; ", std::string(1, ColorSymbol(k)), ": ",
                        shape.pips[k], " symbols, ", shape.sources[k], " lands");
    if (!colours.empty()) h += absl::StrCat("<br>colours: ", colours);
    h += "</p>\n";
    // The curve: one bar per mana value, the spells' count above it.
    int most = 1;
    for (int v : shape.curve) most = std::max(most, v);
    h += "<svg xmlns='http://www.w3.org/2000/svg' width='200' height='78' role='img' "
         "aria-label='mana curve'>\n";
    for (int v = 0; v < 8; ++v) {
      const int bh = 44 * shape.curve[v] / most, x = 4 + 24 * v;
      h += absl::StrFormat(
          "<rect x='%d' y='%d' width='18' height='%d' fill='#6a51a3'><title>mana value %d%s: "
          "%d spells</title></rect>\n",
          x, 58 - bh, bh, v, v == 7 ? "+" : "", shape.curve[v]);
      if (shape.curve[v] > 0)
        h += absl::StrFormat("<text x='%d' y='%d' font-size='10' text-anchor='middle'>%d</text>\n",
                             x + 9, 54 - bh, shape.curve[v]);
      h += absl::StrFormat("<text x='%d' y='72' font-size='10' text-anchor='middle'>%d%s</text>\n",
                           x + 9, v, v == 7 ? "+" : "");
    }
    h += "</svg>\n<table><tr><th>card</th><th>copies</th><th>cost</th></tr>\n";
    std::vector<CardId> distinct;
    for (CardId c : deck.main)
      if (std::find(distinct.begin(), distinct.end(), c) == distinct.end()) distinct.push_back(c);
    // Spells by mana value, then lands.
    std::stable_sort(distinct.begin(), distinct.end(), [&](CardId x, CardId y) {
      const bool lx = Has(db[x].types, kLand), ly = Has(db[y].types, kLand);
      if (lx != ly) return ly;
      return db[x].cost.ManaValue() < db[y].cost.ManaValue();
    });
    for (CardId c : distinct)
      h +=
          absl::StrFormat("<tr><td>%s</td><td>%lld</td><td>%s</td></tr>\n", Esc(db[c].name),
                          static_cast<long long>(std::count(deck.main.begin(), deck.main.end(), c)),
                          Has(db[c].types, kLand) ? "land" : Esc(db[c].cost.ToString()));
    h += "</table></div>\n";
  }
  return h + "</div>\n";
}

}  // namespace

std::string HtmlReport(const SimOptions& opt, const std::vector<MatchupStats>& results,
                       const StudyInfo& info) {
  const int n = static_cast<int>(opt.decks.size());
  const bool gauntlet = opt.gauntlet >= 0 && opt.gauntlet < n;
  std::vector<int> order;
  if (gauntlet) order.push_back(opt.gauntlet);
  for (int d = 0; d < n; ++d)
    if (d != opt.gauntlet) order.push_back(d);
  int64_t games = 0;
  for (auto& m : results) games += m.games;
  const StudyRatings ratings = RateDecks(opt, results);
  const PairCounts pairs = CountPairs(opt, results);

  std::string h =
      "<!DOCTYPE html>\n<html lang='en'>\n<head>\n<meta charset='utf-8'>\n"
      "<title>strata study</title>\n<style>\n"
      "body{font-family:'DejaVu Sans',Helvetica,Arial,sans-serif;margin:24px;color:#222;"
      "max-width:1100px}\n"
      "h1{font-size:22px;margin-bottom:4px}h2{font-size:17px;margin-top:28px;"
      "border-bottom:1px solid #ccc;padding-bottom:3px}h3{font-size:14px;margin:14px 0 4px}\n"
      "p.note,.note{color:#555;font-size:12px}\n"
      "table{border-collapse:collapse;font-size:12px;margin:6px 0}"
      "td,th{border-bottom:1px solid #e3e3e3;padding:2px 8px;text-align:right}"
      "td:first-child,th:first-child{text-align:left}th{background:#f3f3f3}\n"
      ".warn{color:#a33;font-size:12px}.lengths svg{margin:0 8px 8px 0}\n"
      ".lists{display:flex;flex-wrap:wrap}.deck{margin:0 18px 12px 0}\n"
      "code{background:#f3f3f3;padding:1px 3px;overflow-wrap:anywhere}\n"
      "</style>\n</head>\n<body>\n";
  h +=
      absl::StrFormat("<h1>strata study: %d decks, %zu matchup%s, %lld games%s</h1>\n", n,
                      results.size(), results.size() == 1 ? "" : "s", static_cast<long long>(games),
                      info.partial ? " (partial: stopped before the end)" : "");
  h += absl::StrFormat(
      "<p class='note'>%s vs %s players, %s rules, %s mulligans, seed %llu, strata %s%s.<br>"
      "<code>%s</code></p>\n",
      Esc(opt.policies[0]), Esc(opt.policies[1]), Esc(info.rules),
      Esc(S(MulliganName(opt.mulligan))), static_cast<unsigned long long>(opt.seed),
      Esc(STRATA_VERSION),
      info.cards_fingerprint.empty() ? "" : absl::StrCat(", cards ", info.cards_fingerprint),
      Esc(info.command));
  h += "<p class='note'>A win counts 1 and a draw 1/2 (draws: games nobody won: both players "
       "lost at once, or the turn or action cap). Turns count both players' turns (20 turns: 10 "
       "each). Intervals are 95%.</p>\n";

  // The matrix.
  h += "<h2 id='matchups'>Matchups</h2>\n";
  if (gauntlet) {
    std::vector<int> others(order.begin() + 1, order.end());
    h += MatrixSvg(opt, ratings, pairs, {opt.gauntlet}, others);
    h += absl::StrFormat("<p class='note'>A gauntlet: %s against each of the others only.</p>\n",
                         Esc(opt.decks[opt.gauntlet].name));
  } else {
    h += MatrixSvg(opt, ratings, pairs, order, order);
    h += "<p class='note'>The win % of the row deck against the column deck, with the 95% "
         "interval's half-width below it (a cell's tooltip gives the interval and the games); "
         "the last column is the row's average over its opponents, each weighing the same.</p>\n";
  }

  // --match N: match win rates beside game win rates.
  if (opt.match > 1) {
    h += absl::StrFormat("<h2 id='matches'>Matches: best of %d</h2>\n", opt.match);
    std::vector<IntervalRow> match_rows;
    h += "<table><tr><th>deck A v deck B</th><th>games</th><th>A game win</th><th>95% "
         "interval</th><th>matches</th><th>A match win</th><th>95% interval</th><th>drawn "
         "matches</th></tr>\n";
    for (const MatchupStats& m : results) {
      const double gw = m.a_wins + 0.5 * m.draws, mw = m.a_match_wins + 0.5 * m.match_draws;
      const Interval gci = Wilson(gw, static_cast<double>(m.games));
      const Interval mci = Wilson(mw, static_cast<double>(m.matches));
      const double grate = m.games ? gw / m.games : std::nan("");
      const double mrate = m.matches ? mw / m.matches : std::nan("");
      const std::string label =
          absl::StrCat(opt.decks[m.deck_a].name, " v ", opt.decks[m.deck_b].name);
      h += absl::StrFormat(
          "<tr><td>%s</td><td>%lld</td><td>%s</td><td>[%s, %s]</td><td>%lld</td><td>%s</td>"
          "<td>[%s, %s]</td><td>%lld</td></tr>\n",
          Esc(label), static_cast<long long>(m.games), Pct(grate), Pct(gci.low), Pct(gci.high),
          static_cast<long long>(m.matches), Pct(mrate), Pct(mci.low), Pct(mci.high),
          static_cast<long long>(m.match_draws));
      match_rows.push_back(
          {label, absl::StrFormat("%lld matches", (long long)m.matches), mrate, mci.low, mci.high});
    }
    h += "</table>\n";
    h += IntervalSvg(match_rows, "deck A's match win rates", 300);
    h += absl::StrFormat(
        "<p class='note'>Each of the study's %d units per matchup is a best-of-%d match: its "
        "first game seated as in a study of single games, then the loser of each game plays "
        "first in the next (strata's players always choose to play first; after a drawn game "
        "the same deck starts again). A drawn game counts for neither deck; a match ends at %d "
        "game wins, or after %d games, won by the deck with more game wins (equal: drawn, "
        "counting 1/2). Sideboards are not used. Every other figure of this page counts "
        "games.</p>\n",
        opt.games, opt.match, (opt.match + 1) / 2, 2 * opt.match - 1);
  }

  // The decks.
  h += "<h2 id='decks'>Decks: win rate and rating</h2>\n";
  std::vector<IntervalRow> deck_rows;
  for (int d : order) {
    const DeckScore s = ScoreOf(results, d);
    const Interval ci = Wilson(s.wins, s.games);
    deck_rows.push_back({opt.decks[d].name,
                         absl::StrFormat("rating %+.0f, %.0f games", ratings.fit.elo[d], s.games),
                         s.games > 0 ? s.wins / s.games : std::nan(""), ci.low, ci.high});
  }
  h += IntervalSvg(deck_rows, "deck win rates");
  h += absl::StrFormat(
      "<p class='note'>Ratings: Bradley-Terry fitted to all the games, Elo scale, mean 0 (100 "
      "points: about 64%% between two decks)%s.</p>\n",
      ratings.prior > 0 ? "; half a win each way added per pair (a deck won or lost all)" : "");

  if (info.db) h += DeckListsHtml(*info.db, opt, order);

  // The first player.
  h += "<h2 id='first'>First-player effect</h2>\n";
  std::vector<IntervalRow> first_rows;
  int64_t first = 0, decided = 0;
  for (const MatchupStats& m : results) {
    const Interval ci =
        Wilson(static_cast<double>(m.first_player_wins), static_cast<double>(m.games));
    first_rows.push_back({absl::StrCat(opt.decks[m.deck_a].name, " v ", opt.decks[m.deck_b].name),
                          "", static_cast<double>(m.first_player_wins) / m.games, ci.low, ci.high});
    first += m.first_player_wins;
    decided += m.games;
  }
  const Interval all_first = Wilson(static_cast<double>(first), static_cast<double>(decided));
  first_rows.insert(first_rows.begin(),
                    {"all matchups", "", decided > 0 ? static_cast<double>(first) / decided : 0,
                     all_first.low, all_first.high});
  h += IntervalSvg(first_rows, "first player win rates", 300);
  h += "<p class='note'>The share of games won by the player who started (a draw is no win), "
       "per matchup. Seats are swapped in pairs unless <code>--no-pair</code>, so each deck "
       "starts half its games.</p>\n";

  // Kill turns and game lengths.
  h += "<h2 id='lengths'>Kill turns and game lengths</h2>\n<div class='lengths'>\n";
  for (int d : order) {
    std::array<int64_t, 41> kills{};
    int64_t wins = 0, counted = 0;
    for (const MatchupStats& m : results)
      for (int side = 0; side < 2; ++side)
        if ((side == 0 ? m.deck_a : m.deck_b) == d) {
          for (size_t t = 0; t < kills.size(); ++t) kills[t] += m.win_turns[side][t];
          wins += side == 0 ? m.a_wins : m.b_wins;
        }
    for (int64_t k : kills) counted += k;
    h += TurnsSvg("kill turns of", opt.decks[d].name, kills,
                  counted == wins ? std::string("wins") : absl::StrCat("of ", wins, " wins"),
                  "own turns", "#b5523b");
  }
  h += "</div>\n<p class='note'>Each deck's wins by its kill turn: the number of turns it had "
       "taken itself when it won (a turn-4 kill: its fourth turn). A study begun by a strata "
       "before kill turns were kept counts only the wins since.</p>\n<div class='lengths'>\n";
  for (int d : order) {
    std::array<int64_t, 41> lengths{};
    int64_t capped = 0;
    for (const MatchupStats& m : results)
      if (m.deck_a == d || m.deck_b == d) {
        for (size_t t = 0; t < lengths.size(); ++t) lengths[t] += m.turn_histogram[t];
        capped += m.end_reasons[static_cast<int>(EndReason::kTurnCap)];
      }
    h += TurnsSvg("game lengths of", opt.decks[d].name, lengths, "games", "turns", "#5e8c31",
                  absl::StrCat(", ", capped, " at the turn cap"));
  }
  h += "</div>\n<p class='note'>Each deck's games, won or lost, by the turn they ended on (both "
       "players' turns counted; the last bar is 40 and more); the games that hit the turn cap "
       "are drawn games, counted after each deck's name.</p>\n";

  // The metagame.
  const Metagame meta = SolveMetagame(ratings.win_rate);
  if (!gauntlet && meta.solved) {
    const MetagameSpread spread = ResampleMetagame(opt, results);
    h += "<h2 id='metagame'>Metagame</h2>\n<table><tr><th>deck</th><th>share of the "
         "mix</th><th>win vs the "
         "mix</th><th>share, 90% range</th><th>in the mix</th></tr>\n";
    std::vector<int> by_share(order);
    std::stable_sort(by_share.begin(), by_share.end(), [&](int x, int y) {
      return meta.share[x] != meta.share[y] ? meta.share[x] > meta.share[y]
                                            : meta.win_vs_mix[x] > meta.win_vs_mix[y];
    });
    for (int d : by_share)
      h += absl::StrFormat(
          "<tr><td>%s</td><td>%s</td><td>%s</td><td>%s</td><td>%s</td></tr>\n",
          Esc(opt.decks[d].name), Pct(meta.share[d]), Pct(meta.win_vs_mix[d]),
          spread.samples ? absl::StrCat("[", Pct(spread.low[d]), ", ", Pct(spread.high[d]), "]")
                         : std::string("-"),
          spread.samples ? Pct(spread.in_mix[d], 0) : std::string("-"));
    h += absl::StrFormat(
        "</table>\n<p class='note'>The mix of decks no single deck beats on average: the "
        "matrix as a symmetric zero-sum game, solved exactly (simplex). Its sampling error: "
        "each matchup's score drawn again %d times from a binomial with its games and its "
        "measured rate, the mix solved each time; the share's 5th to 95th percentile, and how "
        "often the deck was in the mix at all.</p>\n",
        spread.samples);
  }

  // Cards and health.
  h += "<h2 id='cards'>Cards</h2>\n";
  const std::vector<std::string> warnings = HealthWarnings(opt, results, info);
  if (warnings.empty()) {
    h += absl::StrCat("<p class='note'>Health: ", NoWarningsLine(UnjudgedCards(opt, results, info)),
                      ".</p>\n");
  } else {
    h += absl::StrFormat(
        "<p class='warn'><b>Health: %zu warning%s.</b> Per-card figures are only as good as the "
        "player: read these first.</p>\n<ul class='warn'>\n",
        warnings.size(), warnings.size() == 1 ? "" : "s");
    for (const std::string& w : warnings) h += absl::StrCat("<li>", Esc(w), "</li>\n");
    h += "</ul>\n";
  }
  h += absl::StrFormat(
      "<p class='note'>Per deck, its cards ranked by the gap: the deck's win rate when the card "
      "was drawn (in hand at any time) minus when it was not, with a 95%% interval, among cards "
      "drawn and not drawn in at least %d games each (the others below, unranked). An "
      "association, not the card's worth: <code>strata ablate DECK</code> measures that.</p>\n",
      kMinCardSample);
  const std::vector<DeckCards> tables = CardTables(info.db, opt, results);
  for (int d : order) {
    const DeckCards& t = tables[d];
    // Lands ranked apart, below the spells: a basic land's gap is mana
    // screw or flood, not card quality.
    std::vector<const CardRow*> ranked, lands, rest;
    for (const CardRow& c : t.cards) {
      const bool sample = c.drawn >= kMinCardSample && c.not_drawn >= kMinCardSample;
      const bool land = info.db && Has((*info.db)[c.card].types, kLand);
      (sample ? (land ? lands : ranked) : rest).push_back(&c);
    }
    auto rate = [](double w, int64_t g) {
      return g > 0 ? w / static_cast<double>(g) : std::nan("");
    };
    auto gap = [&](const CardRow* c) {
      return rate(c->drawn_wins, c->drawn) - rate(c->not_drawn_wins, c->not_drawn);
    };
    std::stable_sort(ranked.begin(), ranked.end(),
                     [&](const CardRow* x, const CardRow* y) { return gap(x) > gap(y); });
    std::stable_sort(lands.begin(), lands.end(),
                     [&](const CardRow* x, const CardRow* y) { return gap(x) > gap(y); });
    h += absl::StrFormat("<h3>%s: %s over %.0f games</h3>\n", Esc(opt.decks[d].name),
                         Pct(t.score.games > 0 ? t.score.wins / t.score.games : std::nan("")),
                         t.score.games);
    h += "<table><tr><th>card</th><th>copies</th><th>gap</th><th>&plusmn;</th><th>drawn</th>"
         "<th>win when drawn</th><th>not drawn</th><th>win when not</th><th>cast when drawn"
         "</th><th>first cast (own turn, median)</th></tr>\n";
    auto row = [&](const CardRow* c, bool ranked_row) {
      const double pd = rate(c->drawn_wins, c->drawn), pn = rate(c->not_drawn_wins, c->not_drawn);
      const double half =
          ranked_row ? kZ * std::sqrt(pd * (1 - pd) / c->drawn + pn * (1 - pn) / c->not_drawn)
                     : std::nan("");
      const double median = c->MedianFirstCast();
      std::string g = ranked_row ? absl::StrFormat("%+.1f", 100 * gap(c)) : "-";
      if (g == "-0.0") g = "+0.0";
      const std::string fill =
          ranked_row ? Heat(0.5 + std::clamp(gap(c), -0.5, 0.5)) : std::string("#ffffff");
      h += absl::StrFormat(
          "<tr><td>%s%s</td><td>%d</td><td style='background:%s'>%s</td><td>%s</td><td>%lld</td>"
          "<td>%s</td><td>%lld</td><td>%s</td><td>%s</td><td>%s</td></tr>\n",
          Esc(c->name), c->castable ? "" : " <span class='warn'>(never castable)</span>", c->copies,
          fill, g, ranked_row ? absl::StrFormat("%.1f", 100 * half) : "-",
          static_cast<long long>(c->drawn), Pct(pd), static_cast<long long>(c->not_drawn), Pct(pn),
          CountRate(c->cast, c->drawn, 0),
          std::isfinite(median) ? absl::StrFormat("%.0f", median) : "-");
    };
    for (const CardRow* c : ranked) row(c, true);
    if (!lands.empty())
      h += "<tr><th colspan='10'>lands, ranked apart: a land's gap is mana screw or flood, not "
           "card quality</th></tr>\n";
    for (const CardRow* c : lands) row(c, true);
    if (!rest.empty())
      h += absl::StrFormat(
          "<tr><th colspan='10'>drawn or not drawn in fewer than %d games: not ranked</th></tr>\n",
          kMinCardSample);
    for (const CardRow* c : rest) row(c, false);
    h += "</table>\n";
    h += absl::StrFormat(
        "<p class='note'>Mana burn %lld in %lld games; harmful effects aimed at its own side "
        "%lld (%lld while the other side had a target)%s.</p>\n",
        static_cast<long long>(t.mana_burn), static_cast<long long>(t.burn_games),
        static_cast<long long>(t.own_harm), static_cast<long long>(t.own_harm_avoidable),
        opt.mulligan == Mulligan::kNone
            ? ""
            : absl::StrFormat("; mulligans %lld in %lld games", static_cast<long long>(t.mulligans),
                              static_cast<long long>(t.mulligan_games)));
  }
  h += "<h2>All matchups</h2>\n";
  h += "<table><tr><th>deck A</th><th>deck B</th><th>games</th><th>A win</th><th>95% "
       "interval</th><th>draws</th><th>1st player wins</th><th>mean turns</th></tr>\n";
  for (const MatchupStats& m : results) {
    const Interval ci = Wilson(m.a_wins + 0.5 * m.draws, static_cast<double>(m.games));
    h += absl::StrFormat(
        "<tr><td>%s</td><td>%s</td><td>%lld</td><td>%s</td><td>[%s, %s]</td><td>%lld</td><td>%s"
        "</td><td>%.1f</td></tr>\n",
        Esc(opt.decks[m.deck_a].name), Esc(opt.decks[m.deck_b].name),
        static_cast<long long>(m.games), Pct((m.a_wins + 0.5 * m.draws) / m.games), Pct(ci.low),
        Pct(ci.high), static_cast<long long>(m.draws),
        Pct(static_cast<double>(m.first_player_wins) / m.games),
        static_cast<double>(m.turns) / m.games);
  }
  h += "</table>\n";
  h += absl::StrFormat(
      "<h2>Next</h2>\n<p class='note'>A game with its log: <code>%s --matchup M --game I</code> "
      "(M: the matchup's row in the table above, from 0). A card's worth: <code>strata ablate "
      "DECK --against OTHERS</code>. A new version of a deck on the same games: <code>strata "
      "compare OLD NEW --against OTHERS</code>.</p>\n",
      Esc(info.replay));
  h += "</body>\n</html>\n";
  return h;
}

}  // namespace strata
