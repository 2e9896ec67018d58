#!/bin/bash
# The terminal report of strata sim (issue 16): it says what draws and turns
# mean, ranks each deck's cards by the drawn / not-drawn gap with the
# minimum sample stated and the cards below it named, puts the tested deck
# first in a gauntlet (and prints no matrix of dashes), and ends with the
# next commands, whose replay command runs. --ci without --games: the
# progress line has no ETA from the 1,000,000-game cap, and the plots'
# titles give the games played, not the cap.
# Usage: sim_report_test.sh STRATA SOURCE_DIR
set -u
strata=$1
src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
d="$src/data/decks"
decks="$d/red_burn.txt,$d/green_stompy.txt,$d/white_weenie.txt"

"$strata" sim --decks "$decks" --gauntlet "$d/white_weenie.txt" --games 128 --threads 2 >"$tmp/g" 2>&1 ||
  { cat "$tmp/g"; fail "sim exited non-zero"; }
cat "$tmp/g"
grep -q "^A win: deck A's score, a win counting 1 and a draw 1/2" "$tmp/g" || fail "no meaning of A win"
grep -q "draws: games nobody won" "$tmp/g" || fail "no meaning of draws"
grep -q "turns: the mean game length, each player's turn counting one" "$tmp/g" || fail "no meaning of turns"

# The tested deck first: in the deck table, the cards and the health report.
first_deck=$(awk '/^deck  +games/{getline; print $1; exit}' "$tmp/g")
[ "$first_deck" = white_weenie ] || fail "deck table starts with $first_deck"
first_cards=$(awk '/^cards: /{getline; print $1; exit}' "$tmp/g")
[ "$first_cards" = white_weenie ] || fail "cards start with $first_cards"
first_health=$(awk '/^health: the two cards/{getline; print $1; exit}' "$tmp/g")
[ "$first_health" = white_weenie ] || fail "health starts with $first_health"
grep -q '^gauntlet: white_weenie against each of the others only, so no matrix' "$tmp/g" ||
  fail "no gauntlet line"
grep -q '^win % of row deck' "$tmp/g" && fail "a gauntlet prints a matrix"

# Cards: ranked by the gap, the minimum sample stated, the rest named.
grep -q 'among cards drawn and not drawn in at least 30 games each' "$tmp/g" || fail "no minimum sample"
grep -q '^    below 30 games drawn or not drawn: .*Plains' "$tmp/g" ||
  fail "the cards below the sample (white_weenie's Plains, always drawn) not named"
# Within each deck, the gaps never increase, and the win rates agree with them.
awk '/^[a-z_]+ \(/{last = 1000} /^  [+-] /{
  for (i = 1; i <= NF; i++) if ($i == "gap") g = $(i + 1) + 0;
  if (g > last + 0.0001) exit 1; last = g;
  for (i = 1; i <= NF; i++) { if ($i == "drawn") pd = $(i + 1); if ($i == "not") pn = $(i + 1) }
  sub("%", "", pd); sub("%", "", pn); diff = pd - pn - g; if (diff > 0.11 || diff < -0.11) exit 2 }' "$tmp/g"
case $? in
  0) ;;
  1) fail "cards not ranked by the gap" ;;
  *) fail "a gap is not drawn minus not drawn" ;;
esac
grep -q '^  + ' "$tmp/g" || fail "no card ranked"

# Issue 39: a row's marker is its gap's sign; lands are ranked apart, on
# their own line (green_stompy's splash Mountains: drawn and not drawn in
# 30 games each by 800 games), never among the spells.
awk '/^  [+-] /{ for (i = 1; i <= NF; i++) if ($i == "gap") g = $(i + 1) + 0;
  if (($1 == "+") != (g >= 0)) exit 1 }' "$tmp/g" || fail "a marker that is not its gap's sign"
"$strata" sim --decks "$d/red_burn.txt,$d/green_stompy.txt" --games 800 --threads 2 >"$tmp/lands" 2>&1 ||
  { cat "$tmp/lands"; fail "the 800-game study"; }
