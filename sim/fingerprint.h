// Fingerprints: stable 64-bit hashes (the same on every machine and run,
// unlike absl::Hash) of the card database and of a study's options, so a
// resume can tell that the cards or the study file changed.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>

#include "engine/card.h"

namespace strata {

// FNV-1a 64 with a final mix; Hex() as 16 hex digits.
uint64_t Hash64(std::string_view s);
std::string Hex(uint64_t h);

// Each card's fingerprint: the hash of its [[card]] table as toml++ reads
// it back from its file (every key and value, not comments, layout or the
// file it is in), by card name.
using CardFingerprints = std::map<std::string, std::string>;
// A card whose file cannot be read again gets the hash of its name and
// definition site.
CardFingerprints FingerprintCards(const CardDb& db);
// The whole database's: the hash of every card's, in name order.
std::string DbFingerprint(const CardFingerprints& cards);
// What changed from `was` to `now`: "changed: A, B; added: C; removed: D"
// (at most `max_names` names in all).
std::string CardChanges(const CardFingerprints& was, const CardFingerprints& now,
                        int max_names = 8);

}  // namespace strata
