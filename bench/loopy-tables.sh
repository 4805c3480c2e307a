#!/bin/sh
# The generalized Sprague-Grundy tables of docs/loopy-tables.md: the loopy subtraction family of
# examples/loopy-subtraction.game for S = {t} or {t1, t2} within 1..5 and A = {a}, a in 1..4,
# heaps 0..CAP with the cap at CAP (default 1000), and Wind-up for the sets of
# examples/loopy-windup.game, moduli 1..64. Each row is computed by gamut, checked against
# retrograde analysis of its sums with nim heaps (tests/loopy_rulesets.rs does the same for smaller caps),
# and written compactly: a prefix, a period repeated, and the tail at the cap.
# Usage: GAMUT=target/release/gamut bench/loopy-tables.sh [CAP]
set -eu
GAMUT=${GAMUT:-target/release/gamut}
CAP=${1:-1000}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
{
    sed -n '/^loopy game sub(/,/^}/p' examples/loopy-subtraction.game
    for s in 1,1 2,2 3,3 4,4 5,5 1,2 1,3 1,4 1,5 2,3 2,4 2,5 3,4 3,5 4,5; do
        for a in 1 2 3 4; do
            echo "print(\"$s $a\", [grundy(sub($s, $a, $CAP, n)) for n in 0..$CAP])"
        done
    done
} >"$tmp/sub.game"
"$GAMUT" run "$tmp/sub.game" >"$tmp/sub.out"
{
    grep '^loopy game windup' examples/loopy-windup.game
    for s in 1,2 1,3 2,3 6,7; do
        echo "for m in 1..64 { print(\"$s\", m, [grundy(windup($s, m, x)) for x in 0..m-1]) }"
    done
} >"$tmp/wind.game"
"$GAMUT" run "$tmp/wind.game" >"$tmp/wind.out"
python3 - "$tmp/sub.out" "$CAP" "$tmp/wind.out" <<'PY'
import json, sys
path, cap, wind = sys.argv[1], int(sys.argv[2]), sys.argv[3]
def rows():
    for line in open(path):
        s, a, rest = line.split(" ", 2)
        yield s, a, json.loads(rest)
def retro(opts):  # P/N/D by retrograde analysis
    n = len(opts); preds = [[] for _ in range(n)]
    for u, o in enumerate(opts):
        for v in o: preds[v].append(u)
    left = [len(o) for o in opts]; out = ["D"] * n
    q = [u for u in range(n) if not opts[u]]
    for u in q: out[u] = "P"
    while q:
        v = q.pop()
        for u in preds[v]:
            if out[u] != "D": continue
            if out[v] == "P": out[u] = "N"; q.append(u)
            else:
                left[u] -= 1
                if left[u] == 0: out[u] = "P"; q.append(u)
    return out
def check(opts, vals):  # G + *k is P iff value k; N iff k in K for ∞(K); else D
    top = max([x for x in vals if isinstance(x, int)] + [int(k) for x in vals if isinstance(x, str) for k in x[2:-1].split(",") if k], default=0) + 1
    H = top + 1
    sopts = [[v * H + k for v in opts[u]] + [u * H + j for j in range(k)] for u in range(len(opts)) for k in range(H)]
    out = retro(sopts)
    for u, x in enumerate(vals):
        K = [int(k) for k in x[2:-1].split(",") if k] if isinstance(x, str) else None
        for k in range(H):
            want = ("P" if x == k else "N") if K is None else ("N" if k in K else "D")
            assert out[u * H + k] == want, (u, x, k)
def compact(v):
    # a prefix, a period (at most 64) repeated, and a tail at the cap (at most 64 heaps), the
    # shortest tail first; a row with none of these is written whole
    fmt = lambda xs: " ".join(map(str, xs))
    for T in (0, 4, 8, 16, 32, 64):
        w = v[:len(v) - T]
        best = None
        for p in range(1, 65):
            bad = [i for i in range(len(w) - p) if w[i] != w[i + p]]
            pre = bad[-1] + 1 if bad else 0
            if best is None or pre + p < sum(best):
                best = (pre, p)
        pre, p = best
        if pre + p < len(w) / 3:
            tail = f" then {fmt(v[len(w):])}" if T else ""
            return f"{fmt(w[:pre])} ({fmt(w[pre:pre + p])})... to heap {len(w) - 1}{tail}".lstrip()
    return fmt(v)
for s, a, v in rows():
    t = sorted(set(int(x) for x in s.split(",")))
    a = int(a)
    opts = [[n - x for x in t if x <= n] + ([n + a] if n > 0 and n + a <= cap else []) for n in range(cap + 1)]
    check(opts, v)
    print(f"| {{{','.join(map(str, t))}}} | {{{a}}} | {compact(v)} |")
last = None
for line in open(wind):
    s, m, rest = line.split(" ", 2)
    a, b, m, v = *map(int, s.split(",")), int(m), json.loads(rest)
    check([[] if x == 0 else [(x - a) % m, (x - b) % m] for x in range(m)], v)
    if s != last:
        print(f"\nWind-up {{{s}}}, m = 1..64, positions x = 0..m-1:\n")
        last = s
    print(f"    {m:2}: {' '.join(map(str, v))}")
PY
