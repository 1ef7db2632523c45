//! Bad input exits 2 with one line on stderr; `--help` documents ranges and exits 0.

use super::*;

#[test]
fn bad_input_exits_2_with_one_line() {
    // Each a command line, split at spaces.
    for line in [
        "sinusoidal --positions 0 --dim 4",
        "sinusoidal --positions 4 --dim 4 --base inf",
        "sinusoidal --positions 4 --dim 4 --layout diagonal",
        "rope-freqs --dim 7",
        "rope-freqs --dim 8 --factor 0.5",
        "rope-freqs --dim 8 --beta-fast 1 --beta-slow 2",
        "rope-apply --dim 4 --layout half --positions 0 --q 1,2,3 --k 1,2,3,4",
        "rope-apply --dim 2 --layout half --positions x --q 1,2 --k 1,2",
        "rope-apply --dim 4 --layout half --rotary-dim 3 --positions 0 --q 1,2,3,4 --k 1,2,3,4",
        "rope-apply --dim 4 --layout half --rotary-dim 6 --positions 0 --q 1,2,3,4 --k 1,2,3,4",
        "rope-apply --dim 4 --layout interleaved --rotary-dim 0 --positions 0 --q 1,2,3,4 --k 1,2,3,4",
        "rope-apply --dim 4 --layout half --rotary-dim -2 --positions 0 --q 1,2,3,4 --k 1,2,3,4",
        "rope-permute --dim 7",
        "rope-permute",
        "rope-permute --dim 4 --q 1,2,3",
        "rope-permute --dim 4 --k 1,2,x,4",
        "rope-permute --dim 4 --positions -1",
        "rope-permute --dim 4 --base 1",
        "alibi --heads 1025",
        "alibi --heads 0",
        "alibi --heads 4 --len 8 --query 8",
        "t5-buckets --num-buckets 32",
        "nope --len 0",
        "nope --len 4097",
        "nope --len 4 --dim 1",
        "nope --len 4 --seed -1",
        "learned --max-len 4 --dim 4",
        "learned --max-len 4 --dim 4 --seed -1",
        "rope-freqs --dim 8 --factor nan",
        "rope-freqs --dim 8 --scaling yarn --beta-fast inf",
        "decay --dim 8 --base NaN",
        "rope-apply --dim 2 --layout half --positions 0 --q 1e200,1 --k 1,1",
        "similarity --method rope --positions 4 --dim 5",
        "shift --dim 4 --k -inf",
        "sine-collision --pos 2 --eps 0",
        "sinusoidal --positions 4",
        "nope",
        "no-such-command",
    ] {
        let args: Vec<&str> = line.split_whitespace().collect();
        assert_one_line_error(&pe(&args), line, &[]);
    }
    // An argument with spaces, and no arguments at all.
    for args in [
        vec![
            "attention",
            "--sentence",
            "a b c d e f g h i j k l m n o p q",
        ],
        vec![],
    ] {
        assert_one_line_error(&pe(&args), &format!("{args:?}"), &[]);
    }
    // t5-buckets: sizes out of range, and a max distance not above max_exact.
    for (buckets, distance, more) in [
        ("3", "128", &[][..]),
        ("257", "128", &[]),
        ("32", "65537", &[]),
        ("32", "1", &[]),
        ("32", "8", &[]),
        ("32", "16", &["--causal"]),
        ("32", "128", &["--len", "0"]),
        ("32", "128", &["--len", "1025"]),
    ] {
        let mut args = vec![
            "t5-buckets",
            "--num-buckets",
            buckets,
            "--max-distance",
            distance,
        ];
        args.extend(more);
        assert_one_line_error(&pe(&args), &format!("{args:?}"), &[]);
    }
}

