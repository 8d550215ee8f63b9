#!/usr/bin/env python3
"""svg.py - what the tests read from trc-svg's pictures, with python3's
standard library only (xml.etree, zlib, struct).

  svg.py info FILE.svg          facts, one per line (parse errors: exit 1)
  svg.py infos FILE.svg ...     the same into FILE.svg.info each
  svg.py page OUT.html A.svg ...  the pictures stacked on one page, at
                                half size, for one browser start; prints
                                "file y" each, then "height H"
  svg.py checks SHOT.png OFFSETS   answers to "FILE CHECK ARGS" lines on
                                stdin (see check()); OFFSETS is page's output
"""
import struct
import sys
import xml.etree.ElementTree as ET
import zlib

NS = '{http://www.w3.org/2000/svg}'


def load(path):
    return ET.parse(path).getroot()


def infos(paths):
    """info of each FILE into FILE.info, in one python start."""
    for p in paths:
        with open(p + '.info', 'w') as fp:
            sys.stdout = fp
            try:
                info(p)
            except ET.ParseError as e:
                print('not well-formed: %s' % e)
            sys.stdout = sys.__stdout__


def info(path):
    root = load(path)
    out = ['kind ' + root.get('data-kind', '')]
    if root.get('data-chart'):
        out.append('chart ' + root.get('data-chart'))
    t = root.find(NS + 'title')
    out.append('title ' + (t.text if t is not None else ''))
    lanes = [g for g in root.iter(NS + 'g') if g.get('class') == 'lane']
    out.append('lanes ' + ' '.join('%s:%s' % (g.get('data-rank'),
               g.get('data-run')) for g in lanes))
    for g in root.iter(NS + 'g'):
        if g.get('class', '').split()[:1] == ['msgs']:
            n = len(list(g.iter(NS + 'line')))
            out.append('messages %s drawn %d' % (g.get('data-messages'), n))
        if g.get('class') == 'marks':
            sums = [0, 0]
            for r in g.iter(NS + 'rect'):
                if r.get('class') == 'unmatched':
                    sums[int(r.get('data-run'))] += int(r.get('data-n'))
            first = [l for l in g.iter(NS + 'rect') if l.get('class') == 'first']
            out.append('marked %s %s' % (g.get('data-marked0'),
                                         g.get('data-marked1')))
            out.append('unmatched %d %d' % tuple(sums))
            out.append('first ' + ' '.join(sorted('%s:%s' % (l.get('data-rank'),
                       l.get('data-run')) for l in first)))
    for kind in ('proc', 'activity', 'series'):
        names = [g.get('data-name') for g in root.iter(NS + 'g')
                 if g.get('class') == 'entry' and g.get('data-kind') == kind]
        if names:
            out.append('legend %s %s' % (kind, ','.join(names)))
    cats = [t.text for t in root.iter(NS + 'text') if t.get('class') == 'cat']
    if cats:
        out.append('categories ' + ','.join(cats))
    for r in root.iter(NS + 'rect'):
        if r.get('class') == 'bar':
            out.append('bar %s %s %s' % (r.get('data-cat'), r.get('data-ser'),
                                         r.get('data-v')))
    print('\n'.join(out))


SCALE = 0.5	# pictures are drawn at half size: a smaller PNG to decode


def page(out, files):
    """The pictures stacked on one HTML page, at half size, for one
    browser start; prints "file y" for each and "height H" last."""
    y = 0
    html = ['<!DOCTYPE html><html><body style="margin:0;background:#fff">']
    for f in files:
        root = load(f)
        w, h = int(root.get('width')), int(root.get('height'))
        html.append('<img src="%s" style="position:absolute;left:0;top:%dpx;'
                    'width:%dpx;height:%dpx">' % (f, y, w * SCALE, h * SCALE))
        print(f, y)
        y += int(h * SCALE) + 10
    print('height', y)
    html.append('</body></html>')
    with open(out, 'w') as fp:
        fp.write('\n'.join(html))


