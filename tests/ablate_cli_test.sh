#!/bin/bash
# strata ablate DECK: each card's worth is what `strata compare` says of the
# deck against the deck with that card's copies replaced by the main colour's
# basic land, on the same games; the ranking is by worth; the same output
# for one thread or two; --with and bad input.
# Usage: ablate_cli_test.sh STRATA SOURCE_DIR
set -u
strata=$1
src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
d="$src/data/decks"
deck="$d/red_burn.txt"
opp="$d/green_stompy.txt,$d/white_weenie.txt"

"$strata" ablate "$deck" --against "$opp" --games 96 --threads 1 >"$tmp/one" 2>&1 ||
  { cat "$tmp/one"; fail "ablate exited non-zero"; }
cat "$tmp/one"
"$strata" ablate "$deck" --against "$opp" --games 96 --threads 2 >"$tmp/two" 2>&1 ||
  fail "ablate --threads 2 exited non-zero"
diff <(grep -v 'games/s' "$tmp/one") <(grep -v 'games/s' "$tmp/two") ||
  fail "one thread and two differ"

grep -q "^ablate: red_burn against the same 2 opponents on the same games: .* by Mountain (a basic land of the deck's main colour, red)$" "$tmp/one" ||
  fail "header: Mountain, the main colour's basic land"
grep -q '^red_burn as it is: [0-9.]*% over 192 games$' "$tmp/one" || fail "no line for the deck as it is"
# One row per distinct card but the replacement: 10 of red_burn's 11.
rows=$(grep -c '^ *[0-9][0-9]*  ' "$tmp/one")
[ "$rows" = 10 ] || fail "$rows rows, expected 10"
grep -q '^ *[0-9]*  Mountain ' "$tmp/one" && fail "Mountain, the replacement, was ablated"
# Ranked by worth, highest first.
awk '/^ *[0-9]+  /{for (i = 1; i <= NF; i++) if ($i ~ /^\[/) break; w = $(i - 1) + 0;
  if (seen && w > last) exit 1; last = w; seen = 1}' "$tmp/one" || fail "rows not ranked by worth"

# Shock's row is compare's change, negated, against the deck with its two
# Shocks (same place in the list) made Mountains: the same games.
sed 's/^2 Shock$/2 Mountain/' "$deck" >"$tmp/no_shock.txt"
grep -q '^2 Mountain$' "$tmp/no_shock.txt" || fail "test deck not made"
"$strata" compare "$deck" "$tmp/no_shock.txt" --against "$opp" --games 96 --threads 2 >"$tmp/cmp" 2>&1 ||
  { cat "$tmp/cmp"; fail "compare"; }
cmp_line=$(grep '^overall ' "$tmp/cmp")
abl_line=$(grep '^ *[0-9]*  Shock ' "$tmp/one")
# overall GAMES OLD NEW CHANGE [LOW, HIGH] against RANK Shock COPIES WORTH [LOW, HIGH] WITHOUT
read -r _ _ old new change low high <<<"$(echo "$cmp_line" | tr -d '[],%')"
read -r _ _ copies worth wlow whigh without _ <<<"$(echo "$abl_line" | tr -d '[],%')"
neg() { awk -v x="$1" 'BEGIN { v = -x; if (v == 0) v = 0; printf "%+.1f", v }'; }
[ "$copies" = 2 ] || fail "Shock: $copies copies"
[ "$(neg "$change")" = "$(printf '%+.1f' "$worth")" ] || fail "Shock worth $worth, compare's change $change"
[ "$(neg "$high")" = "$(printf '%+.1f' "$wlow")" ] && [ "$(neg "$low")" = "$(printf '%+.1f' "$whigh")" ] ||
  fail "Shock interval [$wlow, $whigh], compare's [$low, $high]"
[ "$new" = "$without" ] || fail "Shock: without it $without, compare's NEW $new"

# --with: another card in place of each.
"$strata" ablate "$deck" --against "$d/green_stompy.txt" --games 2 --with swamp --threads 2 >"$tmp/with" 2>&1 ||
  { cat "$tmp/with"; fail "--with swamp"; }
grep -q 'replaced, every copy, by Swamp (--with)$' "$tmp/with" || { cat "$tmp/with"; fail "--with not said"; }
grep -q '^ *[0-9]*  Mountain ' "$tmp/with" || fail "--with Swamp: Mountain not ablated"
echo "ablate: all checks passed"
