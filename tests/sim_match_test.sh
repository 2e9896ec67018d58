#!/bin/bash
# strata sim --match N (issue 39): best-of-N matches. The default (--match
# 1) writes what it wrote before; --match 3 reports match win rates with
# intervals beside game win rates in the terminal, summary.json,
# matchups.csv and report.html; its games follow the match rules (the
# loser of a game plays first in the next, a match ends at two game wins or
# after five games); a match depends only on its seed, decks and policies
# (the same files with --threads 1 and 2, and interrupted then resumed);
# bad --match values and combinations are refused, and a resume with
# another --match.
# Usage: sim_match_test.sh STRATA SOURCE_DIR
set -u
strata=$1
src=$2
. "$src/tests/lib.sh"  # $tmp, fail, expect
d="$src/data/decks"
sim=("$strata" --cards "$src/data/cards" sim --decks "$d/red_burn.txt,$d/green_stompy.txt,$d/wu_control.txt"
  --seed 5)

# --match 1 is the default, byte for byte.
"${sim[@]}" --games 64 --threads 2 --out "$tmp/one" --games-out >"$tmp/one.term" 2>&1 || fail "sim"
"${sim[@]}" --games 64 --threads 2 --out "$tmp/m1" --games-out --match 1 >"$tmp/m1.term" 2>&1 ||
  fail "sim --match 1"
for f in matchups.csv cards.csv games.jsonl; do
  cmp "$tmp/one/$f" "$tmp/m1/$f" || fail "--match 1: $f differs from the default"
done
grep -v -e '"run"' -e '"command"' "$tmp/one/summary.json" >"$tmp/a"
grep -v -e '"run"' -e '"command"' "$tmp/m1/summary.json" >"$tmp/b"
cmp "$tmp/a" "$tmp/b" || fail "--match 1: summary.json differs from the default"
grep -q -e "^match = " -e "^matches = " "$tmp/one/study.toml" && fail "study.toml of single games names matches"
grep -q matches "$tmp/one/matchups.csv" && fail "a study of single games names matches"

# --match 3, one thread and two; resumed after a block.
"${sim[@]}" --games 300 --match 3 --threads 1 --out "$tmp/t1" --games-out --report >"$tmp/t1.term" 2>&1 ||
  { cat "$tmp/t1.term"; fail "--match 3 --threads 1"; }
"${sim[@]}" --games 300 --match 3 --threads 2 --out "$tmp/t2" --games-out >"$tmp/t2.term" 2>&1 ||
  fail "--match 3 --threads 2"
"${sim[@]}" --games 300 --match 3 --threads 2 --out "$tmp/r" --games-out --stop-after-blocks 2 \
  >/dev/null 2>&1
[ $? -eq 130 ] || fail "a stopped match study exits 130"
expect 2 "--resume $tmp/r: not the study's --match" "$strata" sim --resume "$tmp/r" --match 5
"$strata" sim --resume "$tmp/r" --threads 1 >/dev/null 2>&1 || fail "resume of a match study"
for dir in t2 r; do
  for f in matchups.csv cards.csv games.jsonl; do
    cmp "$tmp/t1/$f" "$tmp/$dir/$f" || fail "--match 3 ($dir): $f differs"
  done
  grep -v -e '"run"' -e '"command"' "$tmp/$dir/summary.json" >"$tmp/b"
  grep -v -e '"run"' -e '"command"' "$tmp/t1/summary.json" >"$tmp/a"
  cmp "$tmp/a" "$tmp/b" || { diff "$tmp/a" "$tmp/b"; fail "--match 3 ($dir): summary.json differs"; }
done
grep -q "^match = 3$" "$tmp/t1/study.toml" || fail "study.toml does not record --match 3"
grep -q "A match" "$tmp/t1.term" || { cat "$tmp/t1.term"; fail "no match table in the terminal"; }
grep -q "Matches: best of 3" "$tmp/t1/report.html" || fail "no matches in report.html"

python3 - "$tmp/t1" "$tmp/t1.term" <<'PY' || fail "match figures or rules"
import csv, json, sys, math
d, term = sys.argv[1], open(sys.argv[2]).read()
s = json.load(open(d + "/summary.json"))
assert s["match"] == 3 and s["games_per_matchup"] == 300, s["match"]
rows = list(csv.DictReader(open(d + "/matchups.csv", newline="")))
games = [json.loads(l) for l in open(d + "/games.jsonl")]
for i, (m, r) in enumerate(zip(s["matchups"], rows)):
    assert m["matches"] == 300 == int(r["matches"]), (m["matches"], r["matches"])
    assert m["a_match_wins"] + m["b_match_wins"] + m["match_draws"] == 300
    assert 600 <= m["games"] <= 1500, m["games"]
    rate = (m["a_match_wins"] + 0.5 * m["match_draws"]) / 300
    assert abs(rate - m["a_match_win_rate"]) < 1e-6 and abs(rate - float(r["a_match_win_rate"])) < 1e-6
    lo, hi = m["match_ci95"]
    assert lo <= rate <= hi and 0 < hi - lo < 0.2 and float(r["match_ci_low"]) == round(lo, 6)
    # The same match from the games: each ends at two wins or five games,
    # the loser of a game starts the next, a draw keeps the starter.
    mine = [g for g in games if g["matchup"] == i]
    assert len(mine) == m["games"]
    by = {}
    for g in mine: by.setdefault(g["match"], []).append(g)
    assert sorted(by) == list(range(300))
    a, b = m["deck_a"], m["deck_b"]
    won = {a: 0, b: 0, None: 0}
    for k, gs in by.items():
        assert [g["match_game"] for g in gs] == list(range(len(gs)))
        w = {a: 0, b: 0}
        for j, g in enumerate(gs):
            if j:
                prev = gs[j - 1]
                want = prev["seats"][0] if prev["winner"] is None else (
                    prev["seats"][1] if prev["winner"] == prev["seats"][0] else prev["seats"][0])
                assert g["seats"][0] == want, (k, j, g, prev)
            if g["winner"] is not None: w[g["winner"]] += 1
        assert max(w.values()) == 2 or len(gs) == 5, (k, gs)
        assert max(w.values()) <= 2 and len(gs) <= 5
        won[a if w[a] > w[b] else b if w[b] > w[a] else None] += 1
    assert (won[a], won[b], won[None]) == (m["a_match_wins"], m["b_match_wins"], m["match_draws"]), (won, m)
print("ok")
PY

# Bad values and combinations: one message each, nothing played.
expect 2 "--match: expected an odd number from 1 to 99 (games a match is the best of; 1: single games), got 2" \
  "${sim[@]}" --games 2 --match 2
expect 2 "--match: expected an odd number from 1 to 99" "${sim[@]}" --games 2 --match 0
expect 2 "--match: expected an odd number from 1 to 99" "${sim[@]}" --games 2 --match -3
expect 2 "--match: not with --ci" "${sim[@]}" --ci 0.05 --match 3
expect 2 "--match: not with --shard" "${sim[@]}" --games 600 --shard 1/2 --match 3
expect 2 "a study of best-of-3 matches (--match); replay plays the games of a study of single games only" \
  "$strata" replay --from "$tmp/t1" --game 0
echo PASS
