//! Line patterns: the shape one stone makes on one line, and the lookup tables that give it.
//!
//! A point's neighbourhood on a line is the 10 cells at offsets -5..=-1 and +1..=+5, each coded in
//! two bits (`EMPTY`, `OWN`, `OPP`, `WALL`) from the point of view of the colour being asked about.
//! Slot `s` holds offset `s - 5` for `s < 5` and offset `s - 4` for `s >= 5`, i.e. bits `2s..2s+2`.
//! The 20-bit code indexes a table (one per [`LineRule`], built once, lazily) that says what a stone
//! of that colour on the centre would make.
//!
//! Every shape is defined through fives *that contain the centre stone*:
//! - `Five`: the stone completes a winning five (exact five for exact rules; not blocked at both ends
//!   by opponent stones for caro).
//! - `Overline`: (exact-five rules) the stone makes six or more in a row; nothing else is then possible
//!   on that line.
//! - `Four`: exactly one empty point completes a five; `OpenFour` (straight four): two such points,
//!   five apart with the four stones between them; `DoubleFour`: two or more completion points that are
//!   not a straight four (`X.XXX.X`, `XX.XX.XX`, `XXX.X.XXX`: two fours on one line).
//! - `OpenThree`: one more stone can make an `OpenFour`; `Three`: one more stone can make a four.
//! - `OpenTwo`: one more stone can make an `OpenThree`; `Two`: one more stone can make a `Three`.
//!
//! For renju the geometry alone is given here; whether a three's completion point is legal for black
//! is the forbidden-point check's job (see `renju.rs`).
//!
//! Five-or-more caro is the one rule where ten neighbours may not be enough (a long run reaching the
//! window's edge needs to know what lies beyond it to tell whether it is blocked); its table marks
//! those entries and the board falls back to the exact line classifier for them.
use std::sync::OnceLock;

use super::types::{Color, Rule};

/// Cell values, from the point of view of the colour being asked about.
pub(crate) const EMPTY: u8 = 0;
pub(crate) const OWN: u8 = 1;
pub(crate) const OPP: u8 = 2;
pub(crate) const WALL: u8 = 3;

/// Number of neighbour slots in a line window (5 each side).
pub(crate) const WINDOW_SLOTS: usize = 10;
/// Table entry marking "ask the exact classifier" (only in the five-or-more caro table).
const NEEDS_FULL_LINE: u8 = 0x80;

/// The shape a stone makes on one line. Ordered so that `>=` compares strength, with `Overline`
/// (a non-winning six for exact-five rules) ranked just above `None`.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
#[repr(u8)]
pub enum Pattern {
    None = 0,
    Overline = 1,
    Two = 2,
    OpenTwo = 3,
    Three = 4,
    OpenThree = 5,
    Four = 6,
    OpenFour = 7,
    DoubleFour = 8,
    Five = 9,
}

const ALL_PATTERNS: [Pattern; 10] = [
    Pattern::None,
    Pattern::Overline,
    Pattern::Two,
    Pattern::OpenTwo,
    Pattern::Three,
    Pattern::OpenThree,
    Pattern::Four,
    Pattern::OpenFour,
    Pattern::DoubleFour,
    Pattern::Five,
];

impl Pattern {
    pub(crate) fn from_u8(v: u8) -> Pattern {
        ALL_PATTERNS[v as usize]
    }

    /// Number of fours this shape counts as (renju double-four counting): 2 for a one-line double-four.
    pub fn four_count(self) -> u32 {
        match self {
            Pattern::Four | Pattern::OpenFour => 1,
            Pattern::DoubleFour => 2,
            _ => 0,
        }
    }

    /// Four, open four or one-line double four (not five).
    pub fn is_four(self) -> bool {
        matches!(
            self,
            Pattern::Four | Pattern::OpenFour | Pattern::DoubleFour
        )
    }
}

/// How a line wins for one colour under one rule: the four table kinds.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum LineRule {
    /// Five or more wins (freestyle; renju white).
    FiveOrMore,
    /// Exactly five wins, six or more is an `Overline` (standard; renju black).
    ExactFive,
    /// Five or more, not blocked by opponent stones at both ends (caro).
    CaroFiveOrMore,
    /// Exactly five, not blocked at both ends (caro, exact variant).
    CaroExactFive,
}

