#include "sim/paired_report.h"

#include <algorithm>
#include <cmath>
#include <filesystem>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "engine/strings.h"
#include "sim/durable.h"
#include "sim/report.h"

namespace strata {
namespace {

namespace fs = std::filesystem;

constexpr const char* kPairedOutputs[] = {"summary.json", "opponents.csv", "cards.csv",
                                          "swaps.csv",    "report.html",   "study.toml"};

std::string Num(double v) {
  if (!std::isfinite(v)) return "null";
  return absl::StrFormat("%.6f", v);
}

std::string CsvNum(double v) {
  return std::isfinite(v) ? absl::StrFormat("%.6f", v) : "";
}

std::string Esc(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '&')
      out += "&amp;";
    else if (c == '<')
      out += "&lt;";
    else if (c == '>')
      out += "&gt;";
    else if (c == '"')
      out += "&quot;";
    else if (c == '\'')
      out += "&#39;";
    else
      out += c;
  }
  return out;
}

std::string Pct(double v) {
  return std::isfinite(v) ? absl::StrFormat("%.1f%%", 100 * v) : "-";
}

// Points, signed, one decimal: "+2.5", "-0.8", "+0.0" ("-" for NaN).
std::string Points(double v) {
  if (!std::isfinite(v)) return "-";
  v *= 100;
  if (std::fabs(v) < 0.05) v = 0;
  return absl::StrFormat("%+.1f", v);
}

std::string IntervalJson(const PairedDiff& d) {
  return absl::StrCat("[", Num(d.low), ", ", Num(d.high), "]");
}

// The header every summary.json of these runs starts with.
std::string JsonHeader(const char* what, const PairedRunInfo& run) {
  const SimOptions& o = *run.base;
  std::string j = "{\n";
  j += absl::StrCat("  \"what\": \"", what, "\",\n");
  j += absl::StrCat("  \"strata_version\": ", JsonQuote(STRATA_VERSION), ",\n");
  j += absl::StrCat("  \"command\": ", JsonQuote(run.command), ",\n");
  j += absl::StrCat("  \"seed\": ", o.seed, ",\n  \"seed_string\": \"", o.seed, "\",\n");
  j += absl::StrCat("  \"rules\": ", JsonQuote(run.rules), ",\n");
  j += absl::StrCat("  \"mulligan\": ", JsonQuote(MulliganName(o.mulligan)), ",\n");
  j += absl::StrCat("  \"policies\": [", JsonQuote(o.policies[0]), ", ", JsonQuote(o.policies[1]),
                    "],\n");
  j += absl::StrCat("  \"games_per_opponent\": ", o.games, ",\n");
  j += absl::StrCat("  \"paired_seats\": ", o.pair ? "true" : "false", ",\n");
  j += "  \"opponents\": [";
  for (size_t d = 1; d < o.decks.size(); ++d)
    j += absl::StrCat(d > 1 ? ", " : "", JsonQuote(o.decks[d].name));
  j += "],\n";
  j += absl::StrCat("  \"replay\": ", JsonQuote(run.replay), ",\n");
  // An interrupted run's figures so far, and how to go on.
  j += absl::StrCat("  \"partial\": ", run.partial ? "true" : "false", ",\n");
  if (run.partial) j += absl::StrCat("  \"resume\": ", JsonQuote(run.resume), ",\n");
  return j;
}

std::string JsonFooter(const PairedRunInfo& run) {
  return absl::StrCat("  \"run\": {\"games\": ", run.games, ", \"seconds\": ", Num(run.seconds),
                      "}\n}\n");
}

constexpr const char* kStyle =
    "<style>\n"
    "body{font-family:'DejaVu Sans',Helvetica,Arial,sans-serif;margin:24px;color:#222;"
    "max-width:1100px}\n"
    "h1{font-size:22px;margin-bottom:4px}h2{font-size:17px;margin-top:28px;"
    "border-bottom:1px solid #ccc;padding-bottom:3px}h3{font-size:14px;margin:14px 0 4px}\n"
    "p.note,.note{color:#555;font-size:12px}\n"
    "table{border-collapse:collapse;font-size:12px;margin:6px 0}"
    "td,th{border-bottom:1px solid #e3e3e3;padding:2px 8px;text-align:right}"
    "td:first-child,th:first-child{text-align:left}th{background:#f3f3f3}\n"
    ".good{color:#0b6e2a}.bad{color:#a33}.lists{display:flex;flex-wrap:wrap}"
    ".deck{margin:0 18px 12px 0}\n"
    "code{background:#f3f3f3;padding:1px 3px;overflow-wrap:anywhere}\n"
    "</style>\n";

