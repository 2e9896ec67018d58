#include "engine/deck.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <set>
#include <sstream>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "engine/strings.h"
#include "engine/toml_reader.h"
#include "engine/types.h"

namespace strata {

std::string_view DeckFormatName(DeckFormat f) {
  switch (f) {
    case DeckFormat::kStrata:
      return "strata";
    case DeckFormat::kForge:
      return "Forge .dck";
    case DeckFormat::kArena:
      return "MTGA export";
    case DeckFormat::kDec:
      return ".dec/MWS";
  }
  return "?";
}

namespace {

// What one line of a decklist is, read the same way whatever the format;
// `format` says which format's own syntax it uses (kStrata: syntax every
// format shares), so a file mixing two formats is caught.
struct DeckLine {
  enum Kind {
    kBlank,
    kComment,
    kSection,    // Forge `[Main]`
    kMeta,       // Forge `Name=Burn`
    kHeader,     // `Deck`, `Sideboard`, `Commander`, ... (MTGA; `Sideboard` anywhere)
    kAboutName,  // MTGA `Name Burn` after `About`
    kCard,
    kBad,
  };
  Kind kind = kBlank;
  DeckFormat format = DeckFormat::kStrata;
  std::string word;                 // the section or header, lowercased; the meta key; the name
  std::string value;                // the meta value
  std::string count;                // a card line's count as written (digits only)
  std::string name;                 // a card line's card name
  bool sideboard = false;           // a card line marked `SB:`
  std::string what;                 // the format-specific syntax, for a mixed-format error
  std::string as_written;           // a section or header as the file writes it, for notes
  bool in_skipped_section = false;  // under a Forge section strata skips whole
};

// Forge's sections strata reads; Forge writes others (`[Commander]`,
// `[Planes]`, `[Schemes]`, `[Avatar]`, its adventure mode's
// `[StartInBattle_Reference]`, ...), which a two-player game without those
// rules skips, as Forge itself skips a section it does not know.
bool ForgeSectionRead(const std::string& lowered) {
  return lowered == "metadata" || lowered == "main" || lowered == "sideboard";
}

bool AllDigits(absl::string_view s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), absl::ascii_isdigit);
}

bool SetCode(absl::string_view s) {
  return !s.empty() && s.size() <= 8 && std::all_of(s.begin(), s.end(), absl::ascii_isalnum);
}

// Reads `COUNT NAME` with each format's decorations around the name.
DeckLine CardLine(absl::string_view l) {
  DeckLine d;
  d.kind = DeckLine::kBad;
  if (absl::StartsWithIgnoreCase(l, "SB:")) {
    d.sideboard = true;
    d.format = DeckFormat::kDec;
    d.what = "a `SB:` line";
    l = absl::StripLeadingAsciiWhitespace(l.substr(3));
  }
  size_t space = l.find_first_of(" \t");
  if (space == absl::string_view::npos) return d;
  absl::string_view count = l.substr(0, space);
  if (count.size() > 1 && (count.back() == 'x' || count.back() == 'X'))
    count.remove_suffix(1);  // `4x Name`: .dec, and many sites' exports
  size_t digits_from = !count.empty() && count[0] == '-' ? 1 : 0;
  if (!AllDigits(count.substr(digits_from))) return d;
  absl::string_view name = absl::StripAsciiWhitespace(l.substr(space));
  if (absl::StartsWith(name, "[")) {  // MWS: `4 [LEA] Lightning Bolt`
    size_t close = name.find(']');
    if (close == absl::string_view::npos) return d;
    name = absl::StripLeadingAsciiWhitespace(name.substr(close + 1));
    d.format = DeckFormat::kDec;
    d.what = "an MWS `[SET]` line";
  }
  if (size_t bar = name.find('|'); bar != absl::string_view::npos) {  // Forge: `Name|SET|ART`
    name = absl::StripTrailingAsciiWhitespace(name.substr(0, bar));
    if (d.format != DeckFormat::kStrata) return d;
    d.format = DeckFormat::kForge;
    d.what = "a Forge `NAME|SET` line";
  } else if (size_t open = name.rfind(" ("); open != absl::string_view::npos) {
    // MTGA: `Name (SET) 146`, the number optional and maybe not a number.
    size_t close = name.find(')', open);
    absl::string_view after =
        close == absl::string_view::npos ? "" : absl::StripAsciiWhitespace(name.substr(close + 1));
    if (close != absl::string_view::npos && SetCode(name.substr(open + 2, close - open - 2)) &&
        after.find_first_of(" \t") == absl::string_view::npos) {
      name = absl::StripTrailingAsciiWhitespace(name.substr(0, open));
      if (d.format != DeckFormat::kStrata) return d;
      d.format = DeckFormat::kArena;
      d.what = "an MTGA `NAME (SET) NUMBER` line";
    }
  }
  if (name.empty()) return d;
  d.kind = DeckLine::kCard;
  d.count = std::string(count);
  d.name = std::string(name);
  return d;
}

