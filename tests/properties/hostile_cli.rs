//! `pe` on hostile argument vectors, in-process.

use super::*;

/// The `pe` command line, compiled into this test so that it runs in-process
/// ([`cli::run_with`] with in-memory streams) rather than one process per case. `cli::run` (the
/// process's own streams) is the binary's and unused here.
#[allow(dead_code)]
#[path = "../../src/bin/pe/cli.rs"]
mod cli;

use std::ffi::OsString;

use clap::ArgAction;

/// A flag as clap declares it.
#[derive(Debug, Clone)]
struct PeFlag {
    name: String,
    /// clap's id, and the ids of the flags it cannot go with.
    id: String,
    conflicts: Vec<String>,
    takes_value: bool,
    required: bool,
    /// Takes a path (`value_name = "FILE"`).
    file: bool,
    /// Asks for the help or the version.
    meta: bool,
    /// The values of [`PE_PLAIN`] that parse as the flag's type.
    plain: Vec<&'static str>,
    choices: Vec<String>,
}

/// `pe`'s subcommands (clap's `help` included) with their flags, and the top level's flags,
/// read from clap so that new subcommands and flags are fuzzed too.
fn pe_commands() -> (Vec<(String, Vec<PeFlag>)>, Vec<PeFlag>) {
    let mut command = cli::command();
    command.build();
    let flags = |c: &clap::Command| -> Vec<PeFlag> {
        c.get_arguments()
            .filter(|a| !a.is_positional())
            .flat_map(|a| {
                let names = a.get_long().map(|l| format!("--{l}")).into_iter();
                let names = names.chain(a.get_short().map(|s| format!("-{s}")));
                names.map(|name| PeFlag {
                    name,
                    id: a.get_id().to_string(),
                    conflicts: c
                        .get_arg_conflicts_with(a)
                        .iter()
                        .map(|b| b.get_id().to_string())
                        .collect(),
                    takes_value: a.get_action().takes_values(),
                    required: a.is_required_set(),
                    file: a
                        .get_value_names()
                        .is_some_and(|names| names.iter().any(|n| n.as_str() == "FILE")),
                    meta: matches!(
                        a.get_action(),
                        ArgAction::Help
                            | ArgAction::HelpShort
                            | ArgAction::HelpLong
                            | ArgAction::Version
                    ),
                    plain: PE_PLAIN
                        .split_whitespace()
                        .filter(|v| pe_parses(a, v))
                        .collect(),
                    choices: a
                        .get_possible_values()
                        .iter()
                        .map(|v| v.get_name().to_string())
                        .collect(),
                })
            })
            .collect()
    };
    let subs = command
        .get_subcommands()
        .map(|s| (s.get_name().to_string(), flags(s)))
        .collect();
    (subs, flags(&command))
}

/// Whether `value` parses as the type of `arg`'s value (integers and reals; any text else).
fn pe_parses(arg: &clap::Arg, value: &str) -> bool {
    use std::any::TypeId;
    let id = arg.get_value_parser().type_id();
    if id == TypeId::of::<usize>() || id == TypeId::of::<u64>() {
        value.parse::<u64>().is_ok()
    } else if id == TypeId::of::<f64>() {
        value.parse::<f64>().is_ok()
    } else {
        true
    }
}

/// Small sizes and lists (space-separated): values that often pass, so that some runs get as far
/// as the JSON.
const PE_PLAIN: &str = "0 1 2 3 4 8 16 0.5 1e-3 1,2 1,2,3,4 0,5 0.5,1,2,3";

/// An argument that is not valid UTF-8.
fn not_utf8() -> OsString {
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStringExt;
        OsString::from_vec(b"4\xff\xfe".to_vec())
    }
    #[cfg(windows)]
    {
        use std::os::windows::ffi::OsStringExt;
        OsString::from_wide(&[0x34, 0xD800])
    }
    #[cfg(not(any(unix, windows)))]
    OsString::from("4\u{FFFD}")
}

/// [`pe_hostile`]'s kinds before this one are tame (no flags, no paths).
const PE_TAME: usize = 4;
/// The kind of [`pe_hostile`]'s values that are paths.
const PE_PATHS: usize = 5;

