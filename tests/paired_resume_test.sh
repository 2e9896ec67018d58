#!/bin/bash
# strata compare and strata ablate with --out keep study.toml (the run's
# options and exact progress, issue 39), and at each checkpoint the figures
# so far: a run stopped part way (a test's stop, SIGINT, SIGKILL) has its
# figures so far with "partial": true (a stop or SIGINT also exits 128 +
# the signal and names `--resume DIR`), and `--resume DIR` goes on to the same
# summary.json (but its command and run record), CSVs and terminal table as
# an uninterrupted run, for any thread count. Bad resumes are refused
# before any game: other options, the other command's run, sim's study, an
# edited study.toml, a changed deck file, a complete run.
# Usage: paired_resume_test.sh STRATA SOURCE_DIR
set -u
strata=$1
src=$2
source "$src/tests/lib.sh"
d="$src/data/decks"
old="$src/tests/decks/v1/burn.txt"
new="$src/tests/decks/v2/burn.txt"
against="$d/green_stompy.txt,$d/white_weenie.txt"
run=(compare "$old" "$new" --against "$against" --games 1024)
# Paths outside the working directory stay absolute in every command a run
# prints, first run or resumed (under it they are shown relative).
cd "$tmp" || fail "cd $tmp"

same() {  # same FULL DIR: DIR's figures are FULL's (but the command and run record)
  grep -v -e '"run"' -e '"command"' "$1/summary.json" >"$tmp/a"
  grep -v -e '"run"' -e '"command"' "$2/summary.json" >"$tmp/b"
  cmp -s "$tmp/a" "$tmp/b" || { diff "$tmp/a" "$tmp/b" | head; fail "$2: summary.json differs"; }
  for f in opponents.csv cards.csv; do
    [ -e "$1/$f" ] || continue
    cmp "$1/$f" "$2/$f" || fail "$2: $f differs"
  done
  grep -q '"partial": false' "$2/summary.json" || fail "$2: not complete"
}
table() { sed -n '/^opponent/,/^verdict/p' "$1"; }

"$strata" "${run[@]}" --threads 2 --out "$tmp/full" --report >"$tmp/full.out" 2>&1 ||
  { cat "$tmp/full.out"; fail "uninterrupted compare"; }
grep -q "^wrote $tmp/full/summary.json, opponents.csv, cards.csv, report.html and study.toml$" \
  "$tmp/full.out" || fail "no wrote line with study.toml"
head -1 "$tmp/full/study.toml" | grep -q '^# digest [0-9a-f]\{16\}$' || fail "no digest line"
grep -q "^what = 'compare'" "$tmp/full/study.toml" || fail "study.toml: no what"
grep -q '^complete = true' "$tmp/full/study.toml" || fail "study.toml: not complete"

# Stopped after one wave on one thread, twice more, then to the end on two.
expect 130 "continue with: strata compare --resume $tmp/part" \
  "$strata" "${run[@]}" --threads 1 --out "$tmp/part" --report --stop-after-waves 1
grep -q "interrupted: 1024 games so far, in whole blocks of 256" "$tmp/out" ||
  { cat "$tmp/out"; fail "no interrupted line (2 opponents x 256 games x 2 versions)"; }
grep -q '"partial": true' "$tmp/part/summary.json" || fail "a stopped run's summary.json is not partial"
grep -q "\"resume\": \"strata compare --resume $tmp/part\"" "$tmp/part/summary.json" ||
  fail "no resume command in summary.json"
grep -q "<b>Partial:</b>" "$tmp/part/report.html" || fail "the partial report does not say so"
grep -q '^complete = false' "$tmp/part/study.toml" || fail "study.toml: complete after a stop"
expect 130 "continue with: strata compare --resume $tmp/part" \
  "$strata" compare --resume "$tmp/part" --threads 2 --stop-after-waves 1
"$strata" compare --resume "$tmp/part" --threads 2 >"$tmp/part.out" 2>&1 ||
  { cat "$tmp/part.out"; fail "compare --resume"; }
same "$tmp/full" "$tmp/part"
diff <(table "$tmp/full.out") <(table "$tmp/part.out") || fail "the resumed table differs"
grep -q "<b>Partial:</b>" "$tmp/part/report.html" && fail "the report is still partial after the resume"
grep -q "<h2 id='changes'>" "$tmp/part/report.html" || fail "the resume did not keep the report"

# SIGKILL once a checkpoint holds games, resumed to the end.
"$strata" "${run[@]}" --threads 1 --out "$tmp/kill" --checkpoint-seconds 0 >/dev/null 2>&1 &
pid=$!
for _ in $(seq 200); do
  grep -q '^score = \[ \[ [1-9]' "$tmp/kill/study.toml" 2>/dev/null && break
  sleep 0.05
done
kill -KILL $pid 2>/dev/null
wait $pid 2>/dev/null
# A checkpoint writes the figures so far too, then study.toml.
grep -q '"partial": true' "$tmp/kill/summary.json" || fail "SIGKILL: no partial summary.json from the checkpoint"
[ -s "$tmp/kill/opponents.csv" ] || fail "SIGKILL: no opponents.csv from the checkpoint"
"$strata" compare --resume "$tmp/kill" >"$tmp/kill.out" 2>&1 || { cat "$tmp/kill.out"; fail "resume after SIGKILL"; }
same "$tmp/full" "$tmp/kill"