DeckLine ReadLine(absl::string_view raw, bool after_about) {
  DeckLine d;
  absl::string_view l = absl::StripAsciiWhitespace(raw);
  if (l.empty()) return d;
  if (l[0] == '#' || absl::StartsWith(l, "//")) {
    d.kind = DeckLine::kComment;
    // MWS: `// NAME : Burn` names the deck.
    absl::string_view rest = absl::StripLeadingAsciiWhitespace(l.substr(l[0] == '#' ? 1 : 2));
    if (l[0] == '/' && absl::StartsWithIgnoreCase(rest, "name")) {
      absl::string_view after = absl::StripLeadingAsciiWhitespace(rest.substr(4));
      if (absl::StartsWith(after, ":")) {
        d.word = std::string(absl::StripAsciiWhitespace(after.substr(1)));
        d.format = DeckFormat::kDec;
        d.what = "an MWS `// NAME :` line";
      }
    }
    return d;
  }
  // A `#` after the card is strata's trailing comment (no card name has one).
  l = absl::StripTrailingAsciiWhitespace(l.substr(0, l.find('#')));
  if (l.front() == '[' && l.back() == ']') {
    d.kind = DeckLine::kSection;
    d.format = DeckFormat::kForge;
    d.what = "a Forge `[section]` line";
    d.as_written = std::string(l);
    d.word =
        absl::AsciiStrToLower(std::string(absl::StripAsciiWhitespace(l.substr(1, l.size() - 2))));
    return d;
  }
  std::string lower = absl::AsciiStrToLower(std::string(l));
  if (!lower.empty() && lower.back() == ':') lower.pop_back();
  if (lower == "sideboard") {
    d.kind = DeckLine::kHeader;
    d.word = lower;
    return d;
  }
  if (lower == "deck" || lower == "commander" || lower == "companion" || lower == "about") {
    d.kind = DeckLine::kHeader;
    d.word = lower;
    d.as_written = absl::StrCat("`", std::string(l), "`");
    d.format = DeckFormat::kArena;
    d.what = absl::StrCat("an MTGA `", std::string(l), "` line");
    return d;
  }
  if (after_about && absl::StartsWithIgnoreCase(l, "name ")) {
    d.kind = DeckLine::kAboutName;
    d.word = std::string(absl::StripAsciiWhitespace(l.substr(5)));
    d.format = DeckFormat::kArena;
    d.what = "an MTGA `Name` line";
    return d;
  }
  if (!absl::ascii_isdigit(l[0]) && l[0] != '-' && !absl::StartsWithIgnoreCase(l, "SB:")) {
    if (size_t eq = l.find('='); eq != absl::string_view::npos && eq > 0) {
      d.kind = DeckLine::kMeta;
      d.word = std::string(absl::StripAsciiWhitespace(l.substr(0, eq)));
      d.value = std::string(absl::StripAsciiWhitespace(l.substr(eq + 1)));
      return d;  // Forge's, but only [metadata] decides that
    }
  }
  DeckLine card = CardLine(l);
  if (card.kind == DeckLine::kBad) card.name = std::string(l);
  return card;
}

