//! `senet solve` says how close its values are to the exact ones, proven, and its table
//! files keep that bound with their encoding's rounding added.

mod common;

use std::path::PathBuf;

use common::senet;

/// A fresh file path under the test's temporary directory.
fn temp_file(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("senet-cli-solve");
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

/// The proven bound a table file records (format version 3: an `f64` at offset 36).
fn recorded_bound(file: &[u8]) -> f64 {
    assert_eq!(&file[..8], b"SENETEGT");
    assert_eq!(u16::from_le_bytes([file[8], file[9]]), 3);
    f64::from_le_bytes(file[36..44].try_into().unwrap())
}

/// The figure after `within ` in `line`, as printed.
fn figure_after_within(line: &str) -> f64 {
    let rest = &line[line.find("within ").expect(line) + "within ".len()..];
    rest.split_whitespace().next().unwrap().parse().expect(line)
}

#[test]
fn solve_prints_the_proven_bound_and_the_file_keeps_it() {
    let mut bounds = Vec::new();
    for (flag, bytes_a_value) in [(None, 2), (Some("--wide"), 4), (Some("--full"), 8)] {
        let path = temp_file(&format!("regency-1-{bytes_a_value}.tables"));
        let path_text = path.to_str().unwrap();
        let mut args = vec!["solve", "--pieces", "1", "--out", path_text];
        args.extend(flag);
        let out = senet(&args).ok();
        let line = out
            .lines()
            .find(|l| l.starts_with("every value within"))
            .unwrap_or_else(|| panic!("{out}"));
        assert!(line.contains("of the exact one (proven)"), "{line}");
        // The default solve proves every value within 1e-10, shown rounded up.
        let shown = figure_after_within(line);
        assert!(shown > 0.0 && shown <= 1e-10, "{line}");
        let file = std::fs::read(&path).unwrap();
        assert_eq!(
            file.len(),
            54 + 7 + 2 + "regency-endgame-v1".len() + 756 * bytes_a_value + 8
        );
        let bound = recorded_bound(&file);
        bounds.push(bound);
        if bytes_a_value == 8 {
            // Nothing rounded: the file keeps the solve's bound, as printed.
            assert!(bound <= shown, "{bound:e} against {line}");
            assert!(!line.contains("as stored"), "{line}");
        } else {
            // The rounding of the encoding is added, and said.
            assert!(
                line.contains(&format!("as stored in {bytes_a_value} bytes")),
                "{line}"
            );
            assert!(bound > shown, "{bound:e} against {line}");
        }
    }
    // 2 bytes round by up to 7.6e-6, 4 by 1.2e-10, 8 not at all.
    assert!(bounds[0] > 7.6e-6 && bounds[0] < 7.7e-6, "{bounds:?}");
    assert!(bounds[1] > 1.1e-10 && bounds[1] < 2.2e-10, "{bounds:?}");
    assert!(bounds[2] <= 1e-10, "{bounds:?}");
    senet(&["solve", "--wide", "--full", "--out", "/tmp/x"]).refused("--full");
}