/// Hostile values, by kind: numbers out of every range or not numbers at all; text (empty,
/// unicode, control and bidi characters, not UTF-8); broken lists; very long values; flags and
/// subcommand names where a value goes; paths that do not exist or are not configs, a config,
/// and `-` (stdin for `--config`). Sizes that are valid but large (`1024` positions…) are left
/// out to keep every case fast.
fn pe_hostile(sub_names: &[String], config: &str) -> Vec<Vec<OsString>> {
    let words = |text: &str, more: &[&str]| -> Vec<OsString> {
        text.split_whitespace()
            .chain(more.iter().copied())
            .map(OsString::from)
            .collect()
    };
    let numbers = "-1 -0 +3 1e999 -1e999 1e-999 NaN nan -nan inf -inf +inf Infinity 0x10 1_000 \
        18446744073709551615 18446744073709551616 -9223372036854775809 1e6 1e9 1e100 1e101 \
        -1e100 340282366920938463463374607431768211456 1.7976931348623157e308 4.0 4.5";
    let text = [
        "",
        " ",
        "é",
        "🦀",
        "x\u{202e}y",
        "a\nb",
        "4\n",
        "\r",
        "\t",
        "\0",
        "\u{1b}[31mred",
        "\u{2028}",
        "\u{85}",
        "\u{FFFD}",
    ];
    let mut text = words("", &text);
    text.push(not_utf8());
    let long = [
        "9".repeat(400),
        "1,".repeat(20_000),
        "x".repeat(100_000),
        "é ".repeat(5_000),
    ];
    let mut tokens = words("- -- = --dim=4 -dim --DIM --help -h --version -V help", &[]);
    tokens.extend(sub_names.iter().map(OsString::from));
    let paths = [
        "-",
        "/nonexistent/dir/config.json",
        "/nonexistent/a\nb.json",
        "/",
        "/dev/null",
        "/dev/zero",
        "Cargo.toml",
        config,
    ];
    vec![
        words(numbers, &[" 4", "4 "]),
        text,
        words(
            "1,2,,x , ,,, 1;2 1,nan 1,inf -1,-2 1,1e999",
            &["1 2", " 1, 2 ", "1,\n2"],
        ),
        long.map(OsString::from).to_vec(),
        tokens,
        words("", &paths),
    ]
}

/// What `--config -` reads: nothing, a model config, broken or hostile JSON, not UTF-8, or an
/// endless stream (the reader stops at `MAX_CONFIG_BYTES`).
fn pe_stdin(choice: usize) -> Box<dyn std::io::Read> {
    const TEXTS: &[&[u8]] = &[
        b"",
        br#"{"hidden_size": 64, "num_attention_heads": 4, "rope_theta": 10000}"#,
        br#"{"rope_type": "yarn", "factor": 4}"#,
        br#"{"rope_type": "x\ny\u001b[0m"}"#,
        br#"{"rope_scaling": {"rope_type": "longrope", "short_factor": [1e999]}}"#,
        b"{",
        b"\xff\xfe",
        b"[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[",
    ];
    match TEXTS.get(choice) {
        Some(text) => Box::new(std::io::Cursor::new(*text)),
        None => Box::new(std::io::repeat(b' ')),
    }
}

/// A hostile value: a kind, then one of its values, or random text with any characters.
fn pe_hostile_value(kinds: &[Vec<OsString>]) -> BoxedStrategy<OsString> {
    let kinds: Vec<_> = kinds
        .iter()
        .map(|kind| (1, prop::sample::select(kind.clone()).boxed()))
        .chain([(1, "(?s).{0,12}".prop_map(OsString::from).boxed())])
        .collect();
    prop::strategy::Union::new_weighted(kinds).boxed()
}

/// How hostile a value is: plain (one of the flag's choices, a small size or list that parses
/// as its type, a path for a path), tame (or a hostile number, list, long or odd text: what
/// gets past clap to `pe`'s own checks) or wild (or a flag, a subcommand name or a path).
#[derive(Debug, Clone, Copy, PartialEq)]
enum PeMix {
    Plain,
    Tame,
    Wild,
}

/// A value for `flag` of that mix (for a path: one of the paths, a config and `-` among them);
/// a sixth of the hostile ones with a line break, an escape or a bidi control at one end.
fn pe_value(flag: &PeFlag, hostile: &[Vec<OsString>], mix: PeMix) -> BoxedStrategy<OsString> {
    let plain = if flag.file {
        prop::sample::select(hostile[PE_PATHS].clone()).boxed()
    } else {
        prop::sample::select(flag.plain.clone())
            .prop_map(OsString::from)
            .boxed()
    };
    let mut values = vec![(2, plain)];
    if !flag.choices.is_empty() {
        let choices = prop::sample::select(flag.choices.clone());
        values.push((2, choices.prop_map(OsString::from).boxed()));
    }
    if mix == PeMix::Plain {
        return prop::strategy::Union::new_weighted(values).boxed();
    }
    let kinds = if mix == PeMix::Wild {
        hostile
    } else {
        &hostile[..PE_TAME]
    };
    values.push((3, pe_hostile_value(kinds)));
    const BREAKS: &[&str] = &["\n", "\r", "\u{1b}", "\u{2028}", "\u{85}", "\u{202e}"];
    let around = prop::option::weighted(1.0 / 6.0, (prop::sample::select(BREAKS), any::<bool>()));
    (prop::strategy::Union::new_weighted(values), around)
        .prop_map(|(value, around)| match around {
            None => value,
            Some((c, true)) => {
                let mut v = value;
                v.push(c);
                v
            }
            Some((c, false)) => {
                let mut v = OsString::from(c);
                v.push(value);
                v
            }
        })
        .boxed()
}

