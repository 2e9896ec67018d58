#!/bin/bash
# strata bench --policies (issue 15): other players timed on the bench's
# matchups. A spec plays the same games on any thread count and wherever it
# stands in the list (the pinned players keep their own seeds), and the
# report says when its signature is not the pinned one.
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

# The default needs no word about the pin.
default=$(bench --threads 2)
if printf '%s\n' "$default" | grep -q '^(tests/bench_signature'; then fail "the default says it is not pinned"; fi
echo "ok"
