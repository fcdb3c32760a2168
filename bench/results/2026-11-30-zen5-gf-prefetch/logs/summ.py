import collections,statistics,sys
d=collections.defaultdict(list); vs=[]
for l in open(sys.argv[1]):
    v,case,op,gbs,r=[x.strip() for x in l.split('|')]
    d[(case,op,v)].append(float(r))
    if v not in vs: vs.append(v)
cases=sorted(set((c,o) for c,o,v in d))
print("case op", vs)
for c,o in cases:
    print(c,o," ".join("%.2f"%statistics.median(d[(c,o,v)]) for v in vs), " ", [d[(c,o,v)] for v in vs])