// The line a file's format shows, as the format expects it.
std::string Expected(DeckFormat f) {
  switch (f) {
    case DeckFormat::kStrata:
      return "`COUNT NAME` (e.g. `4 Lightning Bolt`)";
    case DeckFormat::kForge:
      return "`COUNT NAME|SET` (a Forge .dck line, e.g. `4 Lightning Bolt|LEA`), a "
             "`[section]` or `KEY=VALUE` in [metadata]";
    case DeckFormat::kArena:
      return "`COUNT NAME (SET) NUMBER` (an MTGA export line, e.g. `4 Lightning Bolt (M10) "
             "146`), or a `Deck`, `Sideboard` or `Companion` line";
    case DeckFormat::kDec:
      return "`COUNT NAME` or `SB: COUNT NAME` (a .dec line, e.g. `4x Lightning Bolt`)";
  }
  return "";
}

}  // namespace

absl::StatusOr<Deck> ParseDeck(std::string_view text, const std::string& file, const CardDb& db) {
  Deck deck;
  deck.name = std::filesystem::path(file).stem().string();
  std::string all(text);
  if (absl::StartsWith(all, "\xEF\xBB\xBF")) all.erase(0, 3);  // a UTF-8 byte order mark

  // First the lines, and the format: the first line with a format's own
  // syntax decides it; a line with another format's is an error.
  std::vector<DeckLine> lines;
  int format_line = 0;
  std::string format_what;
  bool after_about = false;
  bool in_skipped_section = false;  // a Forge section skipped whole: its lines decide nothing
  for (absl::string_view raw : absl::StrSplit(all, '\n')) {
    lines.push_back(ReadLine(raw, after_about));
    DeckLine& d = lines.back();
    if (d.kind == DeckLine::kHeader) after_about = d.word == "about";
    if (d.kind == DeckLine::kSection) {
      in_skipped_section = !ForgeSectionRead(d.word);
    } else if (in_skipped_section) {
      d.in_skipped_section = true;
      continue;
    }
    if (d.format == DeckFormat::kStrata) continue;
    const int line_no = static_cast<int>(lines.size());
    if (format_line == 0) {
      deck.format = d.format;
      format_line = line_no;
      format_what = d.what;
    } else if (d.format != deck.format) {
      return absl::InvalidArgumentError(
          absl::StrCat(file, ":", line_no, ": ", d.what, " in a file that reads as ",
                       S(DeckFormatName(deck.format)), " (line ", format_line, ": ", format_what,
                       "): expected one decklist format per file"));
    }
  }

  std::vector<std::string> errors;
  auto error = [&](int line_no, const std::string& what) {
    errors.push_back(absl::StrCat(file, ":", line_no, ": ", what));
  };
  // Where card lines go: the main deck, the sideboard, a part strata
  // skips with a note (a commander, Forge's [Planes], ...), or one whose
  // cards are errors (MTGA's `About`).
  enum Part { kMain, kSideboard, kSkipped, kOther, kMetadata, kNone };
  Part part = deck.format == DeckFormat::kForge ? kNone : kMain;
  std::string section;             // Forge's current section, as written
  bool blank_after_cards = false;  // MTGA: a blank line after main cards starts the sideboard
  std::optional<std::string> own_name;
  // The skipped parts with cards, in the file's order, for one note.
  struct SkippedPart {
    std::string label;  // `[Planes]`, `Commander`
    int64_t cards = 0;
    std::vector<std::string> names;  // distinct, in order
  };
  std::vector<SkippedPart> skipped;
  std::vector<std::string> unknown_in_sideboard;  // "'Name' (line N)"
  for (size_t i = 0; i < lines.size(); ++i) {
    const DeckLine& d = lines[i];
    const int line_no = static_cast<int>(i) + 1;
    if (d.in_skipped_section) {
      if (d.kind == DeckLine::kCard) {
        int64_t count = 0;
        SkippedPart& p = skipped.back();
        if (absl::SimpleAtoi(d.count, &count) && count > 0) p.cards += count;
        if (std::find(p.names.begin(), p.names.end(), d.name) == p.names.end())
          p.names.push_back(d.name);
      }
      continue;
    }
    switch (d.kind) {
      case DeckLine::kBlank:
        if (deck.format == DeckFormat::kArena && part == kMain && !deck.main.empty())
          blank_after_cards = true;
        continue;
      case DeckLine::kComment:
        if (!d.word.empty()) own_name = d.word;
        continue;
      case DeckLine::kSection:
        section = d.word;
        part = d.word == "metadata"    ? kMetadata
               : d.word == "main"      ? kMain
               : d.word == "sideboard" ? kSideboard
                                       : kSkipped;
        if (part == kSkipped) skipped.push_back({d.as_written, 0, {}});
        continue;
      case DeckLine::kMeta:
        if (part != kMetadata) {
          error(line_no, absl::StrCat("expected ", Expected(deck.format), ", got '", d.word, "=",
                                      d.value, "' (KEY=VALUE lines belong in [metadata])"));
        } else if (absl::AsciiStrToLower(d.word) == "name" && !d.value.empty()) {
          own_name = d.value;
        }
        continue;
      case DeckLine::kHeader:
        blank_after_cards = false;
        part = d.word == "sideboard" || d.word == "companion" ? kSideboard
               : d.word == "commander"                        ? kSkipped
               : d.word == "about"                            ? kOther
                                                              : kMain;
        if (part == kSkipped) skipped.push_back({d.as_written, 0, {}});
        section = d.word;
        continue;
      case DeckLine::kAboutName:
        if (!d.word.empty()) own_name = d.word;
        continue;
      case DeckLine::kBad:
        error(line_no, absl::StrCat("expected ", Expected(deck.format), ", got '", d.name, "'"));
        continue;
      case DeckLine::kCard:
        break;
    }
    int64_t count = 0;
    if (!absl::SimpleAtoi(d.count, &count) || count < 1 || count > kMaxDeckCards) {
      error(line_no,
            absl::StrCat("count ", d.count, " is out of range: expected 1 to ", kMaxDeckCards,
                         " copies (a deck holds at most ", kMaxDeckCards, " cards)"));
      continue;
    }
    if (part == kNone || part == kMetadata) {
      error(line_no,
            absl::StrCat("a card line ", part == kNone ? "before any section" : "in [metadata]",
                         ": expected it under [Main] or [Sideboard], got '", d.count, " ", d.name,
                         "'"));
      continue;
    }
    if (part == kSkipped) {  // MTGA's `Commander` (Forge's are marked in_skipped_section)
      SkippedPart& p = skipped.back();
      p.cards += count;
      if (std::find(p.names.begin(), p.names.end(), d.name) == p.names.end())
        p.names.push_back(d.name);
      continue;
    }
    if (part == kOther) {
      error(line_no, absl::StrCat("a card under `", section,
                                  "`: expected cards only under `Deck`, `Sideboard`, `Companion` "
                                  "and `Commander`, got '",
                                  Shown(d.name), "'"));
      continue;
    }
    const bool sideboard = d.sideboard || part == kSideboard || blank_after_cards;
    CardId id = db.Find(d.name);
    if (id == kNoCard) {
      id = db.FindAlias(d.name);
      if (id != kNoCard)
        deck.notes.push_back(absl::StrCat(file, ":", line_no, ": ", db.AliasNote(d.name, id)));
    }
    if (id == kNoCard && sideboard) {
      // No game plays the sideboard, so a card strata lacks there is no
      // reason to refuse the deck: it is left out and named.
      unknown_in_sideboard.push_back(absl::StrCat("'", Shown(d.name), "' (line ", line_no, ")"));
      continue;
    }
    if (id == kNoCard) {
      error(line_no,
            absl::StrCat("unknown card '", Shown(d.name), "' (", db.ClosestNote(d.name), ")"));
      continue;
    }
    auto& list = sideboard ? deck.sideboard : deck.main;
    for (int64_t k = 0; k < count; ++k) list.push_back(id);
    // The sideboard alone may be big; what a game holds is the main deck.
    // Reading stops here; a main deck is named by its own limit (issue 40:
    // a 600-card deck cited the sideboard's), which the check of the whole
    // deck below says for a smaller excess.
    if (list.size() > static_cast<size_t>(kMaxObjects)) {
      error(line_no, sideboard
                         ? absl::StrCat("expected at most ", kMaxObjects, " cards in the sideboard")
                         : absl::StrCat("expected at most ", kMaxDeckCards,
                                        " cards in the main deck (a game holds ", kMaxObjects,
                                        " objects, two decks); this line makes it ", list.size()));
      break;
    }
  }
  if (own_name && !own_name->empty()) deck.name = *own_name;
  deck.name = ValidUtf8(deck.name);  // the label every output names (issue 40)
  if (errors.empty() && deck.main.size() < 40)
    errors.push_back(
        absl::StrCat(file, ": a deck needs at least 40 cards, this one has ", deck.main.size(),
                     deck.sideboard.empty()
                         ? ""
                         : absl::StrCat(" (and ", deck.sideboard.size(), " in its sideboard)")));
  // Both decks' main parts are the objects of a game (kMaxObjects).
  if (errors.empty() && deck.main.size() > static_cast<size_t>(kMaxDeckCards))
    errors.push_back(absl::StrCat(file, ": a deck holds at most ", kMaxDeckCards,
                                  " cards (a game holds ", kMaxObjects,
                                  " objects, two decks), this one has ", deck.main.size()));
  if (!errors.empty()) return absl::InvalidArgumentError(absl::StrJoin(errors, "\n"));
  std::vector<std::string> parts;
  for (const SkippedPart& p : skipped) {
    if (p.cards == 0) continue;  // an empty section leaves nothing out
    std::vector<std::string> names(p.names.begin(),
                                   p.names.begin() + std::min<size_t>(p.names.size(), 3));
    if (p.names.size() > 3) names.push_back("...");
    parts.push_back(absl::StrCat(p.label, " ", p.cards, p.cards == 1 ? " card" : " cards", " (",
                                 absl::StrJoin(names, ", "), ")"));
  }
  const bool forge = deck.format == DeckFormat::kForge;
  if (!parts.empty())
    deck.notes.push_back(
        absl::StrCat(file, ": skipped ", absl::StrJoin(parts, ", "), ": strata plays ",
                     forge ? "[Main] (and keeps [Sideboard])" : "`Deck` (and keeps `Sideboard`)",
                     ", in two-player games without a commander, planes or schemes"));
  if (!unknown_in_sideboard.empty())
    deck.notes.push_back(
        absl::StrCat(file, ": sideboard: left out ", unknown_in_sideboard.size(),
                     unknown_in_sideboard.size() == 1 ? " unknown card: " : " unknown cards: ",
                     absl::StrJoin(unknown_in_sideboard, ", "), " (no game plays the sideboard)"));
  return deck;
}

