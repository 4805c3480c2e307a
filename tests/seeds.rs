//! Numbers from the four seed documents, asserted with the figure or section they come from.
mod common;
use common::{value, values};
use serde_json::json;

// ---- Johnston, "On God's Number(s) and the Rubik's Slide Extension" ----

#[test]
fn seed000_figure_2_4_easy_mode_vertices_and_edges() {
    assert_eq!(
        values(
            "order(slide2); edges(slide2); order(slide3_easy); edges(slide3_easy); order(slide4_easy); edges(slide4_easy)"
        ),
        vec![
            json!(8),
            json!(16),
            json!(36),
            json!(108),
            json!(64),
            json!(192)
        ]
    );
}

#[test]
fn seed000_figure_3_5_orders_and_gods_numbers() {
    for (g, order, gods) in [
        ("slide2", 8, 2),
        ("slide3_easy", 36, 4),
        ("slide3_hard", 362880, 17),
        ("slide4_easy", 64, 6),
    ] {
        assert_eq!(value(&format!("order({g})")), json!(order), "{g}");
        assert_eq!(
            value(&format!("diameter({g}).diameter")),
            json!(gods),
            "{g}"
        );
    }
    assert_eq!(value("order(slide4_hard)"), json!(1_625_702_400u64));
}

#[test]
fn seed000_section_1_toy_version() {
    let g = "let R = generators(slide2)[\"R\"]; let U = generators(slide2)[\"U\"]; let C = generators(slide2)[\"C\"]\n";
    assert_eq!(value(&format!("{g}U == C^2 * R")), json!(true));
    assert_eq!(value("is_hamiltonian(slide2, \"CCCRCCCR\")"), json!(true));
    assert_eq!(value("is_hamiltonian(slide2, \"CCCRCCRR\")"), json!(false));
}

#[test]
fn seed000_theorem_1_and_lemmas() {
    let b = "board b = grid(4, 4); gen R = shift(b, \"right\"); gen U = shift(b, \"up\"); gen C = rotate(b)\n";
    assert_eq!(
        values(&format!(
            "{b}group H = <R, U>\nis_abelian(H)\norder(H)\nU * R\nC * U^3\nC * R"
        )),
        vec![
            json!(true),
            json!(16),
            json!("(1,14,11,8)(2,15,12,5)(3,16,9,6)(4,13,10,7)"),
            json!("(1,8,3,16)(2,12)(5,7,15,13)(6,11,14,9)"),
            json!("(2,5,4,13)(3,9)(6,8,16,14)(7,12,15,10)"),
        ]
    );
}

#[test]
fn seed000_theorem_2_hamiltonian_cycle() {
    assert_eq!(
        value("is_hamiltonian(slide4_easy, \"(C R^3 U R^3 U R^3 U R^3)^4\")"),
        json!(true)
    );
    let h = value("let h = hamiltonian(slide4_easy)\nis_hamiltonian(slide4_easy, h.word)");
    assert_eq!(h, json!(true));
}

#[test]
fn seed000_figure_2_13_single_colour_subgames() {
    let rows: [(&str, u64, u64); 17] = [
        ("{1}", 16, 4),
        ("{1,2}", 32, 4),
        ("{1,3}", 16, 3),
        ("{1,6}", 32, 5),
        ("{1,7}", 32, 4),
        ("{1,11}", 8, 2),
        ("{1,2,3}", 32, 4),
        ("{1,2,5}", 64, 6),
        ("{1,2,7}", 64, 6),
        ("{1,2,8}", 64, 6),
        ("{1,2,9}", 64, 6),
        ("{1,2,11}", 64, 6),
        ("{1,3,6}", 64, 6),
        ("{1,3,9}", 16, 4),
        ("{1,3,10}", 32, 4),
        ("{1,6,11}", 32, 4),
        ("{1,6,12}", 64, 6),
    ];
    for (x, order, gods) in rows {
        let d = value(&format!("diameter(slide4_easy, {x})"));
        assert_eq!(
            (d["size"].as_u64().unwrap(), d["diameter"].as_u64().unwrap()),
            (order, gods),
            "{x}"
        );
    }
}

#[test]
fn seed000_figure_2_14_single_colour_order_distribution() {
    let expected = [
        json!({"16": 1}),
        json!({"8": 1, "16": 1, "32": 3}),
        json!({"16": 1, "32": 3, "64": 7}),
        json!({"4": 1, "8": 3, "16": 6, "32": 9, "64": 22}),
        json!({"16": 3, "32": 9, "64": 63}),
        json!({"8": 1, "16": 6, "32": 33, "64": 107}),
        json!({"16": 3, "32": 16, "64": 170}),
        json!({"2": 1, "4": 1, "8": 4, "16": 8, "32": 37, "64": 180}),
    ];
    for (k, e) in expected.iter().enumerate() {
        assert_eq!(
            &value(&format!("orbits(slide4_easy, sets({})).sizes", k + 1)),
            e,
            "{} boxes",
            k + 1
        );
    }
}

