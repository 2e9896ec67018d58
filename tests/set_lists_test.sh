#!/bin/bash
# The pool against the card lists of the classic sets (issue 37;
# data/sets/*.txt, Alpha to Alliances, copied into the repository so the test
# runs on a clean clone):
# - every card of data/cards/revised_fourth.toml, the file of the cards taken
#   from Revised and Fourth Edition, is spelled exactly as in 3ED.txt or
#   4ED.txt;
# - no pool name is a near miss of a name of any list: a pool name in no
#   list is an error if, once both are lowercased, it is one edit from a
#   listed name (one letter replaced, inserted or deleted, or two adjacent
#   letters swapped: "Ernham Djinn" for Erhnam Djinn), or if it equals one
#   once case, spaces and punctuation are ignored ("Will o' the Wisp").
#   The names are compared without their non-ASCII bytes, so a letter
#   written without its accent is one edit too ("Juzam Djinn" for Juzám
#   Djinn: "juzam djinn" against "juzm djinn").
#   Pool cards of later sets are in no list, and are errors only as near
#   misses. (Two edits would flag real cards of later sets: Humble, two
#   from Crumble; Unnatural Selection, two from Natural Selection.)
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
EXPECTED=366

export LC_ALL=C  # bytes, and the same order for sort and comm everywhere
lists="$src/data/sets/3ED.txt $src/data/sets/4ED.txt"
for f in $lists; do [ -s "$f" ] || fail "missing set list $f"; done
sort -u $lists >"$tmp/listed"
all_lists=("$src"/data/sets/*.txt)
[ "${#all_lists[@]}" -ge 13 ] ||
  fail "expected the 13 set lists of data/sets (LEA to ALL), found: ${all_lists[*]}"
sort -u "${all_lists[@]}" >"$tmp/all_listed"

# A card's name is the `name` line of its [[card]] table, before any
# sub-table (an ability's `name` is not a card).
card_names() {
  awk '/^\[\[card\]\]/ { c = 1; next } /^\[/ { c = 0 }
       c && /^name = "/ { sub(/^name = "/, ""); sub(/"$/, ""); print }' "$@"
}
card_names "$src"/data/cards/*.toml | sort >"$tmp/pool"

# How many names of set CODE's sorted list ($tmp/listed_CODE) the pool
# holds: exactly WANT, or the test fails naming EXPECTED_CODE.
expect_in_pool() {
  local code=$1 want=$2 present total
  present=$(comm -12 "$tmp/pool" "$tmp/listed_$code" | wc -l)
  total=$(wc -l <"$tmp/listed_$code")
  echo "$code: $present of $total names in the pool ($((total - present)) missing)"
  [ "$present" -eq "$want" ] ||
    fail "$present names of $code.txt in the pool, expected $want (update EXPECTED_$code when adding cards)"
}
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

# Near misses (the rule above): each pool name in no list against every
# listed name, by one_edit; and by key, which ignores case, spaces and
# punctuation.
near=$(awk '
  function key(s) { s = tolower(s); gsub(/[^a-z0-9]/, "", s); return s }
  function fold(s) { s = tolower(s); gsub(/[\200-\377]/, "", s); return s }
  # a and b (not equal) are one edit apart: one byte replaced, or two
  # adjacent bytes swapped, or one byte more in the longer one.
  function one_edit(a, b,   la, lb, i, t) {
    la = length(a); lb = length(b)
    if (la < lb) { t = a; a = b; b = t; t = la; la = lb; lb = t }
    if (la - lb > 1) return 0
    for (i = 1; i <= lb && substr(a, i, 1) == substr(b, i, 1); i++) {}
    if (la > lb) return substr(a, i + 1) == substr(b, i)
    if (substr(a, i + 1) == substr(b, i + 1)) return 1
    return substr(a, i, 1) == substr(b, i + 1, 1) && substr(a, i + 1, 1) == substr(b, i, 1) &&
      substr(a, i + 2) == substr(b, i + 2)
  }
  FNR == NR { listed[$0] = 1; n++; name[n] = $0; low[n] = fold($0)
              k = key($0); if (k != "") by_key[k] = $0; next }
  !($0 in listed) {
    l = fold($0); hit = ""
    if (key($0) in by_key) hit = by_key[key($0)]
    for (i = 1; hit == "" && i <= n; i++) if (l == low[i] || one_edit(l, low[i])) hit = name[i]
    if (hit != "") print "\"" $0 "\" (listed: \"" hit "\")"
  }' "$tmp/all_listed" "$tmp/pool")
[ -z "$near" ] || fail "pool names in no set list of data/sets but near misses of a listed name: $near"

present=$(comm -12 "$tmp/pool" "$tmp/listed" | wc -l)
total=$(wc -l <"$tmp/listed")
echo "3ED+4ED: $present of $total names in the pool ($((total - present)) missing)"
[ "$present" -eq "$EXPECTED" ] ||
  fail "$present names of 3ED.txt/4ED.txt in the pool, expected $EXPECTED (update EXPECTED when adding cards)"

# Arabian Nights and Antiquities (issue 38): every card of
# data/cards/arabian_nights.toml is spelled exactly as in ARN.txt, every card
# of data/cards/antiquities.toml as in ATQ.txt, and exactly EXPECTED_ARN names
# of ARN.txt and EXPECTED_ATQ of ATQ.txt are in the pool (in any file: Erhnam
# Djinn and Ornithopter came earlier). Raise them as cards are added.
EXPECTED_ARN=46
EXPECTED_ATQ=54
for set in ARN:arabian_nights:$EXPECTED_ARN ATQ:antiquities:$EXPECTED_ATQ; do
  code=${set%%:*}; rest=${set#*:}; file=${rest%%:*}; want=${rest#*:}
  list="$src/data/sets/$code.txt"
  [ -s "$list" ] || fail "missing set list $list"
  sort -u "$list" >"$tmp/listed_$code"
  card_names "$src/data/cards/$file.toml" | sort >"$tmp/claimed_$code"
  [ -s "$tmp/claimed_$code" ] || fail "no cards in data/cards/$file.toml"
  bad=$(comm -23 "$tmp/claimed_$code" "$tmp/listed_$code")
  [ -z "$bad" ] || fail "cards of $file.toml not named as in $code.txt: $bad"
  expect_in_pool "$code" "$want"
done

# Legends, The Dark and Fallen Empires (issue 38): every card of
# data/cards/legends_dark.toml is spelled exactly as in LEG.txt, DRK.txt or
# FEM.txt (one file for the three sets), and exactly EXPECTED_LEG names of
# LEG.txt, EXPECTED_DRK of DRK.txt and EXPECTED_FEM of FEM.txt are in the
# pool (in any file: Ball Lightning and Blood Moon came earlier). Raise them
# as cards are added.
EXPECTED_LEG=154
EXPECTED_DRK=63
EXPECTED_FEM=44
for code in LEG DRK FEM; do
  [ -s "$src/data/sets/$code.txt" ] || fail "missing set list $src/data/sets/$code.txt"
done
sort -u "$src/data/sets/LEG.txt" "$src/data/sets/DRK.txt" "$src/data/sets/FEM.txt" >"$tmp/listed_ldf"
card_names "$src/data/cards/legends_dark.toml" | sort >"$tmp/claimed_ldf"
[ -s "$tmp/claimed_ldf" ] || fail "no cards in data/cards/legends_dark.toml"
bad=$(comm -23 "$tmp/claimed_ldf" "$tmp/listed_ldf")
[ -z "$bad" ] || fail "cards of legends_dark.toml not named as in LEG.txt, DRK.txt or FEM.txt: $bad"
for set in LEG:$EXPECTED_LEG DRK:$EXPECTED_DRK FEM:$EXPECTED_FEM; do
  code=${set%%:*}; want=${set#*:}
  sort -u "$src/data/sets/$code.txt" >"$tmp/listed_$code"
  expect_in_pool "$code" "$want"
done
echo "PASS set_lists"
