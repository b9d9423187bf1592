//! Threat geometry the search needs on top of the board's line patterns: who may play where, which
//! fives a stone creates, how a five can be stopped, and which points win outright.
//!
//! All functions take board indices (see `Board::index`). Helpers that need to try a stone take
//! `&mut Board` and leave it as they found it.
use crate::game::{Board, Color, Pattern, Rule, Threat};

/// Whether `color` may play the index: empty, and not one of black's renju forbidden points.
#[inline]
pub(crate) fn legal(board: &Board, idx: usize, color: Color) -> bool {
    board.is_empty_idx(idx) && !(color == Color::Black && board.is_forbidden_idx(idx))
}

/// Puts a stone of `color` on an empty index, whoever is to move (the solver asks "what if the
/// attacker moved now?" too). Undo with `Board::undo`.
#[inline]
pub(crate) fn put(board: &mut Board, idx: usize, color: Color) {
    if board.side_to_move() == color {
        board.play_unchecked(idx);
    } else {
        let p = board.point(idx);
        board
            .place(p, color)
            .expect("the solver only puts stones on empty board points");
    }
}

/// Calls `f(cell, dir)` for every index at distance `1..=reach` (at most 5) from `idx` along the four
/// lines; cells may be walls or stones.
#[inline]
pub(crate) fn for_each_on_lines(
    board: &Board,
    idx: usize,
    reach: usize,
    mut f: impl FnMut(usize, usize),
) {
    debug_assert!(reach <= 5, "the board's padding covers five steps");
    for d in 0..4 {
        let step = board.dir_step(d);
        for k in 1..=reach {
            f(idx + k * step, d);
            f(idx - k * step, d);
        }
    }
}

fn push_unique(out: &mut Vec<usize>, idx: usize) {
    if !out.contains(&idx) {
        out.push(idx);
    }
}

/// The five points of `color` whose fives pass through its stone on `idx` (within four steps):
/// after that stone lands, the fives it created. Fives elsewhere on its lines are not reported;
/// the solver asks only where the side has none.
pub(crate) fn fives_near(board: &Board, idx: usize, color: Color) -> Vec<usize> {
    let mut out = Vec::new();
    shapes_through(
        board,
        idx,
        color,
        4,
        |p| p == Pattern::Five,
        |q| push_unique(&mut out, q),
    );
    out
}

/// Calls `f` for each empty point within four steps of `color`'s stone on `idx`, on a line
/// through it, where `color` would make a shape `keep` accepts on that line that needs `own`
/// stones of its colour besides the point's own (a five 4, a four 3). Where the shape holds the
/// stone on `idx`, the rest lie within four steps of it: a line where `idx` counts fewer than
/// `own - 1` of them is not read.
fn shapes_through(
    board: &Board,
    idx: usize,
    color: Color,
    own: u32,
    keep: impl Fn(Pattern) -> bool,
    mut f: impl FnMut(usize),
) {
    empty_on_lines_holding(board, idx, color, own - 1, 4, |q, d| {
        if board.own_on_line(q, d, color) >= own && keep(board.pattern_idx(q, color, d)) {
            f(q);
        }
    });
}

/// Calls `f(cell, dir)` for each empty cell within `reach` (at most 5) steps of `idx` on the
/// lines through it that hold at least `others` stones of `color` within five steps of `idx`
/// (besides one on `idx`): where a shape made with a stone on `idx` can be.
pub(crate) fn empty_on_lines_holding(
    board: &Board,
    idx: usize,
    color: Color,
    others: u32,
    reach: usize,
    mut f: impl FnMut(usize, usize),
) {
    debug_assert!(reach <= 5, "the board's padding covers five steps");
    for d in 0..4 {
        if board.own_on_line(idx, d, color) < others {
            continue;
        }
        let step = board.dir_step(d);
        for k in 1..=reach {
            for q in [idx + k * step, idx - k * step] {
                if board.is_empty_idx(q) {
                    f(q, d);
                }
            }
        }
    }
}

/// Caro: the empty cells just past both ends of the run `owner` would make on `five` (per line
/// where it is a five). An opponent stone there can turn the five into a blocked, non-winning one.
fn run_ends(board: &Board, five: usize, owner: Color, out: &mut Vec<usize>) {
    for d in 0..4 {
        if board.pattern_idx(five, owner, d) != Pattern::Five {
            continue;
        }
        let step = board.dir_step(d);
        let mut end = five + step;
        while board.get_idx(end) == Some(owner) {
            end += step;
        }
        if board.is_empty_idx(end) {
            push_unique(out, end);
        }
        let mut end = five - step;
        while board.get_idx(end) == Some(owner) {
            end -= step;
        }
        if board.is_empty_idx(end) {
            push_unique(out, end);
        }
    }
}

