# Grundy's game, heaps 0..3000, memoised, as a Python user would write it: the anchor of
# bench/rules-grundy.game (bench/rules-vs-python.sh runs both).
import sys
from functools import lru_cache

sys.setrecursionlimit(100000)


@lru_cache(maxsize=None)
def g(n):
    seen = {g(k) ^ g(n - k) for k in range(1, n) if 2 * k < n}
    m = 0
    while m in seen:
        m += 1
    return m


print(sum(g(n) for n in range(3001)))
