//! The shipped loopy rulesets (examples/loopy-*.game): Wind-up, a loopy subtraction family and
//! an annihilation game. Each ruleset is taken from its example file, its generalized
//! Sprague–Grundy values computed by gamut, and the values checked against a retrograde outcome
//! solver written here: a value v is exact when, for every nim heap k, the sum G + *k is P iff
//! v = k (finite), and, for v = ∞(K), N iff k ∈ K and a draw otherwise.
mod common;
use common::values;
use serde_json::Value;

/// The line of an example that declares the ruleset `name`.
fn ruleset(file: &str, name: &str) -> String {
    let src = std::fs::read_to_string(format!("examples/{file}")).unwrap();
    let head = format!("loopy game {name}(");
    let at = src
        .find(&head)
        .unwrap_or_else(|| panic!("{file} lacks {head}"));
    // one line, or a block closed by a `}` that starts a line
    let rest = &src[at..];
    let first = rest.find('\n').unwrap();
    let end = if rest[..first].trim_end().ends_with('{') {
        rest.find("\n}").unwrap() + 2
    } else {
        first
    };
    rest[..end].to_string()
}

/// Outcomes ('P', 'N', 'D') of every position of a finite graph by retrograde analysis: a
/// position with a P option is N, one whose options are all N is P (an end is P), the rest
/// draw.
fn retrograde(options: &[Vec<usize>]) -> Vec<char> {
    let n = options.len();
    let mut preds = vec![vec![]; n];
    for (u, opts) in options.iter().enumerate() {
        for &v in opts {
            preds[v].push(u);
        }
    }
    let mut left: Vec<usize> = options.iter().map(Vec::len).collect();
    let mut out = vec!['D'; n];
    let mut queue: Vec<usize> = (0..n).filter(|&u| left[u] == 0).collect();
    for &u in &queue {
        out[u] = 'P';
    }
    while let Some(v) = queue.pop() {
        for &u in &preds[v] {
            if out[u] != 'D' {
                continue;
            }
            if out[v] == 'P' {
                out[u] = 'N';
                queue.push(u);
            } else {
                left[u] -= 1;
                if left[u] == 0 {
                    out[u] = 'P';
                    queue.push(u);
                }
            }
        }
    }
    out
}

/// Checks gamut's values `got[u]` of the graph's positions by the outcomes of G + *k, k up to
/// one past the largest finite value met.
fn check_values(options: &[Vec<usize>], got: &[Value], what: &str) {
    let n = options.len();
    assert_eq!(got.len(), n, "{what}");
    let top = got
        .iter()
        .flat_map(|v| match v {
            Value::Number(x) => vec![x.as_u64().unwrap()],
            Value::String(s) => finite_part(s),
            _ => panic!("{what}: {v}"),
        })
        .max()
        .unwrap_or(0)
        + 1;
    let heaps = top as usize + 1;
    // position (u, k) is u * heaps + k
    let mut sum = vec![vec![]; n * heaps];
    for u in 0..n {
        for k in 0..heaps {
            let s = &mut sum[u * heaps + k];
            s.extend(options[u].iter().map(|&v| v * heaps + k));
            s.extend((0..k).map(|j| u * heaps + j));
        }
    }
    let out = retrograde(&sum);
    for (u, v) in got.iter().enumerate() {
        for k in 0..heaps {
            let want = match v {
                Value::Number(x) if x.as_u64() == Some(k as u64) => 'P',
                Value::Number(_) => 'N',
                Value::String(s) if finite_part(s).contains(&(k as u64)) => 'N',
                _ => 'D',
            };
            assert_eq!(
                out[u * heaps + k],
                want,
                "{what}: position {u} valued {v}, plus *{k}"
            );
        }
    }
}

/// K of "∞(K)" ("∞" has none).
fn finite_part(s: &str) -> Vec<u64> {
    let inner = s
        .trim_start_matches('∞')
        .trim_matches(|c| c == '(' || c == ')');
    inner
        .split(',')
        .filter(|x| !x.is_empty())
        .map(|x| x.parse().unwrap())
        .collect()
}

