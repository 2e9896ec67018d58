#!/bin/bash
# strata sim --out DIR --report: DIR/report.html is one self-contained page
# (inline SVG, no script, nothing fetched) whose figures are the study's;
# a gauntlet gets a one-row matrix; an interrupted study's report says
# partial, and its resume (without --report) brings it up to date; in a
# real browser (chromium headless, when installed) the page parses to the
# same SVG and scripts/report_screenshot writes a PNG of the asked size.
# Usage: sim_html_report_test.sh STRATA SOURCE_DIR
set -u
strata=$1
src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
d="$src/data/decks"
decks="$d/red_burn.txt,$d/green_stompy.txt,$d/white_weenie.txt,$d/blue_control.txt"

"$strata" sim --decks "$decks" --games 64 --threads 2 --out "$tmp/s" --report >"$tmp/out" 2>&1 ||
  { cat "$tmp/out"; fail "sim --report"; }
page="$tmp/s/report.html"
[ -s "$page" ] || fail "no report.html"
grep -q '^wrote .*/summary.json, matchups.csv, cards.csv, report.html and study.toml$' "$tmp/out" ||
  fail "the wrote line lacks report.html"
grep -q "^next: open $tmp/s/report.html in a browser$" "$tmp/out" || fail "no next line for the report"
# Self-contained: no script, no src/href, no URL but the SVG namespace.
grep -q -i '<script' "$page" && fail "a script in the page"
grep -q -i -E '(src|href)=' "$page" && fail "the page loads something"
[ "$(grep -o -i -E 'https?://[^ '"'"'"]*' "$page" | sort -u)" = "http://www.w3.org/2000/svg" ] ||
  fail "a URL other than the SVG namespace"
for section in "id='matchups'" "id='decks'" "id='first'" "id='lengths'" "id='metagame'" "id='cards'"; do
  grep -q "<h2 $section" "$page" || fail "no section $section"
