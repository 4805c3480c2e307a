//! Every family of games is reached through one trait (`lang::run::game::Family`): the queries and
//! operators behave alike on all of them, and a scoring family is kept out of impartial ones.

mod common;
use common::run_e;

#[test]
fn sums_mix_families_and_add_their_nimbers() {
    // grundy of a sum is the nim-sum of the parts, whatever family each part is from
    let parts = [
        "kayles(5)",
        "lasker(6)",
        "placement(grid(2, 3), knight)",
        "cycles(cycle_graph(5), rule: \"normal\")",
    ];
    let mut xor = 0;
    for p in parts {
        let (code, out, err) = run_e(&format!("grundy({p})"));
        assert_eq!(code, 0, "{err}");
        xor ^= out.trim().parse::<u32>().unwrap();
    }
    let (code, out, err) = run_e(&format!("grundy({})", parts.join(" + ")));
    assert_eq!(code, 0, "{err}");
    assert_eq!(out.trim().parse::<u32>().unwrap(), xor);
}

#[test]
fn a_scoring_game_answers_its_own_queries_and_refuses_impartial_ones() {
    // on one box the second player draws the fourth line: the mover nets -1 whatever it draws
    assert_eq!(run_e("value(dots(1, 1))").1, "-1\n");
    assert_eq!(
        run_e("moves(dots(1, 1))").1,
        "{AB: -1, AC: -1, BD: -1, CD: -1}\n"
    );
    assert_eq!(run_e("winning(dots(1, 1))").1, "[]\n");
    for q in [
        "grundy(dots(1, 1))",
        "outcome(dots(1, 1))",
        "options(dots(1, 1))",
        "misere(dots(1, 1))",
    ] {
        let (code, _, err) = run_e(q);
        assert_ne!(code, 0, "{q}");
        assert!(
            err.contains("Dots-and-Boxes is a scoring game"),
            "{q}: {err}"
        );
    }
    let (code, _, err) = run_e("dots(1, 1) + kayles(2)");
    assert_ne!(code, 0);
    assert!(err.contains("Dots-and-Boxes position"), "{err}");
    // an impartial position's value is its nimber, as a partizan game
    assert_eq!(run_e("value(kayles(3))").1, "*3\n");
    let (code, _, err) = run_e("value([3])");
    assert_ne!(code, 0);
    assert!(err.contains("a position with a value"), "{err}");
}
