#include "sim/paired_state.h"

#include <cstring>
#include <filesystem>
#include <sstream>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "engine/toml_reader.h"
#include "sim/durable.h"
#include "sim/study_file.h"

namespace strata {
namespace {

namespace fs = std::filesystem;

constexpr const char* kDigestLine = "# digest ";
constexpr int64_t kFormat = 1;

// Every count of a MatchupStats but its decks and cards, in a fixed order:
// what is saved is what merges.
template <typename M, typename F>
void ForEachCount(M& m, F&& f) {
  for (auto* v : {&m.games, &m.a_wins, &m.b_wins, &m.draws, &m.first_player_wins, &m.turns}) f(*v);
  // The six EndReasons before poison (G-11), whose games are saved apart
  // (`poison_ends`), so a run saved before it still reads.
  for (int r = 0; r < static_cast<int>(EndReason::kPoison); ++r) f(m.end_reasons[r]);
  for (auto& v : m.turn_histogram) f(v);
  for (auto& side : m.win_turns)
    for (auto& v : side) f(v);
  for (auto* a : {&m.mana_burn, &m.burn_games, &m.own_harm, &m.own_harm_avoidable, &m.mulligans,
                  &m.mulligan_games, &m.seat_mulligans})
    for (auto& v : *a) f(v);
  for (auto* v : {&m.first_cap_game, &m.checked_games, &m.violations, &m.first_violation_game,
                  &m.matches, &m.a_match_wins, &m.b_match_wins, &m.match_draws})
    f(*v);
}

constexpr int kCardFields = 8 + kCastTurns;

template <typename C, typename F>
void ForEachCardCount(C& c, F&& f) {
  for (auto* v : {&c.drawn, &c.opening, &c.cast, &c.drawn_score, &c.opening_score, &c.cast_score,
                  &c.own_harm, &c.own_harm_avoidable}) {
    int64_t x = *v;
    f(x);
    *v = x;
  }
  for (auto& v : c.first_cast) {
    int64_t x = v;
    f(x);
    v = static_cast<int32_t>(x);
  }
}

toml::array Ints(const std::vector<int64_t>& v) {
  toml::array a;
  for (int64_t x : v) a.push_back(x);
  return a;
}

toml::array Strings(const std::vector<std::string>& v) {
  toml::array a;
  for (auto& s : v) a.push_back(s);
  return a;
}

std::string DoubleBits(double v) {
  uint64_t bits;
  std::memcpy(&bits, &v, sizeof bits);
  return absl::StrCat(bits);
}

// A paired unit's difference is a multiple of 1/2, its square of 1/4: both
// sums are saved as exact integers.
std::vector<int64_t> PairedInts(const PairedStats& p) {
  return {p.units, p.games, static_cast<int64_t>(p.sum * 2), static_cast<int64_t>(p.sum2 * 4)};
}

std::vector<int64_t> ScoreInts(const VersionScore& s) {
  return {s.games, s.wins, s.losses, s.draws, s.turns, s.first_player_wins};
}

// A side's card rows, up to its last row with a count (the rest are 0).
toml::array CardRows(const CardStats& cards, int side) {
  int n = kMaxDistinctCards;
  auto empty = [&](int i) {
    bool zero = true;
    CardCounts c = cards.side[side][i];
    ForEachCardCount(c, [&](int64_t& v) { zero = zero && v == 0; });
    return zero;
  };
  while (n > 0 && empty(n - 1)) --n;
  toml::array rows;
  for (int i = 0; i < n; ++i) {
    std::vector<int64_t> row;
    CardCounts c = cards.side[side][i];
    ForEachCardCount(c, [&](int64_t& v) { row.push_back(v); });
    rows.push_back(Ints(row));
  }
  return rows;
}

}  // namespace

std::string DeckDigest(const CardDb& db, const Deck& deck) {
  uint64_t h = ContentDigest(deck.name);
  for (CardId c : deck.main) h = ContentDigest(absl::StrCat("\n", db[c].name), h);
  return ContentDigestHex(h);
}

absl::Status SavePairedStudy(const std::string& dir, const PairedStudy& s) {
  const CompareArgs& a = s.args;
  toml::table t;
  t.insert("what", s.what);
  t.insert("format", kFormat);
  t.insert("strata_version", s.version);
  t.insert("cards_fingerprint", s.cards_fingerprint);
  t.insert("command", s.command);
  t.insert("complete", s.complete);
  t.insert("seconds_bits", DoubleBits(s.seconds));
  t.insert("checkpoint_seconds_bits", DoubleBits(s.checkpoint_seconds));
  toml::table o;
  o.insert("decks", Strings(a.decks));
  o.insert("against", Strings(a.against));
  o.insert("cards", Strings(a.card_paths));
  o.insert("no_default_cards", a.no_default_cards);
  o.insert("override_cards", a.override_cards);
  o.insert("with", a.with);
  o.insert("games", a.games);
  o.insert("ci_bits", DoubleBits(a.ci));
  o.insert("policies", a.policies);
  o.insert("rules", a.rules);
  o.insert("mulligan", a.mulligan);
  o.insert("seed", absl::StrCat(a.seed));
  o.insert("no_pair", a.no_pair);
  o.insert("report", a.report);
  o.insert("deck_digests", Strings(s.deck_digests));
  t.insert("options", std::move(o));
  toml::array versions;
  for (size_t v = 0; v < s.progress.score.size(); ++v) {
    toml::table vt;
    toml::array score, paired, stats;
    for (size_t m = 0; m < s.progress.score[v].size(); ++m) {
      score.push_back(Ints(ScoreInts(s.progress.score[v][m])));
      paired.push_back(Ints(PairedInts(s.progress.paired[v][m])));
    }
    vt.insert("score", std::move(score));
    vt.insert("paired", std::move(paired));
    if (v < s.progress.stats.size())
      for (const MatchupStats& m : s.progress.stats[v]) {
        toml::table mt;
        std::vector<int64_t> counts;
        MatchupStats copy = m;
        ForEachCount(copy, [&](int64_t& x) { counts.push_back(x); });
        mt.insert("counts", Ints(counts));
        if (const int64_t poison = m.end_reasons[static_cast<int>(EndReason::kPoison)])
          mt.insert("poison_ends", poison);
        mt.insert("cards_a", CardRows(m.cards, 0));
        mt.insert("cards_b", CardRows(m.cards, 1));
        stats.push_back(std::move(mt));
      }
    vt.insert("stats", std::move(stats));
    versions.push_back(std::move(vt));
  }
  t.insert("versions", std::move(versions));
  std::ostringstream body;
  body << "# strata " << s.what << " run: its options and exact progress (strata " << s.what
       << " --resume DIR).\n# Written by strata; the digest above refuses a file edited by "
          "hand.\n"
       << t << "\n";
  const std::string text = body.str();
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) return absl::InvalidArgumentError(absl::StrCat(dir, ": ", ec.message()));
  return WriteFileAtomically(
      (fs::path(dir) / kStudyFile).string(),
      absl::StrCat(kDigestLine, ContentDigestHex(ContentDigest(text)), "\n", text));
}

