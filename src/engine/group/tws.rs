//! twsearch / ksolve puzzle definitions (`.tws`, `.def`) with one piece set and no orientation.
//!
//! ```text
//! Name slide2
//! Set PIECES 4 1
//! Solved
//! PIECES
//! 1 2 3 4
//! End
//! Move R
//! PIECES
//! 2 1 4 3
//! End
//! ```
//!
//! A move's list says, for each position, which position's piece moves into it
//! (`new[i] = old[list[i]]`). gamut's permutation `p` sends the content of point i to point
//! p(i), so the list of `p` is the image list of `p⁻¹`.
//!
//! Move metric: gamut counts each generator and its inverse as one move and a square as two
//! (the quarter-turn metric). twsearch and ksolve by default also count every power of a move
//! as one move (`R2` is one move, the half-turn metric); run them with `-q` (twsearch) or
//! `QTM` (ksolve) to count as gamut does.
use super::perm::{MAX_DEGREE, Perm};

/// A puzzle: its name and moves (gamut permutations on points 0..n).
#[derive(Debug, Clone)]
pub struct Puzzle {
    pub name: String,
    pub moves: Vec<(String, Perm)>,
}

/// The `.tws` text of a group of `degree` points with named generators.
pub fn write(name: &str, degree: usize, gens: &[(String, Perm)]) -> String {
    let ident = |s: &str| -> String {
        s.chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() || c == '_' {
                    c
                } else {
                    '_'
                }
            })
            .collect()
    };
    let mut out = format!(
        "# written by gamut: one piece set, no orientation.\n# gamut counts a generator and its inverse as one move (use twsearch -q for the same metric)\nName {}\n\nSet PIECES {degree} 1\n\nSolved\nPIECES\n{}\nEnd\n",
        ident(name),
        (1..=degree)
            .map(|i| i.to_string())
            .collect::<Vec<_>>()
            .join(" ")
    );
    for (n, p) in gens {
        let inv = p.extended(degree).inverse();
        let list: Vec<String> = (0..degree)
            .map(|i| (inv.apply(i) + 1).to_string())
            .collect();
        out.push_str(&format!(
            "\nMove {}\nPIECES\n{}\nEnd\n",
            ident(n),
            list.join(" ")
        ));
    }
    out
}

