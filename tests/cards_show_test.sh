#!/bin/bash
# strata cards show (issue 16): the card's rules as sentences written from
# its compiled form, one per ability, for a spread of the engine's
# primitives; and for every card of the pool a rules line with no hole in
# it (an empty word list, a "?" word).
# Usage: cards_show_test.sh STRATA
set -u
strata=$1
tmp_err=$(mktemp)
trap 'rm -f "$tmp_err"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
expect() {  # CARD SENTENCE: `cards show CARD` has the sentence as a rules line
  local out
  out=$("$strata" cards show "$1" 2>&1) || fail "cards show '$1' exited non-zero"
  printf '%s\n' "$out" | grep -q -F -x -e "  rules       $2" -e "              $2" ||
    { printf '%s\n' "$out"; fail "'$1' lacks: $2"; }
}
expect "Lightning Bolt" "Lightning Bolt deals 3 damage to target creature or player."
expect "Serra Angel" "Flying, vigilance."
expect "Giant Growth" "Target creature gets +3/+3 until end of turn."
expect "Glorious Anthem" "Creatures you control get +1/+1."
expect "Llanowar Elves" "{T}: Add {G}."
expect "Counterspell" "Counter target spell (an interrupt against a spell)."
expect "Drudge Skeletons" "{B}: Regenerate Drudge Skeletons (played as it would be destroyed)."
expect "Pestilence" "{B}: Pestilence deals 1 damage to each creature and each player."
expect "Pestilence" "At the beginning of each cleanup, if there are no creatures, sacrifice Pestilence."
expect "Unstable Mutation" "Enchant creature."
expect "Unstable Mutation" "The enchanted permanent gets +3/+3."
expect "Unstable Mutation" "At the beginning of the enchanted permanent's controller's upkeep, put a -1/-1 counter on the enchanted permanent."
expect "Animate Dead" "Enchant creature in graveyard."
expect "Word of Binding" "Tap X target creatures."
expect "Winter Blast" "Tap X target creatures, then Winter Blast deals 2 damage to X target creatures if it has flying."
expect "Volcanic Eruption" "Destroy X target Mountains, then Volcanic Eruption deals damage equal to the number of its targets put into a graveyard this way to each creature and each player."
expect "Dragon Whelp" "{R}: Dragon Whelp gets +1/+0 until end of turn, then if this ability has been activated four or more times this turn, at the next beginning of cleanup this game, sacrifice Dragon Whelp."
expect "Instill Energy" "The enchanted permanent can attack as though it had haste."
expect "Instill Energy" "{0}: Untap the enchanted permanent. Activate only during your turn and only once each turn."
expect "Vampire Bats" "{B}: Vampire Bats gets +1/+0 until end of turn. Activate no more than twice each turn."
expect "Rocket Launcher" "{2}: Rocket Launcher deals 1 damage to target creature or player, then at the next beginning of cleanup this game, destroy Rocket Launcher. Activate only if you've controlled Rocket Launcher continuously since your most recent turn began."
expect "Xenic Poltergeist" "{T}: Until your next upkeep, target noncreature artifact is a creature in addition to its other types and has base power and toughness each equal to its mana value. Activate only during your upkeep."
expect "Animate Dead" "Whenever Animate Dead moves from battlefield, the permanent it was attached to is sacrificed."
expect "Resurrection" "Return target creature you own in graveyard to the battlefield under its owner's control."
expect "Land Tax" "At the beginning of your upkeep, if an opponent controls more lands than you, you may pay {0}; if you do, you search your library for up to 3 basic land cards, put them into your hand, then shuffle."
expect "Feldon's Cane" "{T}, Exile Feldon's Cane: You shuffle your graveyard into your library."
expect "Bonesplitter" "{1}: Attach Bonesplitter to target creature you control. Activate only as a sorcery."
expect "Swords to Plowshares" "The target's controller gains life equal to the target's power, then exile target creature."
expect "Fireball" "Fireball deals X damage divided evenly (rounded down) among one to 4 target creatures and/or players ({1} more for each beyond the first)."
expect "Hydroblast" "Choose one: Counter target spell if it's red; or Destroy target permanent if it's red."
expect "Hypnotic Specter" "Whenever Hypnotic Specter deals damage to an opponent, that player discards 1 card at random."
expect "The Hive" "{5}, {T}: Create a 1/1 colorless Insect artifact creature token named Wasp with flying."
expect "Icatian Town" "Create 4 1/1 white Citizen creature tokens named Citizen."
expect "Serpent Generator" "{4}, {T}: Create a 1/1 colorless Snake artifact creature token named Snake with \"Whenever Snake deals damage to a player, that player gets 1 poison counter\"."
expect "Animate Artifact" "The enchanted noncreature permanent is a creature in addition to its other types and has base power and toughness each equal to its mana value."
expect "Lord of the Pit" "At the beginning of your upkeep, sacrifice a creature you control other than Lord of the Pit. If you can't: Lord of the Pit deals 7 damage to you."
expect "Cosmic Horror" "At the beginning of your upkeep, pay {3}{B}{B}{B}, or: Destroy Cosmic Horror, then if it was destroyed this way, Cosmic Horror deals 7 damage to you."
expect "Stone Giant" "{T}: Target creature you control with toughness less than Stone Giant's power gains flying until end of turn, then at the next beginning of cleanup this game, destroy that object."
expect "Erg Raiders" "At the beginning of your cleanup, if Erg Raiders didn't attack this turn and its controller has controlled it since their most recent turn began, Erg Raiders deals 2 damage to you."
expect "Siren's Call" "Cast this spell only during an opponent's turn, before attackers are declared."
expect "Plains" "none (no abilities)"
# Several names at once, each card once, in the order given.
two=$("$strata" cards show "Serra Angel" "lightning bolt") || fail "cards show of two names"
[ "$(printf '%s\n' "$two" | grep -c -e '^Serra Angel ' -e '^Lightning Bolt ')" = 2 ] ||
  { printf '%s\n' "$two"; fail "two names: not both cards"; }