#[test]
fn seed000_figure_2_18_two_colour_rows_2_and_3() {
    assert_eq!(
        value("orbits(slide4_easy, colorings(1, 1)).sizes"),
        json!({"16": 1, "32": 1, "64": 3})
    );
    assert_eq!(
        value("orbits(slide4_easy, colorings(1, 2)).sizes"),
        json!({"16": 1, "32": 4, "64": 24})
    );
}

#[test]
fn seed000_figure_3_2_hard_single_colour_subgames() {
    let rows: [(&str, u64, Option<u64>); 11] = [
        ("{1}", 16, Some(4)),
        ("{1,2}", 64, Some(5)),
        ("{1,3}", 56, Some(5)),
        ("{1,2,3}", 448, Some(7)),
        ("{1,3,6}", 112, Some(6)),
        ("{1,2,3,4}", 784, Some(7)),
        ("{1,2,3,6}", 896, Some(8)),
        ("{1,3,6,8}", 140, Some(6)),
        ("{1,2,3,4,5}", 3136, None),
        ("{1,2,3,6,8}", 1120, None),
        ("{1,3,6,8,9}", 112, Some(6)),
    ];
    for (x, order, gods) in rows {
        let d = value(&format!("diameter(slide4_hard, {x})"));
        assert_eq!(d["size"].as_u64().unwrap(), order, "{x}");
        if let Some(g) = gods {
            assert_eq!(d["diameter"].as_u64().unwrap(), g, "{x}");
        }
    }
}

#[test]
fn seed000_figure_3_3_hard_two_colour_orders() {
    let rows: [(&str, u64); 24] = [
        ("[{1},{2}]", 128),
        ("[{1},{3}]", 112),
        ("[{1},{2,3}]", 896),
        ("[{1},{2,4}]", 448),
        ("[{1},{3,6}]", 336),
        ("[{1},{2,3,4}]", 3136),
        ("[{1},{2,3,6}]", 2688),
        ("[{1},{3,6,8}]", 560),
        ("[{1,2},{3,4}]", 3136),
        ("[{1,2},{3,6}]", 2688),
        ("[{1,3},{2,4}]", 1568),
        ("[{1,3},{2,6}]", 2688),
        ("[{1,3},{6,8}]", 840),
        ("[{1},{2,3,4,5}]", 6272),
        ("[{1},{2,3,4,6}]", 9408),
        ("[{1},{2,3,6,8}]", 4480),
        ("[{1,2},{3,4,5}]", 18816),
        ("[{1,2},{3,6,8}]", 4480),
        ("[{1},{2,4,5,7}]", 1120),
        ("[{1},{3,6,8,9}]", 560),
        ("[{1,3},{2,4,6}]", 9408),
        ("[{1,3},{2,4,5}]", 3136),
        ("[{1,3},{2,6,8}]", 6720),
        ("[{1,3},{6,8,9}]", 1120),
    ];
    for (x, order) in rows {
        assert_eq!(
            value(&format!("orbit(slide4_hard, {x}).size")),
            json!(order),
            "{x}"
        );
    }
    for (x, gods) in [
        ("[{1},{2}]", 6),
        ("[{1},{3}]", 6),
        ("[{1},{2,4}]", 7),
        ("[{1},{3,6}]", 7),
    ] {
        assert_eq!(
            value(&format!("diameter(slide4_hard, {x}).diameter")),
            json!(gods),
            "{x}"
        );
    }
}

