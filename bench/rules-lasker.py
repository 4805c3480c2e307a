# Lasker's Nim, heaps 0..2000, values kept in a list as a Python user would write it: the
# anchor of bench/rules-lasker.game (bench/rules-vs-python.sh runs both).
N = 2000
g = []
for n in range(N + 1):
    seen = {g[n - k] for k in range(1, n + 1)}
    seen |= {g[a] ^ g[n - a] for a in range(1, n) if a <= n - a}
    m = 0
    while m in seen:
        m += 1
    g.append(m)
print(sum(g))
