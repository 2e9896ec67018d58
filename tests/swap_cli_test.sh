#!/bin/bash
# strata swap (issue 39): every (card out, candidate in) swap of a deck on
# the deck's own games, raced. The swaps counted are the deck's distinct
# cards times the candidates (less a card swapped for itself); the rounds
# double the games up to the cap; every dropped swap's interval lies wholly
# below the best's at the round it was dropped in; the finalists' figures
# are consistent (change inside its interval); the run is the same for one
# and two threads; --out keeps its swaps (summary.json, swaps.csv) as the
# terminal shows them, --report a page of them (a screenshot in chromium); candidates come from a file too; an unknown
# candidate is one message naming the closest card.
# Usage: swap_cli_test.sh STRATA SOURCE_DIR
set -u
strata=$1
src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
d="$src/data/decks"

"$strata" swap "$d/red_burn.txt" --candidates "Incinerate,Grizzly Bears" --against "$d/green_stompy.txt" \
  --games 1024 --threads 2 >"$tmp/two" 2>&1 || { cat "$tmp/two"; fail "swap"; }
cat "$tmp/two"
# red_burn: 11 distinct cards; Incinerate is one of them: 11 * 2 - 1 = 21 swaps.
grep -q "^swap: red_burn, every copy of each card in turn replaced by each of 2 candidates: 21 swaps, against the same 1 opponent " "$tmp/two" ||
  fail "not 21 swaps"
grep -q "^race: rounds of 256, 512, 1024 games per opponent; .* alpha 0.05 shared by 21 swaps x 3 rounds (Bonferroni)$" "$tmp/two" ||
  fail "no race line with its rounds and correction"
[ "$(grep -c '^round [123]: ' "$tmp/two")" = 3 ] || fail "not 3 rounds"
python3 - "$tmp/two" <<'PY' || fail "the race's figures are inconsistent"
import re, sys
lines = open(sys.argv[1]).read().splitlines()
pat = re.compile(r"^  (.{44}) +([-+][0-9.]+)  \[ *([-+][0-9.]+), *([-+][0-9.]+)\] +(\d+)")
def rows(after, stop):
    out, on = [], False
    for l in lines:
        if l.startswith(after): on = True; continue
        if on and (not l.startswith("  ") or l.startswith(stop)): break
        if on and pat.match(l): out.append(l)
    return out
best = [pat.match(l).groups() for l in rows("best swaps:", "clearly")]
worse = [pat.match(l).groups() for l in rows("clearly worse than the best", "x")]
assert best, "no finalist"
assert len(best) + len(worse) == 21, (len(best), len(worse))
for label, ch, lo, hi, games in best + worse:
    assert float(lo) <= float(ch) <= float(hi), (label, ch, lo, hi)
# Finalists by change, best first; each dropped swap's interval lay below
# the best swap's lower bound of the round it was dropped in.
changes = [float(b[1]) for b in best]
assert changes == sorted(changes, reverse=True), changes
for l in rows("clearly worse than the best", "x"):
    m = re.search(r"round (\d+), below ([-+][0-9.]+)$", l)
    assert m, l
    hi = float(pat.match(l).group(4))
    assert hi < float(m.group(2)) + 0.05, (l, "not below the bar")  # printed to 0.1
PY
grep -q "^next: the best swap against the same games, in full: strata compare " "$tmp/two" || fail "no next line"

# The same race on one thread (the games are the same whatever the threads),
# kept with --out: summary.json and swaps.csv hold the terminal's swaps.
"$strata" swap "$d/red_burn.txt" --candidates "Incinerate,Grizzly Bears" --against "$d/green_stompy.txt" \
  --games 1024 --threads 1 --out "$tmp/out" --report >"$tmp/one" 2>&1 || fail "swap --threads 1"
diff <(grep -v -e ' games in ' -e '^wrote ' "$tmp/one") <(grep -v ' games in ' "$tmp/two") ||
  fail "one and two threads differ"
