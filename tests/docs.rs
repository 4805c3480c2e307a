//! The reference works as written: every `game` snippet of docs/language.md is followed by a
//! `text` block and prints exactly that text. A snippet that must not run in the tests (it takes
//! minutes, say) is fenced as ```` ```game not-run: REASON ````.
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
    for (i, (line, kind, code)) in blocks.iter().enumerate() {
        if let Some(reason) = kind.strip_prefix("game not-run:") {
            assert!(
                !reason.trim().is_empty(),
                "line {line}: say why it is not run"
            );
            continue;
        }
        if !kind.starts_with("game") {
            continue;
        }
        assert_eq!(kind, "game", "line {line}: unknown fence");
        match blocks.get(i + 1) {
            Some((_, next, text)) if next == "text" => {
                out.push((*line, code.clone(), text.clone()))
            }
            _ => panic!("docs/language.md line {line}: a `game` block without its `text` output"),
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
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    for (line, code, expected) in cases {
        let out = gamut()
            .current_dir(dir)
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