done
# 4 decks: 12 matrix cells with a number, one chart of game lengths per deck.
cells=$(grep -c "^<rect .*<title>[a-z_]* vs [a-z_]*: [0-9.]*% \[[0-9.]*%, [0-9.]*%\] over [0-9]* games</title></rect>$" "$page")
[ "$cells" = 12 ] || fail "$cells matrix cells with a win rate, expected 12"
[ "$(grep -c "aria-label='game lengths of " "$page")" = 4 ] || fail "not 4 game-length charts"
# Issue 39: each matrix row has its average; each game-length chart counts
# the games at the turn cap; each deck's list, curve, colours and lands;
# lands ranked apart in the card tables; rates with their counts.
[ "$(grep -c "<title>[a-z_]*: [0-9.]*% average over its 3 opponents</title>" "$page")" = 4 ] ||
  fail "not 4 row averages"
[ "$(grep -c "games, [0-9]* at the turn cap</text>" "$page")" = 4 ] || fail "game lengths lack the turn cap"
grep -q "<h2 id='lists'>Deck lists</h2>" "$page" || fail "no deck lists"
[ "$(grep -c "aria-label='mana curve'" "$page")" = 4 ] || fail "not 4 mana curves"
grep -q "<h3>red_burn</h3><p class='note'>40 cards, 17 lands<br>colours: B: 2 symbols, 5 lands; R: 23 symbols, 12 lands</p>" "$page" ||
  fail "red_burn's shape (40 cards, 17 lands, its colours)"
grep -q "<tr><td>Lightning Bolt</td><td>4</td><td>{R}</td></tr>" "$page" || fail "red_burn's list"
# Lands are ranked apart: after the lands row of their deck's table, if ranked.
awk '/^<h3>/{lands = 0} /lands, ranked apart/{lands = 1} /drawn or not drawn in fewer than/{lands = 2}
  /^<tr><td>(Mountain|Swamp|Forest|Plains|Island)<\/td>.*background:/{ if (lands == 0) exit 1 }' "$page" ||
  fail "a land ranked among the spells"
grep -q "<td>[0-9]*/[0-9]* ([0-9]*%)</td><td>[0-9-]*</td></tr>" "$page" || fail "cast rates without their counts"
grep -q "<th>share, 90% range</th><th>in the mix</th>" "$page" || fail "the metagame without its uncertainty"
# Health: every card cast in under half the games it was drawn in, with its
# count and likely reason (blue_control's Wrath of God, 4 mana, here).
grep -q "<li>blue_control: Wrath of God cast in [0-9]*/[0-9]* ([0-9.]*%) of the games it was drawn in; likely mana: it costs 4" "$page" ||
  fail "no health warning with a likely reason"
grep -q "Health: no warnings" "$page" && fail "'no warnings' with warnings listed"
# The figures are summary.json's: each matchup's A win, each deck's rating.
python3 - "$tmp/s/summary.json" "$page" <<'PY' || fail "report figures differ from summary.json"
import json, re, sys
s = json.load(open(sys.argv[1]))
page = open(sys.argv[2]).read()
for m in s["matchups"]:
    cell = "<title>%s vs %s: %.1f%% [%.1f%%, %.1f%%] over %d games</title>" % (
        m["deck_a"], m["deck_b"], 100 * m["a_win_rate"], 100 * m["ci95"][0], 100 * m["ci95"][1], m["games"])
    assert cell in page, cell
    row = "<tr><td>%s</td><td>%s</td><td>%d</td><td>%.1f%%</td>" % (
        m["deck_a"], m["deck_b"], m["games"], 100 * m["a_win_rate"])
    assert row in page, row
for deck, elo in s["ratings"]["elo"].items():
    assert ("rating %+.0f," % elo) in page, (deck, elo)
for meta in s["metagame"]["decks"]:
    row = "<tr><td>%s</td><td>%.1f%%</td>" % (meta["deck"], 100 * meta["share"])
    assert row in page, row
    lo, hi = meta["share_90"]
    assert 0 <= lo <= hi <= 1 and 0 <= meta["in_mix"] <= 1, meta
    assert ("<td>[%.1f%%, %.1f%%]</td><td>%.0f%%</td>" % (100 * lo, 100 * hi, 100 * meta["in_mix"])) in page, meta
# Kill turns: every win counted once, by the winner's own turns (at most
# half the game's turns, rounded up), and each deck's chart counts its wins.
wins = {}
for m in s["matchups"]:
    a, b = m["win_turns"]
    assert sum(a) == m["a_wins"] and sum(b) == m["b_wins"], m["win_turns"]
    own = sum(k * n for k, n in enumerate(a)) + sum(k * n for k, n in enumerate(b))
    assert own <= (m["mean_turns"] * m["games"] + m["games"]) / 2 + 1e-3, (own, m["mean_turns"])
    wins[m["deck_a"]] = wins.get(m["deck_a"], 0) + m["a_wins"]
    wins[m["deck_b"]] = wins.get(m["deck_b"], 0) + m["b_wins"]
for deck, n in wins.items():
    chart = re.search(r"aria-label='kill turns of %s'>.*?fill='#555555'>(?:mean [0-9.]+ own turns, )?(\d+) wins</text>" % re.escape(deck), page, re.S)
    assert chart and int(chart.group(1)) == n, (deck, n, chart and chart.group(0)[-80:])
PY
# Cards: ranked by the gap within each deck's table.
awk '/^<h3>/{last = 1000} /^<tr><td>.*background:/{
  if (!match($0, /background:[^>]*>[-+][0-9.]+</)) next; g = substr($0, RSTART, RLENGTH);
  sub(/.*>/, "", g); sub(/</, "", g); g += 0; if (g > last + 0.0001) exit 1; last = g }' "$page" ||
  fail "cards not ranked by the gap"

# A gauntlet: one row of the matrix, no metagame.
"$strata" sim --decks "$decks" --gauntlet "$d/white_weenie.txt" --games 16 --threads 2 --out "$tmp/g" --report \
  >/dev/null 2>&1 || fail "gauntlet --report"