#[test]
fn wind_up_for_every_modulus_up_to_64() {
    let rules = ruleset("loopy-windup.game", "windup");
    for (a, b) in [(1, 2), (1, 3), (2, 3), (6, 7), (2, 5), (3, 5), (4, 7)] {
        let src =
            format!("{rules}\n[[grundy(windup({a}, {b}, m, x)) for x in 0..m-1] for m in 1..64]");
        let got = values(&src).pop().unwrap();
        for (i, row) in got.as_array().unwrap().iter().enumerate() {
            let m = i as i64 + 1;
            let options: Vec<Vec<usize>> = (0..m)
                .map(|x| {
                    if x == 0 {
                        return vec![];
                    }
                    [a, b]
                        .iter()
                        .map(|s| (x - s).rem_euclid(m) as usize)
                        .collect()
                })
                .collect();
            check_values(
                &options,
                row.as_array().unwrap(),
                &format!("windup {{{a},{b}}} mod {m}"),
            );
        }
    }
}

#[test]
fn loopy_subtraction_family() {
    let rules = ruleset("loopy-subtraction.game", "sub");
    let cap = 60i64;
    for s in [
        [1, 1],
        [2, 2],
        [1, 2],
        [1, 3],
        [2, 3],
        [2, 5],
        [3, 5],
        [4, 4],
        [1, 4],
    ] {
        for a in 1..=4 {
            let src = format!(
                "{rules}\n[grundy(sub({}, {}, {a}, {cap}, n)) for n in 0..{cap}]",
                s[0], s[1]
            );
            let got = values(&src).pop().unwrap();
            let options: Vec<Vec<usize>> = (0..=cap)
                .map(|n| {
                    let mut o: Vec<i64> = s.iter().filter(|&&t| t <= n).map(|t| n - t).collect();
                    if n > 0 && n + a <= cap {
                        o.push(n + a);
                    }
                    o.into_iter().map(|m| m as usize).collect()
                })
                .collect();
            check_values(
                &options,
                got.as_array().unwrap(),
                &format!("S={s:?} A={{{a}}}"),
            );
        }
    }
}

#[test]
fn annihilation_on_every_set_of_tokens() {
    let src = std::fs::read_to_string("examples/loopy-annihilation.game").unwrap();
    let graph = src.lines().find(|l| l.starts_with("let E = ")).unwrap();
    let edges: Vec<Vec<usize>> =
        serde_json::from_str(graph.trim_start_matches("let E = ")).unwrap();
    let n = edges.len();
    // position: a bit set of the occupied vertices
    let options: Vec<Vec<usize>> = (0..1usize << n)
        .map(|p| {
            let mut o = vec![];
            for u in (0..n).filter(|u| p >> u & 1 == 1) {
                for &v in &edges[u] {
                    let q = if p >> v & 1 == 1 {
                        p & !(1 << u) & !(1 << v)
                    } else {
                        p & !(1 << u) | 1 << v
                    };
                    o.push(q);
                }
            }
            o
        })
        .collect();
    let lists: Vec<Vec<usize>> = (0..1usize << n)
        .map(|p| (0..n).filter(|u| p >> u & 1 == 1).collect())
        .collect();
    let rules = ruleset("loopy-annihilation.game", "ann");
    let got = values(&format!(
        "{graph}\n{rules}\n[grundy(ann(p)) for p in {lists:?}]"
    ))
    .pop()
    .unwrap();
    check_values(&options, got.as_array().unwrap(), "annihilation");
}

