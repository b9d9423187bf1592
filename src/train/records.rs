//! Self-play game records: a compact, append-only shard format.
//!
//! Every self-play worker appends finished games to its own shard files,
//! `<dir>/<worker-id>-<n>.hsp` (`n` = 1, 2, ...; a restarted worker opens the next `n`), and the
//! trainer reads every `*.hsp` in a folder, whatever machine wrote it.
//!
//! ## Format, version 2 (all integers little-endian)
//!
//! ```text
//! shard   = header game*
//! header  = "HSPR" (4 bytes)  version: u16 = 2  flags: u16 = 0
//! game    = length: u32  body (length bytes)  crc: u32 (CRC-32/IEEE of body)
//! body    = rule: u8 (INFO rule code: 0 freestyle, 1 standard, 4 renju, 8 caro, 9 caro5)
//!           width: u8  height: u8
//!           result: u8 (0 draw, 1 black won, 2 white won)
//!           moves: u16
//!           position{moves}
//! position = x: u8  y: u8              the move played (black first, colours alternate)
//!            entries: u16              0 = no policy target (e.g. a random opening stone)
//!            (x: u8  y: u8  fraction: u16){entries}
//!            value: u8                 0 = no search value; 1 = three u16 follow:
//!            (win: u16  draw: u16  loss: u16)   the root search's W/D/L for the side to move
//! ```
//!
//! A position's policy target is the search's visit distribution at that position, stored
//! sparse: each entry's `fraction / 65535` is the share of the visits that went to that point
//! (the entries sum to 1 up to rounding; entries that round to 0 are left out). Its search value
//! is what the root search concluded about the position (a proven win is 1/0/0), each share
//! `/ 65535`, normalised to sum to 1; the trainer can mix it into the value target next to the
//! game's result.
//!
//! Version 1 is version 2 without the `value` byte: such shards still read, their positions
//! without a search value (training then learns the result alone).
//!
//! The writer encodes a whole game and hands it to the OS with one `write_all`, so a killed
//! worker loses at most the game it was playing, and at worst leaves a torn record at the end of
//! its last shard. The reader stops at a record that is cut short or whose checksum fails,
//! keeps the games before it and logs a warning.
use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};

use crate::game::{Color, Point, Rule, MAX_SIZE, MIN_SIZE};

use super::error::TrainError;

/// The first bytes of every shard.
pub const SHARD_MAGIC: [u8; 4] = *b"HSPR";
/// The format version this build writes.
pub const SHARD_VERSION: u16 = 2;
/// The oldest format version this build still reads (no search values).
pub const OLDEST_SHARD_VERSION: u16 = 1;
/// Shard file extension.
pub const SHARD_EXTENSION: &str = "hsp";

const HEADER_LEN: usize = 8;
/// A game body larger than this cannot be a real record (32x32 boards, 1024 moves with a few
/// hundred entries each stay far below it): a length past it means a corrupt file.
const MAX_BODY_LEN: usize = 64 << 20;

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameResult {
    BlackWin,
    WhiteWin,
    Draw,
}

impl GameResult {
    pub fn winner(color: Color) -> GameResult {
        match color {
            Color::Black => GameResult::BlackWin,
            Color::White => GameResult::WhiteWin,
        }
    }

    /// The outcome for `color`: 0 win, 1 draw, 2 loss (the order of the net's W/D/L head).
    pub fn wdl_index(self, color: Color) -> usize {
        match (self, color) {
            (GameResult::Draw, _) => 1,
            (GameResult::BlackWin, Color::Black) | (GameResult::WhiteWin, Color::White) => 0,
            _ => 2,
        }
    }

    fn code(self) -> u8 {
        match self {
            GameResult::Draw => 0,
            GameResult::BlackWin => 1,
            GameResult::WhiteWin => 2,
        }
    }

    fn from_code(code: u8) -> Option<GameResult> {
        match code {
            0 => Some(GameResult::Draw),
            1 => Some(GameResult::BlackWin),
            2 => Some(GameResult::WhiteWin),
            _ => None,
        }
    }
}