/// Read a puzzle; refuse clearly what gamut cannot treat as a permutation group.
pub fn read(text: &str) -> Result<Puzzle, String> {
    let lines: Vec<(usize, Vec<&str>)> = text
        .lines()
        .enumerate()
        .map(|(k, l)| {
            (
                k + 1,
                l.split('#')
                    .next()
                    .unwrap_or("")
                    .split_whitespace()
                    .collect::<Vec<_>>(),
            )
        })
        .filter(|(_, w)| !w.is_empty())
        .collect();
    let mut name = String::from("puzzle");
    let mut set: Option<(String, usize)> = None;
    let mut moves = vec![];
    let mut i = 0;
    let err = |line: usize, m: String| format!(".tws line {line}: {m}");
    while i < lines.len() {
        let (ln, w) = &lines[i];
        match w[0] {
            "Name" => name = w.get(1).map_or(name, |s| s.to_string()),
            "Set" => {
                if set.is_some() {
                    return Err(err(*ln, "gamut reads puzzles with one piece set only; this one has several (a permutation group on one set of points is what `import_tws` gives)".into()));
                }
                let (Some(sname), Some(n)) =
                    (w.get(1), w.get(2).and_then(|s| s.parse::<usize>().ok()))
                else {
                    return Err(err(*ln, "expected `Set NAME pieces orientations`".into()));
                };
                let ori = w.get(3).and_then(|s| s.parse::<usize>().ok()).unwrap_or(1);
                if ori != 1 {
                    return Err(err(
                        *ln,
                        format!(
                            "set {sname} has {ori} orientations; gamut reads puzzles without orientation only"
                        ),
                    ));
                }
                if n == 0 || n > MAX_DEGREE {
                    return Err(err(
                        *ln,
                        format!("a set of {n} pieces; gamut handles 1..{MAX_DEGREE}"),
                    ));
                }
                set = Some((sname.to_string(), n));
            }
            "Solved" | "StartState" | "Move" | "MoveTransformation" => {
                let Some((sname, n)) = set.clone() else {
                    return Err(err(
                        *ln,
                        "a `Set` line must come before states and moves".into(),
                    ));
                };
                let kind = w[0];
                let mname = w.get(1).map(|s| s.to_string());
                // block: set name, list [, orientation list], End
                let mut j = i + 1;
                let mut list: Option<Vec<usize>> = None;
                while j < lines.len() && lines[j].1[0] != "End" {
                    let (lj, wj) = &lines[j];
                    if wj[0] == sname && wj.len() == 1 {
                        let (_, nums) = lines
                            .get(j + 1)
                            .ok_or_else(|| err(*lj, "missing piece list".into()))?;
                        let l: Vec<usize> = nums
                            .iter()
                            .map(|s| s.parse::<usize>())
                            .collect::<Result<_, _>>()
                            .map_err(|_| err(lines[j + 1].0, "expected piece numbers".into()))?;
                        if l.len() != n {
                            return Err(err(
                                lines[j + 1].0,
                                format!("expected {n} numbers, got {}", l.len()),
                            ));
                        }
                        list = Some(l);
                        j += 2;
                        // an orientation line, if any, must be all zeros
                        if j < lines.len()
                            && lines[j].1[0] != "End"
                            && lines[j].1.iter().all(|s| s.parse::<i64>().is_ok())
                        {
                            if lines[j].1.iter().any(|s| *s != "0") {
                                return Err(err(lines[j].0, "this move changes orientations; gamut reads puzzles without orientation only".into()));
                            }
                            j += 1;
                        }
                    } else {
                        return Err(err(
                            *lj,
                            format!(
                                "unexpected `{}` in a {kind} block (gamut reads one set, {sname})",
                                wj[0]
                            ),
                        ));
                    }
                }
                if j >= lines.len() {
                    return Err(err(*ln, format!("the {kind} block has no `End`")));
                }
                let list =
                    list.ok_or_else(|| err(*ln, format!("the {kind} block has no {sname} list")))?;
                if kind.starts_with("Move") {
                    let mut seen = vec![false; n];
                    for &x in &list {
                        if x == 0 || x > n || seen[x - 1] {
                            return Err(err(
                                *ln,
                                format!(
                                    "move {} is not a permutation of 1..{n}",
                                    mname.clone().unwrap_or_default()
                                ),
                            ));
                        }
                        seen[x - 1] = true;
                    }
                    // new[i] = old[list[i]]: the piece at list[i] goes to i, so p(list[i]) = i
                    let mut img = vec![0u16; n];
                    for (i2, &x) in list.iter().enumerate() {
                        img[x - 1] = i2 as u16;
                    }
                    let mname = mname.ok_or_else(|| err(*ln, "a move needs a name".into()))?;
                    moves.push((mname, Perm::from_images(img)));
                }
                i = j;
            }
            "Ignore" | "Block" | "ForbiddenPairs" | "ForbiddenGroups" | "MoveLimits" => {
                return Err(err(
                    *ln,
                    format!("`{}` is not supported by import_tws", w[0]),
                ));
            }
            _ => {}
        }
        i += 1;
    }
    if moves.is_empty() {
        return Err("the .tws file defines no moves".into());
    }
    Ok(Puzzle { name, moves })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip() {
        let r = Perm::from_cycles(4, &[vec![0, 1, 3, 2]]).unwrap();
        let t = write("x", 4, &[("R".into(), r.clone())]);
        let p = read(&t).unwrap();
        assert_eq!(p.moves[0].1, r);
        assert!(t.contains("Move R\nPIECES\n3 1 4 2\nEnd"));
    }

    #[test]
    fn refuses_orientation() {
        let t = "Set C 2 3\nMove A\nC\n2 1\n1 0\nEnd\n";
        assert!(read(t).unwrap_err().contains("orientation"));
    }
}
