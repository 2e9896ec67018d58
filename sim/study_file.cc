#include "sim/study_file.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "sim/card_stats.h"
#include "toml++/toml.h"

namespace strata {
namespace {

toml::array Strings(const std::vector<std::string>& v) {
  toml::array a;
  for (auto& s : v) a.push_back(s);
  return a;
}

template <size_t N>
toml::array Counts(const std::array<int64_t, N>& v) {
  toml::array a;
  for (int64_t x : v) a.push_back(x);
  return a;
}

// Every count of a MatchupStats, by name: what is saved is what merges.
template <typename F>
void ForEachCount(MatchupStats& m, F&& f) {
  f("games", m.games);
  f("a_wins", m.a_wins);
  f("b_wins", m.b_wins);
  f("draws", m.draws);
  f("first_player_wins", m.first_player_wins);
  f("turns", m.turns);
}

// Reading: each accessor fails with the file, key and what was expected.
class Reader {
 public:
  Reader(std::string file) : file_(std::move(file)) {}
  absl::Status status() const { return status_; }
  void Fail(std::string_view key, std::string_view expected) {
    if (status_.ok())
      status_ = absl::InvalidArgumentError(
          absl::StrCat(file_, ": key '", std::string(key), "': expected ", std::string(expected)));
  }
  int64_t Int(const toml::table& t, std::string_view key) {
    auto v = t[key].value<int64_t>();
    if (!v) Fail(key, "an integer");
    return v.value_or(0);
  }
  double Float(const toml::table& t, std::string_view key) {
    auto v = t[key].value<double>();
    if (!v) Fail(key, "a number");
    return v.value_or(0);
  }
  bool Bool(const toml::table& t, std::string_view key) {
    auto v = t[key].value<bool>();
    if (!v) Fail(key, "true or false");
    return v.value_or(false);
  }
  std::string Str(const toml::table& t, std::string_view key) {
    auto v = t[key].value<std::string>();
    if (!v) Fail(key, "a string");
    return v.value_or("");
  }
  std::vector<std::string> Strs(const toml::table& t, std::string_view key) {
    std::vector<std::string> out;
    const toml::array* a = t[key].as_array();
    if (!a) {
      Fail(key, "an array of strings");
      return out;
    }
    for (auto& n : *a) {
      auto v = n.value<std::string>();
      if (!v) Fail(key, "an array of strings");
      out.push_back(v.value_or(""));
    }
    return out;
  }
  template <size_t N>
  void Ints(const toml::table& t, std::string_view key, std::array<int64_t, N>& out) {
    Ints(t.get(key), key, out);
  }
  template <size_t N>
  void Ints(const toml::node* n, std::string_view key, std::array<int64_t, N>& out) {
    const toml::array* a = n ? n->as_array() : nullptr;
    if (!a || a->size() != N) return Fail(key, absl::StrCat("an array of ", N, " integers"));
    for (size_t i = 0; i < N; ++i) {
      auto v = (*a)[i].value<int64_t>();
      if (!v) return Fail(key, absl::StrCat("an array of ", N, " integers"));
      out[i] = *v;
    }
  }

