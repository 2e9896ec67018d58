#include "sim/card_pool.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>

#include "absl/strings/str_join.h"
#include "engine/card_loader.h"

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

absl::Status LoadPool(const std::vector<std::string>& paths, bool override_cards, CardDb& db) {
  std::vector<std::string> replaced;
  CardLoadOptions options;
  options.replace_existing = override_cards;
  options.replaced = &replaced;
  absl::Status st = LoadCards(paths, db, options);
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