std::string PageHead(const std::string& title, const PairedRunInfo& run) {
  const SimOptions& o = *run.base;
  std::string h = absl::StrCat(
      "<!DOCTYPE html>\n<html lang='en'>\n<head>\n<meta charset='utf-8'>\n<title>", Esc(title),
      "</title>\n", kStyle, "</head>\n<body>\n<h1>", Esc(title), "</h1>\n");
  h += absl::StrFormat(
      "<p class='note'>%s vs %s players, %s rules, %s mulligans, seed %llu, %s, strata %s; "
      "%lld games in %.1f s.<br><code>%s</code></p>\n",
      Esc(o.policies[0]), Esc(o.policies[1]), Esc(run.rules), Esc(S(MulliganName(o.mulligan))),
      static_cast<unsigned long long>(o.seed),
      o.pair ? "each seed twice with the seats swapped" : "each seed once", Esc(STRATA_VERSION),
      static_cast<long long>(run.games), run.seconds, Esc(run.command));
  if (run.partial)
    h += absl::StrFormat(
        "<p class='bad'><b>Partial:</b> the run was stopped before every opponent was done; "
        "these are its figures so far. Go on with <code>%s</code>.</p>\n",
        Esc(run.resume));
  return h;
}

// Changes with their paired 95% intervals on a points axis centred on 0,
// one row each: green when the interval is above 0, red below.
std::string ChangeSvg(const std::vector<std::pair<std::string, PairedDiff>>& rows,
                      const std::string& label) {
  double reach = 0.05;
  for (auto& [name, d] : rows)
    for (double v : {d.diff, d.low, d.high})
      if (std::isfinite(v)) reach = std::max(reach, std::fabs(v));
  reach = std::ceil(reach * 20) / 20;  // whole 5 points
  // Room for the longest label (about 7 px a character at 12 px).
  size_t longest = 0;
  for (auto& [name, d] : rows) longest = std::max(longest, name.size());
  const int left = std::max(230, 20 + 7 * static_cast<int>(longest));
  const int width = 420, row_h = 24, top = 28;
  const int h = top + row_h * static_cast<int>(rows.size()) + 24;
  auto x = [&](double v) {
    return left + static_cast<int>(std::lround(width * (v + reach) / (2 * reach)));
  };
  std::string s = absl::StrFormat(
      "<svg xmlns='http://www.w3.org/2000/svg' width='%d' height='%d' role='img' "
      "aria-label='%s'>\n",
      left + width + 200, h, Esc(label));
  for (int k = -2; k <= 2; ++k) {
    const double v = reach * k / 2;
    s += absl::StrFormat(
        "<line x1='%d' y1='%d' x2='%d' y2='%d' stroke='%s' stroke-dasharray='%s'/>\n", x(v),
        top - 6, x(v), h - 20, k == 0 ? "#888888" : "#dddddd", k == 0 ? "4 3" : "");
    s += absl::StrFormat("<text x='%d' y='%d' text-anchor='middle' font-size='11'>%s</text>\n",
                         x(v), h - 6, Points(v));
  }
  for (size_t i = 0; i < rows.size(); ++i) {
    const auto& [name, d] = rows[i];
    const int y = top + row_h * static_cast<int>(i) + row_h / 2;
    const char* color = std::isfinite(d.low) && d.low > 0     ? "#1a9641"
                        : std::isfinite(d.high) && d.high < 0 ? "#ca0020"
                                                              : "#2c7bb6";
    s += absl::StrFormat("<text x='%d' y='%d' text-anchor='end' font-size='12'>%s</text>\n",
                         left - 10, y + 4, Esc(name));
    if (std::isfinite(d.low))
      s += absl::StrFormat("<line x1='%d' y1='%d' x2='%d' y2='%d' stroke='%s' stroke-width='2'/>\n",
                           x(d.low), y, x(d.high), y, color);
    if (std::isfinite(d.diff))
      s += absl::StrFormat(
          "<circle cx='%d' cy='%d' r='5' fill='%s'><title>%s: %s points [%s, %s] over %lld "
          "games</title></circle>\n",
          x(d.diff), y, color, Esc(name), Points(d.diff), Points(d.low), Points(d.high),
          static_cast<long long>(d.games));
    s += absl::StrFormat("<text x='%d' y='%d' font-size='12'>%s [%s, %s]</text>\n",
                         left + width + 10, y + 4, Points(d.diff), Points(d.low), Points(d.high));
  }
  return s + "</svg>\n";
}