impl LineRule {
    pub fn for_rule(rule: Rule, color: Color) -> LineRule {
        match (rule.blocked_five_fails(), rule.overline_wins(color)) {
            (false, true) => LineRule::FiveOrMore,
            (false, false) => LineRule::ExactFive,
            (true, true) => LineRule::CaroFiveOrMore,
            (true, false) => LineRule::CaroExactFive,
        }
    }

    fn exact(self) -> bool {
        matches!(self, LineRule::ExactFive | LineRule::CaroExactFive)
    }

    fn caro(self) -> bool {
        matches!(self, LineRule::CaroFiveOrMore | LineRule::CaroExactFive)
    }

    fn slot(self) -> usize {
        self as usize
    }
}

/// Swaps the colours of a black-perspective code (1 <-> 2), keeping empty (0) and wall (3).
#[inline]
pub(crate) fn swap_colors(code: u32) -> u32 {
    let differ = (code ^ (code >> 1)) & 0x5_5555;
    code ^ (differ | (differ << 1))
}

/// Looks a code up; `None` means the entry needs the exact line classifier.
#[inline]
pub(crate) fn lookup(table: &[u8], code: u32) -> Option<Pattern> {
    let v = table[code as usize];
    if v & NEEDS_FULL_LINE != 0 {
        None
    } else {
        Some(Pattern::from_u8(v))
    }
}

/// Looks a code up from the ten-cell window alone: where the exact classifier would be asked
/// (a long caro run reaching the window's edge), the window's own reading. A pure function of
/// the code, for features that must change only when the window does.
#[inline]
pub(crate) fn lookup_window(table: &[u8], code: u32) -> Pattern {
    Pattern::from_u8(table[code as usize] & !NEEDS_FULL_LINE)
}

/// The table for a line rule, built on first use (about a megabyte each).
pub(crate) fn table(rule: LineRule) -> &'static [u8] {
    static TABLES: [OnceLock<Vec<u8>>; 4] = [
        OnceLock::new(),
        OnceLock::new(),
        OnceLock::new(),
        OnceLock::new(),
    ];
    TABLES[rule.slot()].get_or_init(|| build_table(rule))
}

/// Five status of the run through `c` (which must hold `OWN`): `Five`, `Overline` or `None`.
/// Cells outside `line` count as wall.
fn five_status(line: &[u8], c: usize, rule: LineRule) -> Pattern {
    let mut a = c;
    while a > 0 && line[a - 1] == OWN {
        a -= 1;
    }
    let mut b = c;
    while b + 1 < line.len() && line[b + 1] == OWN {
        b += 1;
    }
    let run = b - a + 1;
    if run < 5 {
        return Pattern::None;
    }
    if rule.exact() && run > 5 {
        return Pattern::Overline;
    }
    if rule.caro() {
        let left_blocked = a > 0 && line[a - 1] == OPP;
        let right_blocked = b + 1 < line.len() && line[b + 1] == OPP;
        if left_blocked && right_blocked {
            return Pattern::None;
        }
    }
    Pattern::Five
}

/// Classifies the stone at `c` (already `OWN`) on `line`. `depth` limits the search: 0 stops after
/// fours, 1 after threes, 2 gives twos as well. `child` returns the pattern of `c` after one more own
/// stone has been put on the line (the caller decides how: recursion or a table).
fn classify_with(
    line: &mut [u8],
    c: usize,
    rule: LineRule,
    depth: u8,
    child: &mut dyn FnMut(&mut [u8]) -> Pattern,
) -> Pattern {
    match five_status(line, c, rule) {
        Pattern::None => {}
        done => return done,
    }
    let lo = c.saturating_sub(4);
    let hi = (c + 4).min(line.len() - 1);

    let mut completions = [0usize; 9];
    let mut count = 0;
    for q in lo..=hi {
        if line[q] != EMPTY {
            continue;
        }
        line[q] = OWN;
        if five_status(line, c, rule) == Pattern::Five {
            completions[count] = q;
            count += 1;
        }
        line[q] = EMPTY;
    }
    if count == 1 {
        return Pattern::Four;
    }
    if count >= 2 {
        let done = &completions[..count];
        let straight = done.iter().any(|&q1| {
            done.iter()
                .any(|&q2| q2 == q1 + 5 && line[q1 + 1..q2].iter().all(|&v| v == OWN))
        });
        return if straight {
            Pattern::OpenFour
        } else {
            Pattern::DoubleFour
        };
    }
    if depth == 0 {
        return Pattern::None;
    }

    let mut best = Pattern::None;
    for q in lo..=hi {
        if line[q] != EMPTY {
            continue;
        }
        line[q] = OWN;
        let next = child(line);
        line[q] = EMPTY;
        let made = match next {
            Pattern::OpenFour => return Pattern::OpenThree,
            Pattern::Four | Pattern::DoubleFour => Pattern::Three,
            Pattern::OpenThree if depth >= 2 => Pattern::OpenTwo,
            Pattern::Three if depth >= 2 => Pattern::Two,
            _ => Pattern::None,
        };
        best = best.max(made);
    }
    best
}