/// One position of a game: the move played from it, the search's visit distribution and the
/// search's value.
#[derive(Clone, Debug, PartialEq)]
pub struct PositionRecord {
    pub mv: Point,
    /// `(point, visit fraction)`; empty when the position is not a training sample (opening
    /// stones, the cheap searches of playout cap randomization).
    pub policy: Vec<(Point, f32)>,
    /// The root search's win/draw/loss probabilities for the side to move, summing to 1;
    /// `None` when the move was not searched (opening stones) or the shard is of version 1.
    /// The cheap searches of playout cap randomization record theirs too (no policy target).
    pub value: Option<[f32; 3]>,
}

impl PositionRecord {
    /// A position that is no training sample: the move alone.
    pub fn unsearched(mv: Point) -> PositionRecord {
        PositionRecord {
            mv,
            policy: Vec::new(),
            value: None,
        }
    }
}

/// `wdl` as shares of 65535 summing to 65535 exactly (`None` when it has nothing positive).
fn quantise_wdl(wdl: [f32; 3]) -> Option<[u16; 3]> {
    let clean = wdl.map(|v| if v.is_finite() { v.max(0.0) } else { 0.0 });
    let total: f32 = clean.iter().sum();
    if total <= 0.0 || !total.is_finite() {
        return None;
    }
    let win = (clean[0] / total * 65535.0).round().min(65535.0) as u16;
    let draw = ((clean[1] / total * 65535.0).round() as u16).min(65535 - win);
    Some([win, draw, 65535 - win - draw])
}

/// A finished game.
#[derive(Clone, Debug, PartialEq)]
pub struct GameRecord {
    pub rule: Rule,
    pub width: usize,
    pub height: usize,
    pub result: GameResult,
    /// Every move from the empty board, black first.
    pub positions: Vec<PositionRecord>,
}

impl GameRecord {
    pub fn moves(&self) -> impl Iterator<Item = Point> + '_ {
        self.positions.iter().map(|p| p.mv)
    }

    /// Positions that carry a policy target (the ones a trainer learns from).
    pub fn searched_positions(&self) -> usize {
        self.positions
            .iter()
            .filter(|p| !p.policy.is_empty())
            .count()
    }

    /// The body bytes (see the module docs).
    fn encode_body(&self, out: &mut Vec<u8>) -> Result<(), String> {
        let size_ok = |s: usize| (MIN_SIZE..=MAX_SIZE).contains(&s);
        if !size_ok(self.width) || !size_ok(self.height) {
            return Err(format!("board {}x{}", self.width, self.height));
        }
        if self.positions.len() > u16::MAX as usize {
            return Err(format!("{} moves", self.positions.len()));
        }
        out.push(self.rule.protocol_code() as u8);
        out.push(self.width as u8);
        out.push(self.height as u8);
        out.push(self.result.code());
        out.extend_from_slice(&(self.positions.len() as u16).to_le_bytes());
        for pos in &self.positions {
            out.push(pos.mv.x);
            out.push(pos.mv.y);
            let total: f32 = pos.policy.iter().map(|e| e.1.max(0.0)).sum();
            let quantised: Vec<(Point, u16)> = if total > 0.0 {
                pos.policy
                    .iter()
                    .map(|&(p, f)| (p, (f.max(0.0) / total * 65535.0).round() as u16))
                    .filter(|e| e.1 > 0)
                    .collect()
            } else {
                Vec::new()
            };
            if quantised.len() > u16::MAX as usize {
                return Err(format!("{} policy entries", quantised.len()));
            }
            out.extend_from_slice(&(quantised.len() as u16).to_le_bytes());
            for (p, q) in quantised {
                out.push(p.x);
                out.push(p.y);
                out.extend_from_slice(&q.to_le_bytes());
            }
            match pos.value.and_then(quantise_wdl) {
                None => out.push(0),
                Some(wdl) => {
                    out.push(1);
                    for v in wdl {
                        out.extend_from_slice(&v.to_le_bytes());
                    }
                }
            }
        }
        Ok(())
    }

    /// Decodes a body written in format `version` (1 or 2).
    fn decode_body(body: &[u8], version: u16) -> Result<GameRecord, String> {
        let mut r = ByteReader { bytes: body, at: 0 };
        let code = r.u8()?;
        let rule = Rule::from_protocol(code as i64).ok_or(format!("rule code {code}"))?;
        let (width, height) = (r.u8()? as usize, r.u8()? as usize);
        let size_ok = |s: usize| (MIN_SIZE..=MAX_SIZE).contains(&s);
        if !size_ok(width) || !size_ok(height) {
            return Err(format!("board {width}x{height}"));
        }
        let code = r.u8()?;
        let result = GameResult::from_code(code).ok_or(format!("result code {code}"))?;
        let on_board = |p: Point| (p.x as usize) < width && (p.y as usize) < height;
        let moves = r.u16()? as usize;
        let mut positions = Vec::with_capacity(moves);
        for _ in 0..moves {
            let mv = Point::new(r.u8()?, r.u8()?);
            if !on_board(mv) {
                return Err(format!("move {mv} off the {width}x{height} board"));
            }
            let entries = r.u16()? as usize;
            let mut policy = Vec::with_capacity(entries);
            for _ in 0..entries {
                let p = Point::new(r.u8()?, r.u8()?);
                if !on_board(p) {
                    return Err(format!("policy point {p} off the {width}x{height} board"));
                }
                policy.push((p, r.u16()? as f32 / 65535.0));
            }
            let value = match version {
                1 => None,
                _ => match r.u8()? {
                    0 => None,
                    1 => {
                        let wdl = [r.u16()?, r.u16()?, r.u16()?];
                        let total: u32 = wdl.iter().map(|&v| v as u32).sum();
                        if total == 0 {
                            return Err("a search value of 0/0/0".into());
                        }
                        Some(wdl.map(|v| v as f32 / total as f32))
                    }
                    flag => return Err(format!("search value flag {flag}")),
                },
            };
            positions.push(PositionRecord { mv, policy, value });
        }
        if r.at != body.len() {
            return Err(format!("{} bytes after the last move", body.len() - r.at));
        }
        Ok(GameRecord {
            rule,
            width,
            height,
            result,
            positions,
        })
    }

    /// The full record: length, body, checksum.
    pub fn encode(&self) -> Result<Vec<u8>, String> {
        let mut body = Vec::with_capacity(8 + self.positions.len() * 16);
        self.encode_body(&mut body)?;
        let mut out = Vec::with_capacity(body.len() + 8);
        out.extend_from_slice(&(body.len() as u32).to_le_bytes());
        out.extend_from_slice(&body);
        out.extend_from_slice(&crc32(&body).to_le_bytes());
        Ok(out)
    }
}