grep -q "^wrote $tmp/out/summary.json, swaps.csv and report.html$" "$tmp/one" || fail "swap --out: no wrote line"
python3 - "$tmp/out" "$tmp/one" <<'PY' || fail "swap's files differ from its terminal"
import csv, json, re, sys
d, term = sys.argv[1], open(sys.argv[2]).read().splitlines()
s = json.load(open(d + "/summary.json"))
assert s["what"] == "swap" and s["rounds"] == [256, 512, 1024] and s["alpha"] == 0.05, s["rounds"]
assert s["candidates"] == ["Incinerate", "Grizzly Bears"], s["candidates"]
pat = re.compile(r"^  (.{44}) +([-+][0-9.]+)  \[ *([-+][0-9.]+), *([-+][0-9.]+)\] +(\d+)(.*)$")
rows = [pat.match(l).groups() for l in term if pat.match(l)]
assert len(rows) == len(s["swaps"]) == 21, (len(rows), len(s["swaps"]))
for (label, ch, lo, hi, games, rest), w in zip(rows, s["swaps"]):
    assert label.strip() == w["swap"], (label, w)
    assert ch == "%+.1f" % (100 * w["change"]) or abs(float(ch) - 100 * w["change"]) < 0.051, (ch, w)
    assert int(games) == w["games"], (games, w)
    assert (w["dropped_in_round"] is None) == ("round" not in rest), (rest, w)
    assert w["mark"] in rest, (rest, w)
c = list(csv.DictReader(open(d + "/swaps.csv")))
assert [r["swap"] for r in c] == [w["swap"] for w in s["swaps"]], "swaps.csv is not summary.json's"
PY
# The page: self-contained, the kept and the dropped swaps with their
# intervals (a circle each), the deck's list; in chromium when installed.
page="$tmp/out/report.html"
grep -q -i '<script' "$page" && fail "a script in swap's page"
grep -q -i -E '(src|href)=' "$page" && fail "swap's page loads something"
grep -q "<h2 id='best'>Best swaps (kept to the end)</h2>" "$page" || fail "swap's page: no best swaps"
grep -q "<h2 id='dropped'>" "$page" || fail "swap's page: no dropped swaps"
grep -q "<h2 id='lists'>Deck list</h2>" "$page" || fail "swap's page: no deck list"
[ "$(grep -c "<circle " "$page")" = 21 ] || fail "swap's page: not 21 swaps charted"
if command -v chromium >/dev/null; then
  "$src/scripts/report_screenshot" "$tmp/out" "$tmp/swap.png" 1000x1400 >"$tmp/shot.out" 2>&1 ||
    { cat "$tmp/shot.out"; fail "report_screenshot of swap's page"; }
  [ -s "$tmp/swap.png" ] || fail "no screenshot of swap's page"
elif [ "${CI:-}" = true ]; then
  fail "no chromium under CI"
fi
"$strata" swap "$d/red_burn.txt" --candidates "Incinerate" --games 256 --report >"$tmp/rep" 2>&1 &&
  fail "swap --report without --out ran"
grep -q -e "--report: expected --out DIR too" "$tmp/rep" || fail "no message for --report without --out"
"$strata" swap "$d/red_burn.txt" --candidates "Incinerate" --against "$d/green_stompy.txt" --games 256 \
  --out "$tmp/out" >"$tmp/again" 2>&1 && fail "swap --out over an earlier run ran"
grep -q -e "--out $tmp/out: holds an earlier run's summary.json, swaps.csv, report.html; expected a new folder, or --force" "$tmp/again" ||
  { cat "$tmp/again"; fail "no message for an earlier run's --out"; }
"$strata" swap "$d/red_burn.txt" --candidates "Incinerate" --games 256 --force >"$tmp/force" 2>&1 &&
  fail "swap --force without --out ran"
grep -q -e "--force: expected --out DIR" "$tmp/force" || fail "no message for --force without --out"

# Candidates from a file (decklist lines and comments allowed).
printf '# candidates\n4 Incinerate\nGrizzly Bears\n' >"$tmp/cands.txt"
"$strata" swap "$d/red_burn.txt" --candidates "$tmp/cands.txt" --against "$d/green_stompy.txt" \
  --games 256 --threads 2 >"$tmp/file" 2>&1 || { cat "$tmp/file"; fail "swap --candidates FILE"; }
grep -q ": 21 swaps, " "$tmp/file" || fail "the file's candidates"
"$strata" swap "$d/red_burn.txt" --candidates "Grizzly Baers" --games 256 >"$tmp/bad" 2>&1 && fail "an unknown candidate ran"
grep -q "^--candidates: unknown card 'Grizzly Baers' (closest: Grizzly Bears" "$tmp/bad" || { cat "$tmp/bad"; fail "no message for an unknown candidate"; }
echo "swap: ok"
