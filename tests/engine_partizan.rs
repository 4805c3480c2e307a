//! The partizan-game engine: canonical forms, CGSuite notation, thermography, rulesets.
use gamut::engine::partizan::{Dyadic, Game, Outcome, Relation, Store};

fn p(s: &mut Store, t: &str) -> Game {
    s.parse(t).unwrap_or_else(|e| panic!("{t}: {e}"))
}

fn show(s: &mut Store, g: Game) -> String {
    s.show(g).unwrap()
}

#[test]
fn prints_known_forms() {
    let mut s = Store::default();
    for (input, want) in [
        ("{|}", "0"),
        ("{0|}", "1"),
        ("{|0}", "-1"),
        ("{0|1}", "1/2"),
        ("{-1|-1/2}", "-3/4"),
        ("{0|0}", "*"),
        ("{0,*|0,*}", "*2"),
        ("{0,*,*2|0,*,*2}", "*3"),
        ("{0|*}", "^"),
        ("{*|0}", "v"),
        ("{0,*|0}", "^*"),
        ("{0|0,*}", "v*"),
        ("{0|^*}", "^^"),
        ("{0|^}", "^^*"),
        ("{1|-1}", "±1"),
        ("{1/2|-1/2}", "±1/2"),
        ("{1|*}", "{1|*}"),
        ("{2|1/2||-1}", "{2|1/2||-1}"),
        ("{1|1}", "1*"),
        ("{1|1*}", "1^"),
        ("{3|1}", "{3|1}"),
        ("{0||0|-2}", "2.Tiny"),
        ("{2|0||0}", "2.Miny"),
        ("{1||1|-1}", "1+2.Tiny"),
    ] {
        let g = p(&mut s, input);
        assert_eq!(show(&mut s, g), want, "{input}");
        let back = p(&mut s, want);
        assert_eq!(back, g, "round trip of {want}");
    }
}

#[test]
fn small_identities() {
    let mut s = Store::default();
    let half = p(&mut s, "1/2");
    let one = p(&mut s, "1");
    assert_eq!(s.add(half, half).unwrap(), one);
    let star = p(&mut s, "*");
    assert_eq!(s.add(star, star).unwrap(), s.zero());
    let up = p(&mut s, "^");
    assert_eq!(s.compare(up, s.zero()).unwrap(), Relation::Greater);
    assert_eq!(s.compare(up, star).unwrap(), Relation::Fuzzy);
    let upup = s.add(up, up).unwrap();
    let uus = s.add(upup, star).unwrap();
    assert_eq!(show(&mut s, uus), "^^*");
    assert_eq!(s.outcome(uus).unwrap(), Outcome::L);
    let _ = Dyadic::ZERO;
}