def png(path):
    """RGB rows of an 8-bit RGB or RGBA PNG."""
    with open(path, 'rb') as fp:
        data = fp.read()
    assert data[:8] == b'\x89PNG\r\n\x1a\n', 'not a PNG'
    pos, idat = 8, b''
    while pos < len(data):
        n, typ = struct.unpack('>I4s', data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if typ == b'IHDR':
            w, h, depth, ctype = struct.unpack('>IIBB', body[:10])
            assert depth == 8 and ctype in (2, 6), 'unexpected PNG type'
            bpp = 3 if ctype == 2 else 4
        elif typ == b'IDAT':
            idat += body
        pos += 12 + n
    raw = zlib.decompress(idat)
    stride = w * bpp
    rows, prev = [], bytearray(stride)
    for y in range(h):
        f = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b = prev[i]
            c = prev[i - bpp] if i >= bpp else 0
            if f == 1:
                line[i] = (line[i] + a) & 255
            elif f == 2:
                line[i] = (line[i] + b) & 255
            elif f == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                pr = a if pa <= pb and pa <= pc else b if pb <= pc else c
                line[i] = (line[i] + pr) & 255
        rows.append(bytes(line[i] for i in range(stride) if i % bpp < 3)
                    if bpp == 4 else bytes(line))
        prev = line
    return w, h, rows


def color(rows, x, y):
    r = rows[y]
    return '#%02x%02x%02x' % (r[3 * x], r[3 * x + 1], r[3 * x + 2])


def lane_row(root, y0, rank, run):
    for g in root.iter(NS + 'g'):
        if g.get('class') == 'lane' and g.get('data-rank') == rank and \
                g.get('data-run') == run:
            return int(y0 + (int(g.get('data-y')) + int(g.get('data-h')) / 2)
                       * SCALE)
    raise KeyError('no lane %s:%s' % (rank, run))


def check(rows, w, y0, path, what, args):
    """One answer about the picture of path drawn at page height y0:
    at RANK RUN SECONDS   the colour in a lane's middle at a time
    count RANK RUN COLOUR pixels of a colour on a lane's middle row
    hue RANK RUN COLOUR   pixels on that row whose strongest channel is
                          the colour's
    bar CAT SER           the colour in a bar's middle, and its fill
    legend NAME           the colour of a legend entry's swatch
    ink                   the share of the picture not white
    (and, in checks, crop OUT.png: the picture's part of the shot)"""
    root = load(path)
    if what == 'at':
        t0, t1 = int(root.get('data-t0')), int(root.get('data-t1'))
        px, pw = int(root.get('data-plot-x')), int(root.get('data-plot-width'))
        x = px + (round(float(args[2]) * 1e9) - t0) * pw / (t1 - t0)
        return color(rows, int(x * SCALE), lane_row(root, y0, args[0], args[1]))
    if what == 'count':
        y = lane_row(root, y0, args[0], args[1])
        want = bytes.fromhex(args[2].lstrip('#'))
        return str(sum(1 for x in range(w) if rows[y][3 * x:3 * x + 3] == want))
    if what == 'hue':
        # Pixels whose strongest channel is the colour's, by 30 or more:
        # survives blending with thin stripes and faint lines.
        y = lane_row(root, y0, args[0], args[1])
        want = bytes.fromhex(args[2].lstrip('#'))
        k = max(range(3), key=lambda i: want[i])
        n = 0
        for x in range(w):
            p = rows[y][3 * x:3 * x + 3]
            if all(p[k] >= p[i] + 30 for i in range(3) if i != k):
                n += 1
        return str(n)
    if what == 'bar':
        for r in root.iter(NS + 'rect'):
            if r.get('class') == 'bar' and r.get('data-cat') == args[0] and \
                    r.get('data-ser') == args[1]:
                x = (float(r.get('x')) + float(r.get('width')) / 2) * SCALE
                y = y0 + (float(r.get('y')) + float(r.get('height')) / 2) * SCALE
                return '%s %s' % (color(rows, int(x), int(y)), r.get('fill'))
        return 'no such bar'
    if what == 'legend':
        for g in root.iter(NS + 'g'):
            if g.get('class') == 'entry' and g.get('data-name') == args[0]:
                return g.find(NS + 'rect').get('fill')
        return 'no such entry'
    if what == 'ink':
        pw, ph = int(int(root.get('width')) * SCALE), int(int(root.get('height')) * SCALE)
        n = sum(1 for y in range(y0, y0 + ph) for x in range(pw)
                if rows[y][3 * x:3 * x + 3] != b'\xff\xff\xff')
        return '%.2f' % (n / (pw * ph))
    return 'unknown check ' + what


def write_png(path, w, h, rows):
    """rows of RGB bytes as an 8-bit RGB PNG, no filtering."""
    def chunk(typ, body):
        c = typ + body
        return struct.pack('>I', len(body)) + c + \
            struct.pack('>I', zlib.crc32(c) & 0xffffffff)
    raw = b''.join(b'\x00' + r[:3 * w] for r in rows[:h])
    with open(path, 'wb') as fp:
        fp.write(b'\x89PNG\r\n\x1a\n' +
                 chunk(b'IHDR', struct.pack('>IIBBBBB', w, h, 8, 2, 0, 0, 0)) +
                 chunk(b'IDAT', zlib.compress(raw, 6)) + chunk(b'IEND', b''))


def checks(shot, offsets):
    """Lines "FILE CHECK ARGS..." on stdin, an answer each on stdout."""
    w, _, rows = png(shot)
    ys = {}
    with open(offsets) as fp:
        for line in fp:
            f, y = line.split()
            ys[f] = int(y)
    for line in sys.stdin:
        f, what, *args = line.split()
        if what == 'crop':
            root = load(f)
            pw = int(int(root.get('width')) * SCALE)
            ph = int(int(root.get('height')) * SCALE)
            write_png(args[0], pw, ph, [r[:3 * pw] for r in rows[ys[f]:ys[f] + ph]])
            print('wrote', args[0])
            continue
        try:
            print(check(rows, w, ys[f], f, what, args))
        except (KeyError, IndexError) as e:
            print('error', e)


if __name__ == '__main__':
    cmd, args = sys.argv[1], sys.argv[2:]
    try:
        {'info': lambda: info(*args), 'infos': lambda: infos(args),
         'page': lambda: page(args[0], args[1:]),
         'checks': lambda: checks(*args)}[cmd]()
    except ET.ParseError as e:
        print('not well-formed: %s' % e)
        sys.exit(1)
