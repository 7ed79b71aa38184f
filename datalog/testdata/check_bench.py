#!/usr/bin/env python3
"""Independent check of chordgo datalog's benchmark output: computes transitive closure and
field-sensitive Andersen points-to over the facts in DIR (from shared/bench/datalog/gen.py) and
compares them, as sets, with DIR/out/path.csv, pt.csv and hpt.csv.
usage: check_bench.py DIR"""
import sys, collections
d=sys.argv[1]
def rd(n): return [tuple(map(int,l.split('\t'))) for l in open(f"{d}/{n}") if l.strip()]
edge=rd("edge.facts"); succ=collections.defaultdict(set)
for a,b in edge: succ[a].add(b)
path=set()
for x in list(succ):
    seen=set(); st=list(succ[x])
    while st:
        y=st.pop()
        if y in seen: continue
        seen.add(y); st.extend(succ.get(y,()))
    for y in seen: path.add((x,y))
got=set(rd("out/path.csv"))
print("tc equal:", got==path, len(got), len(path))
# andersen naive
alloc=rd("alloc.facts"); assign=rd("assign.facts"); load=rd("load.facts"); store=rd("store.facts")
pt=collections.defaultdict(set); hpt=collections.defaultdict(set)
for v,h in alloc: pt[v].add(h)
ch=True
asg=collections.defaultdict(list)
for t,f in assign: asg[f].append(t)
while ch:
    ch=False
    for f,ts in asg.items():
        for t in ts:
            if not pt[f] <= pt[t]: pt[t]|=pt[f]; ch=True
    for v,f,w in store:
        for h1 in list(pt[v]):
            k=(h1,f)
            if not pt[w] <= hpt[k]: hpt[k]|=pt[w]; ch=True
    for v,w,f in load:
        for h1 in list(pt[w]):
            s=hpt.get((h1,f),set())
            if not s <= pt[v]: pt[v]|=s; ch=True
P={(v,h) for v in pt for h in pt[v]}; H={(a,f,b) for (a,f) in hpt for b in hpt[(a,f)]}
print("pt equal:", P==set(rd("out/pt.csv")), len(P), "hpt equal:", H==set(rd("out/hpt.csv")), len(H))
