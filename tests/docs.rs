//! The reference works as written: every `game` snippet of docs/language.md that is followed
//! by a `text` block prints exactly that text.
mod common;
use common::gamut;

/// (line, code, expected output) of each snippet with its output.
fn snippets(doc: &str) -> Vec<(usize, String, String)> {
    let mut blocks = vec![];
    let mut lines = doc.lines().enumerate();
    while let Some((i, l)) = lines.next() {
        if let Some(kind) = l.strip_prefix("```") {
            let body: Vec<&str> = lines
                .by_ref()
                .map(|(_, l)| l)
                .take_while(|l| !l.starts_with("```"))
                .collect();
            blocks.push((i + 1, kind.to_string(), body.join("\n")));
        }
    }
    let mut out = vec![];
    for w in blocks.windows(2) {
        let (line, kind, code) = &w[0];
        if kind == "game" && w[1].1 == "text" {
            out.push((*line, code.clone(), w[1].2.clone()));
        }
    }
    out
}

#[test]
fn every_snippet_of_the_language_reference_prints_what_it_shows() {
    let doc = std::fs::read_to_string("docs/language.md").unwrap();
    let cases = snippets(&doc);
    assert!(cases.len() >= 20, "found only {} snippets", cases.len());
    // snippets that export files write them in a scratch folder
    let dir = std::env::temp_dir().join(format!("gamut-docs-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for (line, code, expected) in cases {
        let out = gamut()
            .current_dir(&dir)
            .args(["run", "-"])
            .write_stdin(code)
            .output()
            .unwrap();
        let got = String::from_utf8_lossy(&out.stdout);
        assert_eq!(
            got.trim_end(),
            expected.trim_end(),
            "docs/language.md line {line}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
}
