//! Run gamut source in-process and collect the printed values as JSON.
use gamut::lang::eval::Interp;
use std::cell::RefCell;
use std::rc::Rc;

#[allow(dead_code)]
pub fn values(src: &str) -> Vec<serde_json::Value> {
    let out = Rc::new(RefCell::new(vec![]));
    let sink = out.clone();
    let mut it = Interp::new(Box::new(move |_, v| sink.borrow_mut().push(v.to_json())));
    if let Err(e) = it.run_source("<test>", src) {
        panic!("{}: {:?}", e.message, e.hint);
    }
    out.take()
}

/// The value of one expression.
#[allow(dead_code)]
pub fn value(src: &str) -> serde_json::Value {
    let mut v = values(src);
    assert_eq!(v.len(), 1, "expected one value from {src}");
    v.remove(0)
}