struct ByteReader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl ByteReader<'_> {
    fn take(&mut self, n: usize) -> Result<&[u8], String> {
        let end = self.at + n;
        if end > self.bytes.len() {
            return Err("record ends early".into());
        }
        let s = &self.bytes[self.at..end];
        self.at = end;
        Ok(s)
    }

    fn u8(&mut self) -> Result<u8, String> {
        Ok(self.take(1)?[0])
    }

    fn u16(&mut self) -> Result<u16, String> {
        let b = self.take(2)?;
        Ok(u16::from_le_bytes([b[0], b[1]]))
    }
}

/// CRC-32 (IEEE 802.3, reflected, as in zip and PNG).
pub fn crc32(bytes: &[u8]) -> u32 {
    const TABLE: [u32; 256] = {
        let mut table = [0u32; 256];
        let mut i = 0;
        while i < 256 {
            let mut c = i as u32;
            let mut k = 0;
            while k < 8 {
                c = if c & 1 != 0 {
                    0xEDB8_8320 ^ (c >> 1)
                } else {
                    c >> 1
                };
                k += 1;
            }
            table[i] = c;
            i += 1;
        }
        table
    };
    let mut crc = !0u32;
    for &b in bytes {
        crc = TABLE[((crc ^ b as u32) & 0xFF) as usize] ^ (crc >> 8);
    }
    !crc
}

fn header() -> [u8; HEADER_LEN] {
    let mut h = [0u8; HEADER_LEN];
    h[..4].copy_from_slice(&SHARD_MAGIC);
    h[4..6].copy_from_slice(&SHARD_VERSION.to_le_bytes());
    h
}

/// Appends games to one shard file.
pub struct ShardWriter {
    file: File,
    path: PathBuf,
    games: usize,
}