/// One of `flags` and its value as two tokens or as `--flag=value` (a switch alone); wild, also
/// a flag without its value or a switch with one.
fn pe_flag(
    flags: Vec<PeFlag>,
    hostile: Vec<Vec<OsString>>,
    mix: PeMix,
) -> BoxedStrategy<Vec<OsString>> {
    prop::sample::select(flags)
        .prop_flat_map(move |f| {
            let forms = if mix == PeMix::Wild { 0..4u8 } else { 1..4u8 };
            (pe_value(&f, &hostile, mix), forms).prop_map(move |(value, form)| match form {
                1 if f.takes_value || mix == PeMix::Wild => {
                    let mut joined = OsString::from(format!("{}=", f.name));
                    joined.push(&value);
                    vec![joined]
                }
                2 | 3 if f.takes_value => vec![OsString::from(&f.name), value],
                _ => vec![OsString::from(&f.name)],
            })
        })
        .boxed()
}

/// Tame argument vectors: a subcommand with flags (not clap's `help`), its required flags and
/// some of its others (not `--help`, none that conflict), each once, with plain values but for
/// one tame value — so that many get past clap to `pe`'s own checks, and some through them to
/// the JSON.
fn pe_tame(
    subs: &[(String, Vec<PeFlag>)],
    hostile: &[Vec<OsString>],
) -> BoxedStrategy<Vec<OsString>> {
    let subs = subs
        .iter()
        .filter(|(_, flags)| flags.iter().any(|f| !f.meta));
    let cases = subs.map(|(name, flags)| {
        let flags: Vec<PeFlag> = flags.iter().filter(|f| !f.meta).cloned().collect();
        let slots: Vec<_> = flags
            .iter()
            .map(|f| {
                let include = if f.required {
                    Just(true).boxed()
                } else {
                    prop::bool::weighted(0.3).boxed()
                };
                let one = || vec![f.clone()];
                let plain = pe_flag(one(), hostile.to_vec(), PeMix::Plain);
                (
                    include,
                    plain,
                    pe_flag(one(), hostile.to_vec(), PeMix::Tame),
                )
            })
            .collect();
        let name = OsString::from(name);
        (slots, any::<prop::sample::Index>())
            .prop_map(move |(slots, at)| {
                let mut chosen: Vec<(&PeFlag, _, _)> = Vec::new();
                for (f, (include, plain, tame)) in flags.iter().zip(slots) {
                    let clash =
                        |g: &PeFlag| g.conflicts.contains(&f.id) || f.conflicts.contains(&g.id);
                    if include && !chosen.iter().any(|(g, ..)| clash(g)) {
                        chosen.push((f, plain, tame));
                    }
                }
                let tame = (!chosen.is_empty()).then(|| at.index(chosen.len()));
                let mut argv = vec![OsString::from("pe"), name.clone()];
                for (k, (_, plain, tame_value)) in chosen.into_iter().enumerate() {
                    argv.extend(if Some(k) == tame { tame_value } else { plain });
                }
                argv
            })
            .boxed()
    });
    prop::strategy::Union::new(cases).boxed()
}

/// Wild argument vectors: a subcommand (or none, or a hostile token), maybe its required flags,
/// then its flags and other subcommands' with wild values or none, and loose values; maybe one
/// token dropped.
fn pe_wild(
    subs: &[(String, Vec<PeFlag>)],
    top: &[PeFlag],
    hostile: &[Vec<OsString>],
) -> BoxedStrategy<Vec<OsString>> {
    let every_flag: Vec<PeFlag> = subs.iter().flat_map(|(_, f)| f.clone()).collect();
    let token = pe_hostile_value(hostile).prop_map(|t| vec![t]);
    let heads = subs
        .iter()
        .map(|(name, flags)| (Just(vec![OsString::from(name)]).boxed(), flags.clone()))
        .chain([
            (Just(Vec::new()).boxed(), top.to_vec()),
            (token.clone().boxed(), top.to_vec()),
        ]);
    let cases = heads.map(|(head, flags)| {
        let required: Vec<_> = flags
            .iter()
            .filter(|f| f.required && f.takes_value)
            .map(|f| {
                let name = OsString::from(&f.name);
                pe_value(f, hostile, PeMix::Wild).prop_map(move |v| vec![name.clone(), v])
            })
            .collect();
        let own = if flags.is_empty() {
            top.to_vec()
        } else {
            flags
        };
        let piece = prop_oneof![
            4 => pe_flag(own, hostile.to_vec(), PeMix::Wild),
            1 => pe_flag(every_flag.clone(), hostile.to_vec(), PeMix::Wild),
            1 => token.clone(),
        ];
        let drop = prop::option::weighted(0.2, any::<prop::sample::Index>());
        (
            head,
            any::<bool>(),
            required,
            prop::collection::vec(piece, 0..5),
            drop,
        )
            .prop_map(|(head, with_required, required, pieces, drop)| {
                let mut argv = vec![OsString::from("pe")];
                argv.extend(head);
                if with_required {
                    argv.extend(required.into_iter().flatten());
                }
                argv.extend(pieces.into_iter().flatten());
                if let Some(at) = drop.filter(|_| argv.len() > 1) {
                    argv.remove(1 + at.index(argv.len() - 1));
                }
                argv
            })
            .boxed()
    });
    prop::strategy::Union::new(cases).boxed()
}

