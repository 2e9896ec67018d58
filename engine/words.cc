#include "engine/words.h"

#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/ascii.h"

namespace strata {
namespace {

// The creature types of the comprehensive rules (205.3m), as of the modern era.
constexpr std::string_view kCreatureTypes[] = {
    "Advisor",
    "Aetherborn",
    "Alien",
    "Ally",
    "Angel",
    "Antelope",
    "Ape",
    "Archer",
    "Archon",
    "Army",
    "Artificer",
    "Assassin",
    "Assembly-Worker",
    "Astartes",
    "Atog",
    "Aurochs",
    "Avatar",
    "Azra",
    "Badger",
    "Balloon",
    "Barbarian",
    "Bard",
    "Basilisk",
    "Bat",
    "Bear",
    "Beast",
    "Beeble",
    "Beholder",
    "Berserker",
    "Bird",
    "Blinkmoth",
    "Boar",
    "Bringer",
    "Brushwagg",
    "Camarid",
    "Camel",
    "Caribou",
    "Carrier",
    "Cat",
    "Centaur",
    "Cephalid",
    "Child",
    "Chimera",
    "Citizen",
    "Cleric",
    "Clown",
    "Cockatrice",
    "Construct",
    "Coward",
    "Crab",
    "Crocodile",
    "Custodes",
    "Cyclops",
    "Dauthi",
    "Demigod",
    "Demon",
    "Deserter",
    "Devil",
    "Dinosaur",
    "Djinn",
    "Dog",
    "Dragon",
    "Drake",
    "Dreadnought",
    "Drone",
    "Druid",
    "Dryad",
    "Dwarf",
    "Efreet",
    "Egg",
    "Elder",
    "Eldrazi",
    "Elemental",
    "Elephant",
    "Elf",
    "Elk",
    "Employee",
    "Eye",
    "Faerie",
    "Ferret",
    "Fish",
    "Flagbearer",
    "Fox",
    "Fractal",
    "Frog",
    "Fungus",
    "Gamer",
    "Gargoyle",
    "Germ",
    "Giant",
    "Gith",
    "Gnoll",
    "Gnome",
    "Goat",
    "Goblin",
    "God",
    "Golem",
    "Gorgon",
    "Graveborn",
    "Gremlin",
    "Griffin",
    "Guest",
    "Hag",
    "Halfling",
    "Hamster",
    "Harpy",
    "Hellion",
    "Hippo",
    "Hippogriff",
    "Homarid",
    "Homunculus",
    "Horror",
    "Horse",
    "Human",
    "Hydra",
    "Hyena",
    "Illusion",
    "Imp",
    "Incarnation",
    "Inkling",
    "Inquisitor",
    "Insect",
    "Jackal",
    "Jellyfish",
    "Juggernaut",
    "Kavu",
    "Kirin",
    "Kithkin",
    "Knight",
    "Kobold",
    "Kor",
    "Kraken",
    "Lamia",
    "Lammasu",
    "Leech",
    "Leviathan",
    "Lhurgoyf",
    "Licid",
    "Lizard",
    "Manticore",
    "Masticore",
    "Mercenary",
    "Merfolk",
    "Metathran",
    "Minion",
    "Minotaur",
    "Mite",
    "Mole",
    "Monger",
    "Mongoose",
    "Monk",
    "Monkey",
    "Moonfolk",
    "Mouse",
    "Mutant",
    "Myr",
    "Mystic",
    "Naga",
    "Nautilus",
    "Necron",
    "Nephilim",
    "Nightmare",
    "Nightstalker",
    "Ninja",
    "Noble",
    "Noggle",
    "Nomad",
    "Nymph",
    "Octopus",
    "Ogre",
    "Ooze",
    "Orb",
    "Orc",
    "Orgg",
    "Otter",
    "Ouphe",
    "Ox",
    "Oyster",
    "Pangolin",
    "Peasant",
    "Pegasus",
    "Pentavite",
    "Performer",
    "Pest",
    "Phelddagrif",
    "Phoenix",
    "Phyrexian",
    "Pilot",
    "Pincher",
    "Pirate",
    "Plant",
    "Praetor",
    "Primarch",
    "Prism",
    "Processor",
    "Rabbit",
    "Raccoon",
    "Ranger",
    "Rat",
    "Rebel",
    "Reflection",
    "Rhino",
    "Rigger",
    "Robot",
    "Rogue",
    "Sable",
    "Salamander",
    "Samurai",
    "Sand",
    "Saproling",
    "Satyr",
    "Scarecrow",
    "Scion",
    "Scorpion",
    "Scout",
    "Sculpture",
    "Serf",
    "Serpent",
    "Servo",
    "Shade",
    "Shaman",
    "Shapeshifter",
    "Shark",
    "Sheep",
    "Siren",
    "Skeleton",
    "Slith",
    "Sliver",
    "Slug",
    "Snail",
    "Snake",
    "Soldier",
    "Soltari",
    "Spawn",
    "Specter",
    "Spellshaper",
    "Sphinx",
    "Spider",
    "Spike",
    "Spirit",
    "Splinter",
    "Sponge",
    "Squid",
    "Squirrel",
    "Starfish",
    "Surrakar",
    "Survivor",
    "Tentacle",
    "Tetravite",
    "Thalakos",
    "Thopter",
    "Thrull",
    "Tiefling",
    "Treefolk",
    "Trilobite",
    "Triskelavite",
    "Troll",
    "Turtle",
    "Tyranid",
    "Unicorn",
    "Vampire",
    "Vedalken",
    "Viashino",
    "Volver",
    "Wall",
    "Walrus",
    "Warlock",
    "Warrior",
    "Weird",
    "Werewolf",
    "Whale",
    "Wizard",
    "Wolf",
    "Wolverine",
    "Wombat",
    "Worm",
    "Wraith",
    "Wurm",
    "Yeti",
    "Zombie",
    "Zubera",
};
// Basic land types first, in WUBRG order: BasicLandSubtype relies on it.
constexpr std::string_view kLandTypes[] = {
    "Plains", "Island", "Swamp", "Mountain",    "Forest", "Desert", "Gate",
    "Lair",   "Locus",  "Mine",  "Power-Plant", "Tower",  "Urza's",
};
constexpr std::string_view kArtifactTypes[] = {"Clue",          "Contraption", "Equipment", "Food",
                                               "Fortification", "Treasure",    "Vehicle"};
constexpr std::string_view kEnchantmentTypes[] = {"Aura", "Cartouche", "Curse", "Saga", "Shrine"};

struct Registry {
  std::vector<std::string_view> names;
  std::vector<SubtypeKind> kinds;
  absl::flat_hash_map<std::string, int> by_lower_name;
  SubtypeSet creature_mask, land_mask;
  int first_land = 0;