impl ShardWriter {
    /// Creates a new shard at `path` (never overwrites one) and writes its header.
    pub fn create(path: impl Into<PathBuf>) -> Result<ShardWriter, TrainError> {
        let path = path.into();
        let mut file = OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&path)
            .map_err(TrainError::io(&path))?;
        file.write_all(&header()).map_err(TrainError::io(&path))?;
        Ok(ShardWriter {
            file,
            path,
            games: 0,
        })
    }

    /// Creates `<dir>/<worker>-<n>.hsp` with the first `n` above every shard `worker` already
    /// has there (creating `dir` if needed).
    pub fn create_next(dir: &Path, worker: &str) -> Result<ShardWriter, TrainError> {
        check_worker_id(worker)?;
        std::fs::create_dir_all(dir).map_err(TrainError::io(dir))?;
        let next = worker_shards(dir, worker)?
            .iter()
            .map(|(n, _)| n + 1)
            .max()
            .unwrap_or(1);
        ShardWriter::create(dir.join(format!("{worker}-{next}.{SHARD_EXTENSION}")))
    }

    /// Appends one game and hands it to the OS before returning.
    pub fn append(&mut self, game: &GameRecord) -> Result<(), TrainError> {
        let bytes = game.encode().map_err(|message| TrainError::BadShard {
            path: self.path.clone(),
            message: format!("cannot encode game: {message}"),
        })?;
        self.file
            .write_all(&bytes)
            .and_then(|_| self.file.flush())
            .map_err(TrainError::io(&self.path))?;
        self.games += 1;
        Ok(())
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Games appended through this writer.
    pub fn games(&self) -> usize {
        self.games
    }
}

/// Worker ids name files: letters, digits, `_` and `.` only, and at most 64 of them.
pub fn check_worker_id(worker: &str) -> Result<(), TrainError> {
    let ok = !worker.is_empty()
        && worker.len() <= 64
        && !worker.starts_with('.')
        && worker
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '.');
    if ok {
        Ok(())
    } else {
        Err(TrainError::Config(format!(
            "worker id {worker:?}: use 1 to 64 letters, digits, '_' or '.'"
        )))
    }
}

/// The shards of one worker in `dir`, as `(n, path)` sorted by `n`.
pub fn worker_shards(dir: &Path, worker: &str) -> Result<Vec<(u64, PathBuf)>, TrainError> {
    let prefix = format!("{worker}-");
    let mut found: Vec<(u64, PathBuf)> = shard_paths(dir)?
        .into_iter()
        .filter_map(|path| {
            let stem = path.file_stem()?.to_str()?;
            let n = stem.strip_prefix(&prefix)?;
            if n.is_empty() || !n.bytes().all(|b| b.is_ascii_digit()) {
                return None;
            }
            Some((n.parse().ok()?, path))
        })
        .collect();
    found.sort();
    Ok(found)
}

/// Every `*.hsp` file directly in `dir`, sorted by name. A missing folder has none.
pub fn shard_paths(dir: &Path) -> Result<Vec<PathBuf>, TrainError> {
    let entries = match std::fs::read_dir(dir) {
        Ok(entries) => entries,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(TrainError::io(dir)(e)),
    };
    let mut paths = Vec::new();
    for entry in entries {
        let path = entry.map_err(TrainError::io(dir))?.path();
        if path.is_file() && path.extension().is_some_and(|e| e == SHARD_EXTENSION) {
            paths.push(path);
        }
    }
    paths.sort();
    Ok(paths)
}

/// What one shard held.
#[derive(Debug, Default)]
pub struct ShardContents {
    pub games: Vec<GameRecord>,
    /// Bytes at the end that did not form a complete, intact record (skipped with a warning).
    pub torn_bytes: usize,
}

