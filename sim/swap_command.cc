#include "sim/swap_command.h"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include "absl/status/statusor.h"
#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "engine/deck.h"
#include "engine/strings.h"
#include "sim/card_pool.h"
#include "sim/card_stats.h"
#include "sim/compare.h"
#include "sim/durable.h"
#include "sim/exit_codes.h"
#include "sim/format.h"
#include "sim/paired_report.h"

namespace strata {
namespace {

constexpr double kZ95 = 1.959963984540054;

std::string Points(double v) {
  if (!std::isfinite(v)) return "-";
  v *= 100;
  if (std::fabs(v) < 0.05) v = 0;
  return absl::StrFormat("%+.1f", v);
}

// One swap: every copy of `out` replaced by as many of `in`.
struct Swap {
  CardId out = kNoCard, in = kNoCard;
  int copies = 0;
  std::string label;    // "-4 Shock +4 Incinerate"
  PairedDiff change;    // the swapped deck minus the deck, over every opponent
  double half = 0;      // the corrected interval's half-width
  int dropped_in = -1;  // the round it was dropped in (-1: it ran to the end)
  double bar = 0;       // then: the best swap's lower bound, which its interval lay below
  int64_t games = 0;    // its games in its last round
};

// Whether the swap's corrected interval lies above or below 0.
std::string Mark(const Swap& sw) {
  if (!std::isfinite(sw.half)) return "";
  if (sw.change.diff - sw.half > 0) return "better than the deck";
  if (sw.change.diff + sw.half < 0) return "worse than the deck";
  return "";
}

}  // namespace

double TwoSidedZ(double p) {
  // erfc(z / sqrt 2) = p, by bisection: erfc falls monotonically.
  double lo = 0, hi = 40;
  for (int i = 0; i < 200; ++i) {
    const double mid = (lo + hi) / 2;
    (std::erfc(mid / std::sqrt(2.0)) > p ? lo : hi) = mid;
  }
  return (lo + hi) / 2;
}

absl::StatusOr<std::vector<CardId>> ParseCandidates(const std::string& arg, const CardDb& db) {
  std::vector<std::string> names;
  std::string where = "--candidates";
  if (std::filesystem::is_regular_file(arg)) {
    std::ifstream in(arg);
    std::stringstream ss;
    ss << in.rdbuf();
    where = arg;
    int line_no = 0;
    for (absl::string_view raw : absl::StrSplit(ss.str(), '\n')) {
      ++line_no;
      absl::string_view l = absl::StripAsciiWhitespace(raw);
      if (l.empty() || l[0] == '#' || absl::StartsWith(l, "//")) continue;
      // `4 Name` or `4x Name`: the count is the decklist's, not used here.
      if (size_t space = l.find_first_of(" \t"); space != absl::string_view::npos) {
        absl::string_view count = l.substr(0, space);
        if (!count.empty() && (count.back() == 'x' || count.back() == 'X')) count.remove_suffix(1);
        int n = 0;
        if (absl::SimpleAtoi(count, &n)) l = absl::StripLeadingAsciiWhitespace(l.substr(space));
      }
      names.push_back(absl::StrCat(line_no, "\t", std::string(l)));
    }
  } else {
    for (absl::string_view n : absl::StrSplit(arg, ',', absl::SkipWhitespace()))
      names.push_back(absl::StrCat("0\t", std::string(absl::StripAsciiWhitespace(n))));
  }
  std::vector<CardId> out;
  for (const std::string& entry : names) {
    const size_t tab = entry.find('\t');
    const std::string line = entry.substr(0, tab), name = entry.substr(tab + 1);
    const CardId c = db.Find(name);
    if (c == kNoCard)
      return absl::InvalidArgumentError(absl::StrCat(where, line == "0" ? "" : ":",
                                                     line == "0" ? "" : line, ": unknown card '",
                                                     name, "' (", db.ClosestNote(name), ")"));
    if (std::find(out.begin(), out.end(), c) == out.end()) out.push_back(c);
  }
  if (out.empty())
    return absl::InvalidArgumentError(
        absl::StrCat(where,
                     ": expected at least one candidate card (names separated by commas, or a file "
                     "with one a line)"));
  return out;
}

int RunSwapCommand(const CompareArgs& a) {
  // --out checked, and DIR claimed, before any game.
  if (a.force && a.out.empty()) return BadInput("--force: expected --out DIR");
  if (a.report && a.out.empty())
    return BadInput("--report: expected --out DIR too (the report is DIR/report.html)");
  DirLock lock;
  if (!a.out.empty()) {
    if (auto st = ClaimPairedOut(a.out, a.force); !st.ok())
      return BadInput(std::string(st.message()));
    if (auto st = lock.Acquire(a.out); !st.ok())
      return BadInput(absl::StrCat("--out: ", st.message()));
  }
  CardDb db;
  if (auto st = LoadPool(PoolPaths(a.card_paths, a.no_default_cards), a.override_cards, db);
      !st.ok())
    return BadInput(std::string(st.message()));
  if (a.decks.size() != 1)
    return BadInput(absl::StrCat("swap: expected one deck file, got ", a.decks.size()));
  if (!(a.alpha > 0 && a.alpha < 1)) return BadInput("--alpha: expected a number between 0 and 1");
  PairedSetupResult s;
  if (auto st = PairedSetup(a, db, s); !st.ok()) return BadInput(std::string(st.message()));
  if (s.format_exit != 0) return s.format_exit;
  auto candidates = ParseCandidates(a.candidates, db);
  if (!candidates.ok()) return BadInput(std::string(candidates.status().message()));
  const Deck& deck = s.tested[0];

  std::vector<Swap> swaps;
  for (CardId out : DistinctCards(deck))
    for (CardId in : *candidates) {
      if (in == out) continue;
      Swap sw;
      sw.out = out, sw.in = in;
      sw.copies = static_cast<int>(std::count(deck.main.begin(), deck.main.end(), out));
      sw.label = absl::StrFormat("-%d %s +%d %s", sw.copies, db[out].name, sw.copies, db[in].name);
      swaps.push_back(sw);
    }
  if (swaps.empty())
    return BadInput(
        absl::StrCat("swap: ", deck.name, " holds only the candidates: nothing to swap"));
  // With --format, every deck the race plays must be legal in it: a
  // candidate the format refuses is an error, like a deck's card; a swap
  // whose deck would break a copy limit (four Sol Rings for four Grizzly
  // Bears) is left out, and named.
  if (a.format != "none") {
    auto format = LoadFormat(a.format);
    if (!format.ok()) {
      std::fprintf(stderr, "%s\n", std::string(format.status().message()).c_str());
      return kExitIllegalDeck;
    }
    int refused = 0;
    for (CardId in : *candidates)
      if (std::string why = CardNotAllowed(**format, db, in); !why.empty()) {
        std::fprintf(stderr, "--candidates: %s\n", why.c_str());
        ++refused;
      }
    if (refused > 0) {
      std::fprintf(stderr, "--format %s: %d candidate%s not legal; no game played\n",
                   (*format)->name.c_str(), refused, refused == 1 ? " is" : "s are");
      return kExitIllegalDeck;
    }
    std::vector<Swap> legal;
    std::vector<std::string> left_out;
    for (Swap& sw : swaps) {
      Deck swapped = deck;
      std::replace(swapped.main.begin(), swapped.main.end(), sw.out, sw.in);
      swapped.name = absl::StrCat(deck.name, " ", sw.label);
      std::vector<std::string> problems = DeckProblems(**format, db, swapped, "");
      if (problems.empty())
        legal.push_back(std::move(sw));
      else
        left_out.push_back(absl::StrJoin(problems, "; "));
    }
    for (const std::string& why : left_out)
      std::fprintf(stderr, "--format %s: left out: %s\n", (*format)->name.c_str(), why.c_str());
    swaps = std::move(legal);
    if (swaps.empty()) {
      std::fprintf(stderr, "swap: no swap of %s is legal in --format %s; nothing to race\n",
                   deck.name.c_str(), (*format)->name.c_str());
      return kExitIllegalDeck;
    }
  }

  // The race's rounds: 256 games per opponent, doubling up to the cap.
  const int64_t cap = a.games > 0 ? a.games : 2048;
  std::vector<int64_t> rounds;
  for (int64_t n = kBlockGames; rounds.empty() || rounds.back() < cap; n *= 2)
    rounds.push_back(std::min(n, cap));
  const int k = static_cast<int>(swaps.size()), r = static_cast<int>(rounds.size());
  // Every interval of the race (k swaps, r rounds) at level 1 - alpha/(k r).
  const double z = TwoSidedZ(a.alpha / (static_cast<double>(k) * r));
  const int opponents = static_cast<int>(s.base.decks.size()) - 1;
  std::printf(
      "swap: %s, every copy of each card in turn replaced by each of %zu candidate%s: %d swaps, "
      "against the same %d opponent%s on the same games (%s players, %s rules, %s mulligans, "
      "seed %llu)\n",
      deck.name.c_str(), candidates->size(), candidates->size() == 1 ? "" : "s", k, opponents,
      opponents == 1 ? "" : "s", s.base.policies[0].c_str(), s.rules.c_str(),
      S(MulliganName(s.base.mulligan)).c_str(), static_cast<unsigned long long>(s.base.seed));
  std::printf(
      "race: rounds of %s games per opponent; after each, the swaps whose interval lies wholly "
      "below the best swap's are dropped; intervals at %.4f%% each (z %.2f): alpha %.3g "
      "shared by %d swaps x %d rounds (Bonferroni)\n",
      absl::StrJoin(rounds, ", ").c_str(), 100 * (1 - a.alpha / (static_cast<double>(k) * r)), z,
      a.alpha, k, r);

  const auto start = std::chrono::steady_clock::now();
  std::vector<int> alive(swaps.size());
  for (int i = 0; i < k; ++i) alive[i] = i;
  int64_t total_games = 0;
  double base_rate = std::nan("");
  int64_t base_games = 0;
  for (int round = 0; round < r && !alive.empty(); ++round) {
    PairedOptions po;
    SimOptions base = s.base;
    base.games = static_cast<int>(rounds[round]);
    base.decks[0] = deck;
    po.versions.push_back(base);
    for (int i : alive) {
      SimOptions v = base;
      std::replace(v.decks[0].main.begin(), v.decks[0].main.end(), swaps[i].out, swaps[i].in);
      v.decks[0].name = absl::StrCat(deck.name, " ", swaps[i].label);
      po.versions.push_back(v);
    }
    po.threads = a.threads;
    po.progress = isatty(2);
    po.what = "swap";
    const PairedResult res = RunPaired(db, po, {});
    for (const auto& v : res.score)
      for (const auto& m : v) total_games += m.games;
    VersionScore all;
    for (const auto& m : res.score[0]) all.Merge(m);
    base_rate = all.WinRate(), base_games = all.games;
    int best = -1;
    for (size_t j = 0; j < alive.size(); ++j) {
      Swap& sw = swaps[alive[j]];
      sw.change = DiffOf(res.paired[j + 1]);
      sw.half = std::isfinite(sw.change.low) ? (sw.change.high - sw.change.low) / 2 * z / kZ95
                                             : std::nan("");
      sw.games = sw.change.games;
      if (best < 0 || sw.change.diff > swaps[best].change.diff) best = alive[j];
    }
    const double best_low = swaps[best].change.diff - swaps[best].half;
    std::vector<int> kept;
    int dropped = 0;
    for (int i : alive) {
      Swap& sw = swaps[i];
      if (i != best && std::isfinite(sw.half) && std::isfinite(best_low) &&
          sw.change.diff + sw.half < best_low) {
        sw.dropped_in = round;
        sw.bar = best_low;
        ++dropped;
      } else {
        kept.push_back(i);
      }
    }
    std::printf(
        "round %d: %lld games per opponent, %zu swaps: %d dropped (below %s, the best's lower "
        "bound), %zu left (best so far: %s, %s)\n",
        round + 1, static_cast<long long>(rounds[round]), alive.size(), dropped,
        Points(best_low).c_str(), kept.size(), swaps[best].label.c_str(),
        Points(swaps[best].change.diff).c_str());
    // One left still plays the later rounds: its comparison with the deck
    // itself gets as precise as the cap allows.
    alive = kept;
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

  std::printf("\n%s as it is: %.1f%% over %lld games\n", deck.name.c_str(), 100 * base_rate,
              static_cast<long long>(base_games));
  std::vector<int> finalists = alive, dropped;
  for (int i = 0; i < k; ++i)
    if (swaps[i].dropped_in >= 0) dropped.push_back(i);
  auto by_change = [&](int x, int y) { return swaps[x].change.diff > swaps[y].change.diff; };
  std::stable_sort(finalists.begin(), finalists.end(), by_change);
  std::stable_sort(dropped.begin(), dropped.end(), by_change);
  auto row = [&](int i) {
    const Swap& sw = swaps[i];
    const double lo = sw.change.diff - sw.half, hi = sw.change.diff + sw.half;
    const std::string mark = Mark(sw);
    const std::string verdict = mark.empty() ? "" : "  " + mark;
    const std::string when = sw.dropped_in >= 0 ? absl::StrFormat("  round %d, below %s",
                                                                  sw.dropped_in + 1, Points(sw.bar))
                                                : std::string();
    std::printf("  %-44.44s %7s  [%6s, %6s] %7lld%s%s\n", sw.label.c_str(),
                Points(sw.change.diff).c_str(), Points(lo).c_str(), Points(hi).c_str(),
                static_cast<long long>(sw.games), verdict.c_str(), when.c_str());
  };
  std::printf(
      "\nbest swaps: the ones the race kept to the end (%lld games per opponent), by the "
      "change in the deck's win %%, in points, with the corrected interval\n"
      "  %-44s %7s  %-16s %7s\n",
      static_cast<long long>(rounds.back()), "swap", "change", "interval", "games");
  for (int i : finalists) row(i);
  std::printf(
      "\nclearly worse than the best (dropped; figures at the round they were dropped "
      "in):\n");
  if (dropped.empty()) std::printf("  none\n");
  for (int i : dropped) row(i);
  std::printf(
      "\nchange: the swapped deck's win %% minus the deck's, over every opponent's games, both "
      "on the same seed and seat (each opponent a stratum), a draw counting 1/2. Assumes: each "
      "change is estimated without bias by the mean of its game-by-game differences, whose "
      "interval is normal (games in the hundreds); the opponents weigh the same; the players are "
      "the heuristic ones (a better player may rank the swaps otherwise). With probability at "
      "least %.0f%%, every interval of the race holds its true change at once, so the best swap "
      "was never dropped and every dropped swap is truly worse than the best; a swap marked "
      "better or worse than the deck is so at the same confidence.\n",
      100 * (1 - a.alpha));
  const int threads =
      a.threads > 0 ? a.threads : static_cast<int>(std::thread::hardware_concurrency());
  std::printf("\n%lld games in %.1f s (%.0f games/s), %d thread%s\n",
              static_cast<long long>(total_games), seconds,
              seconds > 0 ? total_games / seconds : 0.0, threads, threads == 1 ? "" : "s");
  if (!finalists.empty())
    std::printf(
        "next: the best swap against the same games, in full: strata compare %s "
        "EDITED --against %s (EDITED: the deck with %s)\n",
        s.tested_path.c_str(), absl::StrJoin(s.opponent_paths, ",").c_str(),
        swaps[finalists[0]].label.c_str());
  if (!a.out.empty()) {
    SwapOutput out;
    SimOptions last = s.base;
    last.games = static_cast<int>(rounds.back());
    out.run.command = a.command;
    out.run.rules = s.rules;
    out.run.base = &last;
    out.run.seconds = seconds;
    out.run.games = total_games;
    out.run.replay = PairedReplayCommand(a, s, rounds.back());
    out.deck = deck;
    out.path = s.tested_path;
    for (CardId c : *candidates) out.candidates.push_back(db[c].name);
    out.alpha = a.alpha, out.z = z;
    out.rounds = rounds;
    out.rate = base_rate, out.games = base_games;
    for (const std::vector<int>* list : {&finalists, &dropped})
      for (int i : *list) {
        const Swap& sw = swaps[i];
        const double lo = sw.change.diff - sw.half, hi = sw.change.diff + sw.half;
        out.rows.push_back({sw.label, db[sw.out].name, db[sw.in].name, sw.copies, sw.change.diff,
                            std::isfinite(sw.half) ? lo : std::nan(""),
                            std::isfinite(sw.half) ? hi : std::nan(""), sw.games, sw.dropped_in + 1,
                            sw.bar, Mark(sw)});
      }
    if (auto st = WriteSwapOut(a.out, db, out, a.report); !st.ok())
      return RunFailed(std::string(st.message()));
    std::printf("wrote %s/summary.json, swaps.csv%s\n", a.out.c_str(),
                a.report ? " and report.html" : "");
  }
  return StdoutStatus();
}

}  // namespace strata
