//! Reference positions for the solver's tests and benchmark: forced wins on every rule and on
//! several board sizes, renju forbidden-point cases, and positions without a win.
//!
//! A case is a whole-board diagram (`x` black, `o` white, `.` empty; top row is `y = 0`, see
//! `Board::from_diagram`): the side to move follows the stone count. Positions were composed by
//! hand for this suite; each diagram's comment says what it is about.
use hoshi::game::{Board, Color, Point, Rule};

/// Which search a case is about.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Kind {
    Vcf,
    Vct,
}

/// What the solver must answer.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Expect {
    /// A win (its line is checked by replaying it).
    Win,
    /// No win: `NoWin` or `Unknown`, never `Win`.
    NoWin,
}

#[derive(Clone, Copy, Debug)]
pub struct Case {
    pub name: &'static str,
    pub rule: Rule,
    pub diagram: &'static str,
    pub attacker: Color,
    pub kind: Kind,
    pub expect: Expect,
    /// The attacker's first move when only one wins (board coordinates).
    pub first: Option<(u8, u8)>,
}

impl Case {
    /// The case's board.
    pub fn board(&self) -> Board {
        Board::from_diagram(self.rule, self.diagram)
            .unwrap_or_else(|e| panic!("case {}: {e}", self.name))
    }

    /// The expected first move as a point.
    pub fn first_move(&self) -> Option<Point> {
        self.first.map(|(x, y)| Point::new(x, y))
    }
}

/// The whole suite.
pub fn cases() -> &'static [Case] {
    CASES
}

use Color::{Black, White};
use Expect::{NoWin as NO, Win as WIN};
use Kind::{Vcf as VCF, Vct as VCT};

const fn case(
    name: &'static str,
    rule: Rule,
    diagram: &'static str,
    attacker: Color,
    kind: Kind,
    expect: Expect,
    first: Option<(u8, u8)>,
) -> Case {
    Case {
        name,
        rule,
        diagram,
        attacker,
        kind,
        expect,
        first,
    }
}

/// Black's (8,7) is a four on row 7 and an open three on column 8.
pub const FOUR_THREE: &str = "
    . . . . . . . . . . . . . . o
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . x . . . . . .
    . . . . . . . . x . . . . . .
    . . . . o x x x . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    o . . . . . . o . . . . . . o";

/// FOUR_THREE with white to move: white must stop black's VCF.
pub const FOUR_THREE_WHITE_TO_MOVE: &str = "
    . . . . . . . . . . . . . . o
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . x . . . . . .
    . . . . . . . . x . . . . . .
    . . . . o x x x . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    o . . . . . . . . . . . . . o";

/// A ladder of forced fours: (5,2) (5,5) (8,8) (11,8), then (8,11) makes a double four.
pub const ZIGZAG: &str = "
    . . . . . o . . . . . . . . o
    . . . . . . . . . . . . . . .
    . o x x x . . . . . . . . . .
    . . . . . x . . . . . . . . .
    . . . . o x . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . o x . . . . . . . .
    . . . . . . . x o . . . . . o
    . . . . . . o . . x x . o . .
    . . . . . . . . x . x . . . .
    o . . . . . . . x x . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    o . . . . . . o . . . . . . o";

/// Bottom-left corner: (0,18) makes two fours that both lean on the board edge.
pub const CORNER20: &str = "
    . . . . . . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . . . . . . .
    . . . . . . . . . . o . . . . . . . . .
    . . . . . . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . . o . . . .
    . . . . . . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . . . . . . .
    . . . . . . . . . . . . o . . . . . o .
    . . . . . . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . . . . . . .
    o . . . . . . . . . . . . . . . . . . .
    x . . . . . . . . . . . . . . . . . . .
    x . . . . . . . . . . . . . . . . . . .
    x . . . . . . . . . . . . . . . . . . .
    . x x x . o . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . . . . . . .";

/// (10,10) makes two open threes.
pub const DOUBLE_THREE20: &str = "
    o . . . . . . . . . . . . . . . . . . o
    . . . . . . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . . . . . . .
    . . . . . . . . . . x . . . . . . . . .
    . . . . . . . . . . x . . . . . . . . .
    . . . . . . . . x x . . . . . . . . . .
    . . . . . . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . . . . . . .
    . . . . . . . . . . o . . . . . . . . o";

/// (7,7) makes two open threes (forbidden for black in renju).
pub const DOUBLE_THREE15: &str = "
    . . . . . . . . . . . . . . o
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . x . . . . . . .
    . . . . . . . x . . . . . . .
    . . . . . x x . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    o . . . . . . o . . . . . . o";