#[test]
fn inf_writes_a_loopy_value_to_compare_with() {
    let rules = ruleset("loopy-windup.game", "windup");
    let got = values(&format!(
        "{rules}\n[inf(2, 0, 2), inf(), grundy(windup(2, 3, 3, 2)) == inf(0), grundy(windup(2, 3, 3, 1)) == inf()]"
    ));
    assert_eq!(got[0], serde_json::json!(["∞(0,2)", "∞", true, true]));
    let (code, _, err) = common::run_e("inf(1, -2)");
    assert_eq!(code, 1);
    assert!(err.contains("non-negative"), "{err}");
    assert!(err.contains("finite values"), "{err}");
}

/// The positions of Wind-up {a, b} mod m as a graph: x moves to x - a and x - b mod m, unless
/// x is 0.
fn wind_up(a: i64, b: i64, m: i64) -> Vec<Vec<usize>> {
    (0..m)
        .map(|x| match x {
            0 => vec![],
            _ => [a, b]
                .iter()
                .map(|s| (x - s).rem_euclid(m) as usize)
                .collect(),
        })
        .collect()
}

/// The values a session gives do not depend on the order it asks them in, although each
/// query only adds to the labelled positions earlier queries of the ruleset kept: positions
/// asked one by one ascending, descending and in a random order, and sums of two positions
/// first, each in a fresh session, are checked against retrograde analysis (the sums by the
/// outcomes of their graph).
#[test]
fn values_do_not_depend_on_the_order_of_queries() {
    let rules = ruleset("loopy-windup.game", "windup");
    let mut rng = common::Rng(38);
    for (a, b, m) in [(2, 5, 23), (6, 7, 40), (1, 3, 17), (3, 5, 31)] {
        let options = wind_up(a, b, m);
        let n = m as usize;
        let mut shuffled: Vec<usize> = (0..n).collect();
        for i in (1..n).rev() {
            shuffled.swap(i, rng.below(i + 1));
        }
        let pairs: Vec<[usize; 2]> = (0..2 * n).map(|_| [rng.below(n), rng.below(n)]).collect();
        // the outcome of x + y from the graph of the sums
        let sum: Vec<Vec<usize>> = (0..n * n)
            .map(|p| {
                let (x, y) = (p / n, p % n);
                let mut o: Vec<usize> = options[x].iter().map(|&x2| x2 * n + y).collect();
                o.extend(options[y].iter().map(|&y2| x * n + y2));
                o
            })
            .collect();
        let want_sums: Vec<String> = pairs
            .iter()
            .map(|[x, y]| retrograde(&sum)[x * n + y].to_string())
            .collect();
        let ask = |xs: &[usize]| format!("[grundy(windup({a}, {b}, {m}, x)) for x in {xs:?}]");
        let sums = format!(
            "[outcome(windup({a}, {b}, {m}, p[0]) + windup({a}, {b}, {m}, p[1])) for p in {pairs:?}]"
        );
        let up: Vec<usize> = (0..n).collect();
        let down: Vec<usize> = (0..n).rev().collect();
        let mut seen: Vec<Vec<Value>> = vec![];
        for first in [ask(&up), ask(&down), ask(&shuffled), sums.clone()] {
            let got = values(&format!("{rules}\n{first}\n{}\n{sums}", ask(&up)));
            let [.., vals, outs] = got.as_slice() else {
                panic!("{got:?}")
            };
            let what = format!("windup {{{a},{b}}} mod {m}, first {first}");
            check_values(&options, vals.as_array().unwrap(), &what);
            assert_eq!(outs, &serde_json::json!(want_sums), "{what}");
            seen.push(got.clone());
        }
        // the first query of each session, in its order, gives the values in that order
        let order = |xs: &[usize], v: &Value| {
            let v = v.as_array().unwrap();
            let mut by_x = vec![Value::Null; n];
            for (i, &x) in xs.iter().enumerate() {
                by_x[x] = v[i].clone();
            }
            by_x
        };
        let base = seen[0][0].as_array().unwrap().clone();
        assert_eq!(order(&down, &seen[1][0]), base);
        assert_eq!(order(&shuffled, &seen[2][0]), base);
    }
}
