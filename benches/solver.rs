//! Solver benchmarks: the reference suite end to end, and VCF/VCT throughput (nodes per second)
//! on random middle-game positions.
//!
//! Run briefly with `cargo bench --bench solver -- --warm-up-time 1 --measurement-time 3`.
use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use hoshi::game::{Board, MoveOutcome, Point, Rule};
#[path = "../tests/support/solver_suite.rs"]
#[allow(dead_code)]
mod suite;
use hoshi::solver::{Budget, Solver};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::ops::Range;
use suite::Kind;

/// Table size for the benchmarks: big enough for every search here, cheap to clear.
const TABLE_BITS: u32 = 16;

fn solve_suite(solver: &mut Solver) -> u64 {
    let mut nodes = 0;
    for case in suite::cases() {
        let board = case.board();
        let budget = Budget::nodes(2_000_000);
        let _ = match case.kind {
            Kind::Vcf => solver.vcf(&board, case.attacker, budget),
            Kind::Vct => solver.vct(&board, case.attacker, budget),
        };
        nodes += solver.last_nodes();
    }
    nodes
}

/// Positions from random play near the centre where no move ever made a four (`fours: false`), or
/// (`fours: true`) where the side to move never has a five at once: positions where the searches
/// have real work to do.
fn random_positions(rule: Rule, count: usize, stones: Range<usize>, fours: bool) -> Vec<Board> {
    let mut rng = StdRng::seed_from_u64(2024);
    let mut boards = Vec::new();
    while boards.len() < count {
        let target = rng.gen_range(stones.clone());
        let mut b = Board::new(15, 15, rule).unwrap();
        let mut tries = 0;
        while b.stone_count() < target && tries < 10_000 {
            tries += 1;
            let p = Point::new(rng.gen_range(2..13), rng.gen_range(2..13));
            let me = b.side_to_move();
            if !b.is_empty(p) || b.outcome_of(p, me) != MoveOutcome::Ongoing {
                continue;
            }
            b.play(p).unwrap();
            let too_sharp = if fours {
                !b.five_points(me.opponent()).is_empty()
            } else {
                !b.four_points(me).is_empty()
            };
            if too_sharp {
                b.undo();
            }
        }
        if b.stone_count() == target {
            boards.push(b);
        }
    }
    boards
}

/// Solves every board for both colours (the side not to move as if its opponent passed).
fn solve_all(solver: &mut Solver, boards: &[Board], kind: Kind, budget: Budget) -> u64 {
    let mut nodes = 0;
    for b in boards {
        for attacker in [b.side_to_move(), b.side_to_move().opponent()] {
            let _ = match kind {
                Kind::Vcf => solver.vcf(b, attacker, budget),
                Kind::Vct => solver.vct(b, attacker, budget),
            };
            nodes += solver.last_nodes();
        }
    }
    nodes
}

fn bench_suite(c: &mut Criterion) {
    let mut solver = Solver::with_table_bits(TABLE_BITS);
    let nodes = solve_suite(&mut solver);
    let mut group = c.benchmark_group("solver");
    group.throughput(Throughput::Elements(nodes));
    group.bench_function(
        format!("suite ({} cases, {nodes} nodes)", suite::cases().len()),
        |b| {
            b.iter(|| {
                solver.clear();
                solve_suite(&mut solver)
            })
        },
    );
    group.finish();
}

fn bench_random(c: &mut Criterion) {
    let mut group = c.benchmark_group("solver");
    for (rule, kind, budget) in [
        (Rule::Freestyle, Kind::Vcf, Budget::nodes(100_000)),
        (Rule::Renju, Kind::Vcf, Budget::nodes(100_000)),
        (Rule::Freestyle, Kind::Vct, Budget::nodes(100_000)),
        (Rule::Renju, Kind::Vct, Budget::nodes(100_000)),
    ] {
        let stones = if kind == Kind::Vcf { 30..60 } else { 20..40 };
        let boards = random_positions(rule, 20, stones, kind == Kind::Vcf);
        let mut solver = Solver::with_table_bits(TABLE_BITS);
        let nodes = solve_all(&mut solver, &boards, kind, budget);
        group.throughput(Throughput::Elements(nodes));
        let name = format!("{rule} {kind:?} 20 random x2 colours ({nodes} nodes)");
        group.bench_function(name, |b| {
            b.iter(|| {
                solver.clear();
                solve_all(&mut solver, &boards, kind, budget)
            })
        });
    }
    group.finish();
}

/// `quick` on a stream of related positions, as a tree search calls it: each board is the previous
/// one plus a stone or two.
fn bench_quick(c: &mut Criterion) {
    let mut boards = Vec::new();
    for start in random_positions(Rule::Freestyle, 4, 20..30, true) {
        let mut b = start.clone();
        let mut rng = StdRng::seed_from_u64(b.hash());
        for _ in 0..25 {
            let p = Point::new(rng.gen_range(2..13), rng.gen_range(2..13));
            if b.is_empty(p) && b.outcome_of(p, b.side_to_move()) == MoveOutcome::Ongoing {
                b.play(p).unwrap();
                boards.push(b.clone());
            }
        }
    }
    let mut solver = Solver::with_table_bits(TABLE_BITS);
    let mut group = c.benchmark_group("solver");
    group.throughput(Throughput::Elements(boards.len() as u64));
    group.bench_function(
        format!("quick x{} related positions", boards.len()),
        |bench| {
            bench.iter(|| {
                solver.clear();
                boards.iter().filter(|b| solver.quick(b).is_some()).count()
            })
        },
    );
    group.finish();
}

criterion_group!(benches, bench_suite, bench_random, bench_quick);
criterion_main!(benches);