absl::StatusOr<PairedStudy> LoadPairedStudy(const std::string& dir) {
  if (!fs::is_directory(dir)) return absl::NotFoundError(absl::StrCat(dir, ": no such directory"));
  const std::string file = (fs::path(dir) / kStudyFile).string();
  if (!fs::exists(file))
    return absl::NotFoundError(
        absl::StrCat(file, ": not found (is ", dir, " the --out of a compare or ablate run?)"));
  auto text = ReadInputFile(file, "study");
  if (!text.ok()) return text.status();
  auto bad = [&](const std::string& key, const std::string& expected) {
    return absl::InvalidArgumentError(absl::StrCat(file, ": key ", key, ": expected ", expected));
  };
  PairedStudy s;
  const size_t eol = text->find('\n');
  if (text->rfind(kDigestLine, 0) != 0 || eol == std::string::npos) {
    // A study.toml without the digest line: sim's, or not strata's at all.
    auto t = ParseToml(*text, file);
    if (t.ok() && !t->contains("what"))
      return absl::InvalidArgumentError(absl::StrCat(
          dir, " holds a strata sim study (", file,
          "), not a compare or ablate run: continue it with strata sim --resume ", dir));
    return absl::InvalidArgumentError(
        absl::StrCat(file,
                     ": expected a first line '# digest HEX' (written by strata compare "
                     "or ablate --out)"));
  }
  const std::string digest = text->substr(std::strlen(kDigestLine), eol - std::strlen(kDigestLine));
  const std::string_view body = std::string_view(*text).substr(eol + 1);
  if (ContentDigestHex(ContentDigest(body)) != digest)
    return absl::InvalidArgumentError(
        absl::StrCat(file,
                     ": its digest (first line) does not match its content: the file was edited or "
                     "damaged; start a new run instead"));
  auto parsed = ParseToml(body, file);
  if (!parsed.ok()) return parsed.status();
  const toml::table& t = *parsed;
  auto str = [&](const toml::table& tt, const std::string& key, std::string& out) {
    auto v = tt[key].value<std::string>();
    if (!v) return false;
    out = *v;
    return true;
  };
  auto bits = [&](const toml::table& tt, const std::string& key, double& out) {
    std::string text;
    uint64_t b;
    if (!str(tt, key, text) || !absl::SimpleAtoi(text, &b)) return false;
    std::memcpy(&out, &b, sizeof out);
    return true;
  };
  auto strings = [&](const toml::table& tt, const std::string& key, std::vector<std::string>& out) {
    const toml::array* arr = tt[key].as_array();
    if (!arr) return false;
    for (auto& e : *arr) {
      auto v = e.value<std::string>();
      if (!v) return false;
      out.push_back(*v);
    }
    return true;
  };
  auto boolean = [&](const toml::table& tt, const std::string& key, bool& out) {
    auto v = tt[key].value<bool>();
    if (!v) return false;
    out = *v;
    return true;
  };
  if (!str(t, "what", s.what) || (s.what != "compare" && s.what != "ablate"))
    return bad("what", "\"compare\" or \"ablate\"");
  if (t["format"].value<int64_t>() != kFormat) return bad("format", absl::StrCat(kFormat));
  if (!str(t, "strata_version", s.version)) return bad("strata_version", "a string");
  if (!str(t, "cards_fingerprint", s.cards_fingerprint))
    return bad("cards_fingerprint", "a string");
  if (!str(t, "command", s.command)) return bad("command", "a string");
  if (!boolean(t, "complete", s.complete)) return bad("complete", "true or false");
  if (!bits(t, "seconds_bits", s.seconds)) return bad("seconds_bits", "a double's bits");
  if (!bits(t, "checkpoint_seconds_bits", s.checkpoint_seconds))
    return bad("checkpoint_seconds_bits", "a double's bits");
  const toml::table* o = t["options"].as_table();
  if (!o) return bad("options", "a table");
  CompareArgs& a = s.args;
  if (!strings(*o, "decks", a.decks)) return bad("options.decks", "a list of strings");
  if (!strings(*o, "against", a.against)) return bad("options.against", "a list of strings");
  if (!strings(*o, "cards", a.card_paths)) return bad("options.cards", "a list of strings");
  if (!boolean(*o, "no_default_cards", a.no_default_cards))
    return bad("options.no_default_cards", "true or false");
  if (!boolean(*o, "override_cards", a.override_cards))
    return bad("options.override_cards", "true or false");
  if (!str(*o, "with", a.with)) return bad("options.with", "a string");
  auto games = (*o)["games"].value<int64_t>();
  if (!games || *games < 1 || *games > kMaxGames)
    return bad("options.games", absl::StrCat("1 to ", kMaxGames));
  a.games = *games;
  if (!bits(*o, "ci_bits", a.ci)) return bad("options.ci_bits", "a double's bits");
  if (!str(*o, "policies", a.policies)) return bad("options.policies", "a string");
  if (!str(*o, "rules", a.rules)) return bad("options.rules", "a string");
  if (!str(*o, "mulligan", a.mulligan)) return bad("options.mulligan", "a string");
  std::string seed;
  if (!str(*o, "seed", seed) || !ParseSeed(seed, &a.seed))
    return bad("options.seed", "an integer from 0 to 2^64-1, as a string");
  if (!boolean(*o, "no_pair", a.no_pair)) return bad("options.no_pair", "true or false");
  if (!boolean(*o, "report", a.report)) return bad("options.report", "true or false");
  if (!strings(*o, "deck_digests", s.deck_digests))
    return bad("options.deck_digests", "a list of strings");
  if (s.deck_digests.size() != a.decks.size() + a.against.size())
    return bad("options.deck_digests", "one per deck of options.decks and options.against");
  const toml::array* versions = t["versions"].as_array();
  if (!versions || versions->empty()) return bad("versions", "a list of tables");
  const size_t matchups = a.against.size();
  auto ints = [&](const toml::node& n, size_t count, std::vector<int64_t>& out) {
    const toml::array* arr = n.as_array();
    if (!arr || (count > 0 && arr->size() != count)) return false;
    out.clear();
    for (auto& e : *arr) {
      auto v = e.value<int64_t>();
      if (!v) return false;
      out.push_back(*v);
    }
    return true;
  };
  PairedResult& r = s.progress;
  for (size_t v = 0; v < versions->size(); ++v) {
    const toml::table* vt = (*versions)[v].as_table();
    const std::string key = absl::StrCat("versions[", v, "]");
    if (!vt) return bad(key, "a table");
    const toml::array* score = (*vt)["score"].as_array();
    const toml::array* paired = (*vt)["paired"].as_array();
    const toml::array* stats = (*vt)["stats"].as_array();
    if (!score || score->size() != matchups)
      return bad(key + ".score", absl::StrCat(matchups, " lists of 6 integers, one per opponent"));
    if (!paired || paired->size() != matchups)
      return bad(key + ".paired", absl::StrCat(matchups, " lists of 4 integers, one per opponent"));
    if (!stats || (!stats->empty() && stats->size() != matchups))
      return bad(key + ".stats", absl::StrCat("none, or ", matchups, " tables"));
    r.score.emplace_back(matchups);
    r.paired.emplace_back(matchups);
    r.stats.emplace_back(stats->size());
    std::vector<int64_t> x;
    for (size_t m = 0; m < matchups; ++m) {
      if (!ints(*score->get(m), 6, x)) return bad(key + ".score", "lists of 6 integers");
      VersionScore& vs = r.score[v][m];
      vs.games = x[0], vs.wins = x[1], vs.losses = x[2], vs.draws = x[3], vs.turns = x[4];
      vs.first_player_wins = x[5];
      if (!ints(*paired->get(m), 4, x)) return bad(key + ".paired", "lists of 4 integers");
      PairedStats& p = r.paired[v][m];
      p.units = x[0], p.games = x[1], p.sum = x[2] / 2.0, p.sum2 = x[3] / 4.0;
      if (m >= stats->size()) continue;
      const toml::table* mt = stats->get(m)->as_table();
      if (!mt) return bad(key + ".stats", "tables");
      MatchupStats& ms = r.stats[v][m];
      ms.deck_a = 0, ms.deck_b = static_cast<int>(m) + 1;
      size_t fields = 0;
      ForEachCount(ms, [&](int64_t&) { ++fields; });
      const toml::node* counts = mt->get("counts");
      if (!counts || !ints(*counts, fields, x))
        return bad(key + ".stats.counts", absl::StrCat("a list of ", fields, " integers"));
      size_t i = 0;
      ForEachCount(ms, [&](int64_t& c) { c = x[i++]; });
      if (const toml::node* poison = mt->get("poison_ends")) {
        const auto n = poison->value_exact<int64_t>();
        if (!n || *n < 0) return bad(key + ".stats.poison_ends", "a count of games");
        ms.end_reasons[static_cast<int>(EndReason::kPoison)] = *n;
      }
      for (int side = 0; side < 2; ++side) {
        const char* k = side ? "cards_b" : "cards_a";
        const toml::array* rows = (*mt)[k].as_array();
        if (!rows || rows->size() > static_cast<size_t>(kMaxDistinctCards))
          return bad(key + ".stats." + k, "a list of card rows");
        for (size_t c = 0; c < rows->size(); ++c) {
          if (!ints(*rows->get(c), kCardFields, x))
            return bad(key + ".stats." + k, absl::StrCat("rows of ", kCardFields, " integers"));
          size_t j = 0;
          ForEachCardCount(ms.cards.side[side][c], [&](int64_t& f) { f = x[j++]; });
        }
      }
    }
  }
  return s;
}

}  // namespace strata