/// The moves of `owner`'s opponent after which `owner` has none of the five points `fives` left
/// (the caller knows these are all of them). Normally that is occupying the only one; in caro a
/// stone past the end of the run can also make the five a blocked one. Empty: the fives cannot
/// be stopped (two of them, or renju black may not play the only one).
pub(crate) fn five_blocks(board: &mut Board, fives: &[usize], owner: Color) -> Vec<usize> {
    let blocker = owner.opponent();
    if !board.rule().blocked_five_fails() {
        return match fives {
            [only] if legal(board, *only, blocker) => vec![*only],
            _ => Vec::new(),
        };
    }
    let mut region = fives.to_vec();
    for &f in fives {
        run_ends(board, f, owner, &mut region);
    }
    region.retain(|&q| {
        if !legal(board, q, blocker) {
            return false;
        }
        put(board, q, blocker);
        let stopped = fives.iter().all(|&f| f == q || !board.is_win_idx(f, owner));
        board.undo();
        stopped
    });
    region
}

/// Whether `color` playing `w` wins by force at once: the stone makes fives that the opponent
/// cannot all stop with one move (an open four, a double four, a renju white four whose only
/// block is forbidden for black, a caro four that cannot be blocked at either end...).
/// Assumes `color` has no five point already.
pub(crate) fn is_win_point(board: &mut Board, w: usize, color: Color) -> bool {
    if !board.is_empty_idx(w) {
        return false;
    }
    let threat = board.threat_idx(w, color);
    // Shape first: it is one table lookup per line, legality may be a renju search.
    if threat < Threat::Four || !legal(board, w, color) {
        return false;
    }
    let by_shape = matches!(threat, Threat::OpenFour | Threat::DoubleFour | Threat::Five);
    let rule = board.rule();
    let needs_play = rule.blocked_five_fails() || (rule == Rule::Renju && color == Color::White);
    if !needs_play || by_shape && !rule.blocked_five_fails() {
        return by_shape;
    }
    put(board, w, color);
    let fives = fives_near(board, w, color);
    let wins = !fives.is_empty() && five_blocks(board, &fives, color).is_empty();
    board.undo();
    wins
}

/// Every winning point of `color` (see [`is_win_point`]).
pub(crate) fn win_points(board: &mut Board, color: Color) -> Vec<usize> {
    let fours = board.four_points(color);
    fours
        .into_iter()
        .filter(|&w| is_win_point(board, w, color))
        .collect()
}

/// Whether a stone of `color` on `idx` made a winning point: one within four steps whose four
/// on their shared line holds that stone (the solver asks where the side had none before).
pub(crate) fn has_win_point_near(board: &mut Board, idx: usize, color: Color) -> bool {
    // A new winning point makes a four on the line it shares with `idx`.
    let mut cells = Vec::with_capacity(32);
    shapes_through(board, idx, color, 3, Pattern::is_four, |q| cells.push(q));
    cells.into_iter().any(|q| is_win_point(board, q, color))
}

/// The cells where an opponent stone could take the win out of `color`'s winning point `w`: `w`
/// itself, the fives `w` would make and (caro) the ends of their runs. In renju, when a white five
/// would land on a point forbidden for black, black may also defend by making that point legal
/// again, so the neighbourhood of that point joins in.
pub(crate) fn win_point_region(board: &mut Board, w: usize, color: Color) -> Vec<usize> {
    let mut region = vec![w];
    put(board, w, color);
    let fives = fives_near(board, w, color);
    for &f in &fives {
        push_unique(&mut region, f);
        if board.rule().blocked_five_fails() {
            run_ends(board, f, color, &mut region);
        }
    }
    let forbidden: Vec<usize> = if board.rule() == Rule::Renju && color == Color::White {
        fives
            .iter()
            .copied()
            .filter(|&f| board.is_forbidden_idx(f))
            .collect()
    } else {
        Vec::new()
    };
    board.undo();
    for f in forbidden {
        let p = board.point(f);
        for dy in -5i32..=5 {
            for dx in -5i32..=5 {
                let (x, y) = (p.x as i32 + dx, p.y as i32 + dy);
                if board.is_on_board(x, y) {
                    let q = board.index(crate::game::Point::new(x as u8, y as u8));
                    if board.is_empty_idx(q) {
                        push_unique(&mut region, q);
                    }
                }
            }
        }
    }
    region
}

