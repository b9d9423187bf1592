//! Board benchmarks: make+unmake, pattern reads, renju forbidden check of a whole mid-game board.
use criterion::{black_box, criterion_group, criterion_main, Criterion};
use hoshi::game::{Board, Color, Point, Rule};

/// A fixed mid-game renju position (about 40 stones) reached by a simple deterministic walk.
fn midgame(rule: Rule) -> Board {
    let mut board = Board::new(15, 15, rule).unwrap();
    let mut state = 0x2545_F491_4F6C_DD1Du64;
    let mut x = 7i32;
    let mut y = 7i32;
    while board.stone_count() < 40 {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        let nx = (x + (state % 5) as i32 - 2).clamp(2, 12);
        let ny = (y + ((state >> 8) % 5) as i32 - 2).clamp(2, 12);
        let p = Point::new(nx as u8, ny as u8);
        if board.is_empty(p) {
            let idx = board.index(p);
            // Keep the game going: no wins and no black fouls in the set-up.
            let c = board.side_to_move();
            let foul = c == Color::Black && board.is_forbidden_idx(idx);
            if !foul && !board.is_win_idx(idx, c) {
                board.play_unchecked(idx);
                x = nx;
                y = ny;
            }
        }
    }
    board
}

fn make_unmake(c: &mut Criterion) {
    let mut board = midgame(Rule::Renju);
    let mut empties = Vec::new();
    board.for_each_empty(|i| empties.push(i));
    c.bench_function("make+unmake (each empty point of a 15x15 mid-game)", |b| {
        b.iter(|| {
            for &i in &empties {
                board.play_unchecked(i);
                board.undo();
            }
            black_box(board.hash())
        })
    });
}

fn patterns(c: &mut Criterion) {
    let board = midgame(Rule::Renju);
    c.bench_function("patterns: 4 dirs x 2 colours, every empty point", |b| {
        b.iter(|| {
            let mut sum = 0u32;
            board.for_each_empty(|i| {
                for color in [Color::Black, Color::White] {
                    for d in 0..4 {
                        sum += board.pattern_idx(i, color, d) as u32;
                    }
                }
            });
            black_box(sum)
        })
    });
    let mut board = midgame(Rule::Freestyle);
    let mut empties = Vec::new();
    board.for_each_empty(|i| empties.push(i));
    c.bench_function("make + 8 pattern reads around it + unmake", |b| {
        b.iter(|| {
            let mut sum = 0u32;
            for &i in &empties {
                board.play_unchecked(i);
                let step = board.dir_step(0);
                sum += board.pattern_idx(i + step, Color::Black, 0) as u32;
                sum += board.pattern_idx(i - step, Color::White, 0) as u32;
                for d in 1..4 {
                    let s = board.dir_step(d);
                    sum += board.pattern_idx(i + s, Color::Black, d) as u32;
                    sum += board.pattern_idx(i - s, Color::White, d) as u32;
                }
                board.undo();
            }
            black_box(sum)
        })
    });
    c.bench_function("threat lists: fives+fours+open threes, both colours", |b| {
        b.iter(|| {
            let mut n = 0;
            for color in [Color::Black, Color::White] {
                n += board.five_points(color).len();
                n += board.four_points(color).len();
                n += board.open_three_points(color).len();
            }
            black_box(n)
        })
    });
}

fn forbidden(c: &mut Criterion) {
    let board = midgame(Rule::Renju);
    c.bench_function(
        "renju forbidden check, every empty point (15x15, 40 stones)",
        |b| b.iter(|| black_box(board.forbidden_points().len())),
    );
}

/// Real and fake double threes (the chain case of tests/rules.rs): the recursive check runs.
const CHAIN: &str = "
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . o . . x x . . . . .
    . . . . . . . x . . x x . . .
    . . . . . . . x . . x . x . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .";

fn forbidden_recursive(c: &mut Criterion) {
    let board = Board::from_diagram(Rule::Renju, CHAIN).unwrap();
    assert_eq!(board.forbidden_points().len(), 2);
    c.bench_function(
        "renju forbidden check, every empty point (chained double threes)",
        |b| b.iter(|| black_box(board.forbidden_points().len())),
    );
}

criterion_group!(
    benches,
    make_unmake,
    patterns,
    forbidden,
    forbidden_recursive
);
criterion_main!(benches);
