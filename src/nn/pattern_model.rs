//! The pattern-codebook net in libtorch, for training (the engine runs it in plain Rust,
//! `nn::pattern::view`; the formula is in `nn::pattern`'s documentation and both must agree).
//!
//! Input: `[B, pattern::INPUT_PLANES, H, W]` integers (`nn::pattern::inputs`). Output: policy
//! logits `[B, H*W]` (points that are not empty board points get -1e4) and WDL logits `[B, 3]`.
use tch::nn::{self, Module};
use tch::{Kind, Tensor};

use super::pattern::codes::{EMPTY_ROW, ID_COUNT};
use super::pattern::inputs::{
    CELL_EMPTY, CELL_PLANE, FORBIDDEN_PLANE, THREAT_PLANE, VARIANT_PLANE,
};
use super::pattern::threats::THREAT_IDS;
use super::pattern::{LEAK, POOL_CELLS, VALUE_HIDDEN, VARIANT_COUNT};
use super::pattern_mapping::CodebookMapping;

/// Policy logit of the points nobody may play (padding, stones).
const MASKED_LOGIT: f64 = -1e4;

#[derive(Debug)]
pub struct PatternModel {
    codebook: nn::Embedding,
    variant: nn::Embedding,
    forbidden: Tensor,
    policy: nn::Linear,
    value1: nn::Linear,
    value2: nn::Linear,
    /// Version 2: the value MLP's hidden layer → a change of the policy weights.
    policy_context: Option<nn::Linear>,
    /// Version 3: a row per cell's pair of combined threats.
    threat: Option<nn::Embedding>,
    /// The value's weights on the board's per-feature maximum (`value_max` nets).
    value_max: Option<nn::Linear>,
    /// Training only: the codebook is `codebook` plus the rows of this MLP over each row's
    /// cells (`nn::pattern_mapping`).
    mapping: Option<CodebookMapping>,
}

fn leaky(x: &Tensor) -> Tensor {
    x.maximum(&(x * LEAK as f64))
}

impl PatternModel {
    /// `context`: the policy takes the board's context from the value MLP (formula version 2);
    /// `threats`: the cells get their threat rows (version 3); `value_max`: the value reads the
    /// board's per-feature maximum too; `mapping`: the codebook's rows come from a mapping
    /// network of that many hidden units a layer plus the table.
    pub fn new(
        vs: &nn::Path,
        dim: usize,
        context: bool,
        threats: bool,
        value_max: bool,
        mapping: Option<usize>,
    ) -> PatternModel {
        let mapping = mapping.map(|width| CodebookMapping::new(vs, width, dim));
        let dim = dim as i64;
        let embedding = nn::EmbeddingConfig::default();
        let no_bias = nn::LinearConfig {
            bias: false,
            ..Default::default()
        };
        PatternModel {
            codebook: nn::embedding(vs / "codebook", ID_COUNT as i64, dim, embedding),
            variant: nn::embedding(vs / "variant", VARIANT_COUNT as i64, dim, embedding),
            forbidden: vs.zeros("forbidden", &[dim]),
            policy: nn::linear(vs / "policy", dim, 1, Default::default()),
            value1: nn::linear(vs / "value1", dim, VALUE_HIDDEN as i64, Default::default()),
            value2: nn::linear(vs / "value2", VALUE_HIDDEN as i64, 3, Default::default()),
            policy_context: context
                .then(|| nn::linear(vs / "policy_context", VALUE_HIDDEN as i64, dim, no_bias)),
            threat: threats
                .then(|| nn::embedding(vs / "threat", THREAT_IDS as i64, dim, embedding)),
            value_max: value_max
                .then(|| nn::linear(vs / "value_max", dim, VALUE_HIDDEN as i64, no_bias)),
            mapping,
        }
    }

    /// `[ID_COUNT, dim]`: the codebook the net computes with (the table, plus the mapping's
    /// rows where it has one): what a saved network holds.
    pub fn codebook(&self) -> Tensor {
        match &self.mapping {
            None => self.codebook.ws.shallow_clone(),
            Some(m) => &self.codebook.ws + m.rows(self.codebook.ws.device()),
        }
    }