/// Empty cells within `reach` steps along the lines of any of `points` (and the points themselves
/// when empty): where a stone can change what happens on those points.
pub(crate) fn zone(board: &Board, points: &[usize], reach: usize) -> Vec<usize> {
    let mut seen = vec![false; board.index_len()];
    let mut out = Vec::new();
    let mut add = |q: usize, out: &mut Vec<usize>| {
        if board.is_empty_idx(q) && !seen[q] {
            seen[q] = true;
            out.push(q);
        }
    };
    for &p in points {
        add(p, &mut out);
        for_each_on_lines(board, p, reach, |q, _| add(q, &mut out));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Point;

    fn idx(b: &Board, x: u8, y: u8) -> usize {
        b.index(Point::new(x, y))
    }

    #[test]
    fn fives_and_blocks_freestyle() {
        let mut b = Board::from_diagram(
            Rule::Freestyle,
            "
            . . . . . . . . .
            . x x x x . . . .
            . o o o . . . . .
            . . . . . . . . .
            . . . . . . . . .",
        )
        .unwrap();
        let fives = fives_near(&b, idx(&b, 4, 1), Color::Black);
        let mut sorted = fives.clone();
        sorted.sort();
        assert_eq!(sorted, vec![idx(&b, 0, 1), idx(&b, 5, 1)]);
        assert!(five_blocks(&mut b, &fives, Color::Black).is_empty());
        let right = idx(&b, 5, 1);
        assert_eq!(five_blocks(&mut b, &[right], Color::Black), vec![right]);
    }

    #[test]
    fn caro_five_stopped_at_the_run_end() {
        // o x x x x . .  : the five at 5 would be blocked by a white stone at 6.
        let mut b = Board::from_diagram(
            Rule::Caro,
            "
            o x x x x . . . .
            . . . . . . . . .
            . o o o . . . . .
            . . . . . . . . .
            . . . . . . . . .",
        )
        .unwrap();
        let f = idx(&b, 5, 0);
        assert!(b.is_win_idx(f, Color::Black));
        let mut blocks = five_blocks(&mut b, &[f], Color::Black);
        blocks.sort();
        assert_eq!(blocks, vec![f, idx(&b, 6, 0)]);
    }

    #[test]
    fn win_points_by_rule() {
        // Black's open three: the ends make an open four. In renju, white's four whose only
        // completion is forbidden for black is a winning point as well.
        let mut b = Board::from_diagram(
            Rule::Freestyle,
            "
            . . . . . . . . .
            . . x x x . . . .
            . . . . . . . . .
            . o o o . . . . .
            . . . . . . . . .",
        )
        .unwrap();
        let mut w = win_points(&mut b, Color::Black);
        w.sort();
        assert_eq!(w, vec![idx(&b, 1, 1), idx(&b, 5, 1)]);
        let (centre, far, end) = (idx(&b, 3, 1), idx(&b, 8, 3), idx(&b, 1, 1));
        assert!(has_win_point_near(&mut b, centre, Color::Black));
        assert!(!has_win_point_near(&mut b, far, Color::Black));
        let region = win_point_region(&mut b, end, Color::Black);
        for q in [idx(&b, 1, 1), idx(&b, 0, 1), idx(&b, 5, 1)] {
            assert!(region.contains(&q));
        }
    }

    #[test]
    fn renju_white_four_onto_forbidden_point_wins() {
        // Black (7,5),(7,6) and (5,7),(6,7): (7,7) is a double-three point, forbidden for black.
        // White (8,6),(9,5),(10,4) on the anti-diagonal through (7,7), black blocks (12,2): white
        // at (11,3) makes a four whose only completion is (7,7).
        let mut b = Board::new(15, 15, Rule::Renju).unwrap();
        for (x, y) in [(7, 5), (7, 6), (5, 7), (6, 7), (12, 2)] {
            b.place(Point::new(x, y), Color::Black).unwrap();
        }
        for (x, y) in [(8, 6), (9, 5), (10, 4)] {
            b.place(Point::new(x, y), Color::White).unwrap();
        }
        let f = idx(&b, 7, 7);
        let w = idx(&b, 11, 3);
        assert!(b.is_forbidden_idx(f), "\n{b}");
        assert!(is_win_point(&mut b, w, Color::White), "\n{b}");
        assert!(!is_win_point(&mut b, w, Color::Black));
        let region = win_point_region(&mut b, w, Color::White);
        assert!(region.contains(&f));
        assert!(
            region.contains(&idx(&b, 7, 4)),
            "black may spoil the double three"
        );
        // In freestyle the same white four is an ordinary four.
        b.set_rule(Rule::Freestyle);
        assert!(!is_win_point(&mut b, w, Color::White));
    }

    #[test]
    fn zone_covers_lines() {
        let b = Board::new(9, 9, Rule::Freestyle).unwrap();
        let z = zone(&b, &[idx(&b, 4, 4)], 5);
        // 1 + 4 lines * both sides * up to 4 cells on a 9x9 board.
        assert_eq!(z.len(), 1 + 4 * 8);
        assert!(z.contains(&idx(&b, 0, 0)));
        assert!(!z.contains(&idx(&b, 1, 2)));
    }
}
