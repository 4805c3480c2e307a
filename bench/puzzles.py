#!/usr/bin/env python3
"""Writes the sticker groups of the N x N x N cubes and the Megaminx as .game files (and the
same generators for GAP), from the geometry: a sticker is a piece position and the face it
shows; a turn rotates every sticker of a layer. Fixed centre stickers are left out, so the
points are the moving stickers, numbered in a fixed order.

    python3 bench/puzzles.py tests/data/puzzles         # writes <name>.game and <name>.g
    python3 bench/puzzles.py DIR --more                 # and the groups of bench/gap-orders.sh
"""
import math
import os
import random
import sys


def cycles_of(img):
    seen, out = set(), []
    for s in range(len(img)):
        if s in seen or img[s] == s:
            continue
        c, p = [], s
        while p not in seen:
            seen.add(p)
            c.append(p + 1)
            p = img[p]
        out.append(c)
    return out


def cycle_text(img):
    return "".join("(" + ",".join(map(str, c)) + ")" for c in cycles_of(img))


def cube(n):
    """Stickers of the n x n x n cube; generators: the turns of every layer but the middle one
    (odd n), so the centre stickers stay put."""
    coords = range(-(n - 1), n, 2)
    stickers = []
    for axis in range(3):
        for sign in (-1, 1):
            for a in coords:
                for b in coords:
                    p = [0, 0, 0]
                    others = [x for x in range(3) if x != axis]
                    p[axis] = sign * (n - 1)
                    p[others[0]], p[others[1]] = a, b
                    nrm = [0, 0, 0]
                    nrm[axis] = sign
                    stickers.append((tuple(p), tuple(nrm)))
    def rot(v, axis):
        # a quarter turn about the axis
        x = list(v)
        i, j = [k for k in range(3) if k != axis]
        x[i], x[j] = v[j], -v[i]
        return tuple(x)
    gens = []
    names = "xyz"
    for axis in range(3):
        for layer in coords:
            if layer == 0:
                continue
            img = {}
            for s in stickers:
                p, nrm = s
                img[s] = (rot(p, axis), rot(nrm, axis)) if p[axis] == layer else s
            gens.append((f"{names[axis]}{(layer + n - 1) // 2 + 1}", img))
    return finish(stickers, gens)


def finish(stickers, gens):
    moving = [s for s in stickers if any(img[s] != s for _, img in gens)]
    index = {s: i for i, s in enumerate(moving)}
    return [(name, [index[img[s]] for s in moving]) for name, img in gens]


def megaminx():
    """Stickers of the Megaminx: 20 corners (3 stickers each) and 30 edges (2 each) on the
    dodecahedron; generators: the 12 face turns (a fifth of a turn)."""
    phi = (1 + 5 ** 0.5) / 2
    faces = []
    for a in (-1, 1):
        for b in (-1, 1):
            faces += [(0, a, b * phi), (a, b * phi, 0), (b * phi, 0, a)]
    faces = [tuple(x / math.sqrt(1 + phi * phi) for x in f) for f in faces]
    dot = lambda u, v: sum(x * y for x, y in zip(u, v))
    # a corner touches the 3 faces around a vertex, an edge the 2 faces that meet there
    trip, pairs = [], []
    for i in range(12):
        for j in range(i + 1, 12):
            if abs(dot(faces[i], faces[j]) - 1 / 5 ** 0.5) < 1e-6:
                pairs.append((i, j))
                for k in range(j + 1, 12):
                    if (abs(dot(faces[i], faces[k]) - 1 / 5 ** 0.5) < 1e-6
                            and abs(dot(faces[j], faces[k]) - 1 / 5 ** 0.5) < 1e-6):
                        trip.append((i, j, k))
    assert len(trip) == 20 and len(pairs) == 30
    pieces = [frozenset(t) for t in trip] + [frozenset(p) for p in pairs]
    stickers = [(pc, f) for pc in pieces for f in sorted(pc)]
    def rotation(axis, ang):
        c, s = math.cos(ang), math.sin(ang)
        x, y, z = axis
        return [[c + x * x * (1 - c), x * y * (1 - c) - z * s, x * z * (1 - c) + y * s],
                [y * x * (1 - c) + z * s, c + y * y * (1 - c), y * z * (1 - c) - x * s],
                [z * x * (1 - c) - y * s, z * y * (1 - c) + x * s, c + z * z * (1 - c)]]
    def face_image(m, f):
        v = [sum(m[r][k] * faces[f][k] for k in range(3)) for r in range(3)]
        return max(range(12), key=lambda g: dot(v, faces[g]))
    gens = []
    for f in range(12):
        m = rotation(faces[f], 2 * math.pi / 5)
        fmap = [face_image(m, g) for g in range(12)]
        img = {}
        for pc, g in stickers:
            if f in pc:
                img[(pc, g)] = (frozenset(fmap[h] for h in pc), fmap[g])
            else:
                img[(pc, g)] = (pc, g)
        gens.append((f"F{f + 1}", img))
    return finish(stickers, gens)