/// Exact classifier on a whole line (no table): the stone at `c` is set to `OWN` by the caller.
/// Used as the fallback for long caro runs and as a reference in tests.
pub(crate) fn classify_line(line: &mut [u8], c: usize, rule: LineRule) -> Pattern {
    fn go(line: &mut [u8], c: usize, rule: LineRule, depth: u8) -> Pattern {
        classify_with(line, c, rule, depth, &mut |l: &mut [u8]| {
            go(l, c, rule, depth.saturating_sub(1))
        })
    }
    go(line, c, rule, 2)
}

/// The 11-cell window of a code, centre (index 5) set to `OWN`.
fn decode(code: u32) -> [u8; 11] {
    let mut line = [OWN; 11];
    for slot in 0..WINDOW_SLOTS {
        let i = if slot < 5 { slot } else { slot + 1 };
        line[i] = ((code >> (2 * slot)) & 3) as u8;
    }
    line
}

fn encode(line: &[u8]) -> u32 {
    let mut code = 0u32;
    for slot in 0..WINDOW_SLOTS {
        let i = if slot < 5 { slot } else { slot + 1 };
        code |= (line[i] as u32) << (2 * slot);
    }
    code
}

const UNKNOWN: u8 = 0xFF;

fn build_table(rule: LineRule) -> Vec<u8> {
    let mut table = vec![UNKNOWN; 1 << (2 * WINDOW_SLOTS)];
    for code in 0..table.len() as u32 {
        entry(&mut table, code, rule);
    }
    // Long caro runs reaching the window edge are left to the exact classifier.
    if rule == LineRule::CaroFiveOrMore {
        for (code, v) in table.iter_mut().enumerate() {
            let first = code & 3;
            let last = (code >> (2 * (WINDOW_SLOTS - 1))) & 3;
            if first == OWN as usize || last == OWN as usize {
                *v |= NEEDS_FULL_LINE;
            }
        }
    }
    table
}