awk '/^  [+-] /{ for (i = 1; i <= NF; i++) if ($i == "gap") g = $(i + 1) + 0;
  if (($1 == "+") != (g >= 0)) exit 1 }' "$tmp/lands" || fail "a marker that is not its gap's sign (800 games)"
grep -q -E '^  [+-] (Mountain|Swamp|Forest) ' "$tmp/lands" && fail "a land ranked among the spells"
awk '/^green_stompy \(/{on = 1} on && /^    lands, apart \(a land.s gap is mana screw or flood\): .*Mountain [-+][0-9.]+/{found = 1}
  END{exit !found}' "$tmp/lands" || fail "green_stompy's Mountain not ranked apart"
# Health: each rarely cast card with its count and likely reason.
grep -E '^  warning: [a-z_]+: .* cast in [0-9]+/[0-9]+ \([0-9.]+%\) of the games it was drawn in; likely (colour|mana|no legal target|held back)' "$tmp/lands" "$tmp/g" >/dev/null ||
  echo "(no card cast in under half its games here)"
grep -E '^  [a-z_]+ +[A-Z].* [0-9]+/[0-9]+ \([0-9]+%\)' "$tmp/g" >/dev/null || fail "health's cast rates lack their counts"

# The next commands, before the health line (still the last); the replay runs.
tail -n 1 "$tmp/g" | grep -q '^health: ' || fail "the last line is not the health line"
grep -q '^next: keep the results with --out DIR' "$tmp/g" || fail "no --out hint"
grep -q "^next: each card's worth in white_weenie: strata ablate .*white_weenie.txt --against " "$tmp/g" ||
  fail "no ablate command for the tested deck"
