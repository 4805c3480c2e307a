//! Loopy partizan games: stoppers' canonical forms, sides, sums and outcomes, checked against
//! CGSuite's own test cases (CanonicalStopperTestCase, SidedValueTestCase, EvalTest).
use gamut::engine::Ctl;
use gamut::engine::partizan::Store;
use gamut::engine::partizan::loopy::{self, Sided};

fn value(st: &mut Store, text: &str) -> Sided {
    let ctl = Ctl::default();
    let g = loopy::parse(text, st, &ctl).unwrap_or_else(|e| panic!("{text}: {e}"));
    Sided::of(&g, st, &ctl).unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn show(text: &str) -> String {
    let mut st = Store::default();
    let v = value(&mut st, text);
    v.show(&mut st, &Ctl::default()).unwrap()
}

fn outcome(text: &str) -> &'static str {
    let mut st = Store::default();
    value(&mut st, text).outcome(&Ctl::default()).unwrap()
}

#[test]
fn named_stoppers() {
    for (x, want) in [
        ("on", "on"),
        ("off", "off"),
        ("over", "over"),
        ("under", "under"),
        ("upon", "^[on]"),
        ("dud", "dud"),
        ("{pass|pass}", "dud"),
    ] {
        assert_eq!(show(x), want, "{x}");
    }
}

#[test]
fn cgsuite_stopper_strings() {
    for (x, want) in [
        ("{pass|3/2}", "3/2under"),
        ("{-1/4+*|pass}", "-1/4v[on]"),
        ("{0|||0||0|off}", "{0|Tiny(on)}"),
        ("{on|0||0}", "Miny(on)"),
        ("{0||0|under}", "Tiny(over)"),
        ("{over|under}", "±over"),
        ("{pass|*}", "^[on]"),
        ("{pass,0|0}", "^[on]*"),
        ("{*|pass}", "v[on]"),
        ("{0|0,pass}", "v[on]*"),
        ("{0||0|0,pass}", "^<on>"),
        ("{0,*||*|pass}", "^<on>*"),
        ("{0,pass|0||0}", "v<on>"),
        ("{pass|*||0,*}", "v<on>*"),
        ("x{0|x}", "over"),
        ("x{x|0}", "under"),
        ("x{0||||0|||x|*||*}", "a{0||||0|||a|*||*}"),
        ("a{0|{0||||0,*2|||a|0||0}||0}", "a{0|{0||||0,*2|||a|0||0}||0}"),
    ] {
        assert_eq!(show(x), want, "{x}");
    }
}

#[test]
fn cgsuite_sided_strings() {
    for (x, want) in [
        ("a{{|a}|}", "1 & 0"),
        ("{0|{dud|},*}", "^ & v*"),
        ("a{1||a|0}", "2 & ±1"),
    ] {
        assert_eq!(show(x), want, "{x}");
    }
}

#[test]
fn outcomes() {
    for (x, want) in [
        ("on", "L"),
        ("off", "R"),
        ("over", "L"),
        ("{pass|3/2}", "L"),
        ("{-1/4+*|pass}", "R"),
        ("{0|||0||0|off}", "L"),
        ("{on|0||0}", "R"),
        ("dud", "D"),
        ("a{{|a}|}", "PHat"),
        ("{0|{dud|},*}", "NHat"),
        ("a{0||||0|||a|*||*}", "L"),
        ("a{0|{0||||0,*2|||a|0||0}||0}", "N"),
    ] {
        assert_eq!(outcome(x), want, "{x}");
    }
}

#[test]
fn sums() {
    let ctl = Ctl::default();
    let mut st = Store::default();
    let mut sum = |a: &str, b: &str| {
        let (x, y) = (value(&mut st, a), value(&mut st, b));
        let s = x.add(&y, &mut st, &ctl).unwrap();
        s.show(&mut st, &ctl).unwrap()
    };
    assert_eq!(sum("on", "off"), "dud");
    assert_eq!(sum("over", "5"), "5over");
    assert_eq!(sum("under", "5"), "5under");
    assert_eq!(sum("over", "^"), "over");
    assert_eq!(sum("over", "-5"), "-5over");
    assert_eq!(sum("over", "under"), "over & under");
    assert_eq!(sum("{pass|*}", "5"), "5^[on]");
    assert_eq!(sum("{0|0,pass}", "5"), "5v[on]*");
    assert_eq!(sum("{0||0|0,pass}", "5"), "5^<on>");
}

#[test]
fn order() {
    let ctl = Ctl::default();
    let mut st = Store::default();
    let on = value(&mut st, "on");
    let over = value(&mut st, "over");
    let zero = value(&mut st, "0");
    let up = value(&mut st, "^");
    let dud = value(&mut st, "dud");
    assert!(over.leq(&on, &ctl).unwrap());
    assert!(!on.leq(&over, &ctl).unwrap());
    assert!(zero.leq(&over, &ctl).unwrap());
    assert!(up.leq(&over, &ctl).unwrap());
    assert!(!over.leq(&up, &ctl).unwrap());
    assert!(!dud.leq(&zero, &ctl).unwrap() && !zero.leq(&dud, &ctl).unwrap());
}
