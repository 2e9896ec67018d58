#!/bin/bash
# strata bench --policies (issue 15): other players timed on the bench's
# matchups. A spec plays the same games on any thread count and wherever it
# stands in the list (the pinned players keep their own seeds), and the
# report says when its signature is not the pinned one. strata bench
# --matchups (issue 37): the same for matchups.
# Usage: bench_policies_test.sh STRATA CARDS
set -u
strata=$1
cards=$2
fail() { echo "FAIL: $*"; exit 1; }
bench() { "$strata" --cards "$cards" bench "$@" 2>&1 || fail "bench $* exited non-zero"; }
row() { printf '%s\n' "$1" | awk -v p="$2" '$1 == p { print $2, $6, $7 }'; }  # games, decisions/game, turns/game
sig() { printf '%s\n' "$1" | sed -n 's/^signature //p'; }

mc='mc:rollouts=2,depth=14'
one=$(bench --policies "$mc" --games 12 --threads 1)
two=$(bench --policies "$mc" --games 12 --threads 2)
printf '%s\n' "$one"
[ -n "$(row "$one" "$mc")" ] || fail "no row for $mc"
[ "$(row "$one" "$mc" | cut -d' ' -f1)" = 12 ] || fail "$mc did not play 12 games"
[ "$(sig "$one")" = "$(sig "$two")" ] || fail "$mc: signature differs on 1 and 2 threads"
printf '%s\n' "$one" | grep -q '^(tests/bench_signature pins the default' ||
  fail "no word that this signature is not the pinned one"

# heuristic alone, and after random (the default), plays the same games.
alone=$(bench --policies heuristic --games 30 --threads 2)
both=$(bench --games 30 --threads 2)
[ -n "$(row "$alone" heuristic)" ] || fail "no heuristic row"
[ "$(row "$alone" heuristic)" = "$(row "$both" heuristic)" ] ||
  fail "heuristic alone ($(row "$alone" heuristic)) and after random ($(row "$both" heuristic)) differ"
[ "$(sig "$alone")" != "$(sig "$both")" ] || fail "two sets of games with one signature"

# --matchups: a matchup plays the same games whichever matchups stand beside
# it and in whatever order, and each matchup has its row in the report.
# mrow OUT N PLAYER: matchup N's row for PLAYER: games, decisions/game, turns/game.
mrow() { printf '%s\n' "$1" | awk -v m="$2" -v p="$3" '$1 == m && $5 == p { print $6, $10, $11 }'; }
full=$(bench --games 50 --threads 2)
for m in 1 2 3 4 5; do
  for p in random heuristic; do
    [ "$(mrow "$full" $m $p | cut -d' ' -f1)" = 10 ] || fail "matchup $m, $p: no row of 10 games"
  done
done
fourth=$(bench --matchups 4 --games 10 --threads 1)
[ "$(mrow "$fourth" 4 heuristic)" = "$(mrow "$full" 4 heuristic)" ] ||
  fail "matchup 4 alone ($(mrow "$fourth" 4 heuristic)) and among all ($(mrow "$full" 4 heuristic)) differ"
[ -z "$(mrow "$fourth" 1 heuristic)" ] || fail "--matchups 4 played matchup 1"
reordered=$(bench --matchups 3,1 --games 20 --threads 2)
for m in 1 3; do
  [ "$(mrow "$reordered" $m random)" = "$(mrow "$full" $m random)" ] ||
    fail "matchup $m after --matchups 3,1 ($(mrow "$reordered" $m random)) and among all ($(mrow "$full" $m random)) differ"
done
printf '%s\n' "$fourth" | grep -q '^(tests/bench_signature pins the default' ||
  fail "--matchups 4: no word that this signature is not the pinned one"

# The default needs no word about the pin.
default=$(bench --threads 2)
if printf '%s\n' "$default" | grep -q '^(tests/bench_signature'; then fail "the default says it is not pinned"; fi
echo "ok"
