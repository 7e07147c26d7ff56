# Per decision: would a "catching up" flag (held back: every subtask's fetch latency >= 1 s; fetches shrinking: mean records/request fell >= 10% over the window) be set for the Orders source?
import sys, json, zlib, re
data = open(sys.argv[1],'rb').read()
buf = zlib.decompressobj(16+zlib.MAX_WBITS).decompress(data)
t0=None; names={}; win=[]
for l in buf.split(b'\n'):
    try: d=json.loads(l)
    except Exception: continue
    if d['type']=='topology':
        for v in d['vertices']: names[v['id']]=v['name']
    if d['type']=='sample':
        if t0 is None: t0=d['timeMs']
        for v in d['vertices']:
            if 'fetch' in v and 'Orders' in names.get(v['id'],''):
                f=v['fetch']
                lat=f['fetch-latency-avg']; rpr=f['records-per-request-avg']
                if any(x is None for x in lat) or any(x is None for x in rpr): continue
                key=(tuple(lat),tuple(rpr))
                if win and win[-1][1]==key: continue
                win.append(((d['timeMs']-t0)/1000,key,v['parallelism'],v['pendingRecords']))
    if d['type']=='event' and d['kind'] in ('decision','phase'):
        if t0 is None: t0=d["timeMs"]
        s=(d["timeMs"]-t0)/1000
        m=d['message']
        dm=re.search(r'demand Orders -> Parse ([0-9.]+)/s', m)
        flag=''
        w=[x for x in win if x[2]==(win[-1][2] if win else 0)]
        if len(w)>=2:
            a,b=w[0],w[-1]
            held=min(b[1][0])>=1000
            ra=sum(a[1][1])/len(a[1][1]); rb=sum(b[1][1])/len(b[1][1])
            shrink = rb <= 0.9*ra
            flag='held=%s shrink=%s rpr %.0f->%.0f minlat %.0f n=%d' % (held, shrink, ra, rb, min(b[1][0]), len(w))
            if held and shrink: flag='**CATCHING UP** '+flag
        print('%6.0f %-8s %7s %s | %s' % (s, d['kind'], dm.group(1) if dm else '', flag, m[:60]))
        if d['kind']=='decision': win=[]
