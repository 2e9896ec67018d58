#!/usr/bin/env python3
# Groups a callgrind profile's exclusive costs by function name into the rows
# of results/PERFORMANCE.md "Where the time goes now".
# Usage: results/perf_split.py callgrind.out.N
import sys,re,subprocess
f=sys.argv[1]
out=subprocess.run(['callgrind_annotate','--threshold=100','--auto=no',f],capture_output=True,text=True).stdout
cats={'layers':r'ComputeLayers|Computer::|MatchFilter|PrintedCharacteristics|RefreshLayers|RefreshLibrary|CharsFor|LayersReachLibrary',
 'legal actions and mana':r'AddPlayableActions|CanStart|ManaSources|PlanPayment|TargetLegal|CanPay|HasLegalTargets|OfferPlays|BodyOf|ModeBody|TotalCost|PhaseTodoPlayable|HasManaAbility',
 'triggers and occurrences':r'CollectTriggers|LeftInGroup|OccurrenceOf|Record\(|Happened|Before\(|Occur\(',
 'state check and phases':r'CheckState|CollectPhaseTodos|RunPhase|PhaseBeginEffects|SummoningSick|PhaseCostPending',
 'policies':r'Policy|PlayerView|Heuristic|ChooseFor|Aim|Mc|Determinize|Rollout|ScorePosition',
 'loading cards and decks (start-up)':r'Load|toml|Parse|CardDb|Deck|Precompute',
 'memory (memcpy, memset, malloc)':r'mem(cpy|move|set)|malloc|free|operator new|operator delete',
}
tot=0; sums={k:0 for k in cats}; sums['rest']=0
for line in out.splitlines():
    m=re.match(r'\s*([\d,]+) \(\s*[\d.]+%\)\s+(.*)',line)
    if not m or 'PROGRAM TOTALS' in line: continue
    n=int(m.group(1).replace(',','')); name=m.group(2)
    tot+=n
    for k,pat in cats.items():
        if re.search(pat,name): sums[k]+=n; break
    else: sums['rest']+=n
for k,v in sums.items(): print(f"{k:40s} {v/1e6:8.1f} M {100*v/tot:5.1f}%")
print(f"{'total':40s} {tot/1e6:8.1f} M")