absl::StatusOr<Deck> LoadDeckFile(const std::string& path, const CardDb& db) {
  auto text = ReadInputFile(path, "deck");  // bounded; a directory is refused by name
  if (!text.ok()) return text.status();
  return ParseDeck(*text, path, db);
}

void MakeDeckLabelsUnique(std::vector<Deck>& decks, const std::vector<std::string>& paths) {
  namespace fs = std::filesystem;
  std::map<std::string, std::vector<size_t>> by_label;
  for (size_t i = 0; i < decks.size(); ++i) by_label[decks[i].name].push_back(i);
  for (auto& [label, which] : by_label) {
    if (which.size() < 2) continue;
    std::set<std::string> dirs;
    for (size_t i : which)
      if (i < paths.size())
        dirs.insert(fs::absolute(paths[i]).lexically_normal().parent_path().filename().string());
    if (dirs.size() == which.size() && !dirs.count("")) {
      for (size_t i : which)
        decks[i].name = absl::StrCat(
            fs::absolute(paths[i]).lexically_normal().parent_path().filename().string(), "/",
            label);
    } else {
      for (size_t k = 1; k < which.size(); ++k)
        decks[which[k]].name = absl::StrCat(label, " (", k + 1, ")");
    }
  }
  // A label made above may be another deck's own (a deck named `v1/burn`):
  // numbered like the rest.
  std::set<std::string> taken;
  for (auto& d : decks) {
    d.name = ValidUtf8(d.name);  // a directory's name may be no UTF-8
    std::string label = d.name;
    for (int k = 2; taken.count(label); ++k) label = absl::StrCat(d.name, " (", k, ")");
    d.name = label;
    taken.insert(label);
  }
}

std::string SideboardNote(const Deck& deck) {
  if (deck.sideboard.empty()) return "";
  return absl::StrCat(deck.name, ": sideboard: ", deck.sideboard.size(),
                      " cards, not used (games are single games of the main deck)");
}

std::vector<std::string> DeckNotes(const Deck& deck) {
  std::vector<std::string> out;
  if (std::string note = SideboardNote(deck); !note.empty()) out.push_back(note);
  out.insert(out.end(), deck.notes.begin(), deck.notes.end());
  return out;
}

}  // namespace strata
