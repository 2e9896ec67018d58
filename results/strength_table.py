#!/usr/bin/env python3
"""The policy strength table (issue 5): every policy against every other on
three bundled matchups, each game index played with the policies in both
seats and on both decks, until each orientation's 95% interval is narrower
than +/-1.4 points (so the pooled interval is about +/-1 point).

    python3 results/strength_table.py [--strata build/strata] [--threads 2]

writes results/strength.md and results/strength.csv. Runs `strata sim`, so
every number can be re-made one matchup at a time with the printed commands.
"""
import argparse
import itertools
import json
import math
import os
import subprocess
import sys
import tempfile
import time

POLICIES = ["passive", "random", "heuristic", "mc:rollouts=2,depth=14"]
MATCHUPS = [("red_burn", "green_stompy"), ("white_weenie", "blue_control"),
            ("rg_aggro", "black_removal")]
CI = 0.014
CAP = 6000
SEED = 1


def wilson(k, n, z=1.959963984540054):
    if n == 0:
        return 0.0, 1.0
    p = k / n
    center = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return center - half, center + half


def run(strata, threads, deck_a, deck_b, pol_a, pol_b, out):
    cmd = [strata, "sim", "--decks", f"data/decks/{deck_a}.txt,data/decks/{deck_b}.txt",
           "--policies", f"{pol_a},{pol_b}", "--games", str(CAP), "--ci", str(CI),
           "--seed", str(SEED), "--threads", str(threads), "--out", out]
    start = time.time()
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
    with open(os.path.join(out, "summary.json")) as f:
        m = json.load(f)["matchups"][0]
    shown = " ".join(c if "," not in c or c.startswith("data") else f"'{c}'" for c in cmd[1:-2])
    return m, time.time() - start, "strata " + shown


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--strata", default="build/strata")
    ap.add_argument("--threads", type=int, default=2)
    args = ap.parse_args()
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    os.chdir(root)
    version = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True,
                             text=True).stdout.strip()
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for p, q in itertools.combinations(POLICIES, 2):
            # p is the stronger-expected one: list it first.
            p, q = q, p
            for a, b in MATCHUPS:
                wins = draws = games = 0.0
                secs = 0.0
                cmds = []
                for pa, pb, p_is_a in ((p, q, True), (q, p, False)):
                    m, s, cmd = run(args.strata, args.threads, a, b, pa, pb,
                                    os.path.join(tmp, f"{len(rows)}_{p_is_a}"))
                    games += m["games"]
                    draws += m["draws"]
                    wins += m["a_wins"] if p_is_a else m["b_wins"]
                    secs += s
                    cmds.append(cmd)
                score = wins + 0.5 * draws
                lo, hi = wilson(score, games)
                rows.append(dict(policy=p, opponent=q, matchup=f"{a} vs {b}", games=int(games),
                                 wins=int(wins), draws=int(draws), rate=score / games, lo=lo,
                                 hi=hi, seconds=secs, commands=cmds))
                print(f"{p:>24} vs {q:<24} {a} vs {b}: {100 * score / games:5.1f}% "
                      f"[{100 * lo:5.1f}, {100 * hi:5.1f}] over {int(games)} games, {secs:.0f} s",
                      flush=True)
    with open("results/strength.csv", "w") as f:
        f.write("policy,opponent,matchup,games,wins,draws,win_rate,ci_low,ci_high,seconds\n")
        for r in rows:
            f.write(f"{r['policy']},{r['opponent']},{r['matchup']},{r['games']},{r['wins']},"
                    f"{r['draws']},{r['rate']:.4f},{r['lo']:.4f},{r['hi']:.4f},"
                    f"{r['seconds']:.1f}\n".replace("mc:rollouts=2,depth=14",
                                                    "\"mc:rollouts=2,depth=14\""))
    with open("results/strength.md", "w") as f:
        f.write("# Policy strength table\n\n")
        f.write("Made by `python3 results/strength_table.py` "
                f"(strata {version}, "
                f"{args.threads} threads, seed {SEED}). Each row: the first policy's share of "
                "games (draws count half) against the second, on one bundled matchup, with the "
                "policies swapped between the decks for half of the games (so the decks' own "
                "balance cancels) and seats swapped in pairs. Each orientation stops when its "
                f"95% Wilson interval is narrower than +/-{100 * CI:.1f} points (cap {CAP} games), "
                "so the pooled interval is about +/-1 point or better.\n\n")
        f.write("| policy | opponent | matchup | games | win rate | 95% interval | seconds |\n")
        f.write("|---|---|---|---:|---:|---|---:|\n")
        for r in rows:
            f.write(f"| `{r['policy']}` | `{r['opponent']}` | {r['matchup']} | {r['games']} | "
                    f"{100 * r['rate']:.1f}% | [{100 * r['lo']:.1f}%, {100 * r['hi']:.1f}%] | "
                    f"{r['seconds']:.0f} |\n")
        f.write("\nThe commands behind each row (both orientations):\n\n")
        for r in rows:
            for c in r["commands"]:
                f.write(f"    {c}\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
