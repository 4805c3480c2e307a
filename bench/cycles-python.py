#!/usr/bin/env python3
"""Runs the thesis' own Python script (J. S. Zandee, "The Game of Cycles", appendix) on the
double-diamond with k vertices inserted on each of the outer edges a-d and c-f.

The thesis' code is not stored here: it is cut out of the seed text at run time, the lost
indentation of its last block is restored, its own driver line is dropped, and the board is
handed to its `brute_force`. Prints the Sprague-Grundy value it finds (normal rule: death moves
illegal) and the CPU time.

usage: bench/cycles-python.py [k] [seed path]
"""
import os
import sys
import time

k = int(sys.argv[1]) if len(sys.argv) > 1 else 0

def zandee():
    """The seed that holds Zandee's thesis, found by its title."""
    seeds = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "shared", "seeds")
    for name in sorted(os.listdir(seeds)):
        path = os.path.join(seeds, name)
        text = open(path, encoding="utf-8").read()
        if "The Game of Cycles" in text and "Python script" in text:
            return path
    sys.exit("Zandee's thesis is not among " + seeds)


seed = sys.argv[2] if len(sys.argv) > 2 else zandee()
text = open(seed, encoding="utf-8").read()
body = text[text.rindex("Python script"):text.rindex("Bibliography")]
blocks = []
parts = body.split("```")
for i in range(1, len(parts), 2):
    blocks.append(parts[i].strip("\n"))
if len(blocks) != 3:
    sys.exit("unexpected layout of the script in the seed: %d code blocks" % len(blocks))
first, second, third = blocks
# the third block lost its indentation: it is the body of the last `else:` of makemove's loop
tail = []
for line in third.split("\n"):
    if line.startswith("brute_force("):
        continue  # the thesis' own driver line; we call brute_force ourselves
    tail.append(("            " + line) if line.strip() else "")
code = first + "\n" + second + "\n" + "\n".join(tail) + "\n"

# the board: single-letter vertex names (the script reads moves as two characters)
extra = iter("ghijklmnopqrstuvwxyz")
edges = [("a", "b"), ("b", "d"), ("b", "e"), ("d", "e"), ("b", "c"), ("b", "f"), ("e", "f")]
cells = [["b", "e", "d"], ["b", "f", "e"]]
for (x, y, other) in [("a", "d", "b"), ("c", "f", "b")]:
    path = [x] + [next(extra) for _ in range(k)] + [y]
    edges += list(zip(path, path[1:]))
    cells.append(path + [other])  # x .. y, then back through b
graph = {}
for (x, y) in edges:
    graph.setdefault(x, {})[y] = 0
    graph.setdefault(y, {})[x] = 0
cycles = []
for c in cells:
    s = "".join(c)
    cycles.append(s + s[0])
    r = s[::-1]
    cycles.append(r + r[0])

env = {"__name__": "thesis"}
exec(compile(code, "thesis-appendix", "exec"), env)
import io, contextlib
out = io.StringIO()
t0 = time.process_time()
with contextlib.redirect_stdout(out):
    env["brute_force"](graph, cycles)
cpu = time.process_time() - t0
sg = env["memory"][-1][3]
print("python double_diamond(%d, ad/cf): edges %d, SG %s, outcome %s, cpu %.2fs, positions stored %d"
      % (k, len(edges), sg, "P" if sg == 0 else "N", cpu, len(env["memory2"])))