printf '%s\n' "$two" | head -1 | grep -q '^Serra Angel ' || fail "two names: not in the order given"
# An unknown name among known ones fails the whole command, each unknown
# name with its message, and prints no card.
out=$("$strata" cards show "Serra Angel" "Lightnig Bolt" "Nope Nope" 2>"$tmp_err")
[ $? = 2 ] || fail "an unknown name among several did not exit 2"
[ -z "$out" ] || fail "a card was printed though a name was unknown"
grep -q "unknown card 'Lightnig Bolt' (closest: Lightning Bolt" "$tmp_err" ||
  { cat "$tmp_err"; fail "no suggestion for a misspelling"; }
grep -q "unknown card 'Nope Nope'" "$tmp_err" || fail "the second unknown name was not reported"
"$strata" cards show >/dev/null 2>"$tmp_err" && fail "cards show with no name passed"
grep -q "give a card name" "$tmp_err" || fail "no message for cards show without a name"
"$strata" cards show --all "Serra Angel" >/dev/null 2>"$tmp_err" && fail "names and --all passed"
grep -q "not both" "$tmp_err" || fail "no message for names and --all"

# Every card (`--all`, one process): a rules line, and no hole.
all=$("$strata" cards show --all) || fail "cards show --all"
listed=$("$strata" cards list | sed -n '2,$p' | sed '$d' | wc -l)
bad=$(printf '%s\n' "$all" | awk '
  function check() {
    if (name == "") return
    if (!rules) print "no rules line: " name
    if (hole) print "a hole in its rules: " name
    if (counted) print "counts targets instead of saying them: " name
    ++n
  }
  /^[^ ]/ { check(); name = $0; rules = 0; hole = 0; counted = 0; in_rules = 0 }
  /^  rules       [^ ]/ { rules = 1; in_rules = 1 }
  /^  static/ { in_rules = 0 }
  in_rules && (/ ,/ || /\?/ || / \.$/ || /: \.$/) { hole = 1 }
  /target\(s\)/ { counted = 1 }
  END { check(); print "cards " n }')
printf '%s\n' "$bad" | grep -v '^cards ' && fail "cards show --all: see above"
count=${bad#cards }
[ "$count" = "$listed" ] || fail "cards show --all printed $count cards; cards list has $listed"
[ "$count" -gt 100 ] || fail "only $count cards"
echo "cards show: $count cards, all checks passed"
