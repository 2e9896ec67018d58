#!/bin/bash
# strata compare and strata ablate keep their figures (issue 39): --out DIR
# writes summary.json and CSVs whose numbers are the terminal's, --report a
# self-contained report.html (per-opponent changes with paired intervals,
# the deck diff, the decks' lists, the cards); a DIR holding an earlier run
# is refused unless --force; --report needs --out (resumes: paired_resume_test.sh). In chromium (when
# installed) the page renders to a screenshot.
# Usage: paired_out_test.sh STRATA SOURCE_DIR
set -u
strata=$1
src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
d="$src/data/decks"
old="$src/tests/decks/v1/burn.txt"
new="$src/tests/decks/v2/burn.txt"
against="$d/green_stompy.txt,$d/white_weenie.txt"

"$strata" compare "$old" "$new" --against "$against" --games 128 --threads 2 --out "$tmp/c" --report \
  >"$tmp/term" 2>&1 || { cat "$tmp/term"; fail "compare --out --report"; }
grep -q "^wrote $tmp/c/summary.json, opponents.csv, cards.csv, report.html and study.toml$" "$tmp/term" ||
  fail "no wrote line"
for f in summary.json opponents.csv cards.csv report.html; do [ -s "$tmp/c/$f" ] || fail "no $f"; done
# The files' numbers are the terminal's.
python3 - "$tmp/c" "$tmp/term" <<'PY' || fail "compare's files differ from its terminal"
import csv, json, sys
d, term = sys.argv[1], open(sys.argv[2]).read().splitlines()
s = json.load(open(d + "/summary.json"))
assert s["what"] == "compare" and s["games_per_opponent"] == 128, s
rows = {l.split()[0]: l.split() for l in term if l.split() and l.split()[0] in ("green_stompy", "white_weenie", "overall")}
for m in s["matchups"] + [dict(s["overall"], opponent="overall")]:
    t = rows[m["opponent"]]
    assert int(t[1]) == m["games"], (t, m)
    assert t[2] == "%.1f%%" % (100 * m["old_win_rate"]) and t[3] == "%.1f%%" % (100 * m["new_win_rate"]), (t, m)
    lo, hi = m["ci95"]
    assert lo <= m["change"] <= hi, m
verdict = [l for l in term if l.startswith("verdict: ")][0]
assert verdict.startswith("verdict: " + s["verdict"][:30]), (verdict, s["verdict"])
assert [l for l in term if l.startswith("NEW's deck: ")][0].startswith("NEW's deck: " + s["deck_changes"]), s["deck_changes"]
ops = list(csv.DictReader(open(d + "/opponents.csv")))
assert [o["opponent"] for o in ops] == ["green_stompy", "white_weenie", "overall"], ops
cards = list(csv.DictReader(open(d + "/cards.csv")))
assert len(cards) == len(s["cards"]) and cards, cards
changed = [c for c in s["cards"] if c["old_copies"] != c["new_copies"]]
assert changed and s["cards"][:len(changed)] == changed, "changed cards not first"
PY
page="$tmp/c/report.html"
grep -q -i '<script' "$page" && fail "a script in the page"
grep -q -i -E '(src|href)=' "$page" && fail "the page loads something"
grep -q "<h2 id='changes'>The change, per opponent</h2>" "$page" || fail "no changes section"
[ "$(grep -c "<circle .*<title>[a-z_]*: [-+][0-9.]* points \[[-+][0-9.]*, [-+][0-9.]*\] over [0-9]* games</title>" "$page")" = 3 ] ||
  fail "not 3 changes with their intervals (2 opponents, overall)"
grep -q "<p>NEW's deck: " "$page" || fail "no deck diff"
grep -q "<h2 id='lists'>Deck lists</h2>" "$page" || fail "no deck lists"
grep -q "<h3>OLD: " "$page" && grep -q "<h3>NEW: " "$page" || fail "not both decks' lists"
grep -q "<h2 id='cards'>Cards</h2>" "$page" || fail "no cards"
# In a real browser (scripts/test installs chromium; CI must have it).
if command -v chromium >/dev/null; then
  "$src/scripts/report_screenshot" "$tmp/c" "$tmp/shot.png" 1000x1400 >"$tmp/shot.out" 2>&1 ||
    { cat "$tmp/shot.out"; fail "report_screenshot of compare's report"; }
  [ -s "$tmp/shot.png" ] || fail "no screenshot"
elif [ "${CI:-}" = true ]; then
  fail "no chromium under CI"
fi

# An earlier run's DIR is refused, then replaced with --force; --report alone is refused.
"$strata" compare "$old" "$new" --against "$against" --games 16 --out "$tmp/c" >"$tmp/again" 2>&1 &&
  fail "an earlier run's --out was overwritten"
grep -q -e "--out $tmp/c: holds an earlier run's summary.json, opponents.csv, cards.csv, report.html, study.toml; expected a new folder, or --force" "$tmp/again" ||
  { cat "$tmp/again"; fail "no message for an earlier run's --out"; }
"$strata" compare "$old" "$new" --against "$against" --games 16 --out "$tmp/c" --force >/dev/null 2>&1 ||
  fail "--force"
[ -e "$tmp/c/report.html" ] && fail "--force kept the earlier report.html"
"$strata" compare "$old" "$new" --report >"$tmp/noout" 2>&1 && fail "--report without --out ran"
grep -q -e "--report: expected --out DIR too" "$tmp/noout" || fail "no message for --report without --out"

# ablate --out --report.
"$strata" ablate "$d/red_burn.txt" --against "$d/green_stompy.txt" --games 64 --threads 2 --out "$tmp/a" --report \
  >"$tmp/aterm" 2>&1 || { cat "$tmp/aterm"; fail "ablate --out --report"; }
python3 - "$tmp/a" "$tmp/aterm" <<'PY' || fail "ablate's files differ from its terminal"
import csv, json, sys
d, term = sys.argv[1], open(sys.argv[2]).read().splitlines()
s = json.load(open(d + "/summary.json"))
assert s["what"] == "ablate" and s["replaced_by"] == "Mountain", s["replaced_by"]
ranked = [l.split() for l in term if l.startswith(" ") and l[:4].strip().isdigit()]
assert len(ranked) == len(s["cards"]) == 10, (len(ranked), len(s["cards"]))
for c in s["cards"]:
    assert str(c["rank"]) == ranked[c["rank"] - 1][0], c
rows = list(csv.DictReader(open(d + "/cards.csv")))
assert [r["card"] for r in rows] == [c["card"] for c in s["cards"]]
PY
grep -q "<h2 id='worth'>Each card's worth</h2>" "$tmp/a/report.html" || fail "ablate report: no worth section"

echo "compare/ablate --out --report: ok"