/// Random argument vectors for `pe`, half tame and half wild, and which stdin `--config -`
/// reads.
fn pe_argv() -> impl Strategy<Value = (Vec<OsString>, usize)> {
    let (subs, top) = pe_commands();
    let names: Vec<String> = subs.iter().map(|(name, _)| name.clone()).collect();
    let config = format!("{}/pe-fuzz-config.json", env!("CARGO_TARGET_TMPDIR"));
    std::fs::write(&config, r#"{"head_dim": 8, "rope_theta": 500000}"#).expect("write config");
    let hostile = pe_hostile(&names, &config);
    let out_dir = format!("{}/pe-render-out", env!("CARGO_TARGET_TMPDIR"));
    std::fs::create_dir_all(&out_dir).expect("output folder");
    let argv = prop_oneof![pe_tame(&subs, &hostile), pe_wild(&subs, &top, &hostile)]
        .prop_map(move |argv| confine_out(argv, &out_dir));
    (argv, 0..9usize)
}

/// `argv` with the value of every `--out` (the file `pe render` writes) replaced by a path in
/// `dir`, so fuzzing writes nowhere else: a file there, or one in a folder that does not exist
/// (the write fails), chosen by the argument count.
fn confine_out(mut argv: Vec<OsString>, dir: &str) -> Vec<OsString> {
    let path = if argv.len().is_multiple_of(2) {
        format!("{dir}/figure")
    } else {
        format!("{dir}/missing/figure")
    };
    for k in 0..argv.len() {
        if argv[k] == "--out" {
            if let Some(v) = argv.get_mut(k + 1) {
                *v = OsString::from(&path);
            }
        } else if argv[k].to_string_lossy().starts_with("--out=") {
            argv[k] = OsString::from(format!("--out={path}"));
        }
    }
    argv
}

/// The characters that break a line, drive a terminal or reorder text: none may be in an
/// error's line.
fn breaks_line(c: char) -> bool {
    let bidi = matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}');
    c.is_control() || bidi || c == '\u{2028}' || c == '\u{2029}'
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 5000,
        rng_seed: prop::test_runner::RngSeed::Fixed(13),
        ..ProptestConfig::default()
    })]

    /// Whatever the arguments (and stdin for `--config -`): no panic; exit 0 with one JSON
    /// document on stdout (or the help or the version) and nothing on stderr, or exit 2 with
    /// nothing on stdout and one line on stderr starting `pe: `, free of control characters.
    #[test]
    fn pe_never_panics_and_errors_are_one_line((argv, stdin) in pe_argv()) {
        let (mut out, mut err) = (Vec::new(), Vec::new());
        let mut input = pe_stdin(stdin);
        let run = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            cli::run_with(argv.clone(), &mut *input, &mut out, &mut err)
        }));
        let Ok(status) = run else {
            return Err(TestCaseError::fail(format!("pe panicked on {argv:?}")));
        };
        let out = String::from_utf8(out).expect("stdout is UTF-8");
        let err = String::from_utf8(err).expect("stderr is UTF-8");
        match status {
            0 => {
                prop_assert!(err.is_empty(), "{argv:?}: {err}");
                if serde_json::from_str::<Value>(&out).is_ok() {
                    prop_assert_eq!(out.lines().count(), 1, "{:?}", argv);
                } else {
                    let version = format!("pe {}\n", env!("CARGO_PKG_VERSION"));
                    let help = out.starts_with("Usage: pe") || out.contains("\nUsage: pe");
                    prop_assert!(help || out == version, "{argv:?}: neither JSON nor help: {out}");
                }
            }
            2 => {
                prop_assert!(out.is_empty(), "{argv:?}: {out}");
                prop_assert!(err.starts_with("pe: "), "{argv:?}: {err}");
                let line = err.strip_suffix('\n');
                prop_assert!(line.is_some_and(|l| !l.contains(breaks_line)), "{argv:?}: {err:?}");
            }
            other => prop_assert!(false, "{argv:?}: exit {other}: {err}"),
        }
    }
}
