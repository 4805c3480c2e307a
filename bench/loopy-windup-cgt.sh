#!/bin/sh
# Wind-up values for every modulus 1..64, gamut (examples/loopy-windup.game's ruleset) against
# cgt-tools' `cgt-cli wind-up range` (github.com/t4ccer/cgt-tools, built outside this tree).
# Usage: CGT=/path/to/cgt-cli GAMUT=target/release/gamut bench/loopy-windup-cgt.sh [a,b ...]
# Prints one line per subtraction set: the positions compared and those that differ.
set -eu
GAMUT=${GAMUT:-target/release/gamut}
CGT=${CGT:?set CGT to the cgt-cli binary}
SETS=${*:-1,2 1,3 2,3 6,7 2,5 3,5 4,7}
rules=$(grep '^loopy game windup' examples/loopy-windup.game)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for s in $SETS; do
    a=${s%,*} b=${s#*,}
    printf '%s\nfor m in 1..64 { print(m, [grundy(windup(%s, %s, m, x)) for x in 0..m-1]) }\n' \
        "$rules" "$a" "$b" >"$tmp/w.game"
    "$GAMUT" run "$tmp/w.game" >"$tmp/gamut"
    "$CGT" wind-up range --moves "$s" --start-n 1 --end-n 64 >"$tmp/cgt"
    python3 - "$s" "$tmp/gamut" "$tmp/cgt" <<'PY'
import json, re, sys
s, gpath, cpath = sys.argv[1:]
def norm(v):  # cgt-tools writes 0, *, *2, ∞(0,*); gamut 0, 1, 2, "∞(0,1)"
    v = str(v).strip().strip('"')
    nim = lambda t: 0 if t == "0" else 1 if t == "*" else int(t[1:]) if t.startswith("*") else int(t)
    if v.startswith("∞"):
        k = sorted(nim(t.strip()) for t in v[1:].strip("()").split(",") if t.strip())
        return "∞" + ("(%s)" % ",".join(map(str, k)) if k else "")
    return str(nim(v))
gam = {}
for line in open(gpath):
    m, rest = line.split(" ", 1)
    gam[int(m)] = [norm(v) for v in json.loads(rest)]
cgt = {}
for line in open(cpath):
    m = int(re.search(r"n=(\d+)", line).group(1))
    body = line.split(" = ", 1)[1].strip()[1:-1]
    cgt[m] = [norm(v) for v in re.findall(r"∞\([^)]*\)|∞|\*\d*|\d+", body)]
total = sum(len(gam[m]) for m in gam)
diff = [(m, x, gam[m][x], cgt[m][x]) for m in gam for x in range(m) if gam[m][x] != cgt[m][x]]
print(f"{{{s}}}: {total} positions, {len(diff)} differ", *[f"m={m} x={x}: gamut {g}, cgt-tools {c};" for m, x, g, c in diff[:8]])
PY
done
