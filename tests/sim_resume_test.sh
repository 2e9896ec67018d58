#!/bin/sh
# strata sim end to end: a study stopped after a block and resumed writes the
# same summary.json (but its "run" and "command" lines), matchups.csv and
# games.jsonl as an uninterrupted one; strata replay prints the record of a
# game exactly as games.jsonl has it; bad resumes fail with one message.
# Usage: sim_resume_test.sh STRATA SOURCE_DIR
set -u
strata=$1
src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
decks="$src/data/decks/red_burn.txt,$src/data/decks/green_stompy.txt,$src/data/decks/wu_control.txt"
set -- --cards "$src/data/cards" sim --decks "$decks" --games 300 --seed 21 --policies heuristic,random
"$strata" "$@" --out "$tmp/full" --games-out --threads 2 >/dev/null || fail "full run"
"$strata" "$@" --out "$tmp/part" --games-out --threads 2 --stop-after-blocks 3 >/dev/null 2>"$tmp/err"
rc=$?
[ $rc -eq 130 ] || fail "an interrupted run exits 130, not $rc"
grep -q '"partial": true' "$tmp/part/summary.json" || fail "partial summary not marked"
grep -q "continue with: strata sim --resume $tmp/part" "$tmp/err" || fail "no resume hint"
"$strata" sim --resume "$tmp/part" --threads 1 >/dev/null || fail "resume"
strip() { grep -v -e '"run"' -e '"command"' "$1"; }
strip "$tmp/full/summary.json" >"$tmp/a"
strip "$tmp/part/summary.json" >"$tmp/b"
cmp "$tmp/a" "$tmp/b" || { diff "$tmp/a" "$tmp/b"; fail "summary.json differs"; }
cmp "$tmp/full/matchups.csv" "$tmp/part/matchups.csv" || fail "matchups.csv differs"
cmp "$tmp/full/cards.csv" "$tmp/part/cards.csv" || fail "cards.csv differs"
cmp "$tmp/full/games.jsonl" "$tmp/part/games.jsonl" || fail "games.jsonl differs"
[ "$(wc -l <"$tmp/full/games.jsonl")" -eq 900 ] || fail "games.jsonl has not 900 lines"
# Replay: game 123 of matchup 1 is line 300 + 123 + 1.
rec=$("$strata" replay --from "$tmp/full" --matchup 1 --game 123 | sed -n 's/^record: //p')
[ "$rec" = "$(sed -n 424p "$tmp/full/games.jsonl")" ] || fail "replay record '$rec' differs"
"$strata" replay --from "$tmp/full" --matchup 1 --game 123 | grep -q '^T1 ' || fail "no log"
# Bad input: one message, non-zero.
"$strata" sim --resume "$tmp/full" 2>&1 | grep -q "complete; nothing to resume" ||
  fail "resume of a complete study"
# --report on a complete study writes its page and plays no game.
cp "$tmp/full/games.jsonl" "$tmp/games.before"
cp "$tmp/full/matchups.csv" "$tmp/matchups.before"
"$strata" sim --resume "$tmp/full" --report 2>&1 | grep -q "(0 in this run)" || fail "report of a complete study"
[ -s "$tmp/full/report.html" ] || fail "no report.html"
cmp "$tmp/full/games.jsonl" "$tmp/games.before" || fail "games.jsonl changed by --report"
cmp "$tmp/full/matchups.csv" "$tmp/matchups.before" || fail "matchups.csv changed by --report"
"$strata" sim --resume "$tmp/nope" 2>&1 | grep -q "no such study directory" || fail "missing dir"
"$strata" replay --from "$tmp/full" --game 300 2>&1 | grep -q -e "--game 300: expected 0 to 299" ||
  fail "bad game index"
"$strata" "$@" --out "$tmp/p2" --stop-after-blocks 1 >/dev/null 2>&1
"$strata" sim --resume "$tmp/p2" --seed 22 2>&1 | grep -q -e "not the study's --seed" ||
  fail "mismatched resume options"
# --mulligan is a study option: paris by default, in study.toml and
# summary.json, and a resume with another is refused.
grep -q "^mulligan = 'paris'" "$tmp/p2/study.toml" || fail "study.toml: mulligan"
grep -q '"mulligan": "paris",' "$tmp/p2/summary.json" || fail "summary.json: mulligan"
grep -q '"mulligans": \[[0-9]*, [0-9]*\], "winner"' "$tmp/full/games.jsonl" || fail "games.jsonl: mulligans"
"$strata" sim --resume "$tmp/p2" --mulligan london 2>&1 | grep -q -e "not the study's --mulligan" ||
  fail "a resume with another --mulligan"
"$strata" sim --resume "$tmp/p2" --mulligan paris --threads 1 >/dev/null || fail "resume with its own --mulligan"
echo ok
