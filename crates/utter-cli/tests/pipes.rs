//! A closed standard output ends `utter` as it ends Unix tools: no panic,
//! no backtrace, no error message, the status a shell gives SIGPIPE.

use std::process::{Command, Stdio};

#[test]
fn a_closed_stdout_ends_every_command_quietly() {
    let agent = concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples/card-agent");
    let fee = "utter_card_replacement_fee";
    let commands: &[&[&str]] = &[
        &["check", agent, "--format", "json"],
        &["check", agent, "--format", "sarif"],
        &["check", agent, "--format", "github"],
        &["check", agent],
        &["explain", agent, fee],
        &["explain", agent, fee, "--format", "json"],
        &["render", agent, fee, "--skill", "card_replace"],
        &["expand", agent],
        &["snapshot", agent, "--check"],
        &["snapshot", agent, "--check", "--format", "json"],
        &["diff", agent, agent, "--format", "json"],
        &["completions", "bash"],
    ];
    for args in commands {
        // The reader is gone before utter starts (closed after the spawn,
        // a short output could reach the pipe first on a loaded machine).
        let (reader, writer) = std::io::pipe().expect("a pipe");
        drop(reader);
        let out = Command::new(env!("CARGO_BIN_EXE_utter"))
            .args(*args)
            .stdout(writer)
            .stderr(Stdio::piped())
            .output()
            .expect("utter runs");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            !stderr.contains("panicked") && !stderr.contains("Broken pipe"),
            "{args:?}: {stderr}"
        );
        // Every one of them writes, into a pipe already closed.
        assert_eq!(out.status.code(), Some(141), "{args:?}: {stderr}");
    }
}
