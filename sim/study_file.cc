#include "sim/study_file.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <numeric>
#include <sstream>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "engine/strings.h"
#include "engine/toml_reader.h"
#include "policies/policy.h"
#include "sim/card_stats.h"
#include "sim/durable.h"

namespace strata {
namespace {

toml::array Strings(const std::vector<std::string>& v) {
  toml::array a;
  for (auto& s : v) a.push_back(s);
  return a;
}

// `end_reasons` holds the first six EndReasons, as studies saved them before
// poison (G-11); games lost to poison are `poison_ends`, written only when
// some were, so a study of decks without poison reads and digests as before.
constexpr int kSavedEndReasons = 6;
constexpr int kPoisonEnds = static_cast<int>(EndReason::kPoison);
static_assert(kPoisonEnds == kSavedEndReasons && kEndReasonCount == kSavedEndReasons + 1);

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

// An array of exactly N integers (a count per end reason, turn, ...).
template <size_t N>
void ReadInts(const TomlReader& r, const toml::node& n, std::string_view key,
              std::array<int64_t, N>& out) {
  const std::string expected = absl::StrCat("an array of ", N, " integers");
  const toml::array& a = r.Array(n, key, expected);
  if (a.size() != N) r.Fail(n, key, expected);
  for (size_t i = 0; i < N; ++i) {
    auto v = a[i].value_exact<int64_t>();
    if (!v) r.Fail(a[i], key, expected);
    out[i] = *v;
  }
}
template <size_t N>
void ReadInts(const TomlReader& r, const toml::table& t, std::string_view key,
              std::array<int64_t, N>& out) {
  ReadInts(r, r.Required(t, key, absl::StrCat("an array of ", N, " integers")), key, out);
}

int DistinctCount(const SimOptions& o, int deck) {
  return std::min<int>(static_cast<int>(DistinctCards(o.decks[deck]).size()), kMaxDistinctCards);
}

// What each digest covers, as text: the options that make the games, the
// card database's fingerprint, and every count. A key edited by hand no
// longer matches its digest.
std::vector<std::pair<std::string, std::string>> DigestedValues(const Study& s, const CardDb& db) {
  const SimOptions& o = s.options;
  uint64_t ci_bits;
  std::memcpy(&ci_bits, &o.ci_half_width, sizeof ci_bits);
  std::string decks;
  for (auto& d : o.decks) {
    absl::StrAppend(&decks, d.name, ":");
    for (CardId c : d.main) absl::StrAppend(&decks, db[c].name, ";");
    decks += "\n";
  }
  std::string counts;
  for (const MatchupStats& m : s.progress) {
    MatchupStats c = m;
    absl::StrAppend(&counts, c.deck_a, " ", c.deck_b);
    ForEachCount(c, [&](const char*, int64_t& v) { absl::StrAppend(&counts, " ", v); });
    for (int r = 0; r < kSavedEndReasons; ++r) absl::StrAppend(&counts, " ", c.end_reasons[r]);
    if (const int64_t poison = c.end_reasons[kPoisonEnds])
      absl::StrAppend(&counts, " poison ", poison);
    for (int64_t v : c.turn_histogram) absl::StrAppend(&counts, " ", v);
    for (int side = 0; side < 2; ++side)
      for (int i = 0; i < DistinctCount(o, side ? c.deck_b : c.deck_a); ++i) {
        const CardCounts& k = c.cards.side[side][i];
        absl::StrAppend(&counts, " ", k.drawn, " ", k.opening, " ", k.cast, " ", k.drawn_score, " ",
                        k.opening_score, " ", k.cast_score);
      }
    counts += "\n";
  }
  std::string mulligans;
  for (const MatchupStats& m : s.progress)
    absl::StrAppend(&mulligans, absl::StrJoin(m.mulligans, " "), " ",
                    absl::StrJoin(m.mulligan_games, " "), " ", absl::StrJoin(m.seat_mulligans, " "),
                    "\n");
  std::string checked;
  for (const MatchupStats& m : s.progress)
    absl::StrAppend(&checked, m.checked_games, " ", m.violations, " ", m.first_violation_game,
                    "\n");
  std::string win_turns;
  for (const MatchupStats& m : s.progress)
    absl::StrAppend(&win_turns, absl::StrJoin(m.win_turns[0], " "), " / ",
                    absl::StrJoin(m.win_turns[1], " "), "\n");
  std::vector<std::pair<std::string, std::string>> values;
  // A shard's place (absent from an unsharded study, as before --shard).
  if (o.shards > 1) values.emplace_back("shard", absl::StrCat(o.shard + 1, "/", o.shards));
  // --match N > 1 and the match counts (absent from a study of single
  // games, so those are written as before --match).
  if (o.match > 1) {
    std::string match = absl::StrCat(o.match, "\n");
    for (const MatchupStats& m : s.progress)
      absl::StrAppend(&match, m.matches, " ", m.a_match_wins, " ", m.b_match_wins, " ",
                      m.match_draws, "\n");
    values.emplace_back("match", match);
  }
  for (auto& kv : std::vector<std::pair<std::string, std::string>>{
           {"seed", absl::StrCat(o.seed)},
           {"rules", s.rules},
           {"mulligan", std::string(MulliganName(o.mulligan))},
           {"mulligan_counts", mulligans},
           {"policies", absl::StrCat(o.policies[0], "\n", o.policies[1])},
           {"games", absl::StrCat(o.games)},
           {"ci", absl::StrCat(ci_bits)},
           {"pair", o.pair ? "true" : "false"},
           {"gauntlet", absl::StrCat(o.gauntlet)},
           {"decks", decks},
           {"cards_fingerprint", s.cards_fingerprint},
           {"games_out_bytes", absl::StrCat(s.games_out_bytes)},
           {"games_out_digest", s.games_out_digest},
           {"matchups", counts},
           {"checked_counts", checked},
           {"win_turn_counts", win_turns}})
    values.push_back(std::move(kv));
  return values;
}

std::string Digest(const std::string& key, const std::string& value) {
  return Hex(Hash64(absl::StrCat(key, "\n", value)));
}

}  // namespace

bool ParseSeed(std::string_view text, uint64_t* seed) {
  if (text.empty() || text.size() > 20) return false;
  for (char c : text)
    if (c < '0' || c > '9') return false;
  return absl::SimpleAtoi(std::string(text), seed);  // false on overflow past 2^64-1
}

bool ParseShard(std::string_view text, int* shard, int* shards) {
  const size_t slash = text.find('/');
  if (slash == std::string_view::npos) return false;
  auto number = [](std::string_view digits, int64_t* v) {
    return !digits.empty() && digits.size() <= 9 &&
           digits.find_first_not_of("0123456789") == std::string_view::npos &&
           absl::SimpleAtoi(std::string(digits), v);
  };
  int64_t i, k;
  if (!number(text.substr(0, slash), &i) || !number(text.substr(slash + 1), &k)) return false;
  if (k < 1 || k > kMaxShards || i < 1 || i > k) return false;
  *shard = static_cast<int>(i - 1);
  *shards = static_cast<int>(k);
  return true;
}

absl::Status SaveStudy(const std::string& dir, const Study& s, const CardDb& db) {
  const SimOptions& o = s.options;
  toml::table t;
  t.insert("strata_version", STRATA_VERSION);  // the strata that wrote it last
  t.insert("command", s.command);
  t.insert("complete", s.complete);
  t.insert("seed", absl::StrCat(o.seed));  // a string: seeds are unsigned 64-bit
  t.insert("rules", s.rules);
  t.insert("mulligan", std::string(MulliganName(o.mulligan)));
  t.insert("policies", Strings({o.policies[0], o.policies[1]}));
  t.insert("games", int64_t{o.games});
  t.insert("ci", o.ci_half_width);
  t.insert("pair", o.pair);
  t.insert("gauntlet", int64_t{o.gauntlet});
  if (o.shards > 1) {  // --shard i/K, 1-based as on the command line
    t.insert("shard", int64_t{o.shard} + 1);
    t.insert("shards", int64_t{o.shards});
  }
  if (o.match > 1) t.insert("match", int64_t{o.match});
  t.insert("cards", Strings(s.card_paths));
  t.insert("override_cards", s.override_cards);
  // Inside the study's folder, relative to it: a copied or moved folder
  // then writes its own games.jsonl, never the original's.
  std::string games_out = s.games_out;
  namespace fs = std::filesystem;
  if (!games_out.empty() && fs::path(games_out).parent_path() ==
                                (fs::absolute(dir) / "").lexically_normal().parent_path())
    games_out = fs::path(games_out).filename().string();
  t.insert("games_out", games_out);
  t.insert("games_out_bytes", s.games_out_bytes);
  t.insert("games_out_digest", s.games_out_digest);
  t.insert("checkpoint_seconds", s.checkpoint_seconds);
  t.insert("cards_fingerprint", s.cards_fingerprint);
  // An array of { name, fingerprint } tables, never a card name as a key:
  // toml++ prints a key bare when it has an apostrophe and otherwise only
  // bare-key characters (Will-o'-the-Wisp), which no TOML reader parses.
  // Names as string values are always quoted and escaped.
  toml::array per_card;
  for (auto& [name, h] : s.card_fingerprints) {
    toml::table e{{"name", name}, {"fingerprint", h}};
    e.is_inline(true);  // one line a card
    per_card.push_back(std::move(e));
  }
  t.insert("card_fingerprints", std::move(per_card));
  toml::table digests;
  for (auto& [key, value] : DigestedValues(s, db)) digests.insert(key, Digest(key, value));
  t.insert("digests", std::move(digests));
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
    std::array<int64_t, kSavedEndReasons> saved;
    std::copy_n(m.end_reasons.begin(), kSavedEndReasons, saved.begin());
    mt.insert("end_reasons", Counts(saved));
    if (m.end_reasons[kPoisonEnds]) mt.insert("poison_ends", m.end_reasons[kPoisonEnds]);
    mt.insert("turn_histogram", Counts(m.turn_histogram));
    mt.insert("win_turns_a", Counts(m.win_turns[0]));
    mt.insert("win_turns_b", Counts(m.win_turns[1]));
    mt.insert("mana_burn", Counts(m.mana_burn));
    mt.insert("burn_games", Counts(m.burn_games));
    mt.insert("own_harm", Counts(m.own_harm));
    mt.insert("own_harm_avoidable", Counts(m.own_harm_avoidable));
    mt.insert("first_cap_game", m.first_cap_game);
    mt.insert("mulligans", Counts(m.mulligans));
    mt.insert("mulligan_games", Counts(m.mulligan_games));
    mt.insert("seat_mulligans", Counts(m.seat_mulligans));
    mt.insert("checked_games", m.checked_games);
    mt.insert("violations", m.violations);
    if (o.match > 1) {
      mt.insert("matches", m.matches);
      mt.insert("a_match_wins", m.a_match_wins);
      mt.insert("b_match_wins", m.b_match_wins);
      mt.insert("match_draws", m.match_draws);
    }
    mt.insert("first_violation_game", m.first_violation_game);
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
  std::ostringstream text;
  text << "# strata sim study: its options and exact progress (strata sim --resume, strata "
          "replay --from).\n# Written by strata; [digests] refuse a resume of a file edited "
          "by hand.\n"
       << t << "\n";
  return WriteFileAtomically((std::filesystem::path(dir) / kStudyFile).string(), text.str());
}

namespace {

// In the [card_fingerprints] table of an older strata's study.toml, every
// key printed bare with an apostrophe in it double-quoted (such a key holds
// only letters, digits, '_', '-' and '\'', nothing to escape).
std::string QuoteOldFingerprintKeys(const std::string& text) {
  std::string out;
  out.reserve(text.size() + 64);
  bool in_table = false;
  size_t pos = 0;
  while (pos < text.size()) {
    size_t end = text.find('\n', pos);
    end = end == std::string::npos ? text.size() : end + 1;
    std::string_view line(text.data() + pos, end - pos);
    pos = end;
    if (!line.empty() && line[0] == '[') in_table = line.starts_with("[card_fingerprints]");
    const size_t eq = line.find(" = ");
    if (in_table && eq != std::string_view::npos && eq > 0) {
      std::string_view key = line.substr(0, eq);
      if (key.find('\'') != std::string_view::npos && key.front() != '\'' &&
          key.find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
                                "0123456789_-'") == std::string_view::npos) {
        out.append("\"").append(key).append("\"").append(line.substr(eq));
        continue;
      }
    }
    out.append(line);
  }
  return out;
}

absl::StatusOr<toml::table> ParseStudyFile(const std::string& dir, std::string& file) {
  if (!std::filesystem::is_directory(dir))
    return absl::NotFoundError(absl::StrCat(dir, ": no such study directory"));
  file = (std::filesystem::path(dir) / kStudyFile).string();
  if (!std::filesystem::exists(file))
    return absl::NotFoundError(
        absl::StrCat(file, ": not found (is ", dir, " the --out of a strata sim run?)"));
  auto text = ReadInputFile(file, "study");
  if (!text.ok()) return text.status();
  auto t = ParseToml(*text, file);
  // An older strata wrote a card name with an apostrophe and otherwise only
  // bare-key characters as a bare key of [card_fingerprints]
  // (Will-o'-the-Wisp = '...'), which does not parse: read such a study with
  // those keys quoted, as they meant. No digest covers these keys.
  if (!t.ok())
    if (auto repaired = QuoteOldFingerprintKeys(*text); repaired != *text)
      if (auto again = ParseToml(repaired, file); again.ok()) t = std::move(again);
  // A compare or ablate run keeps its own study.toml (sim/paired_state.h).
  if (t.ok())
    if (auto what = (*t)["what"].value<std::string>())
      return absl::InvalidArgumentError(absl::StrCat(
          dir, " holds a strata ", *what, " run, not a strata sim study: continue it with strata ",
          *what, " --resume ", dir, "; its games replay with the command in its summary.json"));
  return t;
}

// The node under `key`, or the table itself when it lacks one: where a
// problem found in `key` is reported.
const toml::node& At(const toml::table& t, std::string_view key) {
  const toml::node* n = t.get(key);
  return n ? *n : t;
}

// Card paths, version and fingerprints: all a resume needs before the cards.
void ReadCards(const TomlReader& r, const toml::table& t, Study& s) {
  s.card_paths = r.RequiredStrings(t, "cards");
  // Absent from a study made before --override: none.
  if (t.contains("override_cards")) s.override_cards = r.RequiredBool(t, "override_cards");
  // Absent in a study.toml from before they were recorded: left empty.
  if (t.contains("strata_version")) s.version = r.RequiredString(t, "strata_version");
  if (t.contains("cards_fingerprint"))
    s.cards_fingerprint = r.RequiredString(t, "cards_fingerprint");
  if (const toml::node* n = t.get("card_fingerprints")) {
    const char* expected =
        "an array of { name, fingerprint } tables of strings (or, as an older strata "
        "wrote, a table of card name = fingerprint)";
    if (const toml::array* a = n->as_array()) {
      for (const toml::node& e : *a) {
        const toml::table* et = e.as_table();
        if (!et) r.Fail(e, "card_fingerprints", expected);
        auto name = (*et)["name"].value_exact<std::string>();
        auto h = (*et)["fingerprint"].value_exact<std::string>();
        if (!name || !h || et->size() != 2) r.Fail(e, "card_fingerprints", expected);
        if (!s.card_fingerprints.emplace(*name, *h).second)
          r.Fail(e, "card_fingerprints", absl::StrCat(expected, "; '", *name, "' twice"));
      }
    } else if (const toml::table* ct = n->as_table()) {  // an older strata's
      for (auto& [name, h] : *ct) {
        auto v = h.value_exact<std::string>();
        if (!v) r.Fail(h, "card_fingerprints", expected);
        s.card_fingerprints[std::string(name.str())] = *v;
      }
    } else {
      r.Fail(*n, "card_fingerprints", expected);
    }
  }
}

// The study's options, decks and counts, each checked; throws TomlError at
// the first problem.
void ReadStudy(const TomlReader& r, const std::string& dir, const toml::table& t, const CardDb& db,
               Study& s) {
  SimOptions& o = s.options;
  s.command = r.RequiredString(t, "command");
  s.complete = r.RequiredBool(t, "complete");
  const std::string seed = r.RequiredString(t, "seed");
  if (!ParseSeed(seed, &o.seed))
    r.Fail(At(t, "seed"), "seed",
           absl::StrCat("an integer from 0 to 18446744073709551615, got '", seed, "'"));
  s.rules = r.RequiredString(t, "rules");
  auto edition = ParseEdition(s.rules);
  if (!edition) r.Fail(At(t, "rules"), "rules", "classic, m10 or modern");
  o.edition = *edition;
  // Absent from a study made before mulligans (G-1): it had none.
  const bool has_mulligan = t.contains("mulligan");
  if (has_mulligan) {
    const std::string mulligan = r.RequiredString(t, "mulligan");
    auto m = ParseMulligan(mulligan);
    if (!m)
      r.Fail(At(t, "mulligan"), "mulligan",
             absl::StrCat("paris, london or none, got '", mulligan, "'"));
    o.mulligan = *m;
  }
  auto policies = r.RequiredStrings(t, "policies");
  if (policies.size() != 2) r.Fail(At(t, "policies"), "policies", "two policies");
  o.policies = {policies[0], policies[1]};
  // A policy this strata does not know would abort the first game.
  for (auto& p : policies)
    if (auto made = MakePolicy(p, 1); !made.ok())
      r.Fail(
          At(t, "policies"), "policies",
          absl::StrCat(
              "policies this strata knows (strata sim --help), got ",
              std::string(made.status().message()).substr(0, made.status().message().find(';'))));
  o.games = static_cast<int>(r.RequiredInt64(t, "games", 1, kMaxGames));
  o.ci_half_width = r.RequiredNumber(t, "ci");
  if (o.ci_half_width != 0 && (o.ci_half_width < 0.0001 || o.ci_half_width > 0.5))
    r.Fail(At(t, "ci"), "ci", absl::StrCat("0 or 0.0001 to 0.5, got ", o.ci_half_width));
  o.pair = r.RequiredBool(t, "pair");
  const int64_t gauntlet = r.RequiredInt64(t, "gauntlet", -1, 1000000);
  // Absent from a study of single games.
  const bool has_match = t.contains("match");
  if (has_match) {
    o.match = static_cast<int>(r.RequiredInt64(t, "match", 3, kMaxMatch));
    if (o.match % 2 == 0) r.Fail(At(t, "match"), "match", "an odd number from 3");
  }
  // Absent from an unsharded study.
  const bool has_shard = t.contains("shards") || t.contains("shard");
  if (has_shard) {
    o.shards = static_cast<int>(r.RequiredInt64(t, "shards", 2, kMaxShards));
    o.shard = static_cast<int>(r.RequiredInt64(t, "shard", 1, std::max(o.shards, 1))) - 1;
  }
  ReadCards(r, t, s);
  s.games_out = r.RequiredString(t, "games_out");
  if (!s.games_out.empty() && std::filesystem::path(s.games_out).is_relative())
    s.games_out = (std::filesystem::absolute(dir) / s.games_out).lexically_normal().string();
  s.games_out_bytes = r.RequiredInt64(t, "games_out_bytes", 0, INT64_MAX);
  s.games_out_digest = r.RequiredString(t, "games_out_digest");
  // Not in studies from before a resume kept it: the default then.
  if (const toml::node* n = t.get("checkpoint_seconds")) {
    s.checkpoint_seconds = r.Number(*n, "checkpoint_seconds");
    if (s.checkpoint_seconds < 0 || s.checkpoint_seconds > 86400)
      r.Fail(*n, "checkpoint_seconds", "a number from 0 to 86400");
  }
  const toml::node& decks_node = r.Required(t, "decks", "at least two [[decks]] tables");
  const std::vector<const toml::table*> decks =
      r.Tables(decks_node, "decks", "at least two [[decks]] tables");
  if (decks.size() < 2) r.Fail(decks_node, "decks", "at least two [[decks]] tables");
  for (size_t d = 0; d < decks.size(); ++d) {
    const toml::table& dt = *decks[d];
    Deck deck;
    deck.name = r.RequiredString(dt, "name");
    s.deck_paths.push_back(r.RequiredString(dt, "path"));
    const toml::node& cards = r.Required(dt, "cards", "a list of strings");
    for (auto& e : r.Array(cards, "cards", "a list of strings")) {
      const std::string name = r.String(e, "cards");
      CardId c = db.Find(name);
      if (c == kNoCard)
        r.Fail(e, "decks.cards",
               absl::StrCat("card names from the card database, got '", name, "' (deck ", deck.name,
                            ")"));
      deck.main.push_back(c);
    }
    // The deck files' own rule (engine/deck.cc): a game holds both decks (kMaxObjects).
    if (deck.main.size() < 40 || deck.main.size() > static_cast<size_t>(kMaxDeckCards))
      r.Fail(cards, absl::StrCat("decks[", d, "].cards"),
             absl::StrCat("40 to ", kMaxDeckCards, " cards, got ", deck.main.size(), " (deck ",
                          deck.name, ")"));
    o.decks.push_back(std::move(deck));
  }
  if (gauntlet >= static_cast<int64_t>(o.decks.size()))
    r.Fail(At(t, "gauntlet"), "gauntlet",
           absl::StrCat("-1 or a deck index below ", o.decks.size(), ", got ", gauntlet));
  o.gauntlet = static_cast<int>(gauntlet);
  const auto pairs = Matchups(o);
  const std::string matchups_expected =
      absl::StrCat(pairs.size(), " [[matchups]] tables, one per matchup");
  const toml::node& matchups_node = r.Required(t, "matchups", matchups_expected);
  const std::vector<const toml::table*> matchups =
      r.Tables(matchups_node, "matchups", matchups_expected);
  if (matchups.size() != pairs.size()) r.Fail(matchups_node, "matchups", matchups_expected);
  for (size_t i = 0; i < pairs.size(); ++i) {
    const toml::table& mt = *matchups[i];
    auto key = [&](const char* k) { return absl::StrCat("matchups[", i, "].", k); };
    MatchupStats m;
    const int64_t deck_a = r.RequiredInt64(mt, "deck_a"), deck_b = r.RequiredInt64(mt, "deck_b");
    if (deck_a != pairs[i].first || deck_b != pairs[i].second)
      r.Fail(
          At(mt, "deck_a"), "matchups",
          absl::StrCat("matchup ", i, " between decks ", pairs[i].first, " and ", pairs[i].second));
    m.deck_a = pairs[i].first, m.deck_b = pairs[i].second;
    ForEachCount(
        m, [&](const char* k, int64_t& v) { v = r.RequiredInt64(mt, k, 0, kMaxGames * 1000); });
    std::array<int64_t, kSavedEndReasons> saved;
    ReadInts(r, mt, "end_reasons", saved);
    std::copy(saved.begin(), saved.end(), m.end_reasons.begin());
    m.end_reasons[kPoisonEnds] =
        mt.contains("poison_ends") ? r.RequiredInt64(mt, "poison_ends", 0, kMaxGames * 1000) : 0;
    ReadInts(r, mt, "turn_histogram", m.turn_histogram);
    // Kill turns (absent from studies saved before them: none so far).
    if (mt.contains("win_turns_a")) {
      ReadInts(r, mt, "win_turns_a", m.win_turns[0]);
      ReadInts(r, mt, "win_turns_b", m.win_turns[1]);
    }
    // Health counts (absent from studies saved before them: zero).
    if (mt.contains("mana_burn")) {
      ReadInts(r, mt, "mana_burn", m.mana_burn);
      ReadInts(r, mt, "burn_games", m.burn_games);
      ReadInts(r, mt, "own_harm", m.own_harm);
      ReadInts(r, mt, "own_harm_avoidable", m.own_harm_avoidable);
      m.first_cap_game = r.RequiredInt64(mt, "first_cap_game", -1, kMaxGames);
    }
    if (has_mulligan) {
      ReadInts(r, mt, "mulligans", m.mulligans);
      ReadInts(r, mt, "mulligan_games", m.mulligan_games);
      ReadInts(r, mt, "seat_mulligans", m.seat_mulligans);
    }
    // --checked counts (absent from studies saved before them: none checked).
    if (mt.contains("checked_games")) {
      m.checked_games = r.RequiredInt64(mt, "checked_games", 0, m.games);
      m.violations = r.RequiredInt64(mt, "violations", 0, m.checked_games);
      m.first_violation_game = r.RequiredInt64(mt, "first_violation_game", -1, kMaxGames);
    }
    for (int side = 0; side < 2; ++side) {
      const char* k = side ? "cards_b" : "cards_a";
      const int n = DistinctCount(o, side ? pairs[i].second : pairs[i].first);
      const std::string rows_expected = absl::StrCat(n, " rows, one per distinct card of the deck");
      const toml::array* rows = mt[k].as_array();
      if (!rows || static_cast<int>(rows->size()) != n) r.Fail(At(mt, k), key(k), rows_expected);
      for (int c = 0; c < n; ++c) {
        CardCounts& cc = m.cards.side[side][c];
        const toml::node& row_node = *rows->get(static_cast<size_t>(c));
        const toml::array* row = row_node.as_array();
        std::array<int64_t, 8 + kCastTurns> v{};
        if (row && row->size() == 6) {  // saved before the health counts
          std::array<int64_t, 6> old{};
          ReadInts(r, row_node, k, old);
          std::copy(old.begin(), old.end(), v.begin());
        } else {
          ReadInts(r, row_node, k, v);
        }
        cc.drawn = v[0], cc.opening = v[1], cc.cast = v[2];
        cc.drawn_score = v[3], cc.opening_score = v[4], cc.cast_score = v[5];
        cc.own_harm = v[6], cc.own_harm_avoidable = v[7];
        for (int t = 0; t < kCastTurns; ++t) cc.first_cast[t] = static_cast<int32_t>(v[8 + t]);
        // A count of games, and a score of at most 2 (half points) a game.
        for (auto [n_games, score] :
             {std::pair{cc.drawn, cc.drawn_score}, std::pair{cc.opening, cc.opening_score},
              std::pair{cc.cast, cc.cast_score}})
          if (n_games < 0 || n_games > m.games || score < 0 || score > 2 * n_games)
            r.Fail(row_node, absl::StrCat(key(k), "[", c, "]"),
                   absl::StrCat("[drawn, opening, cast] at most the matchup's ", m.games,
                                " games and their scores at most twice those, got [",
                                absl::StrJoin(v.begin(), v.begin() + 6, ", "), "]"));
        for (int i = 6; i < static_cast<int>(v.size()); ++i)
          if (v[i] < 0 || v[i] > kMaxGames * 1000)
            r.Fail(row_node, absl::StrCat(key(k), "[", c, "]"),
                   absl::StrCat("health counts from 0 to ", kMaxGames * 1000, ", got ", v[i]));
      }
    }
    if (has_match) {
      m.matches = r.RequiredInt64(mt, "matches", 0, kMaxGames);
      m.a_match_wins = r.RequiredInt64(mt, "a_match_wins", 0, m.matches);
      m.b_match_wins = r.RequiredInt64(mt, "b_match_wins", 0, m.matches);
      m.match_draws = r.RequiredInt64(mt, "match_draws", 0, m.matches);
      if (m.a_match_wins + m.b_match_wins + m.match_draws != m.matches)
        r.Fail(At(mt, "matches"), key("matches"),
               absl::StrCat("a_match_wins + b_match_wins + match_draws = matches, got ",
                            m.a_match_wins, " + ", m.b_match_wins, " + ", m.match_draws, " and ",
                            m.matches));
      if (m.games < m.matches || m.games > (2 * int64_t{o.match} - 1) * m.matches)
        r.Fail(At(mt, "games"), key("games"),
               absl::StrCat("from 1 to ", 2 * o.match - 1, " games per match (", m.matches,
                            " matches), got ", m.games));
    }
    // Progress is always whole blocks, or a finished matchup (a shard's
    // part of it): of matches with --match.
    const int64_t target = ShardGames(o);
    if (has_match) {
      if (m.matches > target || (m.matches % kBlockGames != 0 && m.matches != target))
        r.Fail(At(mt, "matches"), key("matches"),
               absl::StrCat("a multiple of ", kBlockGames, " up to ", target, ", or ", target,
                            ", got ", m.matches));
    } else if (m.games > target || (m.games % kBlockGames != 0 && m.games != target))
      r.Fail(At(mt, "games"), key("games"),
             absl::StrCat("a multiple of ", kBlockGames, " up to ", target, ", or ", target,
                          ", got ", m.games));
    if (m.a_wins + m.b_wins + m.draws != m.games)
      r.Fail(At(mt, "a_wins"), key("a_wins"),
             absl::StrCat("a_wins + b_wins + draws = games (", m.games, "), got ", m.a_wins, " + ",
                          m.b_wins, " + ", m.draws));
    if (m.first_player_wins > m.a_wins + m.b_wins)
      r.Fail(At(mt, "first_player_wins"), key("first_player_wins"),
             absl::StrCat("at most the games won (", m.a_wins + m.b_wins, "), got ",
                          m.first_player_wins));
    // At most six mulligans a game (a hand of one card is kept), none
    // without mulligans; seats and decks count the same ones.
    const int64_t most = o.mulligan == Mulligan::kNone ? 0 : 6 * m.games;
    for (int d = 0; d < 2; ++d)
      if (m.mulligans[d] < 0 || m.mulligans[d] > most || m.mulligan_games[d] < 0 ||
          m.mulligan_games[d] > std::min(m.games, m.mulligans[d]) || m.seat_mulligans[d] < 0)
        r.Fail(At(mt, "mulligans"), key("mulligans"),
               absl::StrCat("mulligans from 0 to ", most, " per deck, in at most that many of the ",
                            m.games, " games (mulligan = ", S(MulliganName(o.mulligan)), "), got [",
                            absl::StrJoin(m.mulligans, ", "), "] in [",
                            absl::StrJoin(m.mulligan_games, ", "), "]"));
    if (m.seat_mulligans[0] + m.seat_mulligans[1] != m.mulligans[0] + m.mulligans[1])
      r.Fail(At(mt, "seat_mulligans"), key("seat_mulligans"),
             absl::StrCat("the same total as mulligans (", m.mulligans[0] + m.mulligans[1],
                          "), got ", absl::StrJoin(m.seat_mulligans, ", ")));
    auto sum_of = [&](const auto& a, const char* k) {
      int64_t sum = 0;
      bool negative = false;
      for (int64_t v : a) negative |= v < 0 || v > m.games, sum += negative ? 0 : v;
      if (negative || sum != m.games)
        r.Fail(At(mt, k), key(k),
               absl::StrCat("counts from 0 to games adding up to games (", m.games, "), got ",
                            absl::StrJoin(a, ", ")));
    };
    sum_of(m.end_reasons, "end_reasons");
    sum_of(m.turn_histogram, "turn_histogram");
    // At most the wins: a study begun by an older strata lacks its first ones.
    for (int d = 0; d < 2; ++d) {
      int64_t sum = 0;
      bool negative = false;
      for (int64_t v : m.win_turns[d]) negative |= v < 0, sum += v;
      const int64_t wins = d == 0 ? m.a_wins : m.b_wins;
      const char* k = d == 0 ? "win_turns_a" : "win_turns_b";
      if (negative || sum > wins)
        r.Fail(At(mt, k), key(k),
               absl::StrCat("counts adding up to at most the wins (", wins, "), got ",
                            absl::StrJoin(m.win_turns[d], ", ")));
    }
    int64_t least_turns = 0;
    for (size_t k = 0; k < m.turn_histogram.size(); ++k)
      least_turns += static_cast<int64_t>(k) * m.turn_histogram[k];
    if (m.turns < least_turns)
      r.Fail(At(mt, "turns"), key("turns"),
             absl::StrCat("at least ", least_turns, " (by turn_histogram), got ", m.turns));
    s.progress.push_back(m);
  }
  // Last, since the checks above name a problem better: every value as
  // strata wrote it. A missing table is an error like a changed value: with
  // it taken out, an edited seed or rules would pass (issue 40).
  if (!t.contains("digests"))
    r.Fail(t, "digests",
           "the [digests] table strata writes (it is missing: the file was edited; a study's "
           "options and counts cannot change part way, so start a new study instead)");
  if (const toml::node* dn = t.get("digests")) {
    const toml::table* digests = dn->as_table();
    if (!digests) r.Fail(*dn, "digests", "a table of digests, as strata wrote it");
    // A shard whose shard and shards keys were taken out.
    if (digests && digests->contains("shard") && !has_shard)
      r.Fail(*dn, "shard", "its shard number");
    // A match study whose match key was taken out.
    if (digests && digests->contains("match") && !has_match)
      r.Fail(*dn, "match", "the games its matches are the best of");
    // Every digest strata writes must be there: a study from an older
    // strata (before mulligans, --checked or kill turns) lacks some, and
    // with a key and its digest taken out an edited study would pass (a
    // London mulligan read back as none). A missing digest is an error.
    for (auto& [k, value] : DigestedValues(s, db)) {
      if (digests && !digests->contains(k))
        r.Fail(*dn, absl::StrCat("digests.", k),
               absl::StrCat("the digest of '", k,
                            "' strata writes (it is missing: the study was written by an older "
                            "strata or edited; start a new study with this strata)"));
      auto want = (*digests)[k].value_exact<std::string>();
      if (!want || *want != Digest(k, value))
        r.Fail(t.contains(k) ? At(t, k) : At(*digests, k), k,
               "the value strata wrote (it no longer matches its digest: the file was edited "
               "or damaged; a study's options and counts cannot change part way, so start a "
               "new study instead)");
    }
  }
}

}  // namespace

absl::StatusOr<Study> LoadStudyCards(const std::string& dir) {
  std::string file;
  auto t = ParseStudyFile(dir, file);
  if (!t.ok()) return t.status();
  Study s;
  try {
    ReadCards(TomlReader(file), *t, s);
  } catch (const TomlError& e) {
    return absl::InvalidArgumentError(e.message);
  }
  return s;
}

absl::StatusOr<Study> LoadStudy(const std::string& dir, const CardDb& db) {
  std::string file;
  auto t = ParseStudyFile(dir, file);
  if (!t.ok()) return t.status();
  Study s;
  try {
    ReadStudy(TomlReader(file), dir, *t, db, s);
  } catch (const TomlError& e) {
    return absl::InvalidArgumentError(e.message);
  }
  return s;
}

}  // namespace strata