// A deck's list and shape, as in sim's report.
std::string DeckHtml(const CardDb& db, const Deck& deck, const std::string& title) {
  const DeckShape shape = ShapeOf(db, deck);
  std::string h = absl::StrFormat("<div class='deck'><h3>%s</h3><p class='note'>%d cards, %d lands",
                                  Esc(title), shape.cards, shape.lands);
  std::string curve;
  for (int v = 0; v < 8; ++v)
    absl::StrAppend(&curve, v ? ", " : "", v, v == 7 ? "+" : "", ": ", shape.curve[v]);
  h += absl::StrCat("<br>curve (spells by mana value): ", curve);
  std::string colours;
  for (int k = 0; k < kColorCount; ++k)
    if (shape.pips[k] > 0 || shape.sources[k] > 0)
      absl::StrAppend(&colours, colours.empty() ? "" : "; ", std::string(1, ColorSymbol(k)), ": ",
                      shape.pips[k], " symbols, ", shape.sources[k], " lands");
  if (!colours.empty()) h += absl::StrCat("<br>colours: ", colours);
  h += "</p>\n<table><tr><th>card</th><th>copies</th><th>cost</th></tr>\n";
  std::vector<CardId> distinct;
  for (CardId c : deck.main)
    if (std::find(distinct.begin(), distinct.end(), c) == distinct.end()) distinct.push_back(c);
  std::stable_sort(distinct.begin(), distinct.end(), [&](CardId x, CardId y) {
    const bool lx = Has(db[x].types, kLand), ly = Has(db[y].types, kLand);
    if (lx != ly) return ly;
    return db[x].cost.ManaValue() < db[y].cost.ManaValue();
  });
  for (CardId c : distinct)
    h += absl::StrFormat("<tr><td>%s</td><td>%lld</td><td>%s</td></tr>\n", Esc(db[c].name),
                         static_cast<long long>(std::count(deck.main.begin(), deck.main.end(), c)),
                         Has(db[c].types, kLand) ? "land" : Esc(db[c].cost.ToString()));
  return h + "</table></div>\n";
}

absl::Status WriteAll(const std::string& dir,
                      const std::vector<std::pair<std::string, const std::string*>>& files) {
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) return absl::InvalidArgumentError(absl::StrCat("--out ", dir, ": ", ec.message()));
  for (const auto& [name, text] : files)
    if (auto st = WriteFileAtomically((fs::path(dir) / name).string(), *text); !st.ok()) return st;
  return absl::OkStatus();
}

}  // namespace

std::string CompareVerdict(const PairedDiff& all, const std::string& new_name) {
  if (!std::isfinite(all.low)) return "too few games for an interval (a matchup played one seed)";
  if (all.low == 0 && all.high == 0 && all.diff == 0)
    return "the two versions scored the same on every seed: the change is exactly 0";
  if (all.low > 0 || all.high < 0)
    return absl::StrFormat("NEW (%s) is %s than OLD by %.1f points overall (95%%: %.1f to %.1f)",
                           new_name, all.diff > 0 ? "better" : "worse", 100 * std::fabs(all.diff),
                           100 * std::fabs(all.diff > 0 ? all.low : all.high),
                           100 * std::fabs(all.diff > 0 ? all.high : all.low));
  return absl::StrCat("no difference shown overall: the change is between ", Points(all.low),
                      " and ", Points(all.high), " points");
}

absl::Status ClaimPairedOut(const std::string& dir, bool force) {
  // A file (a deck file, say) is no folder: refused before any game, not
  // after them all at the first write.
  std::error_code ec0;
  if (fs::exists(dir, ec0) && !fs::is_directory(dir, ec0))
    return absl::InvalidArgumentError(
        absl::StrCat("--out ", dir, ": is a file; expected a directory (new, or a run's)"));
  std::vector<std::string> found;
  for (const char* name : kPairedOutputs)
    if (fs::exists(fs::path(dir) / name)) found.push_back(name);
  if (found.empty()) return absl::OkStatus();
  if (!force)
    return absl::InvalidArgumentError(
        absl::StrCat("--out ", dir, ": holds an earlier run's ", absl::StrJoin(found, ", "),
                     "; expected a new folder, or --force to replace those files"));
  for (const std::string& name : found) {
    std::error_code ec;
    fs::remove(fs::path(dir) / name, ec);
    if (ec)
      return absl::InvalidArgumentError(
          absl::StrCat("--out ", dir, ": cannot remove ", name, ": ", ec.message()));
  }
  return absl::OkStatus();
}