def cyc(n, pts):
    img = list(range(n))
    for a, b in zip(pts, pts[1:] + pts[:1]):
        img[a] = b
    return img


def on_blocks(n, parts):
    """One permutation made of permutations of consecutive blocks of points."""
    img, off = [], 0
    for q in parts:
        img += [off + x for x in q]
        off += len(q)
    return img


def wreath(a, b):
    """S_a wr S_b on a*b points: blocks of a points, permuted by S_b."""
    n = a * b
    swap = [(x + a) % (2 * a) if x < 2 * a else x for x in range(n)]
    shift = [(x + a) % n for x in range(n)]
    return [("t", cyc(n, [0, 1])), ("c", cyc(n, list(range(a)))), ("s", swap), ("r", shift)]


def shuffled(n, rng):
    v = list(range(n))
    rng.shuffle(v)
    return v


def slide(n, hard):
    """Johnston's Rubik's Slide on an n x n board (stdlib/slide.game): R shifts every row right,
    U every column up, C turns the board a quarter turn (easy) or every ring one step (hard)."""
    cell = lambda r, c: r * n + c
    def perm(f):
        return [cell(*f(r, c)) for r in range(n) for c in range(n)]
    def ring(r, c):
        k = min(r, c, n - 1 - r, n - 1 - c)
        lo, hi = k, n - 1 - k
        if lo == hi:
            return r, c
        if r == lo and c < hi:
            return r, c + 1
        if c == hi and r < hi:
            return r + 1, c
        if r == hi and c > lo:
            return r, c - 1
        return r - 1, c
    turn = ring if hard else (lambda r, c: (c, n - 1 - r))
    return [("R", perm(lambda r, c: (r, (c + 1) % n))), ("U", perm(lambda r, c: ((r + n - 1) % n, c))),
            ("C", perm(turn))]


def on_pairs(a, sigma):
    """The permutation sigma of a points acting on the 2-subsets of the points."""
    pairs = [(i, j) for i in range(a) for j in range(i + 1, a)]
    index = {p: k for k, p in enumerate(pairs)}
    return [index[tuple(sorted((sigma[i], sigma[j])))] for i, j in pairs]


def product_action(a, sigma, tau, swap):
    """(sigma, tau) of S_a x S_a, then the swap of the coordinates if asked, on the a*a pairs:
    an element of S_a wr S_2 in its primitive product action."""
    out = []
    for x in range(a):
        for y in range(a):
            u, v = sigma[x], tau[y]
            out.append(v * a + u if swap else u * a + v)
    return out


def in_wreath(a, b, rng):
    """A random element of S_a wr S_b on a*b points: each block permuted, then the blocks."""
    top = shuffled(b, rng)
    img = []
    for block in range(b):
        inside = shuffled(a, rng)
        img += [top[block] * a + inside[x] for x in range(a)]
    return img


def random_groups(rng):
    """Random groups of degree 50-300 (two or three random elements each): primitive (S_a on
    the pairs of a points, S_a wr S_2 in product action), imprimitive (random elements of a
    wreath product) and intransitive (random permutations on blocks of points, together)."""
    out = {}
    for a in (12, 20, 24):
        out[f"pairs{a}"] = ([(f"g{i}", on_pairs(a, shuffled(a, rng))) for i in range(2)],
                            f"two random permutations of {a} points acting on its pairs (primitive)")
    for a in (8, 12, 17):
        gens = [(f"g{i}", product_action(a, shuffled(a, rng), shuffled(a, rng), i == 0)) for i in range(2)]
        out[f"power{a}"] = (gens, f"two random elements of S_{a} wr S_2 in product action on {a * a} points (primitive)")
    for a, b in ((5, 10), (4, 25), (10, 10), (3, 60), (6, 50), (2, 150)):
        out[f"wreath{a}by{b}"] = ([(f"g{i}", in_wreath(a, b, rng)) for i in range(2)],
                                  f"two random elements of S_{a} wr S_{b} on {a * b} points (imprimitive)")
    for sizes in ((20, 30), (25, 25, 25, 25), (40, 60, 80), (10, 20, 30, 40, 50, 60), (30, 30, 30, 30, 30, 30)):
        n = sum(sizes)
        name = "blocks" + "_".join(map(str, sizes))
        out[name] = ([(f"g{i}", on_blocks(n, [shuffled(k, rng) for k in sizes])) for i in range(2)],
                     f"two random permutations of each of the blocks {sizes}, acting together (intransitive)")
    return out


