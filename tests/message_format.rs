//! The MESSAGE search line is read by tools that know Rapfi's formats: checked here with
//! pygomo-lib's own parser (PyPI; installed by scripts/pygomo.sh into the git-ignored .pytools/),
//! on the lines of a real game.
mod common;

use common::Brain;
use std::process::Command;

/// pygomo-lib's folder, or None (with the reason) when it cannot be installed here.
fn pygomo() -> Result<String, String> {
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/scripts/pygomo.sh");
    let out = Command::new("bash")
        .arg(script)
        .output()
        .map_err(|e| format!("cannot run {script}: {e}"))?;
    if !out.status.success() {
        return Err(String::from_utf8_lossy(&out.stderr).into_owned());
    }
    Ok(String::from_utf8_lossy(&out.stdout).trim().to_string())
}

/// Parses each line with pygomo-lib; prints `depth sel_depth eval nodes time pv...` per line.
const PARSE: &str = r#"
import sys
from pygomo.protocol.gomocup import GomocupProtocol
p = GomocupProtocol()
for line in sys.stdin:
    line = line.strip()
    if not line:
        continue
    d = p.parse_message(line)
    info = p.parse_search_info(line)
    moves = " ".join("%d,%d" % (m.col, m.row) for m in info.pv)
    print(d["depth"], d["sel_depth"], d["eval"], d["nodes"], d["time"], "|", moves)
"#;

#[test]
fn pygomo_lib_parses_every_search_line() {
    let path = match pygomo() {
        Ok(p) => p,
        Err(why) if std::env::var_os("CI").is_none() => {
            eprintln!("SKIPPED: pygomo-lib is not installable here: {why}");
            return;
        }
        Err(why) => panic!("pygomo-lib is needed in CI: {why}"),
    };
    // A short game: collect every MESSAGE search line and the moves around it.
    let mut b = Brain::start();
    b.send("START 15");
    assert_eq!(b.answer(), "OK");
    b.send("INFO timeout_turn 300");
    let mut lines = Vec::new();
    let mut first_moves = Vec::new();
    let mut send = String::from("BEGIN");
    // Our replies: the first of these points still empty (the brain may have taken one).
    let mut replies: Vec<(u8, u8)> =
        vec![(8, 8), (6, 6), (9, 5), (5, 9), (10, 10), (0, 0), (14, 14)];
    for _ in 0..5 {
        b.send(&send);
        loop {
            let l = b.line();
            if let Some(text) = l.strip_prefix("MESSAGE depth") {
                lines.push(format!("MESSAGE depth{text}"));
            } else if let Some(m) = common::parse_move(&l) {
                first_moves.push(m);
                replies.retain(|&(x, y)| (x, y) != (m.x, m.y));
                break;
            }
        }
        let (x, y) = replies.remove(0);
        send = format!("TURN {x},{y}");
    }
    assert_eq!(lines.len(), first_moves.len());
    let out = Command::new("python3")
        .args(["-c", PARSE])
        .env("PYTHONPATH", &path)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .and_then(|mut child| {
            use std::io::Write;
            child
                .stdin
                .take()
                .unwrap()
                .write_all(lines.join("\n").as_bytes())?;
            child.wait_with_output()
        })
        .expect("run python3");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let parsed = String::from_utf8_lossy(&out.stdout);
    let parsed: Vec<&str> = parsed.lines().collect();
    assert_eq!(parsed.len(), lines.len(), "{parsed:?}");
    for ((line, p), played) in lines.iter().zip(&parsed).zip(&first_moves) {
        let (fields, pv) = p.split_once(" | ").unwrap_or((p, ""));
        let f: Vec<&str> = fields.split_whitespace().collect();
        let depth: u32 = f[0].parse().unwrap();
        let nodes: u64 = f[3].parse().unwrap();
        // Every field read: a depth, an eval of Rapfi's shape, the node count, the PV.
        assert!(depth >= 1, "{line} -> {p}");
        assert!(f[2] != "0" || line.contains(" ev 0 "), "{line} -> {p}");
        assert!(nodes > 0 || line.contains(" ev +M"), "{line} -> {p}");
        // pygomo's Move reads `h8` as column 7, row 7: the PV's first move is the move played.
        let first = pv.split_whitespace().next().unwrap_or("");
        assert_eq!(first, played.to_string(), "{line} -> {p}");
    }
}