absl::Status WriteCompareOut(const std::string& dir, const CardDb& db, const CompareOutput& c,
                             bool report) {
  const ChangeRow& all = c.rows.back();
  const std::string verdict = CompareVerdict(all.change, c.new_deck.name);
  std::string j = JsonHeader("compare", c.run);
  j += absl::StrCat("  \"old\": {\"deck\": ", JsonQuote(c.old_deck.name),
                    ", \"file\": ", JsonQuote(c.old_path), ", \"cards\": ", c.old_deck.main.size(),
                    "},\n");
  j += absl::StrCat("  \"new\": {\"deck\": ", JsonQuote(c.new_deck.name),
                    ", \"file\": ", JsonQuote(c.new_path), ", \"cards\": ", c.new_deck.main.size(),
                    "},\n");
  j += absl::StrCat("  \"deck_changes\": ", JsonQuote(c.changes), ",\n");
  std::string csv = "opponent,games,old_win_rate,new_win_rate,change,ci_low,ci_high\n";
  j += "  \"matchups\": [\n";
  for (size_t i = 0; i < c.rows.size(); ++i) {
    const ChangeRow& r = c.rows[i];
    const std::string row = absl::StrCat(
        "{\"opponent\": ", JsonQuote(r.opponent), ", \"games\": ", r.games,
        ", \"old_win_rate\": ", Num(r.old_rate), ", \"new_win_rate\": ", Num(r.new_rate),
        ", \"change\": ", Num(r.change.diff), ", \"ci95\": ", IntervalJson(r.change), "}");
    if (i + 1 < c.rows.size())
      j += absl::StrCat("    ", row, i + 2 < c.rows.size() ? "," : "", "\n");
    csv += absl::StrCat(CsvField(r.opponent), ",", r.games, ",", CsvNum(r.old_rate), ",",
                        CsvNum(r.new_rate), ",", CsvNum(r.change.diff), ",", CsvNum(r.change.low),
                        ",", CsvNum(r.change.high), "\n");
  }
  j += "  ],\n";
  j += absl::StrCat(
      "  \"overall\": {\"games\": ", all.games, ", \"old_win_rate\": ", Num(all.old_rate),
      ", \"new_win_rate\": ", Num(all.new_rate), ", \"change\": ", Num(all.change.diff),
      ", \"ci95\": ", IntervalJson(all.change), "},\n");
  j += absl::StrCat("  \"verdict\": ", JsonQuote(verdict), ",\n");
  std::string cards_csv = "card,old_copies,new_copies,old_gap,new_gap\n";
  j += "  \"cards\": [\n";
  for (size_t i = 0; i < c.cards.size(); ++i) {
    const CardChange& k = c.cards[i];
    j += absl::StrCat("    {\"card\": ", JsonQuote(k.name), ", \"old_copies\": ", k.old_copies,
                      ", \"new_copies\": ", k.new_copies, ", \"old_gap\": ", Num(k.old_gap),
                      ", \"new_gap\": ", Num(k.new_gap), "}", i + 1 < c.cards.size() ? "," : "",
                      "\n");
    cards_csv += absl::StrCat(CsvField(k.name), ",", k.old_copies, ",", k.new_copies, ",",
                              CsvNum(k.old_gap), ",", CsvNum(k.new_gap), "\n");
  }
  j += "  ],\n" + JsonFooter(c.run);

  std::string html;
  if (report) {
    html = PageHead(
        absl::StrCat("strata compare: ", c.old_deck.name, " (OLD) and ", c.new_deck.name, " (NEW)"),
        c.run);
    const bool better = std::isfinite(all.change.low) && all.change.low > 0;
    const bool worse = std::isfinite(all.change.high) && all.change.high < 0;
    html += absl::StrFormat("<p class='%s'><b>Verdict: %s.</b></p>\n",
                            better  ? "good"
                            : worse ? "bad"
                                    : "note",
                            Esc(verdict));
    html += absl::StrFormat("<p>NEW's deck: %s (%zu cards, OLD %zu).</p>\n",
                            c.changes.empty() ? "the same cards as OLD's" : Esc(c.changes),
                            c.new_deck.main.size(), c.old_deck.main.size());
    html += "<h2 id='changes'>The change, per opponent</h2>\n";
    std::vector<std::pair<std::string, PairedDiff>> rows;
    for (const ChangeRow& r : c.rows) rows.push_back({r.opponent, r.change});
    html += ChangeSvg(rows, "changes per opponent");
    html +=
        "<table><tr><th>opponent</th><th>games</th><th>OLD win</th><th>NEW win</th>"
        "<th>change</th><th>95% paired interval</th></tr>\n";
    for (const ChangeRow& r : c.rows)
      html += absl::StrFormat(
          "<tr><td>%s</td><td>%lld</td><td>%s</td><td>%s</td><td>%s</td><td>[%s, %s]</td></tr>\n",
          Esc(r.opponent), static_cast<long long>(r.games), Pct(r.old_rate), Pct(r.new_rate),
          Points(r.change.diff), Points(r.change.low), Points(r.change.high));
    html +=
        "</table>\n<p class='note'>Win: the tested deck's score (a win counts 1, a draw "
        "1/2). Change: NEW's win % minus OLD's, in points, with its 95% interval from the "
        "game-by-game differences: both versions played every game on the same seed and "
        "seat (overall: every opponent's games, each opponent a stratum). Green: the "
        "interval is above 0; red: below.</p>\n";
    html +=
        "<h2 id='cards'>Cards</h2>\n<table><tr><th>card</th><th>OLD copies</th><th>NEW "
        "copies</th><th>OLD gap</th><th>NEW gap</th></tr>\n";
    for (const CardChange& k : c.cards)
      html +=
          absl::StrFormat("<tr><td>%s%s</td><td>%d</td><td>%d</td><td>%s</td><td>%s</td></tr>\n",
                          Esc(k.name), k.old_copies != k.new_copies ? " <b>*</b>" : "",
                          k.old_copies, k.new_copies, Points(k.old_gap), Points(k.new_gap));
    html +=
        "</table>\n<p class='note'>* a card whose copies changed. Gap: the deck's win % "
        "when the card was drawn minus when it was not, in points (\"-\": drawn or not drawn "
        "in fewer than 30 games): an association, not the card's worth (<code>strata "
        "ablate</code> measures that).</p>\n";
    html += "<h2 id='lists'>Deck lists</h2>\n<div class='lists'>\n";
    html += DeckHtml(db, c.old_deck, absl::StrCat("OLD: ", c.old_deck.name));
    html += DeckHtml(db, c.new_deck, absl::StrCat("NEW: ", c.new_deck.name));
    html += "</div>\n";
    html += absl::StrFormat(
        "<h2>Next</h2>\n<p class='note'>A game with its log: <code>%s --matchup M --game I</code> "
        "(M: the opponent's row above, from 0).</p>\n</body>\n</html>\n",
        Esc(c.run.replay));
  }
  std::vector<std::pair<std::string, const std::string*>> files = {
      {"summary.json", &j}, {"opponents.csv", &csv}, {"cards.csv", &cards_csv}};
  if (report) files.push_back({"report.html", &html});
  return WriteAll(dir, files);
}

