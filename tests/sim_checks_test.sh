#!/bin/bash
# strata sim trusts nothing it reads: every bad flag, --out folder and
# study.toml gets one message and a non-zero exit before any game runs,
# and one folder holds one study, run by one strata at a time.
# Usage: sim_checks_test.sh STRATA SOURCE_DIR
set -u
strata=$1
src=$2
. "$src/tests/lib.sh"  # $tmp, fail, expect
d="$src/data/decks"
decks="$d/red_burn.txt,$d/green_stompy.txt"
sim=("$strata" --cards "$src/data/cards" sim --decks "$decks" --threads 2)

# Seeds are 0 to 2^64-1 exactly; NaN and infinities are no numbers.
range="expected an integer from 0 to 18446744073709551615"
expect 2 "--seed: $range, got '18446744073709551616'" "${sim[@]}" --seed 18446744073709551616
expect 2 "--seed: $range, got '1e23'" "${sim[@]}" --seed 1e23
expect 2 "--seed: $range, got '-1'" "${sim[@]}" --seed -1
expect 2 "--seed: $range, got '-1'" "$strata" play --decks "$decks" --seed -1
expect 0 "seed 18446744073709551615" "${sim[@]}" --games 2 --seed 18446744073709551615
expect 2 "--ci: expected a number from 0.0001 to 0.5, got 'nan'" "${sim[@]}" --ci nan
expect 2 "--ci: expected a number from 0.0001 to 0.5, got 'inf'" "${sim[@]}" --ci inf
expect 2 "policy 'random:pass=nan': parameter 'pass': expected a number from 0 to 1, got 'nan'" \
  "${sim[@]}" --policies random:pass=nan
expect 2 "--checkpoint-seconds: expected a number from 0 to 86400, got 'nan'" \
  "${sim[@]}" --checkpoint-seconds nan
expect 2 "--game: expected an integer from 0 to 9223372036854775807, got '99999999999999999999'" \
  "$strata" replay --decks "$decks" --game 99999999999999999999

# The report on stdout is checked like any file.
"${sim[@]}" --games 2 >/dev/full 2>"$tmp/err"
rc=$?
[ $rc -eq 1 ] && grep -q -F "stdout: write failed: No space left on device" "$tmp/err" ||
  fail "stdout on /dev/full: exit $rc, $(cat "$tmp/err")"

# Seeds are also strings in the JSON files: numbers past 2^53 lose digits.
"${sim[@]}" --seed 4 --games 600 --out "$tmp/s" --games-out --stop-after-blocks 1 >/dev/null 2>&1
[ $? -eq 130 ] || fail "a study stopped after one block exits 130"
grep -q '"seed": 4, *$' "$tmp/s/summary.json" && grep -q '"seed_string": "4",' "$tmp/s/summary.json" ||
  fail "summary.json: seed and seed_string"
head -1 "$tmp/s/games.jsonl" | grep -q '"seed": \([0-9]*\), "seed_string": "\1"' ||
  fail "games.jsonl: seed_string"
grep -q '"cards_fingerprint": "[0-9a-f]\{16\}"' "$tmp/s/summary.json" ||
  fail "summary.json: cards_fingerprint"
grep -q "^cards_fingerprint = '[0-9a-f]\{16\}'" "$tmp/s/study.toml" || fail "study.toml: fingerprint"
grep -q "^strata_version = '" "$tmp/s/study.toml" || fail "study.toml: strata_version"

# --out: writable before the first game; an old study kept unless --force.
touch "$tmp/file"
expect 2 "--out: $tmp/file/sub: cannot create: Not a directory" "${sim[@]}" --out "$tmp/file/sub"
expect 2 "--games-out $tmp/file/g.jsonl: cannot write: Not a directory" \
  "${sim[@]}" --games-out "$tmp/file/g.jsonl"
expect 2 "--out $tmp/s: holds an earlier study (study.toml, summary.json, matchups.csv, cards.csv, games.jsonl); continue it with --resume $tmp/s, or give --force to replace it" \
  "${sim[@]}" --games 2 --out "$tmp/s"
cp -r "$tmp/s" "$tmp/f"
touch "$tmp/f/cards.png" "$tmp/f/mine.txt"
expect 0 "wrote $tmp/f/summary.json" "${sim[@]}" --games 2 --out "$tmp/f" --force
[ ! -e "$tmp/f/games.jsonl" ] && [ ! -e "$tmp/f/cards.png" ] || fail "--force kept old files"
[ -e "$tmp/f/mine.txt" ] || fail "--force removed a file that is not the study's"
grep -q '"games": 2,' "$tmp/f/summary.json" || fail "--force: not the new study"

