//! The `pe` run: parse (clap), check and compute (`commands`), print one JSON object. Every
//! failure is one line on stderr and exit status 2; `--help` and `--version` exit 0.
//!
//! This module is the root of the CLI: the others are its children, named by `#[path]` so that a
//! test can take the whole CLI in with one `#[path = ".../cli.rs"] mod cli;` and call
//! [`run_with`] in-process (a binary's modules are not visible to integration tests).

#[path = "args.rs"]
mod args;
#[path = "check.rs"]
mod check;
#[path = "commands.rs"]
mod commands;
#[path = "render.rs"]
mod render;
#[path = "rope_freqs.rs"]
mod rope_freqs;

use std::ffi::OsString;
use std::io::{Read, Write};

use clap::error::ErrorKind;
use clap::{CommandFactory, Parser};

use args::Cli;
use commands::execute;

/// The clap command of `pe`: its subcommands and their flags.
pub fn command() -> clap::Command {
    Cli::command()
}

/// Clap's multi-line error as one line: its message, the lines that complete it (the missing
/// arguments, the possible values, a tip), without the usage block.
fn one_line(e: &clap::Error) -> String {
    let text = e.render().to_string();
    let parts: Vec<&str> = text
        .lines()
        .map(str::trim)
        .take_while(|l| !l.starts_with("Usage:") && !l.starts_with("For more information"))
        .filter(|l| !l.is_empty())
        .collect();
    let line = parts.join(" ");
    let line = line.trim_start_matches("error: ");
    if line.is_empty() {
        "bad arguments (see pe --help)".to_string()
    } else {
        line.to_string()
    }
}

/// `message` as one line that cannot drive a terminal: control characters (line breaks,
/// escapes), line and paragraph separators and bidi controls — which a value, a file name or a
/// config's string can carry into a message — as escapes (`\n`, `\u{1b}`, `\u{202e}`).
fn printable(message: &str) -> String {
    let mut line = String::with_capacity(message.len());
    for c in message.chars() {
        let bidi = matches!(
            c,
            '\u{061c}' | '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}'
        );
        if c.is_control() || bidi || matches!(c, '\u{2028}' | '\u{2029}') {
            line.extend(c.escape_default());
        } else {
            line.push(c);
        }
    }
    line
}

/// The message for a missing subcommand: the ones there are.
fn missing_subcommand() -> String {
    let names: Vec<String> = command()
        .get_subcommands()
        .map(|c| c.get_name().to_string())
        .collect();
    format!(
        "a subcommand is required: one of {} (see pe --help)",
        names.join(", ")
    )
}

/// Writes `value` as one line of JSON.
fn write_json(out: &mut dyn Write, value: &serde_json::Value) -> std::io::Result<()> {
    serde_json::to_writer(&mut *out, value)?;
    writeln!(out)
}

/// Runs the CLI on `args` with the process's stdin, stdout and stderr; returns the exit status.
pub fn run(args: impl IntoIterator<Item = OsString>) -> i32 {
    run_with(
        args,
        &mut std::io::stdin(),
        &mut std::io::stdout().lock(),
        &mut std::io::stderr().lock(),
    )
}

/// Runs the CLI on `args` (the first is the program name) with `stdin` for `--config -`;
/// writes the JSON (or the help) to `out` and an error's one line to `err`. Returns the exit
/// status: 0 ok, 2 bad input, 1 could not write to `out`.
pub fn run_with<T: Into<OsString> + Clone>(
    args: impl IntoIterator<Item = T>,
    stdin: &mut dyn Read,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> i32 {
    let result = match Cli::try_parse_from(args) {
        Ok(cli) => execute(cli.command, stdin).map(|value| write_json(out, &value)),
        Err(e) => match e.kind() {
            ErrorKind::DisplayHelp | ErrorKind::DisplayVersion => Ok(write!(out, "{}", e.render())),
            ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => Err(missing_subcommand()),
            _ => Err(one_line(&e)),
        },
    };
    let (status, message) = match result {
        Ok(Ok(())) => match out.flush() {
            Ok(()) => return 0,
            Err(e) => (1, format!("could not write the output: {e}")),
        },
        Ok(Err(e)) => (1, format!("could not write the output: {e}")),
        Err(message) => (2, message),
    };
    let _ = writeln!(err, "pe: {}", printable(&message));
    status
}
