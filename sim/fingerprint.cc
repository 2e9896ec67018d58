#include "sim/fingerprint.h"

#include <set>
#include <sstream>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "toml++/toml.h"

namespace strata {

uint64_t Hash64(std::string_view s) {
  uint64_t h = 0xcbf29ce484222325ull;
  for (unsigned char c : s) h = (h ^ c) * 0x100000001b3ull;
  // splitmix64's finalizer: FNV-1a's low bits alone mix poorly.
  h ^= h >> 30;
  h *= 0xbf58476d1ce4e5b9ull;
  h ^= h >> 27;
  h *= 0x94d049bb133111ebull;
  return h ^ (h >> 31);
}

std::string Hex(uint64_t h) {
  return absl::StrFormat("%016x", h);
}

CardFingerprints FingerprintCards(const CardDb& db) {
  // (file, name) -> the card's table as toml++ writes it (keys sorted,
  // values normalized), from each file the database was loaded from: by
  // file too, as a card of --override's replaces one of the same name.
  std::map<std::pair<std::string, std::string>, std::string> tables;
  std::set<std::string> files;
  for (auto& c : db.cards) files.insert(c.file);
  for (auto& f : files) {
    toml::table doc;
    try {
      doc = toml::parse_file(f);
    } catch (const std::exception&) {
      continue;  // the fallback below
    }
    const toml::array* cards = doc["card"].as_array();
    if (!cards) continue;
    for (auto& n : *cards) {
      const toml::table* t = n.as_table();
      auto name = t ? (*t)["name"].value<std::string>() : std::nullopt;
      if (!name) continue;
      std::ostringstream os;
      os << *t;
      tables[{f, *name}] = os.str();
    }
  }
  CardFingerprints out;
  for (auto& c : db.cards) {
    if (c.token) continue;  // in its card's table (G-12)
    auto it = tables.find({c.file, c.name});
    out[c.name] =
        Hex(Hash64(it != tables.end() ? it->second
                                      : absl::StrCat("unread ", c.name, " ", c.file, ":", c.line)));
  }
  return out;
}

std::string DbFingerprint(const CardFingerprints& cards) {
  std::string all;
  for (auto& [name, h] : cards) absl::StrAppend(&all, name, "\n", h, "\n");
  return Hex(Hash64(all));
}

std::string CardChanges(const CardFingerprints& was, const CardFingerprints& now, int max_names) {
  std::vector<std::string> changed, added, removed;
  for (auto& [name, h] : was) {
    auto it = now.find(name);
    if (it == now.end())
      removed.push_back(name);
    else if (it->second != h)
      changed.push_back(name);
  }
  for (auto& [name, h] : now)
    if (!was.count(name)) added.push_back(name);
  std::vector<std::string> parts;
  int left = max_names;
  for (auto [what, names] : {std::pair{"changed", &changed}, std::pair{"added", &added},
                             std::pair{"removed", &removed}}) {
    if (names->empty()) continue;
    std::vector<std::string> shown(names->begin(),
                                   names->begin() + std::min<int>(left, names->size()));
    left -= static_cast<int>(shown.size());
    std::string more = shown.size() == names->size() ? ""
                       : shown.empty()
                           ? absl::StrCat(names->size(), " cards")
                           : absl::StrCat(" and ", names->size() - shown.size(), " more");
    parts.push_back(absl::StrCat(what, ": ", absl::StrJoin(shown, ", "), more));
  }
  // Equal cards under another database fingerprint: the record was edited.
  return parts.empty() ? "yet no card's own fingerprint differs" : absl::StrJoin(parts, "; ");
}

}  // namespace strata
