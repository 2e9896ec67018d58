#!/bin/bash
# The readable game log of strata replay and strata play (issue 16): seats
# named by deck and player, the opening hands as kept (7 cards less one per
# paris mulligan), life totals each turn and at the end (the loser's at 0
# or below when the game ended on life), each target with its spell, each
# attachment; and watching changes nothing: the same record as --quiet.
# Usage: game_log_test.sh STRATA SOURCE_DIR
set -u
strata=$1
src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
d="$src/data/decks"
decks="$d/artifact_blue.txt,$d/red_burn.txt"
found_target=0 found_attach=0 found_mulligan=0
for g in $(seq 0 29); do
  "$strata" replay --decks "$decks" --games 32 --game $g >"$tmp/log" 2>&1 || { cat "$tmp/log"; fail "replay game $g"; }
  "$strata" replay --decks "$decks" --games 32 --game $g --quiet >"$tmp/quiet" 2>&1 || fail "replay --quiet game $g"
  [ "$(grep '^record: ' "$tmp/log")" = "$(grep '^record: ' "$tmp/quiet")" ] ||
    fail "game $g: the annotated log's game differs from --quiet's"
  record=$(sed -n 's/^record: //p' "$tmp/log")
  seat0=$(echo "$record" | sed 's/.*"seats": \["\([^"]*\)", "\([^"]*\)"\].*/\1/')
  seat1=$(echo "$record" | sed 's/.*"seats": \["\([^"]*\)", "\([^"]*\)"\].*/\2/')
  head -1 "$tmp/log" | grep -q "^seats: A = $seat0 (heuristic, starts), B = $seat1 (heuristic)$" ||
    fail "game $g: header '$(head -1 "$tmp/log")', record seats $seat0, $seat1"
  # Opening hands: 7 cards less one per mulligan (paris), named.
  mull=$(echo "$record" | sed 's/.*"mulligans": \[\([0-9]*\), \([0-9]*\)\].*/\1 \2/')
  set -- $mull
  [ "$1$2" != 00 ] && found_mulligan=1
  grep -q "opening hand of A ($seat0), $((7 - $1)) cards: [A-Z]" "$tmp/log" || fail "game $g: A's opening hand"
  grep -q "opening hand of B ($seat1), $((7 - $2)) cards: [A-Z]" "$tmp/log" || fail "game $g: B's opening hand"
  # Life each turn: a line in every turn with a decision, at least one per two turns.
  turns=$(echo "$record" | sed 's/.*"turns": \([0-9]*\).*/\1/')
  lifes=$(grep -c ": life A ($seat0) -\?[0-9]*, B ($seat1) -\?[0-9]*; hands " "$tmp/log")
  [ $((2 * lifes)) -ge "$turns" ] || fail "game $g: $lifes life lines in $turns turns"
  end=$(grep ': game over: life ' "$tmp/log") || fail "game $g: no final life totals"
  if echo "$record" | grep -q '"end": "life"'; then
    winner_seat=$(echo "$record" | sed 's/.*"winner_seat": \(-\?[0-9]*\).*/\1/')
    lives=$(echo "$end" | sed 's/.*life A ([^)]*) \(-\?[0-9]*\), B ([^)]*) \(-\?[0-9]*\)$/\1 \2/')
    set -- $lives
    if [ "$winner_seat" = 0 ]; then loser=$2; else loser=$1; fi
    [ "$loser" -le 0 ] || fail "game $g: won on life, the loser at $loser ($end)"
  fi
  grep -q ' targets [^ ].* with .*#[0-9]*$' "$tmp/log" && found_target=1
  grep -q ': [A-Z].*#[0-9]* is attached to .*#[0-9]*$' "$tmp/log" && found_attach=1
done
[ $found_target = 1 ] || fail "no target in 30 games of burn"
[ $found_attach = 1 ] || fail "no attachment in 30 games of artifact_blue (Animate Artifact, Bonesplitter)"
[ $found_mulligan = 1 ] || fail "no mulligan in 30 games: the hand sizes were not tested"

# strata play: A is the first deck; the seed says who starts.
"$strata" play --decks "$decks" --seed 3 >"$tmp/play" 2>&1 || fail "play"
head -1 "$tmp/play" | grep -q '^seats: A = artifact_blue (random), B = red_burn (random, starts)$' ||
  fail "play header: $(head -1 "$tmp/play")"
grep -q 'opening hand of A (artifact_blue), ' "$tmp/play" || fail "play: no opening hand"
echo "game logs: all checks passed"
