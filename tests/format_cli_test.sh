#!/bin/bash
# --format (sim/format.h, docs/formats.md) on every command that takes
# decks: each kind of illegal deck of tests/decks/format gets its one
# message with file, line and rule; several problems get one message each;
# the command exits 2 before any game (no result line, no log); a legal
# deck plays; --format none (the default) checks nothing; a bad format file
# is refused at its line; every bundled Old School deck
# (data/decks/oldschool, once it exists) is legal.
# Usage: format_cli_test.sh STRATA SOURCE_DIR
set -u
strata=$1
src=$2
. "$src/tests/lib.sh"
cd "$src" || fail "no $src"  # messages name paths as given: tests/decks/format/...
f=tests/decks/format
# expect_refused MESSAGE CMD...: exit 2, MESSAGE, the summary line, and no
# game played (no `result:` line, no game log, no study table).
expect_refused() {
  local msg=$1
  shift
  expect 2 "$msg" "$@"
  grep -q -e '^result:' -e '^T[0-9]' -e '^matchup' "$tmp/out" && { cat "$tmp/out"; fail "a game ran: $*"; }
  grep -q -e 'no game played$' "$tmp/out" || { cat "$tmp/out"; fail "no summary line: $*"; }
}
later="$f/later_set.txt:9: 'Incinerate' is not printed in an allowed set of oldschool (LEA, 2ED, ARN, ATQ, LEG, DRK, FEM)"

# Each kind of illegal deck, on play.
expect_refused "$later" "$strata" play --decks "$f/later_set.txt,$f/legal.txt" --format oldschool
expect_refused "$f/too_few.txt: the main deck has 56 cards; oldschool needs at least 60" \
  "$strata" play --decks "$f/legal.txt,$f/too_few.txt" --format oldschool
expect_refused "$f/restricted_sideboard.txt:13: 'Sol Ring' is restricted in oldschool (list of 2019-09-07): at most 1 copy, the sideboard counting with the main deck; this deck has 2 (1 in the main deck, 1 in the sideboard) (lines 13, 23)" \
  "$strata" play --decks "$f/restricted_sideboard.txt,$f/legal.txt" --format oldschool
expect_refused "$f/legal.txt:10: 'Lightning Bolt' is banned in house (list of 2024-01-01): no copy in the deck nor its sideboard; this deck has 4 (4 in the main deck)" \
  "$strata" play --decks "$f/legal.txt,$f/legal.txt" --format "$f/house.toml"

# Several problems: one line each, in the file's order, then the count.
expect_refused "--format oldschool: 1 of 2 decks is not legal (5 problems); no game played" \
  "$strata" play --decks "$f/several.dck,$f/legal.txt" --format oldschool
for want in \
  "$f/several.dck: the main deck has 54 cards; oldschool needs at least 60" \
  "$f/several.dck: the sideboard has 17 cards; oldschool allows at most 15" \
  "$f/several.dck:11: 'Lightning Bolt': oldschool allows at most 4 copies of a card but a basic land, the sideboard counting with the main deck; this deck has 5 (5 in the main deck)" \
  "$f/several.dck:12: 'Shock' is not printed in an allowed set of oldschool (LEA, 2ED, ARN, ATQ, LEG, DRK, FEM)" \
  "$f/several.dck:13: 'Ancestral Recall' is restricted in oldschool (list of 2019-09-07): at most 1 copy, the sideboard counting with the main deck; this deck has 3 (2 in the main deck, 1 in the sideboard) (lines 13, 23)"; do
  [ "$(grep -c -F -x -e "$want" "$tmp/out")" = 1 ] || { cat "$tmp/out"; fail "not once: $want"; }
done
[ "$(grep -c "^$f/several.dck" "$tmp/out")" = 5 ] || { cat "$tmp/out"; fail "not 5 problem lines"; }

# Every command that takes decks checks them all, before any game.
expect_refused "$later" "$strata" sim --decks "$f/legal.txt,$f/later_set.txt" --format oldschool --games 10
expect_refused "2 of 3 decks are not legal (2 problems)" \
  "$strata" sim --decks "$f/legal.txt,$f/later_set.txt,$f/too_few.txt" --format oldschool --games 10