/// White's (7,7) makes two open threes (legal for white in renju).
pub const WHITE_DOUBLE_THREE15: &str = "
    . . . . . . . . . . . . . . x
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . o . . . . . . .
    . . . . . . . o . . . . . . .
    . . . . . o o . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . x . .
    . . . . . . . . . . . . . . .
    x . . . . . . . . . . . . . .";

/// Black's (5,7) makes six in a row.
pub const OVERLINE: &str = "
    . . . . . . . . . . . . . . o
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . o x x x . x x . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    o . . . . . . o . . . . . . o";

/// FOUR_THREE with a black stone on (8,10): after (8,7) and the block, the straight four is
/// (8,4); (8,8) would only be a four (its other end makes six).
pub const FOUR_THREE_NEAR_OVERLINE: &str = "
    . . . . . . . . . . . . . . o
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . x . . . . . .
    . . . . . . . . x . . . . . .
    . . . . o x x x . . . . . . o
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . x . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    o . . . . . . o . . . . . . o";

/// (7,7) is a double three for black; white's (11,3) is a four whose only block is (7,7).
pub const WHITE_FOUR_ONTO_FORBIDDEN: &str = "
    . . . . . . . . . . . . . . o
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . x . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . o . . . .
    . . . . . . . x . o . . . . .
    . . . . . . . x o . . . . . .
    . . . . . x x . . . . . . . .
    . . . . . . x . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    o . . . . . . . . . . . . . .";

/// (7,7) makes two fours: a win in freestyle, forbidden for black in renju.
pub const DOUBLE_FOUR: &str = "
    . . . . . . . . . . . . . . o
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . o . . . . . . .
    . . . . . . . x . . . . . . .
    . . . . . . . x . . . . . . .
    . . . . . . . x . . . . . . .
    . . . o x x x . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    o . . . . . . o . . . . . . o";

/// Black's (7,7) makes a five between two white stones.
pub const BLOCKED_FIVE: &str = "
    . . . . . . . . . . . . . . o
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . o x x x x . o . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    o . . . . . . . . . . . . . .";

/// White's caro four: black stops it on (7,7) or past its end on (8,7).
pub const CARO_FOUR_TWO_BLOCKS: &str = "
    . . . . . . . . . . . . . . x
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . x o o o o . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    x . . . . . . . . . . . . . x";

/// (0,5) makes fours on column 0 and row 5, both against the board edge.
pub const EDGE_12X7: &str = "
    . . . . . . o . . . . o
    o . . . . . . . o . . .
    x . . . . . . . . . . .
    x . . . . . . . . . . .
    x . . . . . . . . . . .
    . x x x . o . . . . . .
    . . . . . . . . . . . o";

/// (5,10) makes two open threes on a tall board.
pub const DOUBLE_THREE_9X20: &str = "
    o . . . . . . . o
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . x . . .
    . . . . . x . . .
    . . . x x . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    o . . . . . . . o";

/// White to move has a double three at (10,10), but black has a four-three VCF at (5,3).
pub const COUNTER_VCF: &str = "
    . . . . . . . . . . . . . . .
    . . . . . x . . . . . . . . .
    . . . . . x . . . . . . . . .
    . o x x x . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . o . . . .
    . . . . . . . . . . o . . . .
    . . . . . . . . o o . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    o . . . . . . . . . . . . . .";

/// White's double three at (10,10); black's closed three gives one four, which only delays.
pub const COUNTER_FOUR_DELAYS: &str = "
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . o x x x . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . o . . . .
    . . . . . . . . . . o . . . .
    . . . . . . . . o o . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    x . . . . . . . . . . . . . .";

/// A quiet opening: no forced win for either side.
pub const QUIET: &str = "
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . o . . . .
    . . . . . . . . . . . . . . .
    . . . . . . o . . . . . . . .
    . . . . . . . x . . . . . . .
    . . . . . . . . o x . . . . .
    . . . . . . . . . . . . . . .
    . . . . . x . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .";

/// Black has an open four; white to move is lost.
pub const OPEN_FOUR: &str = "
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . o . . . . . . . . . . .
    . . . o . . . . . . . . . . .
    . . . o . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . x x x x . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .";

