//! The HTML forms notebooks show: parsed as XML and read back cell by cell against the
//! value's JSON form.
use gamut::lang::run::eval::Interp;
use gamut::lang::run::value::Value;
use std::cell::RefCell;
use std::rc::Rc;

/// The values `src` prints.
fn shown(src: &str) -> Vec<Value> {
    let out = Rc::new(RefCell::new(vec![]));
    let sink = out.clone();
    let mut it = Interp::new(Box::new(move |_, v| sink.borrow_mut().push(v.clone())));
    it.run_source("<test>", src).unwrap();
    out.take()
}

/// The rows of an HTML table: each row's cells (header cells and data cells) as text.
fn rows(html: &str) -> Vec<Vec<String>> {
    let doc = roxmltree::Document::parse(html).unwrap();
    doc.descendants()
        .filter(|n| n.has_tag_name("tr"))
        .map(|tr| {
            tr.children()
                .filter(|c| c.has_tag_name("th") || c.has_tag_name("td"))
                .map(|c| c.text().unwrap_or("").to_string())
                .collect()
        })
        .collect()
}

#[test]
fn a_record_is_a_row_per_field() {
    let v = &shown("diameter(slide3_easy)")[0];
    let json = v.to_json();
    let got = rows(&v.to_html().unwrap());
    let fields = json.as_object().unwrap();
    assert_eq!(got.len(), fields.len());
    for (row, (k, val)) in got.iter().zip(fields) {
        assert_eq!(row[0], *k);
        let want = match val {
            serde_json::Value::Number(n) => n.to_string(),
            v => v
                .as_array()
                .unwrap()
                .iter()
                .map(|x| x.to_string())
                .collect::<Vec<_>>()
                .join(", "),
        };
        assert_eq!(row[1].replace('_', "").trim_matches(['[', ']']), want);
    }
}

#[test]
fn a_list_of_records_is_a_row_per_record() {
    let v = &shown("[diameter(g) for g in [slide2, slide3_easy, slide4_easy]]")[0];
    let json = v.to_json();
    let got = rows(&v.to_html().unwrap());
    assert_eq!(got[0], ["diameter", "size", "distribution"]);
    assert_eq!(got.len(), 4);
    for (row, rec) in got[1..].iter().zip(json.as_array().unwrap()) {
        assert_eq!(row[0], rec["diameter"].to_string());
        assert_eq!(row[1].replace('_', ""), rec["size"].to_string());
    }
    // records with other fields, and plain lists, have no table
    let mixed = &shown("[diameter(slide2), period(kayles)]")[0];
    assert!(mixed.to_html().is_none());
    assert!(shown("[1, 2, 3]")[0].to_html().is_none());
}

#[test]
fn a_list_of_lists_is_a_grid_unless_huge() {
    let v = &shown("walks(slide2, 2).matrix")[0];
    let json = v.to_json();
    let got = rows(&v.to_html().unwrap());
    let want: Vec<Vec<String>> = json
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            r.as_array()
                .unwrap()
                .iter()
                .map(|x| x.to_string())
                .collect()
        })
        .collect();
    assert_eq!(got, want);
    // 200 x 200 cells: text only
    assert!(
        shown("[[i * j for j in 1..200] for i in 1..200]")[0]
            .to_html()
            .is_none()
    );
}

#[test]
fn cells_are_escaped() {
    let v = &shown("[[\"<b>&\", 1]]")[0];
    let html = v.to_html().unwrap();
    assert!(html.contains("<td>&lt;b&gt;&amp;</td>"), "{html}");
    assert_eq!(rows(&html), [["<b>&", "1"]]);
}
