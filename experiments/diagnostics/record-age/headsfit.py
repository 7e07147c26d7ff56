#!/usr/bin/env python3
"""Record-age arrival fitted from the subtask's last reading at its heads (lag <= HEADS s).
usage: headsfit.py REC TRUE [H=90] [MINSPAN=30]"""
import gzip, json, sys, statistics
rec=sys.argv[1]; TRUE=float(sys.argv[2]); H=float(sys.argv[3]) if len(sys.argv)>3 else 90
MINSPAN=float(sys.argv[4]) if len(sys.argv)>4 else 30; HEADS=5.0; GMAX=0.5
def lines():
    try:
        for l in gzip.open(rec,"rt"): yield l
    except EOFError: return
src=None; rows=[]; last=None; ev=[]
for line in lines():
    o=json.loads(line)
    if o['type']=='topology' and src is None: src=[v['id'] for v in o['vertices'] if v.get('source')][0]
    elif o['type']=='event' and o['kind']=='decision': ev.append((o['timeMs']/1000,o['message'][:60]))
    elif o['type']=='sample':
        for v in o['vertices']:
            if v['id']!=src: continue
            key=tuple(v['numRecordsIn'])
            if key==last or any(x is None for x in key) or not v.get('emitLagMs') or any(x is None for x in v['emitLagMs']): continue
            last=key; rows.append((o['timeMs']/1000,v['parallelism'],v['numRecordsIn'],[x/1000 for x in v['emitLagMs']]))
t0=rows[0][0]
def ts(xs,ys):
    s=[(ys[j]-ys[i])/(xs[j]-xs[i]) for i in range(len(xs)) for j in range(i+1,len(xs)) if xs[j]>xs[i]]
    return statistics.median(s)
runs=[];cur=[]
for r in rows:
    if cur and (r[1]!=cur[-1][1] or any(a<b for a,b in zip(r[2],cur[-1][2]))): runs.append(cur); cur=[]
    cur.append(r)
runs.append(cur); ei=0
for run in runs:
    for k in range(len(run)):
        t=run[k][0]
        while ei<len(ev) and ev[ei][0]<=t: print('      %5.0f %s'%(ev[ei][0]-t0,ev[ei][1])); ei+=1
        w=[r for r in run[:k+1] if r[0]>=t-H]
        if len(w)<2: continue
        p=w[-1][1]; est=0; ok=True; info=[]
        for i in range(p):
            if w[-1][3][i]<=HEADS:
                a=(w[-1][2][i]-w[0][2][i])/(w[-1][0]-w[0][0]); est+=a; info.append('h'); continue
            k0=max([j for j in range(len(w)) if w[j][3][i]<=HEADS],default=None)
            if k0 is None or w[-1][0]-w[k0][0]<MINSPAN or len(w)-k0<3: ok=False; info.append('-'); break
            xs=[r[0] for r in w[k0:]]; g=min(GMAX,ts(xs,[r[3][i] for r in w[k0:]]))
            ri=(w[-1][2][i]-w[k0][2][i])/(w[-1][0]-w[k0][0]); est+=ri/(1-g); info.append('%.2f/%.0fs'%(g,w[-1][0]-w[k0][0]))
        if not ok or all(x=='h' for x in info): continue
        read=sum((w[-1][2][i]-w[0][2][i]) for i in range(p))/(w[-1][0]-w[0][0])
        print('%5.0f p=%d read=%6.0f age=%6.0f %+4.0f%% %s L=%s'%(t-t0,p,read,est,100*(est/TRUE-1),info,[round(x,1) for x in w[-1][3]]))
