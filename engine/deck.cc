#include "engine/deck.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "engine/types.h"

namespace strata {

absl::StatusOr<Deck> ParseDeck(std::string_view text, const std::string& file, const CardDb& db) {
  Deck deck;
  deck.name = std::filesystem::path(file).stem().string();
  std::vector<std::string> errors;
  bool sideboard = false;
  int line_no = 0;
  std::string all(text);
  for (absl::string_view raw : absl::StrSplit(all, '\n')) {
    ++line_no;
    std::string line(raw.substr(0, raw.find('#')));
    absl::string_view l = absl::StripAsciiWhitespace(line);
    if (l.empty()) continue;
    if (absl::AsciiStrToLower(std::string(l)) == "sideboard" ||
        absl::AsciiStrToLower(std::string(l)) == "sideboard:") {
      sideboard = true;
      continue;
    }
    size_t space = l.find_first_of(" \t");
    std::string number(l.substr(0, space == absl::string_view::npos ? l.size() : space));
    size_t digits_from = !number.empty() && number[0] == '-' ? 1 : 0;
    bool numeric = number.size() > digits_from &&
                   std::all_of(number.begin() + digits_from, number.end(), absl::ascii_isdigit);
    if (space == absl::string_view::npos || !numeric) {
      errors.push_back(absl::StrCat(file, ":", line_no,
                                    ": expected `COUNT NAME` (e.g. "
                                    "`4 Lightning Bolt`), got '",
                                    std::string(l), "'"));
      continue;
    }
    int64_t count = 0;
    if (!absl::SimpleAtoi(number, &count) || count < 1 || count > kMaxDeckCards) {
      errors.push_back(absl::StrCat(file, ":", line_no, ": count ", number,
                                    " is out of range: expected 1 to ", kMaxDeckCards,
                                    " copies (a deck holds at most ", kMaxDeckCards, " cards)"));
      continue;
    }
    std::string name(absl::StripAsciiWhitespace(l.substr(space)));
    CardId id = db.Find(name);
    if (id == kNoCard) {
      errors.push_back(absl::StrCat(file, ":", line_no, ": unknown card '", name,
                                    "' (closest: ", absl::StrJoin(db.Closest(name), ", "), ")"));
      continue;
    }
    auto& list = sideboard ? deck.sideboard : deck.main;
    for (int i = 0; i < count; ++i) list.push_back(id);
  }
  if (errors.empty() && deck.main.size() < 40)
    errors.push_back(
        absl::StrCat(file, ": a deck needs at least 40 cards, this one has ", deck.main.size()));
  // Both decks' main parts are the objects of a game (kMaxObjects).
  if (errors.empty() && deck.main.size() > static_cast<size_t>(kMaxDeckCards))
    errors.push_back(absl::StrCat(file, ": a deck holds at most ", kMaxDeckCards,
                                  " cards (a game holds ", kMaxObjects,
                                  " objects, two decks), this one has ", deck.main.size()));
  if (!errors.empty()) return absl::InvalidArgumentError(absl::StrJoin(errors, "\n"));
  return deck;
}

absl::StatusOr<Deck> LoadDeckFile(const std::string& path, const CardDb& db) {
  std::ifstream in(path);
  if (!in) return absl::NotFoundError(absl::StrCat(path, ": cannot open deck file"));
  std::stringstream ss;
  ss << in.rdbuf();
  return ParseDeck(ss.str(), path, db);
}

}  // namespace strata
