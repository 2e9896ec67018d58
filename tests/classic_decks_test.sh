#!/bin/bash
# The classic decks (issue 37, data/decks/classic/, docs/decks.md): every file
# loads as a 60-card deck, a short round robin of all of them plays every
# matchup to its last game, and none of them joins the default study (which
# takes data/decks/*.txt only, so a subfolder keeps them out).
# Usage: classic_decks_test.sh STRATA SOURCE_DIR
set -u
strata=$1
src=$2
. "$src/tests/lib.sh"  # $tmp, fail, expect
dir="$src/data/decks/classic"
files=("$dir"/*.txt)
n=${#files[@]}
[ "$n" -ge 8 ] || fail "expected at least 8 decks in $dir, found $n"

# Each deck alone: it loads (a game against itself plays) and holds 60 cards.
for f in "${files[@]}"; do
  name=$(basename "$f" .txt)
  out=$("$strata" play --decks "$f,$f" --seed 3 --quiet 2>&1) || {
    printf '%s\n' "$out"
    fail "$name: does not load or play"
  }
  printf '%s\n' "$out" | grep -q "result: .* after" || { printf '%s\n' "$out"; fail "$name: no result"; }
  cards=$(grep -v '^#' "$f" | awk 'NF { s += $1 } END { print s }')
  [ "$cards" = 60 ] || fail "$name: $cards cards, expected 60"
done

# A short round robin of all of them: every matchup plays all its games,
# each game a win, a loss or a draw.
games=16
decks=$(IFS=,; echo "${files[*]}")
"$strata" sim --decks "$decks" --games $games --threads 1 --seed 5 --out "$tmp/rr" >"$tmp/out" 2>&1 || {
  cat "$tmp/out"
  fail "round robin of the classic decks failed"
}
want=$((n * (n - 1) / 2))
rows=$(tail -n +2 "$tmp/rr/matchups.csv" | wc -l)
[ "$rows" -eq "$want" ] || fail "matchups.csv: $rows matchups, expected $want"
bad=$(tail -n +2 "$tmp/rr/matchups.csv" |
  awk -F, -v g=$games '$3 != g || $4 + $5 + $6 != g { print $1 " vs " $2 ": " $3 " games, " $4 "+" $5 "+" $6 }')
[ -z "$bad" ] || fail "matchups not played to the end: $bad"
for f in "${files[@]}"; do
  name=$(basename "$f" .txt)
  grep -q "^$name," "$tmp/rr/matchups.csv" || grep -q ",$name," "$tmp/rr/matchups.csv" ||
    fail "$name: in no matchup"
done

# The default study (no --decks) is the decks of data/decks/*.txt only.
"$strata" sim --games 2 --threads 1 --out "$tmp/default" >"$tmp/out" 2>&1 || {
  cat "$tmp/out"
  fail "default study failed"
}
for f in "${files[@]}"; do
  name=$(basename "$f" .txt)
  ! grep -q "\"$name\"" "$tmp/default/summary.json" || fail "$name: in the default study"
done
echo "ok: $n classic decks load, $want matchups of $games games each, none in the default study"
