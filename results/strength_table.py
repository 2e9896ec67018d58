#!/usr/bin/env python3
"""The policy strength table (issue 5): every policy against every other on
three bundled matchups, each game index played with the policies in both
seats and on both decks, until each orientation's 95% interval is narrower
than +/-1.4 points (so the pooled interval is about +/-1 point).

    python3 results/strength_table.py [--strata build/strata] [--threads 2]

writes results/strength.md and results/strength.csv. Runs `strata sim`, so
every number can be re-made one matchup at a time with the printed commands.
The table's games keep every opening hand (`--mulligan none`); the rows of
MULLIGAN_ROWS play some pairs again with mulligans on (RULES.md G-1).

    python3 results/strength_table.py --mulligan-rows-only

plays only those rows and rewrites their section of results/strength.md
(the csv keeps the table's rows). A last section plays heuristic against
random on every pair of the eight playable bundled decks (ROUND_ROBIN_GAMES
per orientation, --mulligan none).
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
# (policy, opponent, rules): pairs played again with mulligans. Heuristic
# against random with each rule (none: the same strata without them);
# heuristic against itself keeping every hand: what its mulligans are worth.
MULLIGAN_ROWS = [("heuristic", "random", ["none", "paris", "london"]),
                 ("heuristic", "heuristic:keep=all", ["paris", "london"])]
MULLIGAN_SECTION = "## With mulligans"
ROUND_ROBIN_SECTION = "## Heuristic against random on every bundled matchup"
PLAYABLE = ["artifact_blue", "black_removal", "blue_control", "green_stompy", "red_burn",
            "rg_aggro", "white_weenie", "wu_control"]
ROUND_ROBIN_GAMES = 400


def wilson(k, n, z=1.959963984540054):
    if n == 0:
        return 0.0, 1.0
    p = k / n
    center = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return center - half, center + half


def run(strata, threads, deck_a, deck_b, pol_a, pol_b, out, mulligan="none", games=None):
    cmd = [strata, "sim", "--decks", f"data/decks/{deck_a}.txt,data/decks/{deck_b}.txt",
           "--policies", f"{pol_a},{pol_b}", "--mulligan", mulligan]
    cmd += ["--games", str(games)] if games else ["--games", str(CAP), "--ci", str(CI)]
    cmd += ["--seed", str(SEED), "--threads", str(threads), "--out", out]
    start = time.time()
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
    with open(os.path.join(out, "summary.json")) as f:
        m = json.load(f)["matchups"][0]
    shown = " ".join(c if "," not in c or c.startswith("data") else f"'{c}'" for c in cmd[1:-2])
    return m, time.time() - start, "strata " + shown


def play_row(args, tmp, p, q, a, b, mulligan="none", fixed_games=None):
    """p against q on decks a and b, each policy on each deck: one row."""
    wins = draws = games = 0.0
    secs = 0.0
    cmds = []
    mull = {}
    for pa, pb, p_is_a in ((p, q, True), (q, p, False)):
        m, s, cmd = run(args.strata, args.threads, a, b, pa, pb,
                        tempfile.mkdtemp(dir=tmp), mulligan,
                        fixed_games)
        games += m["games"]
        draws += m["draws"]
        wins += m["a_wins"] if p_is_a else m["b_wins"]
        # Mulligans taken by each policy (by deck side in summary.json).
        for side, pol in ((0, pa), (1, pb)):
            mull[pol] = mull.get(pol, 0) + m.get("mulligans", [0, 0])[side]
        secs += s
        cmds.append(cmd)
    score = wins + 0.5 * draws
    lo, hi = wilson(score, games)
    print(f"{p:>24} vs {q:<24} {a} vs {b} ({mulligan}): {100 * score / games:5.1f}% "
          f"[{100 * lo:5.1f}, {100 * hi:5.1f}] over {int(games)} games, {secs:.0f} s",
          flush=True)
    return dict(policy=p, opponent=q, matchup=f"{a} vs {b}", games=int(games), wins=int(wins),
                draws=int(draws), rate=score / games, lo=lo, hi=hi, seconds=secs, commands=cmds,
                mulligan=mulligan, mulligans=(mull.get(p, 0), mull.get(q, 0)))


def mulligan_section(args, tmp, version):
    rows = [play_row(args, tmp, p, q, a, b, rule) for p, q, rules in MULLIGAN_ROWS
            for rule in rules for a, b in MATCHUPS]
    text = (f"{MULLIGAN_SECTION}\n\nThe same measure (strata {version}, {args.threads} threads, "
            f"seed {SEED}) with mulligans on (RULES.md G-1, `--mulligan`): every player keeps or "
            "mulligans by its own rule (heuristic: 2 to 5 lands in seven cards, 2 to 4 in six, "
            "one in five, any four; random: one hand in four at seven cards, half as often per "
            "card fewer; `heuristic:keep=all` keeps every hand). The table above keeps every "
            "hand (`--mulligan none`). Mulligans: taken by the policy, then by its opponent, "
            "per game.\n\n")
    text += ("| policy | opponent | matchup | mulligan | games | win rate | 95% interval | "
             "mulligans per game | seconds |\n|---|---|---|---|---:|---:|---|---|---:|\n")
    for r in rows:
        text += (f"| `{r['policy']}` | `{r['opponent']}` | {r['matchup']} | {r['mulligan']} | "
                 f"{r['games']} | {100 * r['rate']:.1f}% | [{100 * r['lo']:.1f}%, "
                 f"{100 * r['hi']:.1f}%] | {r['mulligans'][0] / r['games']:.2f}, "
                 f"{r['mulligans'][1] / r['games']:.2f} | {r['seconds']:.0f} |\n")
    text += "\nThe commands behind each row (both orientations):\n\n"
    for r in rows:
        for c in r["commands"]:
            text += f"    {c}\n"
    return text


def round_robin_section(args, tmp, version):
    rows = [play_row(args, tmp, "heuristic", "random", a, b, fixed_games=ROUND_ROBIN_GAMES)
            for a, b in itertools.combinations(PLAYABLE, 2)]
    text = (f"{ROUND_ROBIN_SECTION}\n\nHeuristic against random on each of the 28 pairs of "
            f"the eight playable bundled decks (strata {version}, {args.threads} threads, seed "
            f"{SEED}, `--mulligan none`), {ROUND_ROBIN_GAMES} games with each policy on each "
            "deck. Sorted by win rate, lowest first.\n\n")
    text += "| matchup | games | heuristic's win rate | 95% interval |\n|---|---:|---:|---|\n"
    for r in sorted(rows, key=lambda r: r["rate"]):
        text += (f"| {r['matchup']} | {r['games']} | {100 * r['rate']:.1f}% | "
                 f"[{100 * r['lo']:.1f}%, {100 * r['hi']:.1f}%] |\n")
    below = [r for r in rows if r["rate"] < 0.95]
    text += (f"\n{len(rows) - len(below)} of {len(rows)} pairs at 95% or more. Each row is "
             f"`strata sim --decks A,B --policies heuristic,random --mulligan none --games "
             f"{ROUND_ROBIN_GAMES} --seed {SEED}` and the same with `random,heuristic`.\n")
    return text


def main():
    global CI
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--strata", default="build/strata")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--mulligan-rows-only", action="store_true",
                    help="play only the rows with mulligans and rewrite their section")
    ap.add_argument("--ci", type=float, default=0.014,
                    help="each orientation's 95%% half-width to stop at (default 0.014)")
    args = ap.parse_args()
    CI = args.ci
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    os.chdir(root)
    version = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True,
                             text=True).stdout.strip()
    if args.mulligan_rows_only:
        with tempfile.TemporaryDirectory() as tmp:
            section = mulligan_section(args, tmp, version)
        with open("results/strength.md") as f:
            md = f.read()
        rest = md.split("\n" + ROUND_ROBIN_SECTION)
        md = md.split("\n" + MULLIGAN_SECTION)[0].rstrip("\n") + "\n\n" + section
        if len(rest) == 2:  # keep the round robin
            md += "\n" + ROUND_ROBIN_SECTION + rest[1]
        with open("results/strength.md", "w") as f:
            f.write(md)
        return 0
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for p, q in itertools.combinations(POLICIES, 2):
            # p is the stronger-expected one: list it first.
            p, q = q, p
            for a, b in MATCHUPS:
                rows.append(play_row(args, tmp, p, q, a, b))
        section = mulligan_section(args, tmp, version)
        section += "\n" + round_robin_section(args, tmp, version)
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
                f"so the pooled interval is about +/-{100 * CI / 1.4:.1f} points or better.\n\n")
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
        f.write("\n" + section)
    return 0


if __name__ == "__main__":
    sys.exit(main())