# One run per folder: the lock is an flock, so it goes with the process.
exec 9>"$tmp/s/study.lock"
flock -n 9 || fail "flock"
expect 2 "--resume: $tmp/s: another strata sim is running on this directory, it holds $tmp/s/study.lock" \
  "$strata" sim --resume "$tmp/s"
exec 9>&-
# (A study long enough to be running still when the second one starts and
# the signal comes: it is stopped early, so its length costs nothing.)
"${sim[@]}" --games 40000 --out "$tmp/h" --games-out --stop-after-blocks 0 >/dev/null 2>&1
"$strata" sim --resume "$tmp/h" --threads 1 >/dev/null 2>&1 &
pid=$!
# Until it holds the lock (its pid is in the lock file), not a fixed sleep.
for _ in $(seq 300); do
  [ "$(cat "$tmp/h/study.lock" 2>/dev/null)" = "$pid" ] && break
  sleep 0.05
done
expect 2 "--resume: $tmp/h: another strata sim is running on this directory (pid $pid)" \
  "$strata" sim --resume "$tmp/h"
kill -HUP $pid
wait $pid
rc=$?
[ $rc -eq 129 ] || fail "SIGHUP: exit $rc, not 129"
lines=$(wc -l <"$tmp/h/games.jsonl")
[ "$(sed -n 's/^games_out_bytes = \([0-9]*\)$/\1/p' "$tmp/h/study.toml")" -eq "$(wc -c <"$tmp/h/games.jsonl")" ] ||
  fail "SIGHUP: games.jsonl and study.toml disagree"
[ "$lines" -eq "$(awk '/^games = [0-9]/ && n++ { s += $3 } END { print s }' "$tmp/h/study.toml")" ] ||
  fail "SIGHUP: $lines lines in games.jsonl, not the study's games"

# study.toml, edited: one message each, "study.toml:LINE: MESSAGE", and
# nothing runs.
bad() {  # bad SED_EXPRESSION MESSAGE
  rm -rf "$tmp/e"
  cp -r "$tmp/s" "$tmp/e"
  sed -i -e "$1" "$tmp/e/study.toml"
  cmp -s "$tmp/s/study.toml" "$tmp/e/study.toml" && fail "sed '$1' changed nothing"
  expect 2 "$2" "$strata" sim --resume "$tmp/e"
  sed 's/study\.toml:[0-9][0-9]*: /study.toml:LINE: /' "$tmp/out" |
    grep -q -F -e "--resume: $tmp/e/study.toml:LINE: $2" || { cat "$tmp/out"; fail "no file and line: $2"; }
  cmp -s "$tmp/s/games.jsonl" "$tmp/e/games.jsonl" || fail "a refused resume wrote games"
}
bad '0,/^a_wins = .*/s//a_wins = 999/' \
  "key 'matchups[0].a_wins': expected a_wins + b_wins + draws = games (256), got 999 + "
bad "s/^rules = 'modern'/rules = 'classic'/" \
  "key 'rules': expected the value strata wrote (it no longer matches its digest"
bad "s/^rules = 'modern'/rules = 'ancient'/" "key 'rules': expected classic, m10 or modern"
line=$(grep -n "^rules = " "$tmp/e/study.toml" | cut -d: -f1)
grep -q -F -e "study.toml:$line: key 'rules'" "$tmp/out" || fail "key 'rules' not named at its line, $line"
bad "0,/'Mountain',/s/'Mountain',//" "key 'decks[0].cards': expected 40 to 256 cards, got 39"
bad 's/^games = 600$/games = 10000000000/' \
  "key 'games': expected an integer between 1 and 100000000, got 10000000000"
bad 's/^games = 600$/games = 100000000000000000000/' "TOML syntax error: Error while parsing decimal integer"
bad "s/^policies = .*/policies = [ 'heuristic', 'smart' ]/" \
  "key 'policies': expected policies this strata knows (strata sim --help), got unknown policy 'smart'"
bad "s/^policies = .*/policies = [ 'random:pass=nan', 'heuristic' ]/" \
  "key 'policies': expected policies this strata knows (strata sim --help), got policy 'random:pass=nan'"
