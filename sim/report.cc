#include "sim/report.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <random>
#include <tuple>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "engine/strings.h"
#include "sim/card_stats.h"
#include "sim/durable.h"
#include "sim/html_report.h"
#include "sim/metagame.h"

namespace strata {
namespace {

std::string Num(double v) {
  if (!std::isfinite(v)) return "null";
  return absl::StrFormat("%.6f", v);
}

// A score in wins: whole, or with a half for a draw.
std::string Wins(double v) {
  return v == std::floor(v) ? absl::StrFormat("%.0f", v) : absl::StrFormat("%.1f", v);
}

double Rate(double wins, double games) {
  return games > 0 ? wins / games : std::nan("");
}

}  // namespace

std::string CsvField(const std::string& s) {
  // RFC 4180: a field holding a comma, a quote, a line feed or a carriage
  // return is quoted, its quotes doubled. A bare \r left unquoted ends the
  // row for a standard reader (Python's csv, spreadsheets).
  if (s.find_first_of(",\"\n\r") == std::string::npos) return s;
  std::string out = "\"";
  for (char c : s) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

DeckScore ScoreOf(const std::vector<MatchupStats>& results, int deck) {
  DeckScore s;
  for (auto& m : results) {
    if (m.deck_a == deck) s.wins += m.a_wins + 0.5 * m.draws, s.games += m.games;
    if (m.deck_b == deck) s.wins += m.b_wins + 0.5 * m.draws, s.games += m.games;
  }
  return s;
}

std::string CountRate(int64_t k, int64_t n, int decimals) {
  if (n <= 0) return "-";
  return absl::StrFormat("%lld/%lld (%.*f%%)", static_cast<long long>(k), static_cast<long long>(n),
                         decimals, 100.0 * static_cast<double>(k) / static_cast<double>(n));
}

double CardRow::CastRate() const {
  return drawn > 0 ? static_cast<double>(cast) / drawn : std::nan("");
}

double CardRow::MedianFirstCast() const {
  std::array<int32_t, kCastTurns> h{};
  for (int t = 0; t < kCastTurns; ++t) h[t] = static_cast<int32_t>(first_cast[t]);
  return MedianCastTurn(h);
}

namespace {

// The colours of the mana abilities a card has printed: basic land types
// and "add mana" abilities.
ColorMask MakesColors(const CardDef& c) {
  ColorMask m = c.printed_land_mana;
  for (const ActivatedAbility& a : c.activated)
    if (a.mana_ability)
      for (const EffectStep& st : a.body.steps)
        if (st.op == Op::kAddMana) m |= st.mana_any ? 0x1F : st.mana_colors;
  return m;
}

}  // namespace

DeckShape ShapeOf(const CardDb& db, const Deck& deck) {
  DeckShape s;
  for (CardId id : deck.main) {
    const CardDef& c = db[id];
    ++s.cards;
    if (Has(c.types, kLand)) {
      ++s.lands;
      const ColorMask makes = MakesColors(c);
      for (int k = 0; k < kColorCount; ++k)
        if (Has(makes, k)) ++s.sources[k];
      continue;
    }
    ++s.curve[std::clamp(c.cost.ManaValue(), 0, 7)];
    for (int k = 0; k < kColorCount; ++k) s.pips[k] += c.cost.colored[k];
  }
  return s;
}

std::string LikelyCastReason(const CardDb& db, const Deck& deck, CardId card) {
  const CardDef& c = db[card];
  const DeckShape shape = ShapeOf(db, deck);
  std::vector<std::string> reasons;
  for (int k = 0; k < kColorCount; ++k)
    if (c.cost.colored[k] > 0 && 3 * shape.sources[k] < shape.lands)
      reasons.push_back(absl::StrCat("colour: ", shape.sources[k], " of the deck's ", shape.lands,
                                     " lands make ", std::string(1, ColorSymbol(k))));
  const int value = c.cost.ManaValue();
  if (value >= 4)
    reasons.push_back(absl::StrCat("mana: it costs ", value, ", with ", shape.lands, " lands in ",
                                   shape.cards, " cards"));
  if (!c.spell.targets.empty()) reasons.push_back("no legal target: it needs a target");
  if (Has(c.types, kInstant) || Has(c.types, kInterrupt))
    reasons.push_back("held back: an instant or interrupt kept for a moment that may not come");
  if (reasons.empty()) reasons.push_back("held back: the player chose not to cast it");
  return absl::StrJoin(reasons, "; or ");
}

bool CastableWith(const CardDef& card, ColorMask colors) {
  if (Has(card.types, kLand)) return true;
  for (int c = 0; c < kColorCount; ++c)
    if (card.cost.colored[c] > 0 && !Has(colors, c)) return false;
  for (ColorMask h : card.cost.hybrid)
    if ((h & colors) == 0) return false;
  return true;
}

ColorMask DeckColors(const CardDb& db, const Deck& deck) {
  ColorMask colors = 0;
  for (CardId c : deck.main)
    if (Has(db[c].types, kLand)) colors |= MakesColors(db[c]);
  for (bool grew = true; grew;) {
    grew = false;
    for (CardId c : deck.main) {
      ColorMask more = MakesColors(db[c]) & ~colors;
      if (more && CastableWith(db[c], colors)) colors |= more, grew = true;
    }
  }
  return colors;
}

std::vector<DeckCards> CardTables(const CardDb* db, const SimOptions& opt,
                                  const std::vector<MatchupStats>& results) {
  std::vector<DeckCards> out;
  for (int d = 0; d < static_cast<int>(opt.decks.size()); ++d) {
    DeckCards t;
    t.deck = d;
    t.score = ScoreOf(results, d);
    t.colors = db ? DeckColors(*db, opt.decks[d]) : 0x1F;
    std::vector<CardId> distinct = DistinctCards(opt.decks[d]);
    distinct.resize(std::min<size_t>(distinct.size(), kMaxDistinctCards));
    for (CardId c : distinct) {
      CardRow r;
      r.card = c;
      r.name = db ? (*db)[c].name : absl::StrCat("card#", c);
      r.copies =
          static_cast<int>(std::count(opt.decks[d].main.begin(), opt.decks[d].main.end(), c));
      r.castable = !db || CastableWith((*db)[c], t.colors);
      t.cards.push_back(r);
    }
    int64_t drawn_score[kMaxDistinctCards] = {}, cast_score[kMaxDistinctCards] = {},
            opening_score[kMaxDistinctCards] = {};
    for (auto& m : results) {
      for (int side = 0; side < 2; ++side) {
        if ((side == 0 ? m.deck_a : m.deck_b) != d) continue;
        t.mana_burn += m.mana_burn[side];
        t.burn_games += m.burn_games[side];
        t.own_harm += m.own_harm[side];
        t.own_harm_avoidable += m.own_harm_avoidable[side];
        t.mulligans += m.mulligans[side];
        t.mulligan_games += m.mulligan_games[side];
        for (size_t i = 0; i < t.cards.size(); ++i) {
          const CardCounts& c = m.cards.side[side][i];
          for (int k = 0; k < kCastTurns; ++k) t.cards[i].first_cast[k] += c.first_cast[k];
          t.cards[i].own_harm += c.own_harm;
          t.cards[i].own_harm_avoidable += c.own_harm_avoidable;
          t.cards[i].drawn += c.drawn;
          t.cards[i].cast += c.cast;
          t.cards[i].opening += c.opening;
          drawn_score[i] += c.drawn_score;
          cast_score[i] += c.cast_score;
          opening_score[i] += c.opening_score;
        }
      }
    }
    for (size_t i = 0; i < t.cards.size(); ++i) {
      CardRow& r = t.cards[i];
      r.drawn_wins = drawn_score[i] / 2.0;
      r.cast_wins = cast_score[i] / 2.0;
      r.opening_wins = opening_score[i] / 2.0;
      r.not_drawn = static_cast<int64_t>(t.score.games) - r.drawn;
      r.not_drawn_wins = t.score.wins - r.drawn_wins;
    }
    out.push_back(std::move(t));
  }
  return out;
}

StudyRatings RateDecks(const SimOptions& opt, const std::vector<MatchupStats>& results) {
  const size_t n = opt.decks.size();
  StudyRatings r;
  r.win_rate.assign(n, std::vector<double>(n, std::nan("")));
  std::vector<std::vector<double>> wins(n, std::vector<double>(n, 0.0));
  for (auto& m : results) {
    wins[m.deck_a][m.deck_b] += m.a_wins + 0.5 * m.draws;
    wins[m.deck_b][m.deck_a] += m.b_wins + 0.5 * m.draws;
  }
  for (size_t i = 0; i < n; ++i)
    for (size_t j = 0; j < n; ++j)
      if (i != j && wins[i][j] + wins[j][i] > 0)
        r.win_rate[i][j] = wins[i][j] / (wins[i][j] + wins[j][i]);
  r.prior = RatingExists(wins) ? 0.0 : 0.5;
  r.fit = FitBradleyTerry(wins, r.prior);
  return r;
}

MetagameSpread ResampleMetagame(const SimOptions& opt, const std::vector<MatchupStats>& results,
                                int samples) {
  const size_t n = opt.decks.size();
  MetagameSpread spread;
  std::vector<std::vector<double>> shares(n);
  std::mt19937_64 rng(0x5eed5eedULL);
  for (int k = 0; k < samples; ++k) {
    std::vector<std::vector<double>> w(n, std::vector<double>(n, std::nan("")));
    for (const MatchupStats& m : results) {
      if (m.games <= 0) continue;
      const double p =
          std::clamp((m.a_wins + 0.5 * m.draws) / static_cast<double>(m.games), 0.0, 1.0);
      std::binomial_distribution<int64_t> draw(m.games, p);
      const double rate = static_cast<double>(draw(rng)) / static_cast<double>(m.games);
      w[m.deck_a][m.deck_b] = rate;
      w[m.deck_b][m.deck_a] = 1 - rate;
    }
    const Metagame g = SolveMetagame(w);
    if (!g.solved) return spread;  // not a round robin: no metagame
    for (size_t d = 0; d < n; ++d) shares[d].push_back(g.share[d]);
  }
  spread.samples = samples;
  for (size_t d = 0; d < n; ++d) {
    std::vector<double>& v = shares[d];
    std::sort(v.begin(), v.end());
    const auto at = [&](double q) {
      return v[std::min(v.size() - 1, static_cast<size_t>(q * static_cast<double>(v.size())))];
    };
    spread.low.push_back(at(0.05));
    spread.high.push_back(at(0.95));
    spread.in_mix.push_back(
        static_cast<double>(std::count_if(v.begin(), v.end(), [](double x) { return x > 1e-9; })) /
        static_cast<double>(v.size()));
  }
  return spread;
}

int UnjudgedCards(const SimOptions& opt, const std::vector<MatchupStats>& results,
                  const StudyInfo& info) {
  if (!info.db) return 0;
  int n = 0;
  for (const DeckCards& t : CardTables(info.db, opt, results))
    for (const CardRow& c : t.cards)
      if (c.castable && !Has((*info.db)[c.card].types, kLand) && c.drawn < kMinHealthDrawn) ++n;
  return n;
}

std::string NoWarningsLine(int unjudged) {
  if (unjudged == 0) return "no warnings";
  return absl::StrCat("no warnings, but ", unjudged, " card", unjudged == 1 ? "" : "s",
                      " drawn in fewer than ", kMinHealthDrawn,
                      " games could not be judged (more games judge them)");
}

std::vector<std::string> HealthWarnings(const SimOptions& opt,
                                        const std::vector<MatchupStats>& results,
                                        const StudyInfo& info) {
  std::vector<std::string> w;
  for (const DeckCards& t : CardTables(info.db, opt, results)) {
    const std::string& deck = opt.decks[t.deck].name;
    for (const CardRow& c : t.cards) {
      const bool land = info.db && Has((*info.db)[c.card].types, kLand);
      if (!c.castable) {
        std::string makes;
        for (int k = 0; k < kColorCount; ++k)
          if (Has(t.colors, k)) makes += ColorSymbol(k);
        w.push_back(absl::StrCat(deck, ": ", c.name, " can never be cast (it costs ",
                                 (*info.db)[c.card].cost.ToString(), "; the deck's mana makes ",
                                 makes.empty() ? "no colour" : makes, ")"));
      } else if (!land && info.db && c.drawn >= kMinHealthDrawn && 2 * c.cast < c.drawn) {
        w.push_back(absl::StrCat(deck, ": ", c.name, " cast in ", CountRate(c.cast, c.drawn),
                                 " of the games it was drawn in; likely ",
                                 LikelyCastReason(*info.db, opt.decks[t.deck], c.card)));
      }
    }
    if (t.own_harm_avoidable > 0) {
      std::string cards;
      for (const CardRow& c : t.cards)
        if (c.own_harm_avoidable > 0)
          absl::StrAppend(&cards, cards.empty() ? "" : ", ", c.name, " ", c.own_harm_avoidable);
      w.push_back(absl::StrCat(deck, ": ", t.own_harm_avoidable,
                               " harmful effects aimed at its own side while the other side had a "
                               "legal target",
                               cards.empty() ? "" : absl::StrCat(" (", cards, ")")));
    }
  }
  // Games ended by a cap, with the first one to replay.
  int64_t turn_cap = 0, action_cap = 0;
  int first_matchup = -1;
  int64_t first_game = -1;
  const auto pairs = Matchups(opt);
  for (const MatchupStats& m : results) {
    turn_cap += m.end_reasons[static_cast<int>(EndReason::kTurnCap)];
    action_cap += m.end_reasons[static_cast<int>(EndReason::kActionCap)];
    if (m.first_cap_game >= 0 && first_matchup < 0) {
      for (size_t k = 0; k < pairs.size(); ++k)
        if (pairs[k].first == m.deck_a && pairs[k].second == m.deck_b)
          first_matchup = static_cast<int>(k);
      first_game = m.first_cap_game;
    }
  }
  if (turn_cap + action_cap > 0)
    w.push_back(absl::StrCat(turn_cap + action_cap, " games ended by a cap (", action_cap,
                             " by the action cap, ", turn_cap,
                             " by the turn cap); the first: ", info.replay, " --matchup ",
                             std::max(first_matchup, 0), " --game ", first_game));
  return w;
}

int PrintStudy(FILE* out, const SimOptions& opt, const std::vector<MatchupStats>& results,
               const StudyInfo& info) {
  auto name = [&](int d) { return opt.decks[d].name.c_str(); };
  std::fprintf(out, "%-16s %-16s %7s %7s %16s %6s %8s %6s\n", "deck A", "deck B", "games", "A win",
               "95% interval", "draws", "1st wins", "turns");
  int64_t total_games = 0;
  for (auto& m : results) {
    Interval ci = Wilson(m.a_wins + 0.5 * m.draws, static_cast<double>(m.games));
    std::fprintf(out, "%-16s %-16s %7lld %6.1f%% [%5.1f%%, %5.1f%%] %6lld %7.1f%% %6.1f\n",
                 name(m.deck_a), name(m.deck_b), static_cast<long long>(m.games),
                 100.0 * (m.a_wins + 0.5 * m.draws) / m.games, 100 * ci.low, 100 * ci.high,
                 static_cast<long long>(m.draws), 100.0 * m.first_player_wins / m.games,
                 static_cast<double>(m.turns) / m.games);
    total_games += m.games;
  }
  std::fprintf(out,
               "A win: deck A's score, a win counting 1 and a draw 1/2, with its 95%% Wilson "
               "interval; draws: games nobody won (both players lost at once, or the turn or "
               "action cap); 1st wins: games won by the player who started; turns: the mean "
               "game length, each player's turn counting one (20 turns: 10 each)\n");
  if (opt.match > 1) {
    // --match N: each matchup's matches beside its games.
    std::fprintf(out, "\n%-16s %-16s %7s %7s %16s %6s %7s\n", "deck A", "deck B", "matches",
                 "A match", "95% interval", "drawn", "games");
    for (auto& m : results) {
      Interval ci = Wilson(m.a_match_wins + 0.5 * m.match_draws, static_cast<double>(m.matches));
      std::fprintf(out, "%-16s %-16s %7lld %6.1f%% [%5.1f%%, %5.1f%%] %6lld %7.2f\n",
                   name(m.deck_a), name(m.deck_b), static_cast<long long>(m.matches),
                   100.0 * (m.a_match_wins + 0.5 * m.match_draws) / m.matches, 100 * ci.low,
                   100 * ci.high, static_cast<long long>(m.match_draws),
                   static_cast<double>(m.games) / m.matches);
    }
    std::fprintf(out,
                 "matches: best of %d (--match %d); the first game's seats as in a study of "
                 "single games, then the loser of each game plays first in the next (strata's "
                 "players always choose to play first; after a drawn game the same deck starts "
                 "again); a drawn game counts for neither deck; the match ends at %d game wins, "
                 "or after %d games, won by the deck with more game wins (equal: drawn); A "
                 "match: deck A's match score, a drawn match counting 1/2, with its 95%% Wilson "
                 "interval; games: the mean games per match; sideboards are not used\n",
                 opt.match, opt.match, (opt.match + 1) / 2, 2 * opt.match - 1);
  }
  const int n = static_cast<int>(opt.decks.size());
  // The decks in report order: the tested deck first in a gauntlet.
  std::vector<int> order;
  if (opt.gauntlet >= 0 && opt.gauntlet < n) order.push_back(opt.gauntlet);
  for (int d = 0; d < n; ++d)
    if (d != opt.gauntlet) order.push_back(d);
  if (results.size() > 1) {
    StudyRatings r = RateDecks(opt, results);
    std::fprintf(out, "\n%-16s %7s %7s %16s %7s\n", "deck", "games", "win", "95% interval",
                 "rating");
    for (int d : order) {
      DeckScore s = ScoreOf(results, d);
      Interval ci = Wilson(s.wins, s.games);
      std::fprintf(out, "%-16s %7.0f %6.1f%% [%5.1f%%, %5.1f%%] %+7.0f\n", name(d), s.games,
                   100 * Rate(s.wins, s.games), 100 * ci.low, 100 * ci.high, r.fit.elo[d]);
    }
    std::fprintf(out, "ratings: Bradley-Terry fitted to the matrix, Elo scale, mean 0%s\n",
                 r.prior > 0 ? " (with half a win each way per pair: a deck won or lost all)" : "");
  }
  if (results.size() > 1 && opt.gauntlet >= 0) {
    std::fprintf(out,
                 "gauntlet: %s against each of the others only, so no matrix: its matchups are "
                 "the first table\n",
                 name(opt.gauntlet));
  } else if (results.size() > 1) {
    StudyRatings r = RateDecks(opt, results);
    std::fprintf(out, "\nwin %% of row deck against column deck\n%19s", "");
    for (int j = 0; j < n; ++j) std::fprintf(out, "%5d", j + 1);
    std::fprintf(out, "\n");
    for (int i = 0; i < n; ++i) {
      std::fprintf(out, "%2d %-16.16s", i + 1, name(i));
      for (int j = 0; j < n; ++j) {
        double v = r.win_rate[i][j];
        if (std::isfinite(v))
          std::fprintf(out, "%5.0f", 100 * v);
        else
          std::fprintf(out, "%5s", "-");
      }
      std::fprintf(out, "\n");
    }
    const Metagame g = SolveMetagame(r.win_rate);
    if (g.solved) {
      std::vector<int> by_share(order);
      std::stable_sort(by_share.begin(), by_share.end(), [&](int x, int y) {
        return g.share[x] != g.share[y] ? g.share[x] > g.share[y]
                                        : g.win_vs_mix[x] > g.win_vs_mix[y];
      });
      const MetagameSpread spread = ResampleMetagame(opt, results);
      std::fprintf(out,
                   "\nmetagame: the mix of decks no single deck beats on average (the matrix as "
                   "a symmetric zero-sum game, solved exactly); its sampling error from %d "
                   "resamples of the matchups: the share's 90%% range and how often the deck is "
                   "in the mix\n"
                   "%-16s %6s %11s %15s %7s\n",
                   spread.samples, "deck", "share", "win vs mix", "90% range", "in mix");
      for (int d : by_share)
        std::fprintf(out, "%-16s %5.1f%% %10.1f%%  [%4.1f%%, %4.1f%%] %6.0f%%\n", name(d),
                     100 * g.share[d], 100 * g.win_vs_mix[d],
                     spread.samples ? 100 * spread.low[d] : std::nan(""),
                     spread.samples ? 100 * spread.high[d] : std::nan(""),
                     spread.samples ? 100 * spread.in_mix[d] : std::nan(""));
    }
  }
  // Each deck's cards with the largest and smallest gap between the deck's
  // win rate in games where the card was drawn and in games where it was
  // not, among cards drawn and not drawn in at least kMinCardSample games.
  constexpr int kShow = 2;
  std::fprintf(out,
               "\ncards: the deck's win %% when the card was drawn minus when it was not (the "
               "gap, in points, with a 95%% interval), among cards drawn and not drawn in at "
               "least %d games each; an association, not the card's worth (strata ablate DECK "
               "measures that)\n",
               kMinCardSample);
  const std::vector<DeckCards> card_tables = CardTables(info.db, opt, results);
  for (int d : order) {
    const DeckCards& t = card_tables[d];
    // Lands ranked apart: a basic land's gap is mana screw or flood (drawn
    // more in long games, missed in lost ones), not the card's quality.
    std::vector<const CardRow*> rows, lands;
    std::vector<std::string> few;
    for (auto& c : t.cards)
      if (c.drawn >= kMinCardSample && c.not_drawn >= kMinCardSample)
        (info.db && Has((*info.db)[c.card].types, kLand) ? lands : rows).push_back(&c);
      else
        few.push_back(c.name);
    auto gap = [](const CardRow& c) {
      return c.drawn_wins / static_cast<double>(c.drawn) -
             c.not_drawn_wins / static_cast<double>(c.not_drawn);
    };
    std::stable_sort(rows.begin(), rows.end(),
                     [&](const CardRow* x, const CardRow* y) { return gap(*x) > gap(*y); });
    std::stable_sort(lands.begin(), lands.end(),
                     [&](const CardRow* x, const CardRow* y) { return gap(*x) > gap(*y); });
    // The deck's rate with its games: "0.0%" alone could be one game.
    std::fprintf(out, "%s (%.1f%% over %lld game%s)\n", name(t.deck),
                 100 * Rate(t.score.wins, t.score.games),
                 static_cast<long long>(std::llround(t.score.games)),
                 t.score.games == 1 ? "" : "s");
    for (size_t k = 0; k < rows.size(); ++k) {
      if (k >= kShow && k + kShow < rows.size()) continue;
      const CardRow& c = *rows[k];
      const double pd = c.drawn_wins / static_cast<double>(c.drawn);
      const double pn = c.not_drawn_wins / static_cast<double>(c.not_drawn);
      const double half =
          1.959963984540054 * std::sqrt(pd * (1 - pd) / static_cast<double>(c.drawn) +
                                        pn * (1 - pn) / static_cast<double>(c.not_drawn));
      double shown = 100 * gap(c);
      if (std::fabs(shown) < 0.05) shown = 0;  // no "-0.0"
      // The marker is the gap's sign, wherever the row is in the ranking.
      std::fprintf(out,
                   "  %c %-26.26s %2dx gap %+5.1f +/- %4.1f   drawn %5.1f%% in %lld games, not "
                   "%5.1f%% in %lld\n",
                   shown < 0 ? '-' : '+', c.name.c_str(), c.copies, shown, 100 * half, 100 * pd,
                   static_cast<long long>(c.drawn), 100 * pn, static_cast<long long>(c.not_drawn));
    }
    if (!lands.empty()) {
      std::string line;
      for (const CardRow* c : lands) {
        double shown = 100 * gap(*c);
        if (std::fabs(shown) < 0.05) shown = 0;
        absl::StrAppend(&line, line.empty() ? "" : ", ", c->name, absl::StrFormat(" %+.1f", shown));
      }
      std::fprintf(out, "    lands, apart (a land's gap is mana screw or flood): %s\n",
                   line.c_str());
    }
    if (!few.empty())
      std::fprintf(out, "    below %d games drawn or not drawn: %s\n", kMinCardSample,
                   absl::StrJoin(few, ", ").c_str());
  }
  // The health report: how well the players used the cards (per-card
  // figures are only as good as the player), in short; the full figures
  // are in cards.csv and summary.json.
  std::fprintf(out,
               "\nhealth: the two cards cast least when drawn (cast/drawn games, median own "
               "turn of the first cast); mana burn; harmful effects aimed at its own side\n");
  for (int d : order) {
    const DeckCards& t = card_tables[d];
    std::vector<const CardRow*> rows;
    for (auto& c : t.cards)
      if (c.drawn > 0 && !(info.db && Has((*info.db)[c.card].types, kLand))) rows.push_back(&c);
    std::stable_sort(rows.begin(), rows.end(), [](const CardRow* x, const CardRow* y) {
      return x->cast * y->drawn < y->cast * x->drawn;
    });
    std::string low;
    for (size_t k = 0; k < rows.size() && k < 2; ++k) {
      double median = rows[k]->MedianFirstCast();
      absl::StrAppend(&low, k ? ", " : "", rows[k]->name, " ",
                      CountRate(rows[k]->cast, rows[k]->drawn, 0),
                      std::isfinite(median) ? absl::StrFormat(" t%.0f", median) : "");
    }
    const std::string mulligans =
        opt.mulligan == Mulligan::kNone
            ? ""
            : absl::StrFormat("; mulligans %lld in %lld of %lld games (%.1f%%)",
                              static_cast<long long>(t.mulligans),
                              static_cast<long long>(t.mulligan_games),
                              static_cast<long long>(std::llround(t.score.games)),
                              100 * Rate(static_cast<double>(t.mulligan_games), t.score.games));
    std::fprintf(out, "  %-16s %s; burn %lld in %lld games; own side %lld%s\n", name(t.deck),
                 low.c_str(), static_cast<long long>(t.mana_burn),
                 static_cast<long long>(t.burn_games), static_cast<long long>(t.own_harm),
                 mulligans.c_str());
  }
  const std::vector<std::string> warnings = HealthWarnings(opt, results, info);
  for (const std::string& w : warnings) std::fprintf(out, "  warning: %s\n", w.c_str());
  // A resumed study: the speed is this run's.
  const int64_t run = info.run_games >= 0 ? info.run_games : total_games;
  std::fprintf(out,
               "\n%lld games%s in %.1f s (%.0f games/s), policies %s vs %s, rules %s, mulligan %s, "
               "seed %llu\n",
               static_cast<long long>(total_games),
               run != total_games ? absl::StrCat(" (", run, " in this run)").c_str() : "",
               info.seconds, info.seconds > 0 ? run / info.seconds : 0.0, opt.policies[0].c_str(),
               opt.policies[1].c_str(), info.rules.c_str(), S(MulliganName(opt.mulligan)).c_str(),
               static_cast<unsigned long long>(opt.seed));
  return static_cast<int>(warnings.size());
}

absl::Status WriteStudy(const std::string& dir, const SimOptions& opt,
                        const std::vector<MatchupStats>& results, const StudyInfo& info) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) return absl::InvalidArgumentError(absl::StrCat("--out ", dir, ": ", ec.message()));
  static constexpr const char* kReasons[] = {"none",     "life",       "library", "both",
                                             "turn_cap", "action_cap", "poison"};
  int64_t total = 0;
  std::string j = "{\n";
  j += absl::StrCat("  \"strata_version\": ", JsonQuote(STRATA_VERSION), ",\n");
  if (!info.cards_fingerprint.empty())
    j += absl::StrCat("  \"cards_fingerprint\": ", JsonQuote(info.cards_fingerprint), ",\n");
  j += absl::StrCat("  \"command\": ", JsonQuote(info.command), ",\n");
  // Seeds are unsigned 64-bit: above 2^53 a JSON number loses digits in
  // most readers (JavaScript, jq), so the exact one is also a string.
  j += absl::StrCat("  \"seed\": ", opt.seed, ",\n");
  j += absl::StrCat("  \"seed_string\": \"", opt.seed, "\",\n");
  j += absl::StrCat("  \"rules\": ", JsonQuote(info.rules), ",\n");
  j += absl::StrCat("  \"mulligan\": ", JsonQuote(MulliganName(opt.mulligan)), ",\n");
  j += absl::StrCat("  \"policies\": [", JsonQuote(opt.policies[0]), ", ",
                    JsonQuote(opt.policies[1]), "],\n");
  j += absl::StrCat("  \"games_per_matchup\": ", opt.games, ",\n");
  j += absl::StrCat("  \"paired_seats\": ", opt.pair ? "true" : "false", ",\n");
  // --match N > 1: each of games_per_matchup is a best-of-N match.
  if (opt.match > 1) j += absl::StrCat("  \"match\": ", opt.match, ",\n");
  j += absl::StrCat("  \"partial\": ", info.partial ? "true" : "false", ",\n");
  // A shard's numbers are its blocks' only (strata merge adds them up).
  if (opt.shards > 1)
    j += absl::StrCat("  \"shard\": {\"index\": ", opt.shard + 1, ", \"of\": ", opt.shards, "},\n");
  // Each matchup's raw per-card counts, exact (scores in half points), by
  // the order of each deck's cards in "cards": enough to merge or resume.
  j += "  \"card_count_fields\": [\"drawn\", \"drawn_half_points\", \"opening\", "
       "\"opening_half_points\", \"cast\", \"cast_half_points\", \"own_harm\", "
       "\"own_harm_avoidable\", \"first_cast_turns\"],\n";
  j += "  \"matchups\": [\n";
  std::string csv =
      "deck_a,deck_b,games,a_wins,b_wins,draws,a_win_rate,ci_low,ci_high,first_player_wins,"
      "mean_turns";
  if (opt.match > 1)
    csv +=
        ",matches,a_match_wins,b_match_wins,match_draws,a_match_win_rate,match_ci_low,"
        "match_ci_high";
  csv += "\n";
  for (size_t i = 0; i < results.size(); ++i) {
    const MatchupStats& m = results[i];
    total += m.games;
    double rate = (m.a_wins + 0.5 * m.draws) / static_cast<double>(m.games);
    Interval ci = Wilson(m.a_wins + 0.5 * m.draws, static_cast<double>(m.games));
    const std::string& a = opt.decks[m.deck_a].name;
    const std::string& b = opt.decks[m.deck_b].name;
    j += absl::StrCat(
        "    {\"deck_a\": ", JsonQuote(a), ", \"deck_b\": ", JsonQuote(b), ", \"games\": ", m.games,
        ", \"a_wins\": ", m.a_wins, ", \"b_wins\": ", m.b_wins, ", \"draws\": ", m.draws,
        ", \"a_win_rate\": ", Num(rate), ", \"ci95\": [", Num(ci.low), ", ", Num(ci.high),
        "], \"first_player_wins\": ", m.first_player_wins,
        ", \"mean_turns\": ", Num(static_cast<double>(m.turns) / m.games), ", \"end_reasons\": {");
    for (int r = 1; r < kEndReasonCount; ++r)
      j += absl::StrCat(r > 1 ? ", " : "", JsonQuote(kReasons[r]), ": ", m.end_reasons[r]);
    j += absl::StrCat(
        "}, \"mana_burn\": [", m.mana_burn[0], ", ", m.mana_burn[1], "], \"burn_games\": [",
        m.burn_games[0], ", ", m.burn_games[1], "], \"own_harm\": [", m.own_harm[0], ", ",
        m.own_harm[1], "], \"own_harm_avoidable\": [", m.own_harm_avoidable[0], ", ",
        m.own_harm_avoidable[1],
        "], \"first_cap_game\": ", m.first_cap_game >= 0 ? absl::StrCat(m.first_cap_game) : "null",
        ", \"mulligans\": [", m.mulligans[0], ", ", m.mulligans[1], "], \"mulligan_games\": [",
        m.mulligan_games[0], ", ", m.mulligan_games[1], "], \"seat_mulligans\": [",
        m.seat_mulligans[0], ", ", m.seat_mulligans[1], "], \"checked_games\": ", m.checked_games,
        ", \"violations\": ", m.violations, ", \"first_violation_game\": ",
        m.first_violation_game >= 0 ? absl::StrCat(m.first_violation_game) : "null");
    std::string match_csv;
    if (opt.match > 1) {
      const double won = m.a_match_wins + 0.5 * m.match_draws;
      const double mrate = Rate(won, static_cast<double>(m.matches));
      const Interval mci = Wilson(won, static_cast<double>(m.matches));
      j +=
          absl::StrCat(", \"matches\": ", m.matches, ", \"a_match_wins\": ", m.a_match_wins,
                       ", \"b_match_wins\": ", m.b_match_wins, ", \"match_draws\": ", m.match_draws,
                       ", \"a_match_win_rate\": ", Num(mrate), ", \"match_ci95\": [", Num(mci.low),
                       ", ", Num(mci.high), "]");
      match_csv =
          absl::StrCat(",", m.matches, ",", m.a_match_wins, ",", m.b_match_wins, ",", m.match_draws,
                       ",", Num(mrate), ",", Num(mci.low), ",", Num(mci.high));
    }
    j += ", \"turn_histogram\": [";
    for (size_t t = 0; t < m.turn_histogram.size(); ++t)
      j += absl::StrCat(t ? ", " : "", m.turn_histogram[t]);
    // Wins by the winner's own turns (its kill turn), deck A's then deck B's.
    j += "], \"win_turns\": [";
    for (int side = 0; side < 2; ++side) {
      j += side ? ", [" : "[";
      for (size_t t = 0; t < m.win_turns[side].size(); ++t)
        j += absl::StrCat(t ? ", " : "", m.win_turns[side][t]);
      j += "]";
    }
    j += "], \"card_counts\": [";
    for (int side = 0; side < 2; ++side) {
      size_t distinct = DistinctCards(opt.decks[side ? m.deck_b : m.deck_a]).size();
      distinct = std::min<size_t>(distinct, kMaxDistinctCards);
      j += side ? ", [" : "[";
      for (size_t c = 0; c < distinct; ++c) {
        const CardCounts& k = m.cards.side[side][c];
        j += absl::StrCat(c ? ", [" : "[", k.drawn, ", ", k.drawn_score, ", ", k.opening, ", ",
                          k.opening_score, ", ", k.cast, ", ", k.cast_score, ", ", k.own_harm, ", ",
                          k.own_harm_avoidable, ", [");
        for (int t = 0; t < kCastTurns; ++t) j += absl::StrCat(t ? ", " : "", k.first_cast[t]);
        j += "]]";
      }
      j += "]";
    }
    j += absl::StrCat("]}", i + 1 < results.size() ? "," : "", "\n");
    csv += absl::StrCat(CsvField(a), ",", CsvField(b), ",", m.games, ",", m.a_wins, ",", m.b_wins,
                        ",", m.draws, ",", Num(rate), ",", Num(ci.low), ",", Num(ci.high), ",",
                        m.first_player_wins, ",", Num(static_cast<double>(m.turns) / m.games),
                        match_csv, "\n");
  }
  j += "  ],\n";
  // Mulligans (G-1) by seat over every game: seat 0 starts.
  std::array<int64_t, 2> seat_mulligans{};
  for (const MatchupStats& m : results)
    for (int seat = 0; seat < 2; ++seat) seat_mulligans[seat] += m.seat_mulligans[seat];
  j += absl::StrCat("  \"seat_mulligans\": {\"mulligans\": [", seat_mulligans[0], ", ",
                    seat_mulligans[1], "], \"per_game\": [", Num(Rate(seat_mulligans[0], total)),
                    ", ", Num(Rate(seat_mulligans[1], total)), "]},\n");
  j += "  \"decks\": [\n";
  StudyRatings rating = RateDecks(opt, results);
  for (size_t d = 0; d < opt.decks.size(); ++d) {
    DeckScore s = ScoreOf(results, static_cast<int>(d));
    Interval ci = Wilson(s.wins, s.games);
    int64_t mulligans = 0, mulligan_games = 0;
    for (const MatchupStats& m : results)
      for (int side = 0; side < 2; ++side)
        if ((side ? m.deck_b : m.deck_a) == static_cast<int>(d))
          mulligans += m.mulligans[side], mulligan_games += m.mulligan_games[side];
    j += absl::StrCat("    {\"deck\": ", JsonQuote(opt.decks[d].name),
                      ", \"games\": ", static_cast<int64_t>(s.games),
                      ", \"win_rate\": ", Num(s.games ? s.wins / s.games : 0), ", \"ci95\": [",
                      Num(ci.low), ", ", Num(ci.high), "], \"rating\": ", Num(rating.fit.elo[d]),
                      ", \"mulligans\": ", mulligans, ", \"mulligan_games\": ", mulligan_games,
                      ", \"mulligan_rate\": ", Num(Rate(mulligan_games, s.games)), "}",
                      d + 1 < opt.decks.size() ? "," : "", "\n");
  }
  j += "  ],\n";
  // The matrix: score of the row deck against the column deck.
  j += "  \"matrix\": {\"decks\": [";
  for (size_t d = 0; d < opt.decks.size(); ++d)
    j += absl::StrCat(d ? ", " : "", JsonQuote(opt.decks[d].name));
  j += "], \"win_rate\": [";
  for (size_t a = 0; a < opt.decks.size(); ++a) {
    j += a ? ", [" : "[";
    for (size_t b = 0; b < opt.decks.size(); ++b)
      j += absl::StrCat(b ? ", " : "", Num(rating.win_rate[a][b]));
    j += "]";
  }
  j += "]},\n";
  // The equilibrium metagame of a round robin (null otherwise).
  const Metagame meta = SolveMetagame(rating.win_rate);
  if (meta.solved && opt.gauntlet < 0) {
    const MetagameSpread spread = ResampleMetagame(opt, results);
    j += "  \"metagame\": {\"method\": \"simplex (exact up to floating point)\", \"value\": ";
    j += Num(meta.value) + absl::StrCat(", \"resamples\": ", spread.samples) + ", \"decks\": [";
    for (size_t d = 0; d < opt.decks.size(); ++d) {
      j += absl::StrCat(d ? ", " : "", "{\"deck\": ", JsonQuote(opt.decks[d].name),
                        ", \"share\": ", Num(meta.share[d]),
                        ", \"win_vs_mix\": ", Num(meta.win_vs_mix[d]));
      if (spread.samples > 0)
        j += absl::StrCat(", \"share_90\": [", Num(spread.low[d]), ", ", Num(spread.high[d]),
                          "], \"in_mix\": ", Num(spread.in_mix[d]));
      j += "}";
    }
    j += "]},\n";
  } else {
    j += "  \"metagame\": null,\n";
  }
  j += absl::StrCat("  \"ratings\": {\"model\": \"bradley-terry\", \"scale\": \"elo\", \"prior\": ",
                    Num(rating.prior), ", \"converged\": ", rating.fit.converged ? "true" : "false",
                    ", \"iterations\": ", rating.fit.iterations, ", \"elo\": {");
  for (size_t d = 0; d < opt.decks.size(); ++d)
    j += absl::StrCat(d ? ", " : "", JsonQuote(opt.decks[d].name), ": ", Num(rating.fit.elo[d]));
  j += "}},\n";
  // Per card: the deck's score in games where the card was drawn, cast or
  // in the opening hand, and where it was not drawn.
  std::string cards_csv = "deck,card,copies,games";
  for (const char* k : {"drawn", "cast", "opening", "not_drawn"})
    cards_csv +=
        absl::StrCat(",", k, ",", k, "_wins,", k, "_win_rate,", k, "_ci_low,", k, "_ci_high");
  cards_csv +=
      ",cast_rate_when_drawn,first_cast_median_turn,castable,own_harm,own_harm_avoidable\n";
  j += "  \"cards\": [\n";
  std::vector<DeckCards> tables = CardTables(info.db, opt, results);
  for (size_t t = 0; t < tables.size(); ++t) {
    const DeckCards& dc = tables[t];
    const std::string& deck = opt.decks[dc.deck].name;
    j += absl::StrCat("    {\"deck\": ", JsonQuote(deck),
                      ", \"games\": ", static_cast<int64_t>(dc.score.games),
                      ", \"wins\": ", Wins(dc.score.wins), ", \"mana_burn\": ", dc.mana_burn,
                      ", \"burn_games\": ", dc.burn_games, ", \"own_harm\": ", dc.own_harm,
                      ", \"own_harm_avoidable\": ", dc.own_harm_avoidable, ", \"cards\": [\n");
    for (size_t i = 0; i < dc.cards.size(); ++i) {
      const CardRow& c = dc.cards[i];
      j += absl::StrCat("      {\"card\": ", JsonQuote(c.name), ", \"copies\": ", c.copies);
      cards_csv += absl::StrCat(CsvField(deck), ",", CsvField(c.name), ",", c.copies, ",",
                                static_cast<int64_t>(dc.score.games));
      for (auto [key, n, w] :
           {std::tuple{"drawn", c.drawn, c.drawn_wins}, std::tuple{"cast", c.cast, c.cast_wins},
            std::tuple{"opening", c.opening, c.opening_wins},
            std::tuple{"not_drawn", c.not_drawn, c.not_drawn_wins}}) {
        Interval ci = Wilson(w, static_cast<double>(n));
        double rate = Rate(w, static_cast<double>(n));
        j += absl::StrCat(", \"", key, "\": ", n, ", \"", key, "_wins\": ", Wins(w), ", \"", key,
                          "_win_rate\": ", Num(rate), ", \"", key, "_ci95\": [", Num(ci.low), ", ",
                          Num(ci.high), "]");
        cards_csv += absl::StrCat(",", n, ",", Wins(w), ",", n ? Num(rate) : "", ",", Num(ci.low),
                                  ",", Num(ci.high));
      }
      const double median = c.MedianFirstCast();
      j += absl::StrCat(
          ", \"cast_rate_when_drawn\": ", Num(c.CastRate()),
          ", \"first_cast_median_turn\": ", Num(median),
          ", \"castable\": ", c.castable ? "true" : "false", ", \"own_harm\": ", c.own_harm,
          ", \"own_harm_avoidable\": ", c.own_harm_avoidable, ", \"first_cast_turns\": [");
      for (int k = 0; k < kCastTurns; ++k) j += absl::StrCat(k ? ", " : "", c.first_cast[k]);
      j += absl::StrCat("]}", i + 1 < dc.cards.size() ? "," : "", "\n");
      cards_csv += absl::StrCat(",", c.drawn ? Num(c.CastRate()) : "", ",",
                                std::isfinite(median) ? absl::StrCat(median) : "", ",",
                                c.castable ? "true" : "false", ",", c.own_harm, ",",
                                c.own_harm_avoidable, "\n");
    }
    j += absl::StrCat("    ]}", t + 1 < tables.size() ? "," : "", "\n");
  }
  j += "  ],\n";
  // The health report's warnings (the terminal shows the same lines).
  j += "  \"warnings\": [";
  const std::vector<std::string> warnings = HealthWarnings(opt, results, info);
  for (size_t w = 0; w < warnings.size(); ++w)
    j += absl::StrCat(w ? ", " : "", JsonQuote(warnings[w]));
  j += "],\n";
  // How this run went: differs between runs of the same study.
  if (info.merged_shards > 0) {
    j += absl::StrCat("  \"run\": {\"merged_shards\": ", info.merged_shards, ", \"games\": ", total,
                      ", \"merge_seconds\": ", Num(info.seconds), "}\n}\n");
  } else {
    if (info.run_games >= 0) total = info.run_games;
    j += absl::StrCat("  \"run\": {\"threads\": ", info.threads,
                      info.processes > 1 ? absl::StrCat(", \"processes\": ", info.processes) : "",
                      ", \"games\": ", total, ", \"seconds\": ", Num(info.seconds),
                      ", \"games_per_second\": ", Num(info.seconds > 0 ? total / info.seconds : 0),
                      "}\n}\n");
  }
  // Each file whole or not at all: a kill or a full disk never leaves one
  // cut short.
  std::string html;
  if (info.report) html = HtmlReport(opt, results, info);
  for (auto [name, text] : {std::pair{"summary.json", &j}, std::pair{"matchups.csv", &csv},
                            std::pair{"cards.csv", &cards_csv}, std::pair{"report.html", &html}}) {
    if (text == &html && !info.report) continue;
    if (auto st = WriteFileAtomically((std::filesystem::path(dir) / name).string(), *text);
        !st.ok())
      return st;
  }
  return absl::OkStatus();
}

}  // namespace strata