/// Reads a shard. A torn tail is skipped with a warning; a foreign or corrupt file (wrong magic,
/// unknown version, an intact record that does not decode) is an error.
pub fn read_shard(path: &Path) -> Result<ShardContents, TrainError> {
    let bytes = std::fs::read(path).map_err(TrainError::io(path))?;
    let bad = |message: String| TrainError::BadShard {
        path: path.to_path_buf(),
        message,
    };
    if bytes.len() < HEADER_LEN {
        if !SHARD_MAGIC.starts_with(&bytes[..bytes.len().min(4)]) {
            return Err(bad("not a shard (wrong magic)".into()));
        }
        log::warn!(
            "{}: header cut short ({} bytes); no games",
            path.display(),
            bytes.len()
        );
        return Ok(ShardContents {
            games: Vec::new(),
            torn_bytes: bytes.len(),
        });
    }
    if bytes[..4] != SHARD_MAGIC {
        return Err(bad("not a shard (wrong magic)".into()));
    }
    let version = u16::from_le_bytes([bytes[4], bytes[5]]);
    if !(OLDEST_SHARD_VERSION..=SHARD_VERSION).contains(&version) {
        return Err(bad(format!(
            "format version {version}, this build reads {OLDEST_SHARD_VERSION} to {SHARD_VERSION}"
        )));
    }
    let mut games = Vec::new();
    let mut at = HEADER_LEN;
    while at < bytes.len() {
        let torn = |why: &str| {
            log::warn!(
                "{}: skipping a torn record at byte {at} ({why}; {} bytes); kept {} games",
                path.display(),
                bytes.len() - at,
                games.len()
            );
        };
        if bytes.len() - at < 4 {
            torn("length cut short");
            break;
        }
        let len = u32::from_le_bytes(bytes[at..at + 4].try_into().unwrap()) as usize;
        if len > MAX_BODY_LEN {
            torn("impossible length");
            break;
        }
        let end = at + 4 + len + 4;
        if end > bytes.len() {
            torn("record cut short");
            break;
        }
        let body = &bytes[at + 4..at + 4 + len];
        let crc = u32::from_le_bytes(bytes[end - 4..end].try_into().unwrap());
        if crc != crc32(body) {
            torn("checksum mismatch");
            break;
        }
        let game = GameRecord::decode_body(body, version)
            .map_err(|m| bad(format!("game {} at byte {at}: {m}", games.len())))?;
        games.push(game);
        at = end;
    }
    Ok(ShardContents {
        torn_bytes: bytes.len() - at,
        games,
    })
}

/// Reads every shard in `dir` (in name order) and returns all their games.
pub fn read_dir(dir: &Path) -> Result<Vec<GameRecord>, TrainError> {
    let mut games = Vec::new();
    for path in shard_paths(dir)? {
        games.extend(read_shard(&path)?.games);
    }
    Ok(games)
}

#[cfg(test)]
mod tests {
    use super::*;

