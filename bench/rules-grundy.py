# Grundy's game, heaps 0..5000, values kept in a list as a Python user would write it: the
# anchor of bench/rules-grundy.game (bench/rules-vs-python.sh runs both).
N = 5000
g = []
for n in range(N + 1):
    seen = {g[k] ^ g[n - k] for k in range(1, n) if 2 * k < n}
    m = 0
    while m in seen:
        m += 1
    g.append(m)
print(sum(g))
