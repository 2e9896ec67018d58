#!/bin/bash
# The pool against the card lists of Revised Edition and Fourth Edition
# (issue 37; data/sets/3ED.txt and 4ED.txt, copied into the repository so the
# test runs on a clean clone):
# - every card of data/cards/revised_fourth.toml, the file of the cards taken
#   from those sets, is spelled exactly as in one of the two lists;
# - no pool name is a near miss of a listed name: equal to one once case,
#   spaces and punctuation are ignored, but not spelled the same;
# - the number of listed names present in the pool is exactly EXPECTED, so a
#   card removed (or renamed away from its printed name) is noticed. Raise it
#   as cards of these sets are added.
# The pool's names are read from the card files' `name = "..."` lines, and
# their number is checked against `strata cards check`, so no card is missed.
# Usage: set_lists_test.sh STRATA SOURCE_DIR
set -u
strata=$1
src=$2
. "$src/tests/lib.sh"
EXPECTED=223

lists="$src/data/sets/3ED.txt $src/data/sets/4ED.txt"
for f in $lists; do [ -s "$f" ] || fail "missing set list $f"; done
sort -u $lists >"$tmp/listed"

# A card's name is the `name` line of its [[card]] table, before any
# sub-table (an ability's `name` is not a card).
card_names() {
  awk '/^\[\[card\]\]/ { c = 1; next } /^\[/ { c = 0 }
       c && /^name = "/ { sub(/^name = "/, ""); sub(/"$/, ""); print }' "$@"
}
card_names "$src"/data/cards/*.toml | sort >"$tmp/pool"
n_pool=$(wc -l <"$tmp/pool")
out=$("$strata" cards check 2>&1) || { printf '%s\n' "$out"; fail "cards check failed"; }
n_check=$(printf '%s\n' "$out" | sed -n 's/^ok: \([0-9]*\) cards$/\1/p')
[ "$n_pool" = "$n_check" ] ||
  fail "read $n_pool card names from data/cards/*.toml, cards check counts '$n_check'"

# Every card of the 3ED/4ED file is a listed name, exactly.
card_names "$src/data/cards/revised_fourth.toml" | sort >"$tmp/claimed"
[ -s "$tmp/claimed" ] || fail "no cards in data/cards/revised_fourth.toml"
bad=$(comm -23 "$tmp/claimed" "$tmp/listed")
[ -z "$bad" ] || fail "cards of revised_fourth.toml not named as in 3ED.txt/4ED.txt: $bad"

# Near misses: same letters and digits in the same case-folded order, but a
# different spelling.
# (awk folds ASCII case; the lists' non-ASCII letters must match exactly.)
near=$(awk 'function key(s) { s = tolower(s); gsub(/[^a-z0-9]/, "", s); return s }
  FNR == NR { listed[$0] = 1; k = key($0); if (k != "") by_key[k] = $0; next }
  !($0 in listed) && (key($0) in by_key) { print "\"" $0 "\" (listed: \"" by_key[key($0)] "\")" }' \
  "$tmp/listed" "$tmp/pool")
[ -z "$near" ] || fail "pool names that are near misses of listed names: $near"

present=$(comm -12 "$tmp/pool" "$tmp/listed" | wc -l)
total=$(wc -l <"$tmp/listed")
echo "3ED+4ED: $present of $total names in the pool ($((total - present)) missing)"
[ "$present" -eq "$EXPECTED" ] ||
  fail "$present names of 3ED.txt/4ED.txt in the pool, expected $EXPECTED (update EXPECTED when adding cards)"
echo "PASS set_lists"