def more():
    rng = random.Random(2026)
    out = {}
    for n in (50, 100, 150, 300, 1000):
        out[f"sym{n}"] = ([("t", cyc(n, [0, 1])), ("c", cyc(n, list(range(n))))],
                          f"S_{n} by (1,2) and (1,...,{n})")
    for n in (101, 999):
        out[f"alt{n}"] = ([("a", cyc(n, [0, 1, 2])), ("c", cyc(n, list(range(n))))],
                          f"A_{n} by (1,2,3) and (1,...,{n})")
    out["random200"] = ([(f"r{i}", shuffled(200, rng)) for i in range(2)],
                        "two random permutations of 200 points")
    out["wreath5x20"] = (wreath(5, 20), "S_5 wr S_20 on 100 points (imprimitive)")
    out["diagonal3x40"] = ([(f"d{i}", on_blocks(120, [shuffled(40, rng) for _ in range(3)]))
                            for i in range(2)],
                           "two random permutations of each of three blocks of 40, acting together")
    out["product30x5"] = ([(f"p{i}", on_blocks(150, [shuffled(30, rng) for _ in range(5)]))
                           for i in range(3)] + [("t", cyc(150, [0, 1]))],
                          "three random permutations of each of five blocks of 30, and (1,2)")
    for n in (4, 6, 10, 17):
        for hard in (False, True):
            mode = "hard" if hard else "easy"
            out[f"slide{n}{mode}"] = (slide(n, hard), f"the {n} x {n} Rubik's Slide, {mode} mode")
    out.update(random_groups(random.Random(2027)))
    out.update(imprimitive_groups(random.Random(2028)))
    return out


def parity(img):
    return sum(len(c) - 1 for c in cycles_of(img)) % 2


def imprimitive_groups(rng):
    """Transitive imprimitive groups of degree 100-300 that are not wreath products: S_a x S_b
    on a*b points (blocks of a points, each moved by the same permutation), even elements of a
    wreath product, and an iterated wreath product."""
    out = {}
    for a, b in ((10, 20), (6, 50)):
        def both(s, t):
            return [t[x // a] * a + s[x % a] for x in range(a * b)]
        out[f"diagonal{a}by{b}"] = ([(f"g{i}", both(shuffled(a, rng), shuffled(b, rng))) for i in range(2)],
                                    f"two random elements of S_{a} x S_{b} on {a * b} points, blocks of {a} (imprimitive)")
    for a, b in ((4, 50), (2, 100)):
        gens = []
        for i in range(2):
            g = in_wreath(a, b, rng)
            if parity(g):
                g = [g[1], g[0]] + g[2:]
            gens.append((f"g{i}", g))
        out[f"even{a}by{b}"] = (gens, f"two random even elements of S_{a} wr S_{b} on {a * b} points (imprimitive)")
    def iterated():
        top = shuffled(10, rng)
        img = []
        for block in range(10):
            inside = in_wreath(3, 4, rng)
            img += [top[block] * 12 + inside[x] for x in range(12)]
        return img
    out["iterated3by4by10"] = ([(f"g{i}", iterated()) for i in range(2)],
                               "two random elements of S_3 wr S_4 wr S_10 on 120 points (imprimitive)")
    return out


def write(out, name, gens, title):
    degree = len(gens[0][1])
    with open(os.path.join(out, name + ".game"), "w") as f:
        f.write(f"# {title}, on {degree} points; written by bench/puzzles.py\n")
        for g, img in gens:
            f.write(f"gen {g} = {cycle_text(img)}\n")
        f.write(f"group {name} = <{', '.join(g for g, _ in gens)}>\n")
    with open(os.path.join(out, name + ".g"), "w") as f:
        f.write(f"# {title}, the generators of {name}.game\n")
        f.write(f"{name} := Group(\n")
        f.write(",\n".join(cycle_text(img) for _, img in gens))
        f.write(");\n")


PUZZLES = {
    "cube3": (lambda: cube(3), "the 3 x 3 x 3 cube"),
    "cube4": (lambda: cube(4), "the 4 x 4 x 4 cube"),
    "cube5": (lambda: cube(5), "the 5 x 5 x 5 cube"),
    "cube7": (lambda: cube(7), "the 7 x 7 x 7 cube"),
    "megaminx": (megaminx, "the Megaminx"),
}


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    for name, (make, title) in PUZZLES.items():
        write(out, name, make(), f"{title} on its moving stickers, one generator for each layer turn (centre stickers stay put)")
    if "--more" in sys.argv:
        for name, (gens, title) in more().items():
            write(out, name, gens, title)


main()
