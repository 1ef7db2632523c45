//! The `pe` run: parse (clap), check and compute (`commands`), print one JSON object. Every
//! failure is one line on stderr and exit status 2; `--help` and `--version` exit 0.

use std::ffi::OsString;
use std::io::Write;

use clap::error::ErrorKind;
use clap::{CommandFactory, Parser};

use crate::args::Cli;
use crate::commands::execute;

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

/// The message for a missing subcommand: the ones there are.
fn missing_subcommand() -> String {
    let names: Vec<String> = Cli::command()
        .get_subcommands()
        .map(|c| c.get_name().to_string())
        .collect();
    format!(
        "a subcommand is required: one of {} (see pe --help)",
        names.join(", ")
    )
}

/// Runs the CLI on `args`; returns the exit status (0 ok, 2 bad input, 1 could not write).
pub fn run(args: impl IntoIterator<Item = OsString>) -> i32 {
    let cli = match Cli::try_parse_from(args) {
        Ok(cli) => cli,
        Err(e) => {
            return match e.kind() {
                ErrorKind::DisplayHelp | ErrorKind::DisplayVersion => {
                    let _ = e.print();
                    0
                }
                ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => {
                    eprintln!("pe: {}", missing_subcommand());
                    2
                }
                _ => {
                    eprintln!("pe: {}", one_line(&e));
                    2
                }
            };
        }
    };
    match execute(cli.command) {
        Ok(value) => {
            let mut out = std::io::stdout().lock();
            let written = serde_json::to_writer(&mut out, &value)
                .map_err(std::io::Error::from)
                .and_then(|()| writeln!(out));
            match written {
                Ok(()) => 0,
                Err(e) => {
                    eprintln!("pe: could not write the output: {e}");
                    1
                }
            }
        }
        Err(message) => {
            eprintln!("pe: {message}");
            2
        }
    }
}
