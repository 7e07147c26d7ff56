#!/usr/bin/env python3
"""Robust record-age arrival: per subtask Theil-Sen slope of emit lag over readings of the current run
within the last H seconds; arrival_i = read_i / (1 - s_i), s capped. usage: agefit.py REC [H] [TRUE]"""
import gzip, json, sys, statistics
rec = sys.argv[1]; H = float(sys.argv[2]) if len(sys.argv) > 2 else 120; TRUE = float(sys.argv[3]) if len(sys.argv) > 3 else None
SMAX = 0.8
SKIP = float(sys.argv[4]) if len(sys.argv) > 4 else 0
def lines():
    try:
        for l in gzip.open(rec, "rt"): yield l
    except EOFError: return
src = None; rows = []; last = None; ev = []
for line in lines():
    o = json.loads(line)
    if o['type'] == 'topology' and src is None:
        src = [v['id'] for v in o['vertices'] if v.get('source')][0]
    elif o['type'] == 'event' and o['kind'] in ('decision',):
        ev.append((o['timeMs']/1000, o['message'][:70]))
    elif o['type'] == 'sample':
        for v in o['vertices']:
            if v['id'] != src: continue
            key = tuple(v['numRecordsIn'])
            if key == last or any(x is None for x in key) or not v.get('emitLagMs') or any(x is None for x in v['emitLagMs']): continue
            last = key
            rows.append((o['timeMs']/1000, v['parallelism'], v['numRecordsIn'], [x/1000 for x in v['emitLagMs']], v.get('pendingRecords')))
t0 = rows[0][0]
def ts_slope(xs, ys):
    s = [(ys[j]-ys[i])/(xs[j]-xs[i]) for i in range(len(xs)) for j in range(i+1, len(xs)) if xs[j] > xs[i]]
    return statistics.median(s) if s else None
def ls(xs, ys):
    n=len(xs); mx=sum(xs)/n; my=sum(ys)/n; d=sum((x-mx)**2 for x in xs)
    return sum((x-mx)*(y-my) for x,y in zip(xs,ys))/d if d else None
# runs: split where a counter goes down or parallelism changes
runs=[]; cur=[]
for r in rows:
    if cur and (r[1]!=cur[-1][1] or any(a<b for a,b in zip(r[2],cur[-1][2]))):
        runs.append(cur); cur=[]
    cur.append(r)
runs.append(cur)
ei=0
for run in runs:
    for k in range(len(run)):
        t=run[k][0]
        while ei<len(ev) and ev[ei][0]<=t: print('      %5.0f %s'%(ev[ei][0]-t0, ev[ei][1])); ei+=1
        w=[r for r in run[:k+1] if r[0]>=t-H and r[0]>=run[0][0]+SKIP]
        if len(w)<4 or w[-1][0]-w[0][0]<30: continue
        xs=[r[0] for r in w]; p=w[-1][1]
        est=0; ss=[]; rr=[]; capped=False
        for i in range(p):
            ri=ls(xs,[r[2][i] for r in w]); si=ts_slope(xs,[r[3][i] for r in w])
            if si>SMAX: si=SMAX; capped=True
            est+=ri/(1-si); ss.append(round(si,2)); rr.append(round(ri))
        read=sum(rr)
        err='' if TRUE is None else '%+4.0f%%'%(100*(est/TRUE-1))
        print('%5.0f p=%d n=%2d read=%6.0f age=%6.0f %s%s s=%s L=%s'%(t-t0,p,len(w),read,est,err,' CAP' if capped else '',ss,[round(x) for x in w[-1][3]]))
