// A card's rules as readable sentences (`strata cards show`), written from
// its compiled form (engine/card.h), never from a name: "Lightning Bolt"
// reads "Deal 3 damage to target creature or player." because its one step
// is damage 3 to its first target. Anything the writer has no words for is
// said by its kind ("a copy effect") rather than left out.
#pragma once

#include <string>
#include <vector>

#include "engine/card.h"

namespace strata {

// One sentence per ability, in the card's order: keywords, enchant and
// equip, statics, activated, triggered and phase abilities, the spell.
std::vector<std::string> CardRulesText(const CardDb& db, const CardDef& card);

}  // namespace strata