 private:
  std::string file_;
  absl::Status status_;
};

int DistinctCount(const SimOptions& o, int deck) {
  return std::min<int>(static_cast<int>(DistinctCards(o.decks[deck]).size()), kMaxDistinctCards);
}

}  // namespace

absl::Status SaveStudy(const std::string& dir, const Study& s, const CardDb& db) {
  const SimOptions& o = s.options;
  toml::table t;
  t.insert("strata_version", STRATA_VERSION);
  t.insert("command", s.command);
  t.insert("complete", s.complete);
  t.insert("seed", absl::StrCat(o.seed));  // a string: seeds are unsigned 64-bit
  t.insert("rules", s.rules);
  t.insert("policies", Strings({o.policies[0], o.policies[1]}));
  t.insert("games", int64_t{o.games});
  t.insert("ci", o.ci_half_width);
  t.insert("pair", o.pair);
  t.insert("gauntlet", int64_t{o.gauntlet});
  t.insert("cards", Strings(s.card_paths));
  t.insert("games_out", s.games_out);
  t.insert("games_out_bytes", s.games_out_bytes);
  toml::array decks;
  for (size_t d = 0; d < o.decks.size(); ++d) {
    toml::table deck;
    deck.insert("name", o.decks[d].name);
    deck.insert("path", d < s.deck_paths.size() ? s.deck_paths[d] : "");
    toml::array cards;
    for (CardId c : o.decks[d].main) cards.push_back(db[c].name);
    deck.insert("cards", std::move(cards));
    decks.push_back(std::move(deck));
  }
  t.insert("decks", std::move(decks));
  toml::array matchups;
  for (MatchupStats m : s.progress) {
    toml::table mt;
    mt.insert("deck_a", int64_t{m.deck_a});
    mt.insert("deck_b", int64_t{m.deck_b});
    ForEachCount(m, [&](const char* key, int64_t& v) { mt.insert(key, v); });
    mt.insert("end_reasons", Counts(m.end_reasons));
    mt.insert("turn_histogram", Counts(m.turn_histogram));
    mt.insert("mana_burn", Counts(m.mana_burn));
    mt.insert("burn_games", Counts(m.burn_games));
    mt.insert("own_harm", Counts(m.own_harm));
    mt.insert("own_harm_avoidable", Counts(m.own_harm_avoidable));
    mt.insert("first_cap_game", m.first_cap_game);
    // Per distinct card of each deck (sim/card_stats.h): drawn, opening, cast
    // and their scores in half points, harmful effects at its own side (all,
    // avoidable), then games by the turn of its first cast.
    for (int side = 0; side < 2; ++side) {
      toml::array rows;
      for (int i = 0; i < DistinctCount(o, side ? m.deck_b : m.deck_a); ++i) {
        const CardCounts& c = m.cards.side[side][i];
        toml::array row{c.drawn,         c.opening,    c.cast,     c.drawn_score,
                        c.opening_score, c.cast_score, c.own_harm, c.own_harm_avoidable};
        for (int32_t n : c.first_cast) row.push_back(int64_t{n});
        rows.push_back(std::move(row));
      }
      mt.insert(side ? "cards_b" : "cards_a", std::move(rows));
    }
    matchups.push_back(std::move(mt));
  }
  t.insert("matchups", std::move(matchups));

  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) return absl::InvalidArgumentError(absl::StrCat(dir, ": ", ec.message()));
  auto path = std::filesystem::path(dir) / kStudyFile;
  auto tmp = path;
  tmp += ".tmp";
  {
    std::ofstream out(tmp);
    out << "# strata sim study: its options and exact progress (strata sim --resume, strata "
           "replay --from)\n"
        << t << "\n";
    if (!out) return absl::InvalidArgumentError(absl::StrCat(tmp.string(), ": cannot write"));
  }
  std::filesystem::rename(tmp, path, ec);
  if (ec) return absl::InvalidArgumentError(absl::StrCat(path.string(), ": ", ec.message()));
  return absl::OkStatus();
}

