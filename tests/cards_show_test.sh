#!/bin/bash
# strata cards show (issue 16): the card's rules as sentences written from
# its compiled form, one per ability, for a spread of the engine's
# primitives; and for every card of the pool a rules line with no hole in
# it (an empty word list, a "?" word).
# Usage: cards_show_test.sh STRATA
set -u
strata=$1
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
expect "Bonesplitter" "{1}: Attach Bonesplitter to target creature you control. Activate only as a sorcery."
expect "Swords to Plowshares" "The target's controller gains life equal to the target's power, then exile target creature."
expect "Fireball" "Fireball deals X damage divided evenly (rounded down) among one to 4 target creatures and/or players ({1} more for each beyond the first)."
expect "Hydroblast" "Choose one: Counter target spell if it's red; or Destroy target permanent if it's red."
expect "Hypnotic Specter" "Whenever Hypnotic Specter deals damage to a player, its controller discards 1 card at random."
expect "Animate Artifact" "The enchanted noncreature permanent is a creature in addition to its other types and has base power and toughness each equal to its mana value."
expect "Plains" "none (no abilities)"
# Every card: a rules line, and no hole.
names=$("$strata" cards list | sed -n '2,$p' | sed '$d' | cut -c1-32 | sed 's/ *$//')
count=0
while IFS= read -r name; do
  out=$("$strata" cards show "$name") || fail "cards show '$name'"
  printf '%s\n' "$out" | grep -q '^  rules       [^ ]' || fail "'$name': no rules line"
  printf '%s\n' "$out" | awk '/^  rules/{p=1} /^  static/{p=0} p' | grep -q -e ' ,' -e '?' -e ' \.$' -e ': \.$' &&
    { printf '%s\n' "$out"; fail "'$name': a hole in its rules"; }
  printf '%s\n' "$out" | grep -q 'target(s)' && fail "'$name': still counts targets instead of saying them"
  count=$((count + 1))
done <<<"$names"
[ "$count" -gt 100 ] || fail "only $count cards"
echo "cards show: $count cards, all checks passed"