bad 's/^ci = 0.0/ci = nan/' "key 'ci': expected a finite number"
bad 's/^ci = 0.0/ci = 0.9/' "key 'ci': expected 0 or 0.0001 to 0.5, got 0.9"
bad "s/^seed = '4'/seed = '18446744073709551616'/" \
  "key 'seed': expected an integer from 0 to 18446744073709551615, got '18446744073709551616'"
bad "s/^seed = '4'/seed = '5'/" "key 'seed': expected the value strata wrote"
bad 's/^gauntlet = -1/gauntlet = 4294967296/' \
  "key 'gauntlet': expected an integer between -1 and 1000000, got 4294967296"
bad 's/^complete = false/complete = 7/' "key 'complete': expected true or false"
bad 's/^games_out_bytes = [0-9]*$/games_out_bytes = -5/' \
  "key 'games_out_bytes': expected an integer between 0 and 9223372036854775807, got -5"
bad '0,/^turns = .*/s//turns = 5/' "key 'matchups[0].turns': expected at least "
bad '0,/^first_player_wins = .*/s//first_player_wins = 1000/' \
  "key 'matchups[0].first_player_wins': expected at most the games won (256), got 1000"
bad "0,/'Mountain',/s/'Mountain',/'Swamp',/" "key 'decks': expected the value strata wrote"
bad '0,/^games = 256/s//games = 300/' \
  "key 'matchups[0].games': expected a multiple of 256 up to 600, or 600, got 300"

# A copied study folder is a study of its own: it writes its own games.jsonl.
cp -r "$tmp/s" "$tmp/m"
cp "$tmp/s/games.jsonl" "$tmp/games.before"
grep -q "^games_out = 'games.jsonl'" "$tmp/m/study.toml" || fail "games_out not relative"
expect 130 "interrupted" "$strata" sim --resume "$tmp/m" --stop-after-blocks 1
cmp -s "$tmp/s/games.jsonl" "$tmp/games.before" || fail "resuming a copy wrote the original"
[ "$(wc -l <"$tmp/m/games.jsonl")" -eq 512 ] || fail "the copy did not write its own games"
# Two studies never write one --games-out FILE at once.
exec 9>>"$tmp/shared.jsonl"
flock -n 9 || fail "flock"
expect 2 "--games-out $tmp/shared.jsonl: another strata sim is writing this file" \
  "${sim[@]}" --games 2 --games-out "$tmp/shared.jsonl"
exec 9>&-
cp -r "$tmp/s" "$tmp/g"
truncate -s 100 "$tmp/g/games.jsonl"
expect 2 "--resume: $tmp/g/games.jsonl is missing or shorter than the $(wc -c <"$tmp/s/games.jsonl") bytes the study wrote" \
  "$strata" sim --resume "$tmp/g"

# Another strata or other cards: refused unless --force, naming the change.
resume_msg() { echo "--resume $1: $2; its games so far may not be what these would play; give --force to resume anyway"; }
cp -r "$tmp/s" "$tmp/v"
sed -i "s/^strata_version = .*/strata_version = '0.0.1'/" "$tmp/v/study.toml"
expect 2 "--resume $tmp/v: the study was made by strata 0.0.1, this is " \
  "$strata" sim --resume "$tmp/v"
cp -r "$tmp/s" "$tmp/o"
sed -i '/^cards_fingerprint = /d' "$tmp/o/study.toml"
expect 2 "$(resume_msg "$tmp/o" "study.toml records no card fingerprint (a study from an older strata), so changed cards cannot be ruled out")" \
  "$strata" sim --resume "$tmp/o"
cp -r "$src/data/cards" "$tmp/cards"
"$strata" --no-default-cards --cards "$tmp/cards" sim --decks "$decks" --games 600 --out "$tmp/c" --stop-after-blocks 1 \
  >/dev/null 2>&1
echo "# a comment changes no card" >>"$tmp/cards/layers.toml"
expect 130 "interrupted" "$strata" sim --resume "$tmp/c" --stop-after-blocks 0
sed -i '/^name = "Grizzly Bears"/,/^power/s/^power = 2/power = 3/' "$tmp/cards/layers.toml"
expect 2 "changed: Grizzly Bears); its games so far may not be what these would play; give --force to resume anyway" \
  "$strata" sim --resume "$tmp/c"
expect 2 "the card database changed (fingerprint " "$strata" sim --resume "$tmp/c"
expect 0 "replay: warning: the card database changed (fingerprint " \
  "$strata" replay --from "$tmp/c" --game 3 --quiet
expect 0 "--force: the card database changed" "$strata" sim --resume "$tmp/c" --force
echo ok