absl::Status WriteAblateOut(const std::string& dir, const CardDb& db, const AblateOutput& a,
                            bool report) {
  std::string j = JsonHeader("ablate", a.run);
  j += absl::StrCat("  \"deck\": {\"deck\": ", JsonQuote(a.deck.name),
                    ", \"file\": ", JsonQuote(a.path), ", \"win_rate\": ", Num(a.rate),
                    ", \"games\": ", a.games, "},\n");
  j += absl::StrCat("  \"replaced_by\": ", JsonQuote(a.with), ",\n");
  std::string csv = "rank,card,copies,worth,ci_low,ci_high,without_win_rate\n";
  j += "  \"cards\": [\n";
  for (size_t i = 0; i < a.rows.size(); ++i) {
    const AblateRow& r = a.rows[i];
    j += absl::StrCat(
        "    {\"rank\": ", i + 1, ", \"card\": ", JsonQuote(r.card), ", \"copies\": ", r.copies,
        ", \"worth\": ", Num(r.worth.diff), ", \"ci95\": ", IntervalJson(r.worth),
        ", \"without_win_rate\": ", Num(r.without), "}", i + 1 < a.rows.size() ? "," : "", "\n");
    csv +=
        absl::StrCat(i + 1, ",", CsvField(r.card), ",", r.copies, ",", CsvNum(r.worth.diff), ",",
                     CsvNum(r.worth.low), ",", CsvNum(r.worth.high), ",", CsvNum(r.without), "\n");
  }
  j += "  ],\n" + JsonFooter(a.run);
  std::string html;
  if (report) {
    html = PageHead(absl::StrCat("strata ablate: ", a.deck.name), a.run);
    html += absl::StrFormat(
        "<p>%s as it is: %s over %lld games. Each distinct card in turn replaced, every copy, "
        "by %s, on the same games.</p>\n",
        Esc(a.deck.name), Pct(a.rate), static_cast<long long>(a.games), Esc(a.with));
    html += "<h2 id='worth'>Each card's worth</h2>\n";
    std::vector<std::pair<std::string, PairedDiff>> rows;
    for (const AblateRow& r : a.rows) rows.push_back({r.card, r.worth});
    html += ChangeSvg(rows, "worth per card");
    html +=
        "<table><tr><th>card</th><th>copies</th><th>worth</th><th>95% paired "
        "interval</th><th>win without it</th></tr>\n";
    for (const AblateRow& r : a.rows)
      html += absl::StrFormat(
          "<tr><td>%s</td><td>%d</td><td>%s</td><td>[%s, %s]</td><td>%s</td></tr>\n", Esc(r.card),
          r.copies, Points(r.worth.diff), Points(r.worth.low), Points(r.worth.high),
          Pct(r.without));
    html +=
        "</table>\n<p class='note'>Worth: the deck's win % as it is minus with every copy "
        "of the card replaced, in points, over every opponent's games, each played by both "
        "on the same seed and seat; its 95% interval from the game-by-game differences "
        "(each opponent a stratum). Green: it earns its slots (the interval above 0); red: "
        "it costs games.</p>\n";
    html += "<h2 id='lists'>Deck list</h2>\n<div class='lists'>\n";
    html += DeckHtml(db, a.deck, a.deck.name);
    html += absl::StrFormat(
        "</div>\n<h2>Next</h2>\n<p class='note'>A game with its log: "
        "<code>%s --matchup M --game I</code>.</p>\n</body>\n</html>\n",
        Esc(a.run.replay));
  }
  std::vector<std::pair<std::string, const std::string*>> files = {{"summary.json", &j},
                                                                   {"cards.csv", &csv}};
  if (report) files.push_back({"report.html", &html});
  return WriteAll(dir, files);
}