cmd=$(sed -n 's/^next: a game with its log: \(.*\) --matchup M --game I .*/\1/p' "$tmp/g")
[ -n "$cmd" ] || fail "no replay command"
# shellcheck disable=SC2086
"$strata" ${cmd#strata } --matchup 1 --game 3 --quiet >"$tmp/replay" 2>&1 || { cat "$tmp/replay"; fail "replay: $cmd"; }
grep -q '^game 3 of matchup 1: ' "$tmp/replay" || fail "the replay did not play game 3 of matchup 1"

# --ci without --games, on a terminal: no ETA (it would come from the cap).
script -qec "\"$strata\" sim --decks \"$d/red_burn.txt,$d/green_stompy.txt\" --ci 0.1 --threads 2 --out \"$tmp/ci\"" \
  /dev/null >"$tmp/tty" 2>&1 || { cat "$tmp/tty"; fail "sim --ci on a terminal"; }
tr '\r' '\n' <"$tmp/tty" | grep -q '^red_burn vs green_stompy: 256 games, .*matchup 1 of 1, win ' ||
  { cat "$tmp/tty"; fail "no progress line with the matchups done"; }
grep -q 'ETA' "$tmp/tty" && fail "--ci progress line gives an ETA"
script -qec "\"$strata\" sim --decks \"$d/red_burn.txt,$d/green_stompy.txt\" --games 256 --threads 2" \
  /dev/null >"$tmp/tty2" 2>&1 || fail "sim --games on a terminal"
grep -q 'ETA [0-9]* s' "$tmp/tty2" || fail "--games progress line lost its ETA"

# The plots' titles give the games played (stub matplotlib: the titles only).
python3 - "$src/results/plot_study.py" "$tmp/ci/summary.json" <<'EOF' || fail "plot titles"
import importlib.util, json, sys, types
mpl = types.ModuleType("matplotlib")
mpl.use = lambda *a: None
mpl.pyplot = types.ModuleType("matplotlib.pyplot")
sys.modules["matplotlib"], sys.modules["matplotlib.pyplot"] = mpl, mpl.pyplot
spec = importlib.util.spec_from_file_location("plot_study", sys.argv[1])
plot = importlib.util.module_from_spec(spec)
spec.loader.exec_module(plot)
s = json.load(open(sys.argv[2]))
title = plot.subtitle(s)
print(title)
assert s["games_per_matchup"] == 1000000, s["games_per_matchup"]
assert "1000000" not in title and "256 games per matchup" in title, title
s["matchups"].append(dict(s["matchups"][0], games=512))
assert "256 to 512 games per matchup" in plot.subtitle(s), plot.subtitle(s)
EOF
# The metagame: in a round robin, on the terminal and in summary.json, a
# mix no deck beats on average (checked against the matrix); none in a
# gauntlet.
grep -q '^metagame' "$tmp/g" && fail "a gauntlet prints a metagame"
"$strata" sim --decks "$decks,$d/blue_control.txt" --games 64 --threads 2 --out "$tmp/rr" >"$tmp/rr.txt" 2>&1 ||
  { cat "$tmp/rr.txt"; fail "round robin"; }
grep -q '^metagame: the mix of decks no single deck beats on average' "$tmp/rr.txt" || fail "no metagame"
python3 - "$tmp/rr/summary.json" "$tmp/rr.txt" <<'PY' || fail "metagame"
import json, sys
s = json.load(open(sys.argv[1]))
text = open(sys.argv[2]).read().split("\nmetagame:")[1].split("\n\n")[0].splitlines()[2:]
names, w = s["matrix"]["decks"], s["matrix"]["win_rate"]
meta = {m["deck"]: m for m in s["metagame"]["decks"]}
share = [meta[d]["share"] for d in names]
assert abs(sum(share) - 1) < 1e-5, share
for i, d in enumerate(names):
    vs = sum(share[j] * (0.5 if i == j else w[i][j]) for j in range(len(names)))
    assert abs(vs - meta[d]["win_vs_mix"]) < 1e-5, (d, vs, meta[d])
    assert vs <= 0.5 + 1e-5, (d, vs)
    if share[i] > 1e-5:
        assert abs(vs - 0.5) < 1e-5, (d, vs)
rows = {line.split()[0]: line.split()[1:] for line in text}
assert set(rows) == set(names), rows
for d in names:
    assert rows[d][0] == "%.1f%%" % (100 * meta[d]["share"]), (d, rows[d])
print("metagame:", {d: meta[d]["share"] for d in names})
PY
"$strata" sim --decks "$decks" --gauntlet "$d/white_weenie.txt" --games 2 --threads 2 --out "$tmp/gj" >/dev/null 2>&1 ||
  fail "gauntlet --out"
grep -q '"metagame": null,' "$tmp/gj/summary.json" || fail "a gauntlet's summary.json has a metagame"
# A rate over few games comes with its count (issue 39: "0.0%" alone could be
# one game), and "no warnings" names the cards too rarely drawn to judge.
"$strata" sim --decks "$d/red_burn.txt,$d/green_stompy.txt" --games 1 --no-pair --threads 1 --out "$tmp/one" \
  --report >"$tmp/one.out" 2>&1 || { cat "$tmp/one.out"; fail "a study of one game"; }
grep -q '^green_stompy (0.0% over 1 game)$' "$tmp/one.out" || { cat "$tmp/one.out"; fail "a deck's rate without its game"; }
grep -q '^  green_stompy .*; mulligans 0 in 0 of 1 games (0.0%)$' "$tmp/one.out" ||
  fail "the mulligan rate without its games"
grep -q '^health: no warnings, but [0-9]* cards drawn in fewer than 10 games could not be judged' "$tmp/one.out" ||
  fail "one game's health line does not say the cards were not judged"
grep -q "Health: no warnings, but [0-9]* cards drawn in fewer than 10 games" "$tmp/one/report.html" ||
  fail "one game's report does not say the cards were not judged"
# In the gauntlet: the tested deck played both opponents, each other deck one.
grep -q '^white_weenie ([0-9.]*% over 256 games)$' "$tmp/g" && grep -q '^red_burn ([0-9.]*% over 128 games)$' "$tmp/g" ||
  { grep -E '^(white_weenie|red_burn) \(' "$tmp/g"; fail "a deck's rate without its games"; }
echo "sim report: all checks passed"