# SIGINT: the wave under way is dropped, the figures so far written, exit 130.
"$strata" "${run[@]}" --threads 1 --out "$tmp/int" --checkpoint-seconds 0 >"$tmp/int.out" 2>&1 &
pid=$!
for _ in $(seq 200); do
  grep -q '^score = \[ \[ [1-9]' "$tmp/int/study.toml" 2>/dev/null && break
  sleep 0.05
done
kill -INT $pid 2>/dev/null
wait $pid
rc=$?
if [ $rc -eq 130 ]; then
  grep -q "interrupted (SIGINT): " "$tmp/int.out" || { cat "$tmp/int.out"; fail "no SIGINT line"; }
  grep -q '"partial": true' "$tmp/int/summary.json" || fail "SIGINT: summary.json not partial"
  "$strata" compare --resume "$tmp/int" --threads 2 >/dev/null 2>&1 || fail "resume after SIGINT"
elif [ $rc -eq 0 ]; then
  echo "SIGINT came after the end (a fast machine): not checked"
else
  cat "$tmp/int.out"
  fail "SIGINT: exit $rc, not 130"
fi
same "$tmp/full" "$tmp/int"

# --ci: the resumed run stops at the block the uninterrupted one does
# (768 games: three blocks).
ci=(compare "$old" "$new" --against "$d/black_removal.txt" --ci 0.03)
"$strata" "${ci[@]}" --out "$tmp/cifull" >/dev/null 2>&1 || fail "compare --ci"
expect 130 "continue with" "$strata" "${ci[@]}" --threads 1 --out "$tmp/cipart" --stop-after-waves 1
"$strata" compare --resume "$tmp/cipart" --threads 2 >/dev/null 2>&1 || fail "compare --ci --resume"
same "$tmp/cifull" "$tmp/cipart"
grep -q '^black_removal,768,' "$tmp/cipart/opponents.csv" || fail "--ci stopped elsewhere than 768 games"

# ablate: the same, with its own command.
arun=(ablate "$d/red_burn.txt" --against "$d/green_stompy.txt" --games 512)
"$strata" "${arun[@]}" --threads 2 --out "$tmp/afull" >"$tmp/afull.out" 2>&1 || fail "ablate"
expect 130 "continue with: strata ablate --resume $tmp/apart" \
  "$strata" "${arun[@]}" --threads 1 --out "$tmp/apart" --stop-after-waves 1
"$strata" ablate --resume "$tmp/apart" --threads 2 >"$tmp/apart.out" 2>&1 || fail "ablate --resume"
same "$tmp/afull" "$tmp/apart"
diff <(sed -n '/^rank/,/^worth/p' "$tmp/afull.out") <(sed -n '/^rank/,/^worth/p' "$tmp/apart.out") ||
  fail "ablate's resumed ranking differs"

# Refusals, each before any game.
expect 2 "--resume $tmp/apart: not with --games: the run's options are kept in its study.toml" \
  "$strata" ablate --resume "$tmp/apart" --games 64
expect 2 "--resume $tmp/full: not with the deck files OLD NEW: the run's options are kept" \
  "$strata" compare "$old" "$new" --resume "$tmp/full"
expect 2 "--resume $tmp/afull: holds a strata ablate run; continue it with strata ablate --resume $tmp/afull" \
  "$strata" compare --resume "$tmp/afull" --report
expect 2 "--resume $tmp/full: the run is complete; nothing to resume" \
  "$strata" compare --resume "$tmp/full"
expect 2 "$tmp/full holds a strata compare run, not a strata sim study: continue it with strata compare --resume $tmp/full" \
  "$strata" sim --resume "$tmp/full"
expect 2 "$tmp/full holds a strata compare run" "$strata" replay --from "$tmp/full" --game 0
expect 2 "--out $tmp/full: holds an earlier run's summary.json, opponents.csv, cards.csv, report.html, study.toml" \
  "$strata" "${run[@]}" --out "$tmp/full"
expect 2 "--resume: $tmp/study.toml: not found (is $tmp the --out of a compare or ablate run?)" \
  "$strata" compare --resume "$tmp"
expect 2 "expected two deck files, OLD and NEW (or --resume DIR), got 0" "$strata" compare
# --report on a complete run writes its page from the games played.
rm "$tmp/afull/report.html" 2>/dev/null
"$strata" ablate --resume "$tmp/afull" --report >"$tmp/arep.out" 2>&1 || { cat "$tmp/arep.out"; fail "--resume --report"; }
grep -q "<h2 id='worth'>" "$tmp/afull/report.html" || fail "--resume --report wrote no page"
same "$tmp/afull" "$tmp/afull"
# An edited study.toml.
cp -r "$tmp/part" "$tmp/edited"
sed -i 's/^complete = true/complete = false/' "$tmp/edited/study.toml"
expect 2 "study.toml: its digest (first line) does not match its content" \
  "$strata" compare --resume "$tmp/edited"
# A deck file changed since the run began.
cp "$new" "$tmp/new.txt"
expect 130 "continue with" "$strata" compare "$old" "$tmp/new.txt" --against "$d/green_stompy.txt" \
  --games 512 --out "$tmp/deck" --stop-after-waves 1
sed -i 's/^4 Shock/3 Shock\n1 Mountain/' "$tmp/new.txt"
cmp -s "$new" "$tmp/new.txt" && fail "the deck copy was not changed"
expect 2 "--resume $tmp/deck: new.txt is not the deck the run began with" \
  "$strata" compare --resume "$tmp/deck"

echo "compare/ablate --out --resume: ok"