absl::Status WriteSwapOut(const std::string& dir, const CardDb& db, const SwapOutput& s,
                          bool report) {
  std::string j = JsonHeader("swap", s.run);
  j += absl::StrCat("  \"deck\": {\"deck\": ", JsonQuote(s.deck.name),
                    ", \"file\": ", JsonQuote(s.path), ", \"cards\": ", s.deck.main.size(), "},\n");
  j += "  \"candidates\": [";
  for (size_t i = 0; i < s.candidates.size(); ++i)
    j += absl::StrCat(i ? ", " : "", JsonQuote(s.candidates[i]));
  j += "],\n";
  j += absl::StrCat("  \"alpha\": ", Num(s.alpha), ",\n  \"z\": ", Num(s.z), ",\n  \"rounds\": [",
                    absl::StrJoin(s.rounds, ", "), "],\n");
  j += absl::StrCat("  \"win_rate\": ", Num(s.rate), ",\n  \"deck_games\": ", s.games, ",\n");
  j += "  \"swaps\": [\n";
  std::string csv =
      "rank,swap,out,in,copies,change,ci_low,ci_high,games,dropped_in_round,bar,mark\n";
  for (size_t i = 0; i < s.rows.size(); ++i) {
    const SwapRow& r = s.rows[i];
    j += absl::StrCat(
        "    {\"rank\": ", i + 1, ", \"swap\": ", JsonQuote(r.swap),
        ", \"out\": ", JsonQuote(r.out), ", \"in\": ", JsonQuote(r.in), ", \"copies\": ", r.copies,
        ", \"change\": ", Num(r.change), ", \"ci\": [", Num(r.low), ", ", Num(r.high),
        "], \"games\": ", r.games,
        ", \"dropped_in_round\": ", r.dropped_in > 0 ? absl::StrCat(r.dropped_in) : "null",
        ", \"bar\": ", r.dropped_in > 0 ? Num(r.bar) : "null", ", \"mark\": ", JsonQuote(r.mark),
        "}", i + 1 < s.rows.size() ? "," : "", "\n");
    csv +=
        absl::StrCat(i + 1, ",", CsvField(r.swap), ",", CsvField(r.out), ",", CsvField(r.in), ",",
                     r.copies, ",", CsvNum(r.change), ",", CsvNum(r.low), ",", CsvNum(r.high), ",",
                     r.games, ",", r.dropped_in > 0 ? absl::StrCat(r.dropped_in) : "", ",",
                     r.dropped_in > 0 ? CsvNum(r.bar) : "", ",", CsvField(r.mark), "\n");
  }
  j += "  ],\n";
  j += JsonFooter(s.run);
  std::string html;
  if (report) {
    html = PageHead(absl::StrCat("strata swap: ", s.deck.name), s.run);
    std::string rounds;
    for (int64_t n : s.rounds) absl::StrAppend(&rounds, rounds.empty() ? "" : ", ", n);
    html += absl::StrFormat(
        "<p>%s as it is: %s over %lld games. %zu swaps (every copy of a card of the deck out, as "
        "many of a candidate in), raced on the deck's own games in rounds of %s games per "
        "opponent; after each round the swaps whose interval lay wholly below the best's were "
        "dropped. Intervals at %.4f%% each (z %.2f): alpha %.3g shared by every swap and round "
        "(Bonferroni).</p>\n",
        Esc(s.deck.name), Pct(s.rate), static_cast<long long>(s.games), s.rows.size(), rounds,
        100 * (1 - s.alpha / (static_cast<double>(s.rows.size()) * s.rounds.size())), s.z, s.alpha);
    for (const bool kept : {true, false}) {
      std::vector<std::pair<std::string, PairedDiff>> chart;
      std::string table;
      for (const SwapRow& r : s.rows) {
        if ((r.dropped_in == 0) != kept) continue;
        chart.push_back({r.swap, PairedDiff{r.change, r.low, r.high, r.games}});
        table += absl::StrFormat(
            "<tr><td>%s</td><td>%s</td><td>[%s, %s]</td><td>%lld</td><td>%s</td><td>%s</td></tr>\n",
            Esc(r.swap), Points(r.change), Points(r.low), Points(r.high),
            static_cast<long long>(r.games),
            r.dropped_in > 0 ? absl::StrFormat("round %d, below %s", r.dropped_in, Points(r.bar))
                             : std::string("kept"),
            Esc(r.mark));
      }
      html += kept ? "<h2 id='best'>Best swaps (kept to the end)</h2>\n"
                   : "<h2 id='dropped'>Clearly worse than the best (dropped)</h2>\n";
      if (chart.empty()) {
        html += "<p class='note'>None.</p>\n";
        continue;
      }
      html += ChangeSvg(chart, kept ? "the best swaps" : "the dropped swaps");
      html += absl::StrCat(
          "<table><tr><th>swap</th><th>change</th><th>corrected interval</th><th>games</th>"
          "<th>dropped</th><th></th></tr>\n",
          table, "</table>\n");
    }
    html +=
        "<p class='note'>Change: the swapped deck's win % minus the deck's, in points, over "
        "every opponent's games, both on the same seed and seat (each opponent a stratum); a "
        "dropped swap's figures are those of the round it was dropped in. Green: better than "
        "the deck (the corrected interval above 0); red: worse.</p>\n";
    html += "<h2 id='lists'>Deck list</h2>\n<div class='lists'>\n";
    html += DeckHtml(db, s.deck, s.deck.name);
    html += absl::StrFormat(
        "</div>\n<h2>Next</h2>\n<p class='note'>A game of the deck with its log: "
        "<code>%s --matchup M --game I</code>.</p>\n</body>\n</html>\n",
        Esc(s.run.replay));
  }
  std::vector<std::pair<std::string, const std::string*>> files = {{"summary.json", &j},
                                                                   {"swaps.csv", &csv}};
  if (report) files.push_back({"report.html", &html});
  return WriteAll(dir, files);
}

}  // namespace strata