[ "$(grep -c "<title>white_weenie vs [a-z_]*: [0-9.]*% \[" "$tmp/g/report.html")" = 3 ] ||
  fail "the gauntlet's matrix is not white_weenie's row of 3"
grep -q "id='metagame'" "$tmp/g/report.html" && fail "a gauntlet has a metagame"

# Interrupted: the report says partial; the resume updates it without --report.
"$strata" sim --decks "$decks" --games 512 --threads 2 --out "$tmp/r" --report --stop-after-blocks 1 \
  >/dev/null 2>&1
[ $? = 130 ] || fail "not interrupted"
grep -q '<h1>strata study: .*(partial: stopped before the end)</h1>' "$tmp/r/report.html" ||
  fail "the interrupted study's report does not say partial"
"$strata" sim --resume "$tmp/r" --threads 2 >"$tmp/resume" 2>&1 || { cat "$tmp/resume"; fail "resume"; }
grep -q '<h1>strata study: 4 decks, 6 matchups, 3072 games</h1>' "$tmp/r/report.html" ||
  { grep '<h1>' "$tmp/r/report.html"; fail "the resumed study's report is not complete"; }
# The kill turns of the games before the interruption survived it.
grep -q "fill='#555555'>.* of [0-9]* wins</text>" "$tmp/r/report.html" &&
  fail "the resumed study's kill turns lack the wins before the interruption"
python3 - "$tmp/r/summary.json" <<'PY' || fail "resumed win_turns"
import json, sys
for m in json.load(open(sys.argv[1]))["matchups"]:
    assert [sum(x) for x in m["win_turns"]] == [m["a_wins"], m["b_wins"]], m["win_turns"]
PY

# study.toml's kill turns are checked like every count: more than the wins
# is refused, naming the key.
python3 - "$tmp/r/study.toml" <<'PY' || fail "editing study.toml"
import re, sys
s = open(sys.argv[1]).read()
i = s.index("win_turns_a = [")
j = s.index("]", i)
s = s[:i] + re.sub(r"(\[\s*)(\d+)", lambda m: m.group(1) + "99999", s[i:j], count=1) + s[j:]
open(sys.argv[1], "w").write(s)
PY
"$strata" sim --resume "$tmp/r" >"$tmp/bad" 2>&1 && fail "a study.toml with more kills than wins resumed"
grep -q "key 'matchups\[0\].win_turns_a': expected counts adding up to at most the wins" "$tmp/bad" ||
  { cat "$tmp/bad"; fail "no message naming win_turns_a"; }

# In a real browser, when there is one.
# scripts/test installs chromium, so under CI (CI=true) a missing browser is
# a failure, not a skip.
if ! command -v chromium >/dev/null && ! command -v chromium-browser >/dev/null; then
  [ "${CI:-}" = true ] && fail "no chromium under CI: scripts/test installs it"
  echo "sim html report: all checks passed but the browser's (no chromium)"
  exit 77
fi
browser=$(command -v chromium || command -v chromium-browser)
# The DOM chromium parses has every SVG element the file has.
"$browser" --headless --no-sandbox --disable-gpu --user-data-dir="$tmp/profile" \
  --proxy-server='127.0.0.1:9' --dump-dom "file://$page" >"$tmp/dom" 2>/dev/null || fail "chromium --dump-dom"
for tag in svg rect circle; do
  in_file=$(grep -o "<$tag " "$page" | wc -l)
  in_dom=$(grep -o "<$tag " "$tmp/dom" | wc -l)
  [ "$in_file" -gt 0 ] && [ "$in_file" = "$in_dom" ] || fail "<$tag>: $in_file in the file, $in_dom in chromium's DOM"
done
"$src/scripts/report_screenshot" "$tmp/s" "$tmp/shot.png" 1000x1500 >"$tmp/shot.out" 2>&1 ||
  { cat "$tmp/shot.out"; fail "report_screenshot"; }
python3 - "$tmp/shot.png" <<'PY' || fail "the screenshot is no 1000x1500 PNG"
import struct, sys
data = open(sys.argv[1], "rb").read()
assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
w, h = struct.unpack(">II", data[16:24])
assert (w, h) == (1000, 1500), (w, h)
assert len(data) > 30000, len(data)  # a blank page compresses to a few kB
PY
"$src/scripts/report_screenshot" "$tmp/none" >/dev/null 2>&1 && fail "a screenshot of no report"
echo "sim html report: all checks passed"