namespace {

absl::Status ParseStudyFile(const std::string& dir, std::string& file, toml::table& t) {
  if (!std::filesystem::is_directory(dir))
    return absl::NotFoundError(absl::StrCat(dir, ": no such study directory"));
  file = (std::filesystem::path(dir) / kStudyFile).string();
  if (!std::filesystem::exists(file))
    return absl::NotFoundError(
        absl::StrCat(file, ": not found (is ", dir, " the --out of a strata sim run?)"));
  try {
    t = toml::parse_file(file);
  } catch (const toml::parse_error& e) {
    std::ostringstream msg;
    msg << file << ":" << e.source().begin.line << ": " << e.description();
    return absl::InvalidArgumentError(msg.str());
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<std::vector<std::string>> StudyCardPaths(const std::string& dir) {
  std::string file;
  toml::table t;
  if (auto st = ParseStudyFile(dir, file, t); !st.ok()) return st;
  Reader r(file);
  auto paths = r.Strs(t, "cards");
  if (!r.status().ok()) return r.status();
  return paths;
}

absl::StatusOr<Study> LoadStudy(const std::string& dir, const CardDb& db) {
  std::string file;
  toml::table t;
  if (auto st = ParseStudyFile(dir, file, t); !st.ok()) return st;
  Study s;
  SimOptions& o = s.options;
  Reader r(file);
  s.command = r.Str(t, "command");
  s.complete = r.Bool(t, "complete");
  std::string seed = r.Str(t, "seed");
  if (r.status().ok() && !absl::SimpleAtoi(seed, &o.seed)) r.Fail("seed", "an unsigned integer");
  s.rules = r.Str(t, "rules");
  auto edition = ParseEdition(s.rules);
  if (r.status().ok() && !edition) r.Fail("rules", "classic, m10 or modern");
  o.edition = edition.value_or(Edition::kModern);
  auto policies = r.Strs(t, "policies");
  if (r.status().ok() && policies.size() != 2) r.Fail("policies", "two policies");
  if (policies.size() == 2) o.policies = {policies[0], policies[1]};
  o.games = static_cast<int>(r.Int(t, "games"));
  o.ci_half_width = r.Float(t, "ci");
  o.pair = r.Bool(t, "pair");
  o.gauntlet = static_cast<int>(r.Int(t, "gauntlet"));
  s.card_paths = r.Strs(t, "cards");
  s.games_out = r.Str(t, "games_out");
  s.games_out_bytes = r.Int(t, "games_out_bytes");
  if (!r.status().ok()) return r.status();
  const toml::array* decks = t["decks"].as_array();
  if (!decks || decks->size() < 2) r.Fail("decks", "at least two [[decks]] tables");
  for (size_t d = 0; decks && d < decks->size() && r.status().ok(); ++d) {
    const toml::table* dt = (*decks)[d].as_table();
    if (!dt) {
      r.Fail("decks", "[[decks]] tables");
      break;
    }
    Deck deck;
    deck.name = r.Str(*dt, "name");
    s.deck_paths.push_back(r.Str(*dt, "path"));
    for (auto& name : r.Strs(*dt, "cards")) {
      CardId c = db.Find(name);
      if (c == kNoCard) {
        r.Fail("decks.cards", absl::StrCat("card names from the card database, got '", name,
                                           "' (deck ", deck.name, ")"));
        break;
      }
      deck.main.push_back(c);
    }
    o.decks.push_back(std::move(deck));
  }
  if (r.status().ok() && (o.gauntlet < -1 || o.gauntlet >= static_cast<int>(o.decks.size())))
    r.Fail("gauntlet", "-1 or a deck index");
  if (r.status().ok() && o.games < 1) r.Fail("games", "a positive number of games");
  if (!r.status().ok()) return r.status();
  const auto pairs = Matchups(o);
  const toml::array* matchups = t["matchups"].as_array();
  if (!matchups || matchups->size() != pairs.size())
    r.Fail("matchups", absl::StrCat(pairs.size(), " [[matchups]] tables, one per matchup"));
  for (size_t i = 0; i < pairs.size() && r.status().ok(); ++i) {
    const toml::table* mt = (*matchups)[i].as_table();
    if (!mt) {
      r.Fail("matchups", "[[matchups]] tables");
      break;
    }
    MatchupStats m;
    m.deck_a = static_cast<int>(r.Int(*mt, "deck_a"));
    m.deck_b = static_cast<int>(r.Int(*mt, "deck_b"));
    ForEachCount(m, [&](const char* key, int64_t& v) { v = r.Int(*mt, key); });
    r.Ints(*mt, "end_reasons", m.end_reasons);
    r.Ints(*mt, "turn_histogram", m.turn_histogram);
    // Health counts (absent from studies saved before them: zero).
    if (mt->contains("mana_burn")) {
      r.Ints(*mt, "mana_burn", m.mana_burn);
      r.Ints(*mt, "burn_games", m.burn_games);
      r.Ints(*mt, "own_harm", m.own_harm);
      r.Ints(*mt, "own_harm_avoidable", m.own_harm_avoidable);
      m.first_cap_game = r.Int(*mt, "first_cap_game");
    }
    for (int side = 0; side < 2 && r.status().ok(); ++side) {
      const char* key = side ? "cards_b" : "cards_a";
      const toml::array* rows = (*mt)[key].as_array();
      const int n = DistinctCount(o, side ? pairs[i].second : pairs[i].first);
      if (!rows || static_cast<int>(rows->size()) != n) {
        r.Fail(key, absl::StrCat(n, " rows, one per distinct card of the deck"));
        break;
      }
      for (int k = 0; k < n && r.status().ok(); ++k) {
        CardCounts& c = m.cards.side[side][k];
        const toml::array* row = rows->get(k) ? rows->get(k)->as_array() : nullptr;
        if (row && row->size() == 6) {  // saved before the health counts
          std::array<int64_t, 6> v{};
          r.Ints(rows->get(k), key, v);
          c.drawn = v[0], c.opening = v[1], c.cast = v[2];
          c.drawn_score = v[3], c.opening_score = v[4], c.cast_score = v[5];
          continue;
        }
        std::array<int64_t, 8 + kCastTurns> v{};
        r.Ints(rows->get(k), key, v);
        c.drawn = v[0], c.opening = v[1], c.cast = v[2];
        c.drawn_score = v[3], c.opening_score = v[4], c.cast_score = v[5];
        c.own_harm = v[6], c.own_harm_avoidable = v[7];
        for (int t = 0; t < kCastTurns; ++t) c.first_cast[t] = static_cast<int32_t>(v[8 + t]);
      }
    }
    if (r.status().ok() && (m.deck_a != pairs[i].first || m.deck_b != pairs[i].second))
      r.Fail("matchups", absl::StrCat("matchup ", i, " between decks ", pairs[i].first, " and ",
                                      pairs[i].second));
    // Progress is always whole blocks, or a finished matchup.
    if (r.status().ok() &&
        (m.games < 0 || m.games > o.games || (m.games % kBlockGames != 0 && m.games != o.games)))
      r.Fail("matchups.games", absl::StrCat("a multiple of ", kBlockGames, " up to ", o.games));
    s.progress.push_back(m);
  }
  if (!r.status().ok()) return r.status();
  return s;
}

}  // namespace strata