  Registry() {
    auto add = [&](std::string_view n, SubtypeKind k) {
      int id = static_cast<int>(names.size());
      names.push_back(n);
      kinds.push_back(k);
      by_lower_name[absl::AsciiStrToLower(std::string(n))] = id;
      if (k == SubtypeKind::kCreature) creature_mask.set(id);
      if (k == SubtypeKind::kLand) land_mask.set(id);
    };
    for (auto n : kCreatureTypes) add(n, SubtypeKind::kCreature);
    first_land = static_cast<int>(names.size());
    for (auto n : kLandTypes) add(n, SubtypeKind::kLand);
    for (auto n : kArtifactTypes) add(n, SubtypeKind::kArtifact);
    for (auto n : kEnchantmentTypes) add(n, SubtypeKind::kEnchantment);
  }
};

const Registry& Reg() {
  static const Registry r;
  return r;
}

}  // namespace

int SubtypeCount() {
  return static_cast<int>(Reg().names.size());
}
std::string_view SubtypeName(int id) {
  return Reg().names[id];
}
SubtypeKind SubtypeKindOf(int id) {
  return Reg().kinds[id];
}
std::optional<int> ParseSubtype(std::string_view s) {
  auto it = Reg().by_lower_name.find(absl::AsciiStrToLower(std::string(s)));
  if (it == Reg().by_lower_name.end()) return std::nullopt;
  return it->second;
}
std::optional<int> ParseCreatureType(std::string_view s) {
  auto id = ParseSubtype(s);
  if (id && SubtypeKindOf(*id) == SubtypeKind::kCreature) return id;
  return std::nullopt;
}
const SubtypeSet& CreatureTypeMask() {
  return Reg().creature_mask;
}
const SubtypeSet& LandTypeMask() {
  return Reg().land_mask;
}
int BasicLandSubtype(int color) {
  return Reg().first_land + color;
}
std::optional<int> BasicLandColor(int subtype) {
  int c = subtype - Reg().first_land;
  if (c >= 0 && c < kColorCount) return c;
  return std::nullopt;
}

std::optional<Word> ParseWord(std::string_view s) {
  if (auto c = ParseColor(s)) return ColorWord(*c);
  if (auto t = ParseSubtype(s)) return static_cast<Word>(*t);
  return std::nullopt;
}
std::string WordName(Word w) {
  if (IsColorWord(w)) return std::string(ColorName(w - kColorWordBase));
  if (w < SubtypeCount()) return std::string(SubtypeName(w));
  return "?";
}

}  // namespace strata