/// Memoised table entry: children (one more own stone) are looked up, not recomputed.
fn entry(table: &mut Vec<u8>, code: u32, rule: LineRule) -> Pattern {
    let v = table[code as usize];
    if v != UNKNOWN {
        return Pattern::from_u8(v);
    }
    let mut line = decode(code);
    let p = classify_with(&mut line, 5, rule, 2, &mut |l: &mut [u8]| {
        entry(table, encode(l), rule)
    });
    table[code as usize] = p as u8;
    p
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(s: &str) -> (Vec<u8>, usize) {
        // `*` is the stone being asked about, `x` own, `o` opponent, `|` wall, `.` empty.
        let mut line = Vec::new();
        let mut c = 0;
        for ch in s.chars() {
            line.push(match ch {
                '.' => EMPTY,
                'x' => OWN,
                '*' => {
                    c = line.len();
                    OWN
                }
                'o' => OPP,
                '|' => WALL,
                _ => panic!("bad char {ch}"),
            });
        }
        (line, c)
    }

    fn shape(s: &str, rule: LineRule) -> Pattern {
        let (mut line, c) = parse(s);
        classify_line(&mut line, c, rule)
    }

    fn table_shape(s: &str, rule: LineRule) -> Option<Pattern> {
        let (line, c) = parse(s);
        let mut window = [WALL; 11];
        for (k, w) in window.iter_mut().enumerate() {
            let i = c as isize + k as isize - 5;
            if i >= 0 && (i as usize) < line.len() {
                *w = line[i as usize];
            }
        }
        lookup(table(rule), encode(&window))
    }

    #[test]
    fn basic_shapes() {
        use LineRule::*;
        use Pattern as P;
        let cases = [
            ("..xx*x..", FiveOrMore, P::OpenFour),
            ("..xx*xo.", FiveOrMore, P::Four),
            ("...x*x...", FiveOrMore, P::OpenThree),
            ("..ox*x...", FiveOrMore, P::Three),
            ("...x.*x...", FiveOrMore, P::OpenThree),
            ("....*x....", FiveOrMore, P::OpenTwo),
            ("...x*xx.x", FiveOrMore, P::OpenFour),
            ("...x*xx.x", ExactFive, P::Four),
            ("x.x*x.x", ExactFive, P::DoubleFour),
            ("xx.*x.xx", ExactFive, P::DoubleFour),
            ("xxx.*.xxx", ExactFive, P::DoubleFour),
            ("xx*xx", ExactFive, P::Five),
            ("xx*xxx", ExactFive, P::Overline),
            ("xx*xxx", FiveOrMore, P::Five),
            ("oxx*xxo", CaroFiveOrMore, P::None),
            ("|xx*xxo", CaroFiveOrMore, P::Five),
            ("oxx*xx.", CaroExactFive, P::Five),
            ("oxx*xxxo", CaroExactFive, P::Overline),
            ("|.....*.....|", FiveOrMore, P::None),
            ("|*x....", FiveOrMore, P::Two),
            ("|.*x....", FiveOrMore, P::OpenTwo),
            ("o*x.x.o", FiveOrMore, P::Three),
        ];
        for (s, rule, want) in cases {
            assert_eq!(shape(s, rule), want, "{s} {rule:?}");
            if let Some(t) = table_shape(s, rule) {
                assert_eq!(t, want, "table {s} {rule:?}");
            }
        }
    }

    /// The ten-neighbour window is enough: on random lines up to 32 long, the table agrees with
    /// the exact classifier run on the whole line (entries marked for the full line excepted).
    #[test]
    fn table_agrees_with_whole_line() {
        let mut state = 0x9E37_79B9_7F4A_7C15u64;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        for rule in [
            LineRule::FiveOrMore,
            LineRule::ExactFive,
            LineRule::CaroFiveOrMore,
            LineRule::CaroExactFive,
        ] {
            let t = table(rule);
            let mut full_line_entries = 0;
            for _ in 0..20_000 {
                let len = 5 + (next() % 28) as usize;
                let own_share = 2 + next() % 5; // out of 8: dense lines make long runs
                let mut line: Vec<u8> = (0..len)
                    .map(|_| match next() % 8 {
                        r if r < own_share => OWN,
                        r if r < own_share + 2 => OPP,
                        _ => EMPTY,
                    })
                    .collect();
                let c = (next() % len as u64) as usize;
                let mut window = [WALL; 11];
                for (k, w) in window.iter_mut().enumerate() {
                    let i = c as isize + k as isize - 5;
                    if i >= 0 && (i as usize) < len {
                        *w = line[i as usize];
                    }
                }
                line[c] = OWN;
                let exact = classify_line(&mut line, c, rule);
                match lookup(t, encode(&window)) {
                    Some(p) => assert_eq!(p, exact, "{rule:?} {line:?} at {c}"),
                    None => full_line_entries += 1,
                }
            }
            assert_eq!(
                full_line_entries > 0,
                rule == LineRule::CaroFiveOrMore,
                "{rule:?}"
            );
        }
    }

    #[test]
    fn swap_colors_swaps_only_stones() {
        let line = [EMPTY, OWN, OPP, WALL, OWN, OPP, EMPTY, WALL, OWN, OPP, OPP];
        let swapped: Vec<u8> = line
            .iter()
            .map(|&v| match v {
                OWN => OPP,
                OPP => OWN,
                v => v,
            })
            .collect();
        assert_eq!(swap_colors(encode(&line)), encode(&swapped));
    }

    #[test]
    fn long_caro_runs_use_full_line() {
        assert_eq!(
            table_shape("xxxx*....", LineRule::CaroFiveOrMore),
            Some(Pattern::Five)
        );
        assert_eq!(table_shape("xxxxx*....", LineRule::CaroFiveOrMore), None);
    }
}