/// Renju, black to move against white's three (5..7,10). Its left end (4,10) is a double three,
/// forbidden for black; black's only defence is (8,10): after (9,10) white's (8,10) is a four
/// that black could only block on the forbidden point.
pub const RENJU_THREE_BY_FORBIDDEN: &str = "
    . . . . . . . . . . . . . . o
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . x . x . . . . . . . . . .
    . . . x x . . . . . . . . . .
    . . . x . o o o . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . o";

#[rustfmt::skip]
const CASES: &[Case] = &[
    // Freestyle, 15x15 and 20x20.
    case("freestyle15-four-three", Rule::Freestyle, FOUR_THREE, Black, VCF, WIN, Some((8, 7))),
    case("freestyle15-four-three-vct", Rule::Freestyle, FOUR_THREE, Black, VCT, WIN, Some((8, 7))),
    case("freestyle15-zigzag", Rule::Freestyle, ZIGZAG, Black, VCF, WIN, None),
    case("freestyle20-corner", Rule::Freestyle, CORNER20, Black, VCF, WIN, Some((0, 18))),
    case("freestyle20-double-three", Rule::Freestyle, DOUBLE_THREE20, Black, VCT, WIN, None),
    case("freestyle20-double-three-no-vcf", Rule::Freestyle, DOUBLE_THREE20, Black, VCF, NO, None),
    case("freestyle15-double-three", Rule::Freestyle, DOUBLE_THREE15, Black, VCT, WIN, None),
    case("freestyle15-double-four", Rule::Freestyle, DOUBLE_FOUR, Black, VCF, WIN, Some((7, 7))),
    case("freestyle15-overline-wins", Rule::Freestyle, OVERLINE, Black, VCF, WIN, Some((5, 7))),
    case("freestyle15-unblocked-five", Rule::Freestyle, BLOCKED_FIVE, Black, VCF, WIN, Some((7, 7))),
    case("freestyle15-white-four-is-blocked", Rule::Freestyle, WHITE_FOUR_ONTO_FORBIDDEN, White, VCF, NO, None),
    case("freestyle15-counter-vcf", Rule::Freestyle, COUNTER_VCF, White, VCT, NO, None),
    case("freestyle15-counter-four-delays", Rule::Freestyle, COUNTER_FOUR_DELAYS, White, VCT, WIN, None),
    case("freestyle15-quiet-black", Rule::Freestyle, QUIET, Black, VCT, NO, None),
    case("freestyle15-quiet-white-after-pass", Rule::Freestyle, QUIET, White, VCT, NO, None),
    case("freestyle15-open-four-lost", Rule::Freestyle, OPEN_FOUR, White, VCT, NO, None),
    case("freestyle15-open-four-after-pass", Rule::Freestyle, OPEN_FOUR, Black, VCF, WIN, None),
    // Standard (exactly five), also on a rectangular board.
    case("standard15-overline-is-not-five", Rule::Standard, OVERLINE, Black, VCF, NO, None),
    case("standard15-four-three-near-overline", Rule::Standard, FOUR_THREE_NEAR_OVERLINE, Black, VCF, WIN, Some((8, 7))),
    case("standard12x7-edge", Rule::Standard, EDGE_12X7, Black, VCF, WIN, Some((0, 5))),
    // Renju.
    case("renju15-white-four-onto-forbidden", Rule::Renju, WHITE_FOUR_ONTO_FORBIDDEN, White, VCF, WIN, Some((11, 3))),
    case("renju15-double-four-forbidden", Rule::Renju, DOUBLE_FOUR, Black, VCF, NO, None),
    case("renju15-four-three-wins", Rule::Renju, FOUR_THREE, Black, VCF, WIN, Some((8, 7))),
    // (7,7) is forbidden, but a three first and then (7,7) as a four-three wins.
    case("renju15-double-three-detour", Rule::Renju, DOUBLE_THREE15, Black, VCT, WIN, None),
    case("renju15-white-double-three", Rule::Renju, WHITE_DOUBLE_THREE15, White, VCT, WIN, None),
    case("renju15-zigzag", Rule::Renju, ZIGZAG, Black, VCF, WIN, None),
    case("renju15-quiet", Rule::Renju, QUIET, Black, VCT, NO, None),
    // Caro (a five blocked at both ends does not win), also on a tall board.
    case("caro15-blocked-five-no-win", Rule::Caro, BLOCKED_FIVE, Black, VCF, NO, None),
    case("caro15-four-three", Rule::Caro, FOUR_THREE, Black, VCF, WIN, Some((8, 7))),
    case("caro5-9x20-double-three", Rule::CaroExact, DOUBLE_THREE_9X20, Black, VCT, WIN, None),
];