#[test]
fn one_line_errors_keep_the_detail() {
    let out = pe(&[
        "sinusoidal",
        "--positions",
        "4",
        "--dim",
        "4",
        "--layout",
        "x",
    ]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("interleaved") && err.contains("half"), "{err}");
    let out = pe(&["sinusoidal", "--dim", "4"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("--positions"), "{err}");
}

/// A value, a file name or a config's string with a line break, an escape or a bidi control
/// stays on the error's one line, escaped.
#[test]
fn errors_escape_control_characters() {
    let out = pe(&[
        "rope-freqs",
        "--config",
        "/nonexistent/a\nb\u{1b}[31m\u{202e}.json",
    ]);
    assert_one_line_error(
        &out,
        "a path",
        &["/nonexistent/a\\nb\\u{1b}[31m\\u{202e}.json: "],
    );
    let out = pe_with_stdin(&["rope-freqs", "--config", "-"], r#"{"rope_type": "x\ny"}"#);
    assert_one_line_error(&out, "a config string", &["'x\\ny'"]);
    let out = pe(&["sinusoidal", "--positions", "\r", "--dim", "4"]);
    assert_one_line_error(&out, "a value", &["'\\r'"]);
    let out = pe(&["rope-permute", "--dim", "2", "--q", "1,\u{7}2"]);
    assert_one_line_error(&out, "a list entry", &["“\\u{7}2”"]);
}

/// `lo..=hi` as the help prints it (exponent form for long numbers).
fn range(lo: f64, hi: f64) -> String {
    let n = |v: f64| {
        if v != 0.0 && !(1e-2..1e5).contains(&v.abs()) {
            format!("{v:e}")
        } else {
            format!("{v}")
        }
    };
    format!("{}..={}", n(lo), n(hi))
}

#[test]
fn help_documents_ranges_and_defaults_and_exits_0() {
    let help = |args: &[&str]| {
        let out = pe(args);
        assert_eq!(out.status.code(), Some(0), "{args:?}");
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    let text = help(&["sinusoidal", "--help"]);
    let (p, d) = (limits::POSITIONS, limits::DIM);
    for want in [
        format!("{}..={}", p.0, p.1),
        format!("{}..={}", d.0, d.1),
        range(limits::BASE.0, limits::BASE.1),
        "[default: 10000]".to_string(),
        "[default: interleaved]".to_string(),
    ] {
        assert!(text.contains(&want), "{want} in {text}");
    }
    let text = help(&["rope-freqs", "--help"]);
    for want in [
        range(limits::FACTOR.0, limits::FACTOR.1),
        range(limits::RAMP.0, limits::RAMP.1),
        "[default: 32]".to_string(),
        "[default: 4]".to_string(),
    ] {
        assert!(text.contains(&want), "{want} in {text}");
    }
    let text = help(&["alibi", "--help"]);
    assert!(text.contains(&format!("{}..={}", limits::HEADS.0, limits::HEADS.1)));
    assert!(text.contains("1..=1024"), "{text}");
    let text = help(&["t5-buckets", "--help"]);
    for (lo, hi) in [limits::T5_BUCKETS, limits::T5_MAX_DISTANCE, limits::T5_LEN] {
        assert!(text.contains(&format!("{lo}..={hi}")), "{text}");
    }
    let text = help(&["nope", "--help"]);
    assert!(text.contains(&format!("{}..={}", limits::NOPE_LEN.0, limits::NOPE_LEN.1)));
    assert!(text.contains("[default: 256]"), "{text}");
    let text = help(&["rope-apply", "--help"]);
    assert!(
        text.contains("--rotary-dim") && text.contains("2..=--dim"),
        "{text}"
    );
    let text = help(&["rope-permute", "--help"]);
    assert!(text.contains("[default: 0,5]"), "{text}");
    for sub in [
        "rope-apply",
        "rope-permute",
        "decay",
        "similarity",
        "learned",
        "shift",
        "attention",
        "sine-collision",
        "t5-buckets",
        "nope",
    ] {
        assert!(help(&[sub, "--help"]).contains("..="), "{sub} names ranges");
    }
    assert!(help(&["--help"]).contains("sinusoidal"));
    assert!(help(&["--version"]).contains("pe"));
}
