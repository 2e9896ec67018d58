#include "sim/format.h"

#include <algorithm>
#include <climits>
#include <cstdio>
#include <filesystem>
#include <map>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "engine/strings.h"
#include "engine/toml_reader.h"
#include "sim/card_pool.h"

namespace strata {

namespace fs = std::filesystem;

const char* const kFormatHelp =
    "deck legality, checked before any game: none (the default: no check), oldschool (Old "
    "School 93/94, Eternal Central rules: cards of Alpha to Fallen Empires, its restricted and "
    "banned lists, at least 60 cards, a sideboard of at most 15, at most 4 of a card but basic "
    "lands; data/formats/oldschool.toml, docs/formats.md), or a format file FILE.toml; an "
    "illegal deck gets one line per problem and exit 2";

namespace {

// The bundled data: ./data if a source checkout is here, else the source
// tree strata was built from (as for the bundled cards).
fs::path DataDir() {
  return fs::path(DefaultCardsPath()).parent_path();
}

// Set codes and format names become file names: only these characters, so
// a value never reaches outside its folder.
bool IsCode(std::string_view s) {
  return !s.empty() && s.size() <= 16 && std::all_of(s.begin(), s.end(), [](char c) {
    return absl::ascii_isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-';
  });
}

// YYYY-MM-DD, a real month and a day in 1..31 (the list's date is quoted in
// every message about it, so it must read as one).
bool IsDate(std::string_view s) {
  if (s.size() != 10 || s[4] != '-' || s[7] != '-') return false;
  for (size_t i : {0, 1, 2, 3, 5, 6, 8, 9})
    if (!absl::ascii_isdigit(static_cast<unsigned char>(s[i]))) return false;
  const int month = (s[5] - '0') * 10 + (s[6] - '0');
  const int day = (s[8] - '0') * 10 + (s[9] - '0');
  return month >= 1 && month <= 12 && day >= 1 && day <= 31;
}

std::vector<std::string> SetCodesIn(const fs::path& dir) {
  std::vector<std::string> codes;
  std::error_code ec;
  for (auto& e : fs::directory_iterator(dir, ec))
    if (e.path().extension() == ".txt") codes.push_back(e.path().stem().string());
  std::sort(codes.begin(), codes.end());
  return codes;
}

// The names of a set list, one a line, as written (blank lines and a
// Windows line end ignored).
std::vector<std::string> SetListNames(std::string_view text) {
  std::vector<std::string> names;
  for (absl::string_view line : absl::StrSplit(absl::string_view(text.data(), text.size()), '\n')) {
    line = absl::StripAsciiWhitespace(line);
    if (!line.empty()) names.emplace_back(line);
  }
  return names;
}

// Reads the whole format with TomlReader, which throws at the first
// mistake (caught in ParseFormat).
FormatRules ReadFormat(const toml::table& t, const TomlReader& r, const std::string& sets_dir) {
  r.CheckKeys(t, "a format file",
              {"name", "title", "list_date", "sets", "also_legal", "main_deck_min", "sideboard_max",
               "copies_max", "restricted", "banned"});
  FormatRules f;
  f.file = r.file();
  f.name = r.RequiredString(t, "name");
  if (!IsCode(f.name))
    r.Fail(
        *t.get("name"), "name",
        absl::StrCat("a format name of letters, digits, '-' and '_', got '", Shown(f.name), "'"));
  f.title = r.OptionalString(t, "title");
  f.list_date = r.RequiredString(t, "list_date");
  if (!IsDate(f.list_date))
    r.Fail(*t.get("list_date"), "list_date",
           absl::StrCat("the date of the restricted and banned lists as \"YYYY-MM-DD\", got '",
                        Shown(f.list_date), "'"));

  // Every name the lists may hold, exactly as written, for the lists'
  // check below.
  absl::flat_hash_set<std::string> exact;
  const toml::array& sets = r.Array(r.Required(t, "sets", "a list of set codes of data/sets"),
                                    "sets", "a list of set codes of data/sets");
  if (sets.empty())
    r.Fail(*t.get("sets"), "sets", "at least one set code of data/sets (e.g. \"LEA\")");
  for (const toml::node& e : sets) {
    const std::string code = r.String(e, "sets");
    const std::string path = (fs::path(sets_dir) / (code + ".txt")).string();
    absl::StatusOr<std::string> text = absl::NotFoundError("");
    if (IsCode(code)) text = ReadInputFile(path, "set list");
    if (!text.ok())
      r.Fail(e, "sets",
             absl::StrCat("a set code with a card list in ", sets_dir, " (",
                          JoinKeys(SetCodesIn(sets_dir)), "), got '", Shown(code), "'"));
    if (std::find(f.sets.begin(), f.sets.end(), code) != f.sets.end())
      r.Fail(e, "sets", absl::StrCat("each set code once, got '", code, "' twice"));
    f.sets.push_back(code);
    for (std::string& name : SetListNames(*text)) {
      f.legal.insert(FoldCardName(name));
      exact.insert(std::move(name));
    }
  }
  if (const toml::node* n = t.get("also_legal"))
    for (const toml::node& e : r.Array(*n, "also_legal", "a list of card names")) {
      const std::string name = r.String(e, "also_legal");
      if (absl::StripAsciiWhitespace(name).empty()) r.Fail(e, "also_legal", "a card name, got ''");
      f.legal.insert(FoldCardName(name));
      exact.insert(name);
    }

  // Optional sizes; absent, the loader's own limits are the only ones.
  if (const toml::node* n = t.get("main_deck_min"))
    f.main_deck_min = r.Int(*n, "main_deck_min", 1, kMaxDeckCards);
  if (const toml::node* n = t.get("sideboard_max"))
    f.sideboard_max = r.Int(*n, "sideboard_max", 0, kMaxObjects);
  if (const toml::node* n = t.get("copies_max"))
    f.copies_max = r.Int(*n, "copies_max", 1, kMaxDeckCards);

  // The lists: names as a set list writes them, each once, none in both
  // (restricted allows one copy, banned none: which would it be?).
  auto read_list = [&](const char* key, absl::flat_hash_set<std::string>& into,
                       const absl::flat_hash_set<std::string>* not_in, const char* not_in_key) {
    const toml::node* n = t.get(key);
    if (!n) return;
    for (const toml::node& e : r.Array(*n, key, "a list of card names")) {
      const std::string name = r.String(e, key);
      if (!exact.contains(name)) {
        std::string spelled;
        for (const std::string& known : exact)
          if (FoldCardName(known) == FoldCardName(name)) spelled = known;
        r.Fail(
            e, key,
            absl::StrCat("a card name exactly as a set list of `sets` (or also_legal) writes it, "
                         "got '",
                         Shown(name), "'",
                         spelled.empty() ? " (printed in none of the format's sets)"
                                         : absl::StrCat(" (the list writes '", spelled, "')")));
      }
      if (not_in && not_in->contains(FoldCardName(name)))
        r.Fail(e, key, absl::StrCat("a card not also in ", not_in_key, ", got '", name, "'"));
      if (!into.insert(FoldCardName(name)).second)
        r.Fail(e, key, absl::StrCat("each name once, got '", name, "' twice"));
    }
  };
  read_list("restricted", f.restricted, nullptr, "");
  read_list("banned", f.banned, &f.restricted, "restricted");
  return f;
}

// "4 Lightning Bolt" -> "Lightning Bolt", in every way a deck format writes
// a card line; "" when the line holds no card.
std::string CardNameOfLine(absl::string_view line) {
  line = absl::StripAsciiWhitespace(line);
  if (line.empty() || line[0] == '#' || absl::StartsWith(line, "//") || line[0] == '[') return "";
  if (absl::StartsWithIgnoreCase(line, "SB:"))
    line = absl::StripLeadingAsciiWhitespace(line.substr(3));
  // The count: digits, then an `x` (MWS) or nothing, then a space.
  size_t i = 0;
  while (i < line.size() && absl::ascii_isdigit(static_cast<unsigned char>(line[i]))) ++i;
  if (i == 0) return "";
  if (i < line.size() && (line[i] == 'x' || line[i] == 'X')) ++i;
  if (i >= line.size() || !absl::ascii_isspace(static_cast<unsigned char>(line[i]))) return "";
  line = absl::StripLeadingAsciiWhitespace(line.substr(i));
  if (!line.empty() && line[0] == '[') {  // MWS: `[LEA] Name`
    const size_t close = line.find(']');
    if (close == absl::string_view::npos) return "";
    line = absl::StripLeadingAsciiWhitespace(line.substr(close + 1));
  }
  if (size_t hash = line.find(" #"); hash != absl::string_view::npos) line = line.substr(0, hash);
  if (size_t bar = line.find('|'); bar != absl::string_view::npos) line = line.substr(0, bar);
  return std::string(absl::StripAsciiWhitespace(line));
}

CardId LookUp(const CardDb& db, std::string_view name) {
  const CardId id = db.Find(name);
  return id != kNoCard ? id : db.FindAlias(name);
}

// "1 in the main deck, 1 in the sideboard", or the part there is.
std::string WhereCopies(int main, int side) {
  std::vector<std::string> parts;
  if (main > 0) parts.push_back(absl::StrCat(main, " in the main deck"));
  if (side > 0) parts.push_back(absl::StrCat(side, " in the sideboard"));
  return absl::StrJoin(parts, ", ");
}

}  // namespace

absl::StatusOr<FormatRules> ParseFormat(std::string_view text, const std::string& file,
                                        const std::string& sets_dir) {
  auto parsed = ParseToml(text, file);
  if (!parsed.ok()) return parsed.status();
  const TomlReader r(file);
  try {
    return ReadFormat(*parsed, r, sets_dir);
  } catch (const TomlError& e) {
    return absl::InvalidArgumentError(e.message);
  }
}

std::vector<std::string> BundledFormatNames() {
  std::vector<std::string> names;
  std::error_code ec;
  for (auto& e : fs::directory_iterator(DataDir() / "formats", ec))
    if (e.path().extension() == ".toml") names.push_back(e.path().stem().string());
  std::sort(names.begin(), names.end());
  return names;
}

absl::StatusOr<std::optional<FormatRules>> LoadFormat(std::string_view value) {
  if (value == "none") return std::nullopt;
  std::string path(value);
  const bool is_file =
      value.find('/') != std::string_view::npos || absl::EndsWith(S(value), ".toml");
  if (!is_file) {
    std::vector<std::string> known = BundledFormatNames();
    if (!IsCode(value) || std::find(known.begin(), known.end(), value) == known.end())
      return absl::InvalidArgumentError(
          absl::StrCat("--format: unknown format '", Shown(value), "': expected none, ",
                       known.empty() ? "" : absl::StrCat(absl::StrJoin(known, ", "), ", "),
                       "or a format file FILE.toml (docs/formats.md)"));
    path = (DataDir() / "formats" / (path + ".toml")).string();
  }
  auto text = ReadInputFile(path, "format");
  if (!text.ok())
    return absl::InvalidArgumentError(absl::StrCat("--format: ", text.status().message()));
  auto f = ParseFormat(*text, path, (DataDir() / "sets").string());
  if (!f.ok()) return f.status();
  return std::optional<FormatRules>(*std::move(f));
}

std::vector<int> LocateCardLines(std::string_view text, const CardDb& db, CardId card) {
  std::vector<int> lines;
  int line_no = 0;
  for (absl::string_view line : absl::StrSplit(absl::string_view(text.data(), text.size()), '\n')) {
    ++line_no;
    std::string name = CardNameOfLine(line);
    if (name.empty()) continue;
    CardId id = LookUp(db, name);
    // MTGA: `Name (SET) 146` or `Name (SET)`: the name before the last ` (`.
    if (id == kNoCard)
      if (size_t paren = name.rfind(" ("); paren != std::string::npos)
        id = LookUp(db, name.substr(0, paren));
    if (id == card) lines.push_back(line_no);
  }
  return lines;
}

std::string CardNotAllowed(const FormatRules& format, const CardDb& db, CardId card) {
  const std::string& name = db[card].name;
  const std::string folded = FoldCardName(name);
  if (format.banned.contains(folded))
    return absl::StrCat("'", name, "' is banned in ", format.name, " (list of ", format.list_date,
                        "): no copy in the deck nor its sideboard");
  if (!format.legal.contains(folded))
    return absl::StrCat("'", name, "' is not printed in an allowed set of ", format.name, " (",
                        absl::StrJoin(format.sets, ", "), ")");
  return "";
}

std::vector<std::string> DeckProblems(const FormatRules& format, const CardDb& db, const Deck& deck,
                                      const std::string& path) {
  std::vector<std::string> out;
  // A deck of no file (a command's variant of one) is named by its label.
  const std::string& where_deck = path.empty() ? deck.name : path;
  const int main_size = static_cast<int>(deck.main.size());
  const int side_size = static_cast<int>(deck.sideboard.size());
  if (main_size < format.main_deck_min)
    out.push_back(absl::StrCat(where_deck, ": the main deck has ", main_size, " cards; ",
                               format.name, " needs at least ", format.main_deck_min));
  if (format.sideboard_max >= 0 && side_size > format.sideboard_max)
    out.push_back(absl::StrCat(where_deck, ": the sideboard has ", side_size, " cards; ",
                               format.name, " allows at most ", format.sideboard_max));

  // Copies per card, the main deck and the sideboard together, in the
  // deck's order.
  struct Copies {
    int main = 0, side = 0;
  };
  std::vector<CardId> order;
  absl::flat_hash_map<CardId, Copies> copies;
  for (const auto* part : {&deck.main, &deck.sideboard})
    for (CardId c : *part) {
      auto [it, added] = copies.try_emplace(c);
      if (added) order.push_back(c);
      (part == &deck.main ? it->second.main : it->second.side) += 1;
    }

  const std::string list = absl::StrCat("list of ", format.list_date);
  struct CardProblem {
    int line;  // the first line of the card; INT_MAX: not found
    size_t order;
    std::string message;
  };
  std::vector<CardProblem> problems;
  // The file once, for the lines (a deck that loaded can be read again; if
  // it cannot, the messages name the file alone).
  const auto text = path.empty() ? absl::StatusOr<std::string>(absl::NotFoundError("no file"))
                                 : ReadInputFile(path, "deck");
  for (size_t k = 0; k < order.size(); ++k) {
    const CardId c = order[k];
    const CardDef& card = db[c];
    const std::string folded = FoldCardName(card.name);
    const Copies n = copies[c];
    const int total = n.main + n.side;
    const std::string has =
        absl::StrCat("this deck has ", total, " (", WhereCopies(n.main, n.side), ")");
    // A card that may not be in the deck at all is that one problem; its
    // copies are moot.
    std::string what = CardNotAllowed(format, db, c);
    if (format.banned.contains(folded)) absl::StrAppend(&what, "; ", has);
    if (!what.empty()) {
      // said above
    } else if (format.restricted.contains(folded) && total > 1) {
      what = absl::StrCat("'", card.name, "' is restricted in ", format.name, " (", list,
                          "): at most 1 copy, the sideboard counting with the main deck; ", has);
    } else if (format.copies_max > 0 && total > format.copies_max &&
               !Has(card.supertypes, kBasic)) {
      what = absl::StrCat("'", card.name, "': ", format.name, " allows at most ", format.copies_max,
                          " copies of a card but a basic land, the sideboard counting with the "
                          "main deck; ",
                          has);
    }
    if (what.empty()) continue;
    std::vector<int> lines;
    if (text.ok()) lines = LocateCardLines(*text, db, c);
    std::string where = lines.empty() ? where_deck : absl::StrCat(path, ":", lines[0]);
    if (lines.size() > 1) absl::StrAppend(&what, " (lines ", absl::StrJoin(lines, ", "), ")");
    problems.push_back({lines.empty() ? INT_MAX : lines[0], k, absl::StrCat(where, ": ", what)});
  }
  std::stable_sort(problems.begin(), problems.end(),
                   [](const CardProblem& a, const CardProblem& b) { return a.line < b.line; });
  for (CardProblem& p : problems) out.push_back(std::move(p.message));
  return out;
}

int CheckDecksForFormat(std::string_view format, const CardDb& db,
                        const std::vector<const Deck*>& decks,
                        const std::vector<std::string>& paths) {
  auto loaded = LoadFormat(format);
  if (!loaded.ok()) {
    std::fprintf(stderr, "%s\n", std::string(loaded.status().message()).c_str());
    return kExitIllegalDeck;
  }
  if (!loaded->has_value()) return 0;
  const FormatRules& f = **loaded;
  int illegal = 0, problems = 0;
  // A file given twice (`--decks a.txt,a.txt`) is one deck's problems,
  // said once.
  absl::flat_hash_set<std::string> said;
  for (size_t i = 0; i < decks.size(); ++i) {
    const std::vector<std::string> found =
        DeckProblems(f, db, *decks[i], i < paths.size() ? paths[i] : "");
    illegal += !found.empty();
    for (const std::string& p : found)
      if (said.insert(p).second) {
        std::fprintf(stderr, "%s\n", p.c_str());
        ++problems;
      }
  }
  if (illegal == 0) return 0;
  std::fprintf(stderr,
               "--format %s: %d of %zu deck%s %s not legal (%d problem%s); no game played\n",
               f.name.c_str(), illegal, decks.size(), decks.size() == 1 ? "" : "s",
               illegal == 1 ? "is" : "are", problems, problems == 1 ? "" : "s");
  return kExitIllegalDeck;
}

}  // namespace strata
