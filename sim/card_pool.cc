#include "sim/card_pool.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "engine/card_loader.h"
#include "engine/strings.h"
#include "engine/toml_reader.h"

namespace strata {

std::string DefaultCardsPath() {
  if (std::filesystem::is_directory("data/cards")) return "data/cards";
  return std::string(STRATA_DATA_DIR) + "/cards";
}

std::vector<std::string> PoolPaths(const std::vector<std::string>& cards, bool no_default) {
  std::vector<std::string> in;
  if (!no_default) in.push_back(DefaultCardsPath());
  in.insert(in.end(), cards.begin(), cards.end());
  // As given (so messages name them so), each once: `data/cards/` and
  // `./data/cards` are `data/cards`.
  std::vector<std::string> out, seen;
  for (auto& p : in) {
    std::string abs = std::filesystem::absolute(p).lexically_normal().string();
    if (abs.size() > 1 && abs.back() == '/') abs.pop_back();
    if (std::find(seen.begin(), seen.end(), abs) != seen.end()) continue;
    seen.push_back(abs);
    out.push_back(p);
  }
  return out;
}

absl::Status LoadCardAliases(const std::string& path, CardDb& db) {
  auto text = ReadInputFile(path, "card aliases");
  if (!text.ok()) return text.status();
  auto parsed = ParseToml(*text, path);
  if (!parsed.ok()) return parsed.status();
  const TomlReader r(path);
  std::vector<std::string> errors;
  for (auto& [k, v] : *parsed)
    if (k.str() != "aliases") errors.push_back(r.Message(v, k.str(), "only an [aliases] table"));
  if (auto* t = parsed->get("aliases")) {
    if (!t->is_table()) {
      errors.push_back(r.Message(*t, "aliases", "a table of \"OLD NAME\" = \"CARD NAME\""));
    } else {
      for (auto& [k, v] : *t->as_table()) {
        const std::string old_name(k.str());
        auto to = v.value<std::string>();
        const CardId id = to ? db.Find(*to) : kNoCard;
        if (!to)
          errors.push_back(r.Message(v, old_name, "the name of a card of the pool, as a string"));
        else if (id == kNoCard)
          errors.push_back(r.Message(v, old_name,
                                     absl::StrCat("the name of a card of the pool, got '",
                                                  Shown(*to), "' (", db.ClosestNote(*to), ")")));
        else if (CardId own = db.Find(old_name); own != kNoCard)
          errors.push_back(r.Message(
              v, old_name,
              absl::StrCat("a name no card of the pool has; '", db[own].name, "' is a card")));
        else
          db.aliases[FoldCardName(old_name)] = id;
      }
    }
  }
  if (!errors.empty()) return absl::InvalidArgumentError(absl::StrJoin(errors, "\n"));
  return absl::OkStatus();
}

absl::Status LoadPool(const std::vector<std::string>& paths, bool override_cards, CardDb& db) {
  std::vector<std::string> replaced;
  CardLoadOptions options;
  options.replace_existing = override_cards;
  options.replaced = &replaced;
  absl::Status st = LoadCards(paths, db, options);
  // A directory of cards may have old spellings of its cards beside it
  // (data/cards: data/card_aliases.toml).
  for (size_t i = 0; st.ok() && i < paths.size(); ++i) {
    std::error_code ec;
    if (!std::filesystem::is_directory(paths[i], ec)) continue;
    const std::string aliases =
        (std::filesystem::path(paths[i]) / ".." / kCardAliasesFile).lexically_normal().string();
    if (std::filesystem::is_regular_file(aliases, ec)) st = LoadCardAliases(aliases, db);
  }
  if (st.ok() && override_cards)
    std::fprintf(stderr, "--override: %zu card%s replaced%s%s\n", replaced.size(),
                 replaced.size() == 1 ? "" : "s", replaced.empty() ? "" : ": ",
                 absl::StrJoin(replaced, "; ").c_str());
  return st;
}

bool LoadPoolOrPrintError(const std::vector<std::string>& paths, bool override_cards, CardDb& db) {
  absl::Status st = LoadPool(paths, override_cards, db);
  if (!st.ok()) std::fprintf(stderr, "%s\n", std::string(st.message()).c_str());
  return st.ok();
}

}  // namespace strata