#[test]
fn seed000_section_3_3_configurations() {
    let src = "board b = grid(4, 4)
gen C = ring_rotate(b)
C^6 == rotate(b)^2
eval_word(slide4_hard, \"(C^4 R^3 U^3)(C^8 R U)(C^4 R^3 U^3)\") == (2,5)(3,9)(4,13)(7,10)(8,14)(12,15)
(1,4)(2,3)(5,8)(6,7)(9,12)(10,11)(13,16)(14,15) in slide4_hard";
    assert_eq!(values(src), vec![json!(true), json!(true), json!(true)]);
}

// ---- Michon, "Mathematical Games (Two Players, No Chance)" ----

#[test]
fn seed002_kayles_values_to_20() {
    assert_eq!(
        value("grundy(kayles, 0..20)"),
        json!([
            0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6, 4, 1, 2, 7, 1, 4, 3, 2, 1
        ])
    );
}

#[test]
fn seed002_kayles_period_12_from_71_and_14_exceptions() {
    assert_eq!(
        value("period(kayles)"),
        json!({"preperiod": 71, "period": 12, "proven": true, "checked_to": 256})
    );
    assert_eq!(
        value("grundy(kayles, 1200..1211)"),
        json!([4, 1, 2, 8, 1, 4, 7, 2, 1, 8, 2, 7])
    );
    let ex = values(
        "let g = grundy(kayles, 0..200)\nlet e = [n for n in 0..70 if g[n] != g[n + 12 * ((71 - n) // 12 + 1)]]\ne\n[g[n] for n in e]",
    );
    assert_eq!(
        ex[0],
        json!([0, 3, 6, 9, 11, 15, 18, 21, 22, 28, 34, 39, 57, 70])
    );
    assert_eq!(ex[1], json!([0, 3, 3, 4, 6, 7, 3, 4, 6, 5, 6, 3, 4, 6]));
}

#[test]
fn seed002_k_pin_kayles_table() {
    let rows = [
        (
            3,
            "[0, 1, 2, 3, 4, 1, 6, 3, 2, 1, 6, 7, 4, 5, 8, 1, 10, 5, 4, 7, 6]",
        ),
        (
            4,
            "[0, 1, 2, 3, 4, 5, 6, 7, 3, 2, 8, 9, 7, 6, 5, 4, 3, 2, 8, 9, 4]",
        ),
        (
            12,
            "[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 7]",
        ),
    ];
    for (k, r) in rows {
        assert_eq!(
            value(&format!("grundy(k_kayles({k}), 0..20)")),
            serde_json::from_str::<serde_json::Value>(r).unwrap(),
            "k = {k}"
        );
    }
}

#[test]
fn seed002_grundys_game_first_values_and_records() {
    assert_eq!(
        value("grundy(grundys_game, 0..20)"),
        json!([
            0, 0, 0, 1, 0, 2, 1, 0, 2, 1, 0, 2, 1, 3, 2, 1, 3, 2, 4, 3, 0
        ])
    );
    assert_eq!(
        value("grundy(grundys_game, 980..999)"),
        json!([
            14, 2, 17, 4, 2, 17, 4, 2, 17, 3, 2, 17, 3, 2, 22, 3, 5, 22, 3, 5
        ])
    );
    let r = values(
        "let g = grundy(grundys_game, 0..32767)
max([g[n] for n in 1..9999])
[n for n in 1..9999 if g[n] == 101]
[[n, g[n]] for n in 10000..11621 if g[n] >= 113]
max([g[n] for n in 1..32767])
[n for n in 1..32767 if g[n] == 195]",
    );
    assert_eq!(r[0], json!(101));
    assert_eq!(r[1], json!([8337, 8511]));
    assert_eq!(
        r[2],
        json!([[11261, 113], [11432, 113], [11551, 113], [11621, 118]])
    );
    assert_eq!(r[3], json!(195));
    assert_eq!(r[4], json!([28304, 28435]));
}

#[test]
fn seed002_nim_and_misere_nim_1_3_5_7() {
    assert_eq!(
        value("outcome(nim(1) + nim(3) + nim(5) + nim(7))"),
        json!("P")
    );
    assert_eq!(
        value("outcome(misere(nim(1) + nim(3) + nim(5) + nim(7)))"),
        json!("P")
    );
}

#[test]
fn seed002_moores_nim_winning_move() {
    assert_eq!(value("outcome(moore(2, [1, 3, 5, 7]))"), json!("N"));
    // Michon's move: leave {1,2,3,3} (the two ways of reaching it are one position)
    assert_eq!(
        value("winning(moore(2, [1, 3, 5, 7]))"),
        json!(["moore(2, [1, 2, 3, 3])"])
    );
}

#[test]
fn seed002_wythoff_safe_pairs_and_table() {
    let safe = values("[[a, [b for b in a..63 if grundy(wythoff(a, b)) == 0]] for a in 0..38]");
    let phi = (1.0 + 5f64.sqrt()) / 2.0;
    for n in 0..=24u64 {
        let u = (n as f64 * phi).floor() as u64;
        let row = &safe[0][u as usize];
        assert_eq!(row[1], json!([u + n]), "pair {n}");
    }
    let t = value("wythoff_table(25, 25)");
    assert_eq!(
        t["values"][24],
        json!([
            24, 25, 26, 27, 23, 22, 21, 29, 13, 20, 19, 28, 30, 32, 5, 6, 34, 33, 35, 36, 14, 37,
            17, 38, 31
        ])
    );
    assert_eq!(
        t["values"][3],
        json!([
            3, 4, 5, 6, 2, 0, 1, 9, 10, 12, 8, 7, 15, 11, 16, 18, 14, 13, 21, 17, 22, 24, 20, 19,
            27
        ])
    );
    assert_eq!(
        value("wythoff_table(25, 25) == table(fn(a, b) = grundy(wythoff(a, b)), 0..24, 0..24)"),
        json!(true)
    );
}

#[test]
fn seed002_wythoff_row_periods() {
    let periods = value("[wythoff_period(k).period for k in 0..12]");
    assert_eq!(
        periods,
        json!([1, 3, 3, 6, 12, 24, 12, 24, 24, 24, 24, 48, 48])
    );
    let pre = value("[wythoff_period(k).preperiod for k in 0..12]");
    assert_eq!(
        pre,
        json!([0, 0, 0, 8, 9, 27, 37, 92, 102, 127, 224, 277, 347])
    );
}

// ---- Zandee, "The Game of Cycles" ----

#[test]
fn seed003_section_1_3_lasker_values() {
    assert_eq!(
        value("grundy(lasker, 0..10)"),
        json!([0, 1, 2, 4, 3, 5, 6, 8, 7, 9, 10])
    );
    assert_eq!(
        value("grundy(octal(\"4.[3]\"), 0..10)"),
        json!([0, 1, 2, 4, 3, 5, 6, 8, 7, 9, 10])
    );
}