    pub(crate) fn temp_dir(tag: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("hoshi-records-{tag}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    fn sample_game(seed: u8, moves: usize) -> GameRecord {
        let positions = (0..moves)
            .map(|i| {
                let mv = Point::new((i % 9) as u8, ((i / 9 + seed as usize) % 9) as u8);
                let (policy, value) = if i < 2 {
                    (Vec::new(), None)
                } else {
                    let win = (i % 5) as f32 / 5.0;
                    (
                        vec![(mv, 0.75), (Point::new(8, 8), 0.25)],
                        (i % 3 != 0).then_some([win, 0.1, 0.9 - win]),
                    )
                };
                PositionRecord { mv, policy, value }
            })
            .collect();
        GameRecord {
            rule: Rule::ALL[seed as usize % 5],
            width: 9,
            height: 10,
            result: [GameResult::BlackWin, GameResult::WhiteWin, GameResult::Draw]
                [seed as usize % 3],
            positions,
        }
    }

    fn assert_close(a: &GameRecord, b: &GameRecord) {
        assert_eq!(
            (a.rule, a.width, a.height, a.result),
            (b.rule, b.width, b.height, b.result)
        );
        assert_eq!(a.positions.len(), b.positions.len());
        for (p, q) in a.positions.iter().zip(&b.positions) {
            assert_eq!(p.mv, q.mv);
            assert_eq!(p.policy.len(), q.policy.len());
            for (e, f) in p.policy.iter().zip(&q.policy) {
                assert_eq!(e.0, f.0);
                assert!((e.1 - f.1).abs() < 1e-4, "{} vs {}", e.1, f.1);
            }
            assert_eq!(p.value.is_some(), q.value.is_some());
            if let (Some(a), Some(b)) = (p.value, q.value) {
                for (x, y) in a.iter().zip(&b) {
                    assert!((x - y).abs() < 1e-4, "{a:?} vs {b:?}");
                }
            }
        }
    }

    /// `game` as a version 1 shard would hold it (no search values).
    fn encode_v1(game: &GameRecord) -> Vec<u8> {
        let mut body = vec![
            game.rule.protocol_code() as u8,
            game.width as u8,
            game.height as u8,
            game.result.code(),
        ];
        body.extend_from_slice(&(game.positions.len() as u16).to_le_bytes());
        for pos in &game.positions {
            body.extend_from_slice(&[pos.mv.x, pos.mv.y]);
            body.extend_from_slice(&(pos.policy.len() as u16).to_le_bytes());
            for &(p, f) in &pos.policy {
                body.extend_from_slice(&[p.x, p.y]);
                body.extend_from_slice(&((f * 65535.0).round() as u16).to_le_bytes());
            }
        }
        let mut out = (body.len() as u32).to_le_bytes().to_vec();
        out.extend_from_slice(&body);
        out.extend_from_slice(&crc32(&body).to_le_bytes());
        out
    }

    #[test]
    fn version_1_shards_still_read_without_search_values() {
        let dir = temp_dir("v1");
        let games: Vec<GameRecord> = (0..3).map(|s| sample_game(s, 12)).collect();
        let mut bytes = b"HSPR".to_vec();
        bytes.extend_from_slice(&1u16.to_le_bytes());
        bytes.extend_from_slice(&0u16.to_le_bytes());
        for g in &games {
            bytes.extend_from_slice(&encode_v1(g));
        }
        let path = dir.join("old-1.hsp");
        std::fs::write(&path, &bytes).unwrap();
        let read = read_shard(&path).unwrap();
        assert_eq!(read.torn_bytes, 0);
        assert_eq!(read.games.len(), 3);
        for (a, b) in games.iter().zip(&read.games) {
            let mut without = a.clone();
            without.positions.iter_mut().for_each(|p| p.value = None);
            assert_close(&without, b);
        }
        // A folder may mix old and new shards.
        let mut w = ShardWriter::create_next(&dir, "new").unwrap();
        w.append(&games[0]).unwrap();
        let all = read_dir(&dir).unwrap();
        assert_eq!(all.len(), 4);
        assert!(all[0].positions.iter().any(|p| p.value.is_some()));
        assert!(all[1..]
            .iter()
            .all(|g| g.positions.iter().all(|p| p.value.is_none())));
        std::fs::remove_dir_all(dir).ok();
    }

    #[test]
    fn search_values_round_trip_normalised() {
        let mut g = sample_game(1, 4);
        g.positions[2].value = Some([2.0, 1.0, 1.0]);
        g.positions[3].value = Some([0.0, 0.0, 0.0]); // nothing to store
        let bytes = g.encode().unwrap();
        let back = GameRecord::decode_body(&bytes[4..bytes.len() - 4], SHARD_VERSION).unwrap();
        let v = back.positions[2].value.unwrap();
        assert!((v[0] - 0.5).abs() < 1e-4 && (v[1] - 0.25).abs() < 1e-4);
        assert!((v.iter().sum::<f32>() - 1.0).abs() < 1e-6);
        assert_eq!(back.positions[3].value, None);
        assert_eq!(back.positions[0].value, None);
        assert_eq!(quantise_wdl([1.0, 0.0, 0.0]), Some([65535, 0, 0]));
        assert_eq!(quantise_wdl([f32::NAN, 0.0, -1.0]), None);
    }

    #[test]
    fn crc32_matches_the_standard_check_value() {
        assert_eq!(crc32(b"123456789"), 0xCBF4_3926);
        assert_eq!(crc32(b""), 0);
    }

    #[test]
    fn games_round_trip_through_a_shard() {
        let dir = temp_dir("roundtrip");
        let games: Vec<GameRecord> = (0..5).map(|s| sample_game(s, 20 + s as usize)).collect();
        let mut w = ShardWriter::create_next(&dir, "w0").unwrap();
        assert_eq!(w.path(), dir.join("w0-1.hsp"));
        for g in &games {
            w.append(g).unwrap();
        }
        assert_eq!(w.games(), 5);
        let read = read_shard(w.path()).unwrap();
        assert_eq!(read.torn_bytes, 0);
        assert_eq!(read.games.len(), 5);
        for (a, b) in games.iter().zip(&read.games) {
            assert_close(a, b);
        }
        assert_eq!(read.games[0].searched_positions(), 18);
        std::fs::remove_dir_all(dir).ok();
    }

    #[test]
    fn policy_fractions_are_normalised_and_zero_entries_dropped() {
        let mut g = sample_game(0, 3);
        g.positions[2].policy = vec![
            (Point::new(1, 1), 3.0),
            (Point::new(2, 2), 1.0),
            (Point::new(3, 3), 0.0),
        ];
        let bytes = g.encode().unwrap();
        let back = GameRecord::decode_body(&bytes[4..bytes.len() - 4], SHARD_VERSION).unwrap();
        let p = &back.positions[2].policy;
        assert_eq!(p.len(), 2);
        assert!((p[0].1 - 0.75).abs() < 1e-4 && (p[1].1 - 0.25).abs() < 1e-4);
    }

    #[test]
    fn a_torn_tail_loses_only_the_last_game() {
        let dir = temp_dir("torn");
        let mut w = ShardWriter::create_next(&dir, "w").unwrap();
        for s in 0..3 {
            w.append(&sample_game(s, 30)).unwrap();
        }
        let path = w.path().to_path_buf();
        drop(w);
        let full = std::fs::read(&path).unwrap();
        let last_len = sample_game(2, 30).encode().unwrap().len();
        // Every cut inside the last record keeps exactly the first two games.
        for cut in [1, 3, 4, 5, last_len / 2, last_len - 1] {
            std::fs::write(&path, &full[..full.len() - cut]).unwrap();
            let read = read_shard(&path).unwrap();
            assert_eq!(read.games.len(), 2, "cut {cut}");
            assert_eq!(read.torn_bytes, last_len - cut);
            assert_close(&read.games[1], &sample_game(1, 30));
        }
        // A flipped bit in the last record's body fails its checksum: the same two games.
        let mut flipped = full.clone();
        let at = full.len() - last_len / 2;
        flipped[at] ^= 0x10;
        std::fs::write(&path, &flipped).unwrap();
        assert_eq!(read_shard(&path).unwrap().games.len(), 2);
        // A header cut short is an empty shard; a foreign file is an error.
        std::fs::write(&path, &full[..5]).unwrap();
        assert!(read_shard(&path).unwrap().games.is_empty());
        std::fs::write(&path, b"PK\x03\x04 not a shard").unwrap();
        assert!(matches!(
            read_shard(&path),
            Err(TrainError::BadShard { .. })
        ));
        let mut future = full.clone();
        future[4] = 9;
        std::fs::write(&path, &future).unwrap();
        let err = read_shard(&path).unwrap_err();
        assert!(err.to_string().contains("version 9"), "{err}");
        std::fs::remove_dir_all(dir).ok();
    }

    #[test]
    fn many_shards_of_many_workers_are_read_together() {
        let dir = temp_dir("many");
        let mut expected = 0;
        for worker in ["a", "b", "a.2"] {
            for round in 0..3u8 {
                // A restart opens the next shard of the same worker.
                let mut w = ShardWriter::create_next(&dir, worker).unwrap();
                let n = round as usize + 1;
                assert_eq!(w.path(), dir.join(format!("{worker}-{n}.hsp")));
                for s in 0..=round {
                    w.append(&sample_game(s, 10)).unwrap();
                    expected += 1;
                }
            }
        }
        // Files that are not shards are ignored.
        std::fs::write(dir.join("notes.txt"), "hello").unwrap();
        assert_eq!(shard_paths(&dir).unwrap().len(), 9);
        assert_eq!(worker_shards(&dir, "a").unwrap().len(), 3);
        assert_eq!(worker_shards(&dir, "a.2").unwrap().len(), 3);
        assert_eq!(read_dir(&dir).unwrap().len(), expected);
        assert!(read_dir(&dir.join("absent")).unwrap().is_empty());
        std::fs::remove_dir_all(dir).ok();
    }

    #[test]
    fn worker_ids_must_be_file_name_safe() {
        for good in ["w0", "node_3.gpu1", "A"] {
            assert!(check_worker_id(good).is_ok(), "{good}");
        }
        for bad in ["", "a-b", "../x", "a/b", ".hidden", "a b"] {
            assert!(check_worker_id(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn corrupt_but_checksummed_records_are_errors() {
        // An intact record whose contents are impossible (a move off the board).
        let mut g = sample_game(0, 3);
        g.positions[1].mv = Point::new(20, 0);
        let mut body = Vec::new();
        g.encode_body(&mut body).unwrap();
        let err = GameRecord::decode_body(&body, SHARD_VERSION).unwrap_err();
        assert!(err.contains("off the 9x10 board"), "{err}");
        let mut g = sample_game(0, 3);
        g.width = 40;
        assert!(g.encode().is_err());
    }
}