    /// The codebook rows of `ids` (int64 `[B, 4, H, W]`) summed over the four directions
    /// (`[B, H, W, D]`), and the empty row. A mapping computes only the rows the batch reads.
    fn rows(&self, ids: &Tensor) -> (Tensor, Tensor) {
        let sum = |table: &Tensor, at: &Tensor| {
            Tensor::embedding(table, at, -1, false, false).sum_dim_intlist(1, false, Kind::Float)
        };
        let Some(mapping) = &self.mapping else {
            let table = &self.codebook.ws;
            return (sum(table, ids), table.get(EMPTY_ROW as i64));
        };
        let empty = Tensor::from_slice(&[EMPTY_ROW as i64]).to_device(ids.device());
        let all = Tensor::cat(&[empty, ids.flatten(0, -1)], 0);
        let (used, inverse, _) = all.internal_unique2(false, true, false);
        let table = self.codebook.ws.index_select(0, &used) + mapping.rows_of(&used);
        let count = ids.numel() as i64;
        let at = inverse.narrow(0, 1, count).view_as(ids);
        let empty_row = table
            .index_select(0, &inverse.narrow(0, 0, 1))
            .squeeze_dim(0);
        (sum(&table, &at), empty_row)
    }

    /// `xs`: int64 `[B, INPUT_PLANES, H, W]`. Returns `(policy logits [B, H*W], wdl logits [B, 3])`.
    pub fn forward(&self, xs: &Tensor) -> (Tensor, Tensor) {
        let (b, _, h, w) = xs.size4().expect("pattern inputs are [B, planes, H, W]");
        // [B, 4, H, W, D] summed over the directions → [B, H, W, D].
        let (rows, empty_row) = self.rows(&xs.narrow(1, 0, 4));
        let variant = self
            .variant
            .forward(&xs.select(1, VARIANT_PLANE as i64).select(1, 0).select(1, 0));
        let forbidden = xs
            .select(1, FORBIDDEN_PLANE as i64)
            .to_kind(Kind::Float)
            .unsqueeze(-1)
            * &self.forbidden;
        let mut sum = rows + variant.view([b, 1, 1, -1]) + forbidden;
        if let Some(threat) = &self.threat {
            sum += threat.forward(&xs.select(1, THREAT_PLANE as i64));
        }
        let hidden = leaky(&sum);
        let cell = xs.select(1, CELL_PLANE as i64);
        let on_board = cell.gt(0).to_kind(Kind::Float);
        let cells = on_board.sum_dim_intlist([1, 2].as_slice(), false, Kind::Float);
        let mut empty_sum = &variant + empty_row * 4.0;
        if let Some(threat) = &self.threat {
            empty_sum += threat.ws.get(0);
        }
        let empty_features = leaky(&empty_sum);
        let pooled = ((&hidden * on_board.unsqueeze(-1)).sum_dim_intlist(
            [1, 2].as_slice(),
            false,
            Kind::Float,
        ) - empty_features * cells.unsqueeze(-1))
            / POOL_CELLS as f64;
        let mut value_in = self.value1.forward(&pooled);
        if let Some(value_max) = &self.value_max {
            // Per feature, the largest over the board's cells (padding excluded).
            let off_board = on_board.eq(0.0).unsqueeze(-1);
            let maxed = hidden
                .masked_fill(&off_board, f64::NEG_INFINITY)
                .amax([1, 2].as_slice(), false);
            value_in += value_max.forward(&maxed);
        }
        let context = value_in.relu();
        let wdl = self.value2.forward(&context);
        let playable = cell.eq(CELL_EMPTY);
        let logits = match &self.policy_context {
            None => self.policy.forward(&hidden).squeeze_dim(-1),
            Some(tune) => {
                // [B, D]: the policy weights of each position.
                let weights = tune.forward(&context) + &self.policy.ws;
                let bias = self.policy.bs.as_ref().expect("the policy has a bias");
                (hidden * weights.view([b, 1, 1, -1])).sum_dim_intlist(-1, false, Kind::Float)
                    + bias
            }
        };
        let logits = logits
            .masked_fill(&playable.logical_not(), MASKED_LOGIT)
            .view([b, h * w]);
        (logits, wdl)
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use tch::{Device, Kind, Tensor};

    use crate::game::{Board, Point, Rule};
    use crate::nn::pattern::inputs::encode_board;
    use crate::nn::pattern::INPUT_PLANES;
    use crate::nn::{Arch, Network, PatternState, PatternWeights};

    /// The training inputs of a 15x15 board with three stones.
    fn three_stones(rule: Rule) -> Tensor {
        let moves = [Point::new(7, 7), Point::new(8, 8), Point::new(6, 8)];
        let board = Board::from_moves(15, 15, rule, &moves).unwrap();
        let mut inputs = vec![0i64; INPUT_PLANES * 15 * 15];
        encode_board(&board, 15, 15, &mut inputs);
        Tensor::from_slice(&inputs).view([1, INPUT_PLANES as i64, 15, 15])
    }

    /// An older net raised to a newer formula computes what it did (the board context and the
    /// threat rows start at 0); each formula's own new weights, random, move the outputs.
    #[test]
    fn an_older_net_raised_to_the_new_formula_keeps_its_outputs() {
        let v3 = Network::random(Arch::pattern(8), 3, Device::Cpu).unwrap();
        let v2 = v3.with_pattern_version(2).unwrap();
        let v1 = v2.with_pattern_version(1).unwrap();
        let (raised2, raised3) = (
            v1.with_pattern_version(2).unwrap(),
            v2.with_pattern_version(3).unwrap(),
        );
        assert_eq!(v1.meta().version, 1);
        assert_eq!((raised2.meta().version, raised3.meta().version), (2, 3));
        assert_eq!(v2.meta().input_planes, INPUT_PLANES - 1);
        assert_eq!(raised3.meta().input_planes, INPUT_PLANES);
        let xs = three_stones(Rule::Freestyle);
        let outputs = |net: &Network| tch::no_grad(|| net.forward_t(&xs, false));
        let close = |a: &(Tensor, Tensor), b: &(Tensor, Tensor)| {
            let max = |x: &Tensor, y: &Tensor| (x - y).abs().max().double_value(&[]);
            (max(&a.0, &b.0) < 1e-5, max(&a.1, &b.1) < 1e-5)
        };
        let (o1, o2, o3) = (outputs(&v1), outputs(&v2), outputs(&v3));
        assert_eq!(close(&o1, &outputs(&raised2)), (true, true));
        assert_eq!(close(&o2, &outputs(&raised3)), (true, true));
        // The random context of version 2 moves the policy, not the value; version 3's threat
        // rows move both.
        assert_eq!(close(&o1, &o2), (false, true));
        assert_eq!(close(&o2, &o3), (false, false));
    }

    /// A net given the value's board maximum computes what it did (the new weights start at 0)
    /// and keeps it through a save; random weights there move the value, not the policy's own
    /// rows.
    #[test]
    fn a_net_given_the_value_maximum_keeps_its_outputs() {
        let net = Network::random(Arch::pattern(8), 5, Device::Cpu).unwrap();
        let with = net.with_value_max().unwrap();
        assert!(with.meta().value_max && !net.meta().value_max);
        let xs = three_stones(Rule::Freestyle);
        let outputs = |net: &Network| tch::no_grad(|| net.forward_t(&xs, false));
        let max = |x: &Tensor, y: &Tensor| (x - y).abs().max().double_value(&[]);
        let ((p1, v1), (p2, v2)) = (outputs(&net), outputs(&with));
        assert!(max(&p1, &p2) < 1e-5 && max(&v1, &v2) < 1e-5);
        tch::no_grad(|| {
            for (name, mut var) in with.var_store().variables() {
                if name == "value_max.weight" {
                    let _ = var.fill_(0.5);
                }
            }
        });
        let (_, v3) = outputs(&with);
        assert!(max(&v1, &v3) > 1e-3, "the maximum reaches the value");
    }

    /// A widened net computes what it did, and its new features are live (training can grow
    /// them); a narrower width is refused.
    #[test]
    fn a_widened_net_keeps_its_outputs() {
        let narrow = Network::random(Arch::pattern(8), 4, Device::Cpu).unwrap();
        let wide = narrow.widened(12).unwrap();
        assert_eq!(wide.arch(), Arch::pattern(12));
        assert!(narrow.widened(4).is_err());
        let xs = three_stones(Rule::Renju);
        let outputs = |net: &Network| tch::no_grad(|| net.forward_t(&xs, false));
        let ((p1, v1), (p2, v2)) = (outputs(&narrow), outputs(&wide));
        let close = |a: &Tensor, b: &Tensor| (a - b).abs().max().double_value(&[]) < 1e-4;
        assert!(close(&p1, &p2) && close(&v1, &v2));
        let codebook = wide
            .var_store()
            .variables()
            .remove("codebook.weight")
            .unwrap();
        assert!(
            codebook
                .narrow(1, 8, 4)
                .abs()
                .sum(Kind::Float)
                .double_value(&[])
                > 0.0
        );
    }

    /// A net trained through a codebook mapping starts as it was, saves the codebook it
    /// computes as an ordinary network (which the engine's loader takes and which computes the
    /// same), and the mapping saved beside it brings the training state back.
    #[test]
    fn a_net_with_a_codebook_mapping_saves_the_codebook_it_computes() {
        let dir =
            std::env::temp_dir().join(format!("hoshi-pattern-mapping-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("net");
        let net = Network::random(Arch::pattern(8), 11, Device::Cpu).unwrap();
        let mapped = net.with_mapping(16, false, 3).unwrap();
        assert!(mapped.has_mapping() && !net.has_mapping());
        let xs = three_stones(Rule::Renju);
        let outputs = |net: &Network| tch::no_grad(|| net.forward_t(&xs, false));
        let max = |x: &Tensor, y: &Tensor| (x - y).abs().max().double_value(&[]);
        let ((p0, v0), (p1, v1)) = (outputs(&net), outputs(&mapped));
        assert!(
            max(&p0, &p1) < 1e-5 && max(&v0, &v1) < 1e-5,
            "it starts as it was"
        );
        // Give the mapping's output something to do: the outputs move.
        tch::no_grad(|| {
            for (name, mut var) in mapped.var_store().variables() {
                if name.starts_with("mapping.out") {
                    let count = var.numel() as i64;
                    let ramp = Tensor::arange(count, (Kind::Float, Device::Cpu));
                    var.copy_(&((ramp * 0.61).sin() * 0.4).view_as(&var));
                }
            }
        });
        let (p2, v2) = outputs(&mapped);
        assert!(
            max(&p0, &p2) > 1e-3 && max(&v0, &v2) > 1e-4,
            "the mapping's rows count"
        );
        mapped.save(&path).unwrap();
        assert!(Network::mapping_path(&path).is_file());
        // The saved net is an ordinary one: the engine reads it, libtorch computes the same.
        PatternWeights::load(&path).unwrap();
        let plain = Network::load(&path, Device::Cpu).unwrap();
        assert!(!plain.has_mapping());
        let (p3, v3) = outputs(&plain);
        assert!(max(&p2, &p3) < 1e-4 && max(&v2, &v3) < 1e-5);
        // Back in training: the table and the mapping as they were saved, not the sum twice.
        let resumed = plain.with_mapping(16, false, 99).unwrap();
        assert!(resumed.load_mapping(&path).unwrap());
        let (p4, v4) = outputs(&resumed);
        assert!(max(&p2, &p4) < 1e-4 && max(&v2, &v4) < 1e-5);
        // From scratch the rows are the mapping's alone: a zero mapping gives the empty codebook.
        let fresh = net.with_mapping(16, true, 3).unwrap();
        let codebook = fresh
            .var_store()
            .variables()
            .remove("codebook.weight")
            .unwrap();
        assert_eq!(codebook.abs().sum(Kind::Float).double_value(&[]), 0.0);
        std::fs::remove_dir_all(dir).ok();
    }

    /// The trainer's libtorch forward pass and the engine's incremental Rust evaluation must be
    /// the same function of the same weights file.
    #[test]
    fn libtorch_and_the_incremental_evaluation_agree_through_a_network_file() {
        agree_through_a_network_file(false);
    }

    /// The same for a net whose value reads the board's maximum (the renju board's forbidden
    /// points change their cells' features, so the maximum must read them flagged).
    #[test]
    fn the_value_maximum_agrees_through_a_network_file() {
        agree_through_a_network_file(true);
    }

    fn agree_through_a_network_file(value_max: bool) {
        let dir =
            std::env::temp_dir().join(format!("hoshi-pattern-{}-{value_max}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("net");
        // 12 features with the maximum: a block of eight and four read one by one.
        let dim = if value_max { 12 } else { 8 };
        let mut net = Network::random(Arch::pattern(dim), 7, Device::Cpu).unwrap();
        if value_max {
            net = net.with_value_max().unwrap();
        }
        // Random weights leave the forbidden row (and a new value maximum's weights) at 0:
        // give them something to do.
        tch::no_grad(|| {
            for (name, mut var) in net.var_store().variables() {
                if name == "forbidden" {
                    let row = [
                        0.5f32, -1.0, 2.0, 0.0, 1.0, -0.5, 0.25, 3.0, -2.0, 1.5, 0.75, 2.5,
                    ];
                    var.copy_(&Tensor::from_slice(&row[..dim]));
                }
                if name == "value_max.weight" {
                    let count = var.numel() as i64;
                    let ramp = Tensor::arange(count, (Kind::Float, Device::Cpu));
                    var.copy_(&((ramp * 0.37).sin() * 0.8).view_as(&var));
                }
            }
        });
        net.save(&path).unwrap();
        assert_eq!(
            PatternWeights::load(&path).unwrap().value_max.is_empty(),
            !value_max
        );
        let weights = Arc::new(PatternWeights::load(&path).unwrap());
        let renju_moves = [
            (7, 7),
            (0, 0),
            (9, 7),
            (0, 2),
            (8, 8),
            (0, 4),
            (8, 6),
            (14, 14),
        ];
        let boards = [
            Board::from_moves(
                15,
                15,
                Rule::Freestyle,
                &[Point::new(7, 7), Point::new(8, 8)],
            )
            .unwrap(),
            Board::from_moves(
                15,
                15,
                Rule::Renju,
                &renju_moves.map(|(x, y)| Point::new(x, y)),
            )
            .unwrap(),
            Board::from_moves(
                12,
                9,
                Rule::Caro,
                &[Point::new(0, 0), Point::new(11, 8), Point::new(5, 4)],
            )
            .unwrap(),
        ];
        assert!(
            !boards[1].forbidden_points().is_empty(),
            "the renju board has forbidden points"
        );
        let (pad_w, pad_h) = (15, 15);
        let mut inputs = vec![0i64; boards.len() * INPUT_PLANES * pad_w * pad_h];
        for (i, board) in boards.iter().enumerate() {
            let len = INPUT_PLANES * pad_w * pad_h;
            encode_board(board, pad_w, pad_h, &mut inputs[i * len..(i + 1) * len]);
        }
        let xs =
            Tensor::from_slice(&inputs).view([boards.len() as i64, INPUT_PLANES as i64, 15, 15]);
        let (logits, wdl) = tch::no_grad(|| net.forward_t(&xs, false));
        let wdl = wdl.softmax(1, tch::Kind::Float);
        let mut state = PatternState::new(weights);
        for (i, board) in boards.iter().enumerate() {
            let forbidden: Vec<usize> = board
                .forbidden_points()
                .iter()
                .map(|&p| board.index(p))
                .collect();
            let moves: Vec<Point> = board.legal_moves();
            let idx: Vec<usize> = moves.iter().map(|&p| board.index(p)).collect();
            let mut mine = Vec::new();
            let value = state.evaluate(board, &forbidden, &idx, &mut mine);
            for (c, v) in value.iter().enumerate() {
                let torch = wdl.double_value(&[i as i64, c as i64]) as f32;
                assert!(
                    (v - torch).abs() < 1e-4,
                    "board {i}: value {c}: {v} vs {torch}"
                );
            }
            for (p, l) in moves.iter().zip(&mine) {
                let at = p.y as i64 * pad_w as i64 + p.x as i64;
                let torch = logits.double_value(&[i as i64, at]) as f32;
                assert!(
                    (l - torch).abs() < 1e-3,
                    "board {i} {p}: logit {l} vs {torch}"
                );
            }
            // Every point that is not a legal empty point is masked out for training.
            let first_stone = board.history()[0];
            let at = first_stone.y as i64 * pad_w as i64 + first_stone.x as i64;
            assert!(logits.double_value(&[i as i64, at]) < -1e3);
        }
        std::fs::remove_dir_all(dir).ok();
    }
}