expect_refused "$later" "$strata" sim --decks "$f/legal.txt" --gauntlet "$f/later_set.txt" --format oldschool --games 10
expect_refused "$later" "$strata" replay --decks "$f/legal.txt,$f/later_set.txt" --game 0 --format oldschool
expect_refused "$later" "$strata" compare "$f/legal.txt" "$f/later_set.txt" --against "$f/legal.txt" --format oldschool --games 10
expect_refused "$later" "$strata" compare "$f/legal.txt" "$f/legal.txt" --against "$f/later_set.txt" --format oldschool --games 10
expect_refused "$later" "$strata" ablate "$f/later_set.txt" --against "$f/legal.txt" --format oldschool --games 10
expect_refused "$later" "$strata" swap "$f/later_set.txt" --candidates "Grizzly Bears" --against "$f/legal.txt" --format oldschool --games 10
expect_refused "$later" "$strata" fuzz --decks "$f/legal.txt,$f/later_set.txt" --format oldschool --games 10
# What a command adds to a deck is checked too: ablate's --with card, swap's candidates.
expect 2 "--with: 'Shock' is not printed in an allowed set of oldschool" \
  "$strata" ablate "$f/legal.txt" --with Shock --against "$f/legal.txt" --format oldschool --games 10
expect 2 "--candidates: 'Incinerate' is not printed in an allowed set of oldschool" \
  "$strata" swap "$f/legal.txt" --candidates "Grizzly Bears,Incinerate" --against "$f/legal.txt" --format oldschool --games 10
# fuzz's random decks are the pool's, in no format: refused, not ignored.
expect 2 "--decks random draws its decks from the whole pool" "$strata" fuzz --format oldschool --games 10

# A legal deck plays, with the check and without.
expect 0 "result: " "$strata" play --decks "$f/legal.txt,$f/legal.txt" --format oldschool --quiet
expect 0 "matchup" "$strata" sim --decks "$f/legal.txt,$f/legal.txt" --format oldschool --games 10 --threads 1
# --format none, the default, checks nothing: the illegal decks play.
expect 0 "result: " "$strata" play --decks "$f/several.dck,$f/later_set.txt" --format none --quiet
expect 0 "result: " "$strata" play --decks "$f/several.dck,$f/later_set.txt" --quiet

# A format that does not load: named, exit 2, no game.
expect 2 "--format: unknown format 'oldscool': expected none, oldschool, or a format file FILE.toml" \
  "$strata" play --decks "$f/legal.txt,$f/legal.txt" --format oldscool
expect 2 "--format: missing.toml: cannot open format file" \
  "$strata" play --decks "$f/legal.txt,$f/legal.txt" --format missing.toml
expect 2 "$f/bad/misspelt_name.toml:6: key 'restricted': expected a card name exactly as a set list of \`sets\` (or also_legal) writes it, got 'Mox Jett'" \
  "$strata" sim --decks "$f/legal.txt,$f/legal.txt" --format "$f/bad/misspelt_name.toml"
expect 2 "$f/bad/unknown_set.toml:4: key 'sets': expected a set code with a card list in" \
  "$strata" play --decks "$f/legal.txt,$f/legal.txt" --format "$f/bad/unknown_set.toml"
expect 2 "$f/bad/unknown_key.toml:4: key 'restricted_cards': expected one of the keys of a format file" \
  "$strata" play --decks "$f/legal.txt,$f/legal.txt" --format "$f/bad/unknown_key.toml"
expect 2 "$f/bad/bad_date.toml:2: key 'list_date': expected the date of the restricted and banned lists as \"YYYY-MM-DD\", got 'Sept 2019'" \
  "$strata" play --decks "$f/legal.txt,$f/legal.txt" --format "$f/bad/bad_date.toml"
expect 2 "$f/bad/both_lists.toml:5: key 'banned': expected a card not also in restricted, got 'Sol Ring'" \
  "$strata" play --decks "$f/legal.txt,$f/legal.txt" --format "$f/bad/both_lists.toml"
expect 2 "$f/bad/syntax.toml:3: TOML syntax error" \
  "$strata" play --decks "$f/legal.txt,$f/legal.txt" --format "$f/bad/syntax.toml"
for bad in "$f"/bad/*.toml; do
  expect 2 "$bad:" "$strata" play --decks "$f/legal.txt,$f/legal.txt" --format "$bad"
done

# The help of each command names the flag.
for cmd in sim replay play compare ablate swap fuzz; do
  "$strata" "$cmd" --help 2>&1 | grep -q -e '--format' || fail "strata $cmd --help has no --format"
done

# Every bundled Old School deck is legal.
if [ -d data/decks/oldschool ]; then
  n=0
  for deck in data/decks/oldschool/*; do
    [ -f "$deck" ] || continue
    expect 0 "result: " "$strata" play --decks "$deck,$deck" --format oldschool --quiet
    n=$((n + 1))
  done
  [ "$n" -gt 0 ] || fail "no deck in data/decks/oldschool"
  echo "$n bundled Old School decks legal"
else
  echo "data/decks/oldschool does not exist yet: no bundled Old School deck to check"
fi
echo "format_cli: ok"
