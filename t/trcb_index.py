# trcb_index.py FILE: a trcb stream's index (trc-formats(5)), read here
# by python, not by the reader: each block's offset and event count, a
# line each.  For t/0270 and t/0271.
import sys
d = open(sys.argv[1], 'rb').read()
def uv(p):
    v = s = 0
    while True:
        v |= (d[p] & 0x7f) << s
        s += 7
        p += 1
        if d[p - 1] < 0x80:
            return v, p
i = int.from_bytes(d[-16:-8], 'little')
n, p = uv(i + 1)
off = 0
for k in range(n):
    delta, p = uv(p)
    off += delta
    count, p = uv(p)
    print(off, count)
    for j in range(4):
        _, p = uv(p)
