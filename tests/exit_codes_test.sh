#!/bin/bash
# strata's exit codes (README.md, "Exit codes"; sim/exit_codes.h), one
# convention for every command: 0 success; 1 a check failed (a rules
# invariant broken, a scenario that does not hold, cards check on bad cards,
# cover short of its target); 2 bad input or usage, refused before any game,
# CLI11's own errors included. Per subcommand: one bad input exits 2 with its
# message and one success exits 0; then the failed checks that exit 1.
# (Signals, 128 + N, are tested by sim_resume_test.sh, sim_checks_test.sh and
# paired_resume_test.sh; failed writes, 1, by sim_kill_test.sh.)
# Usage: exit_codes_test.sh STRATA SOURCE_DIR
set -u
strata=$1
src=$2
. "$src/tests/lib.sh"
d="$src/data/decks"
a="$d/red_burn.txt"
b="$d/green_stompy.txt"
one="$src/tests/perft/one_forest.toml"

# ---- The command line itself (CLI11's errors and strata's own checks).
expect 0 "Exit codes, every command: 0 success; 1 a check failed" "$strata" --help
expect 0 "--decks" "$strata" sim --help
expect 2 "unknown command 'simx' (did you mean 'sim'?)" "$strata" simx
expect 2 "A subcommand is required" "$strata"
expect 2 "The following argument was not expected: --bogus" "$strata" sim --bogus
expect 2 "--games: Value 0 not in range" "$strata" sim --games 0
expect 2 "--decks: expected a file or directory name, got ''" "$strata" sim --decks ''
expect 2 "--threads: expected 0 (all cores) to " "$strata" sim --threads 1024
expect 2 "--no-default-cards: expected at least one --cards PATH" \
  "$strata" --no-default-cards cards list

# ---- Each subcommand: bad input 2, success 0.
expect 2 "no-such.toml: no such file or directory" "$strata" scenario "$tmp/no-such.toml"
expect 0 "1 passed, 0 failed" "$strata" scenario "$src/tests/scenarios/card_bog_wraith.toml"
expect 2 "--color" "$strata" cards list --color purple
expect 0 "Lightning Bolt" "$strata" cards list --name bolt
expect 2 "unknown card 'Lightning Boltt'" "$strata" cards show 'Lightning Boltt'
expect 0 "Lightning Bolt deals 3 damage" "$strata" cards show 'Lightning Bolt'
expect 0 "ok: " "$strata" cards check
expect 2 "no-such.txt" "$strata" play --decks "$tmp/no-such.txt,$b" --quiet
expect 0 "result: " "$strata" play --decks "$a,$b" --quiet
expect 2 "no-such.toml" "$strata" perft "$tmp/no-such.toml" --depth 1
expect 0 "depth 1: " "$strata" perft "$one" --depth 1
expect 2 "--k" "$strata" cover --k 0
expect 0 "cards cast or played at least 1 times" "$strata" cover --k 1 --max-games 3000 --seed 7
expect 2 "--matchups" "$strata" bench --matchups 9
expect 0 "signature " "$strata" bench --games 2 --matchups 1 --threads 1
expect 2 "--policies: " "$strata" fuzz --games 2 --policies nobody
expect 0 "no violation" "$strata" fuzz --games 4 --seed 3 --threads 1
expect 2 "--decks: expected at least two deck files, got 1" "$strata" sim --decks "$a"
expect 0 "health: " "$strata" sim --decks "$a,$b" --games 4 --threads 1
expect 2 "compare: expected two deck files, OLD and NEW (or --resume DIR), got 0" "$strata" compare
expect 0 "overall" "$strata" compare "$a" "$a" --against "$b" --games 4 --threads 1
expect 2 "ablate: expected one deck file (or --resume DIR), got 0" "$strata" ablate
expect 0 "ablate: " "$strata" ablate "$a" --against "$b" --games 4 --threads 1
expect 2 "--candidates: unknown card 'Lightning Boltt'" \
  "$strata" swap "$a" --candidates 'Lightning Boltt' --against "$b" --games 256
expect 0 "swap: " "$strata" swap "$a" --candidates Shock --against "$b" --games 256 --threads 1
for i in 1 2; do
  expect 0 "shard $i of 2" "$strata" sim --decks "$a,$b" --games 512 --threads 1 --shard $i/2 \
    --out "$tmp/s$i"
done
expect 2 "merge: missing shard 2 of 2" "$strata" merge "$tmp/s1" --out "$tmp/m1"
expect 0 "merged 2 shards into $tmp/m" "$strata" merge "$tmp/s1" "$tmp/s2" --out "$tmp/m"
expect 2 "--game 512: expected 0 to 511" "$strata" replay --from "$tmp/m" --game 512
expect 0 "result: " "$strata" replay --from "$tmp/m" --game 3 --quiet
# An illegal deck under --format: bad input, as any other refused deck.
expect 2 "no game played" "$strata" play --decks "$a,$b" --format oldschool --quiet

# ---- A check that fails: 1.
expect 1 "FAIL " "$strata" scenario "$src/tests/bad_scenarios/zubera_power_7.toml"
expect 1 "missing_power.toml:4: card 'Powerless Bear': key 'power'" \
  "$strata" cards check "$src/tests/bad_cards/missing_power.toml"
expect 1 "not yet: " "$strata" cover --k 1 --max-games 1 --seed 7
expect 1 "broke an invariant" "$strata" fuzz --games 4 --seed 3 --threads 1 --canary power:3 \
  --failures "$tmp/f"
expect 1 "violated: canary: " "$strata" fuzz --replay "$(ls "$tmp"/f/*.toml | head -1)" \
  --canary power:3
echo "exit codes: ok"
