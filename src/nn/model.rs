//! The policy-value net: a residual tower of 3x3 convolutions, fully convolutional, so one set of
//! weights plays every board size and shape.
//!
//! - stem: 3x3 conv (16 -> C), masked batch norm, ReLU;
//! - `blocks` residual blocks: conv-bn-relu-conv-bn + skip, ReLU;
//! - policy head: 1x1 conv (C -> 32), bn, relu, 1x1 conv (32 -> 1): one logit per point;
//!   off-board and occupied points get [`MASKED_LOGIT`];
//! - value head: 1x1 conv (C -> 32), bn, relu, then over the board points: mean, mean scaled by
//!   board size, and max (96 numbers) -> FC 128 -> ReLU -> FC 3: win/draw/loss logits from the
//!   side to move's view.
//!
//! Every activation that feeds a convolution is multiplied by the on-board plane, so the
//! padding stays exactly zero and a padded board gives the same logits as an unpadded one.
//! Batch norm statistics in training are taken over on-board points only, for the same reason.
use tch::nn::{self, Module};
use tch::{Kind, Tensor};

use super::features::{plane, INPUT_PLANES};
use super::meta::ModelKind;

/// Version of the architecture described here; stored in sidecars as `version`.
pub const ARCH_VERSION: u32 = 1;
/// The logit given to off-board and occupied points. Finite (so that a cross-entropy against a
/// zero target stays finite, and it fits in f16) yet low enough that softmax gives exactly 0.
pub const MASKED_LOGIT: f64 = -30000.0;

const HEAD_CHANNELS: i64 = 32;
const VALUE_HIDDEN: i64 = 128;
const BN_EPS: f64 = 1e-5;
const BN_MOMENTUM: f64 = 0.1;

/// The shape of a network: what a sidecar records.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Arch {
    pub kind: ModelKind,
    /// Residual blocks (0 for a pattern net).
    pub blocks: usize,
    /// The tower's channels; a pattern net's feature width.
    pub channels: usize,
}

impl Arch {
    /// A residual net.
    pub fn new(blocks: usize, channels: usize) -> Arch {
        Arch {
            kind: ModelKind::Resnet,
            blocks,
            channels,
        }
    }

    /// A pattern-codebook net with `dim` features per cell.
    pub fn pattern(dim: usize) -> Arch {
        Arch {
            kind: ModelKind::Pattern,
            blocks: 0,
            channels: dim,
        }
    }

    pub fn validate(&self) -> Result<(), super::NnError> {
        let pattern_ok = self.blocks == 0 && self.channels <= super::pattern::MAX_DIM;
        let ok = match self.kind {
            ModelKind::Resnet => self.channels <= 1024 && self.blocks <= 100,
            ModelKind::Pattern => pattern_ok,
        };
        if self.channels == 0 || !ok {
            return Err(super::NnError::InvalidArch(format!(
                "{} blocks x {} channels",
                self.blocks, self.channels
            )));
        }
        Ok(())
    }
}

/// Batch norm whose training statistics ignore the padding (points where `mask` is 0).
/// Its variables have the names `tch::nn::batch_norm2d` would give them.
#[derive(Debug)]
struct MaskedBatchNorm {
    weight: Tensor,
    bias: Tensor,
    running_mean: Tensor,
    running_var: Tensor,
}

impl MaskedBatchNorm {
    fn new(vs: nn::Path, channels: i64) -> MaskedBatchNorm {
        MaskedBatchNorm {
            weight: vs.var("weight", &[channels], nn::Init::Const(1.0)),
            bias: vs.var("bias", &[channels], nn::Init::Const(0.0)),
            running_mean: vs.zeros_no_train("running_mean", &[channels]),
            running_var: vs.ones_no_train("running_var", &[channels]),
        }
    }

    /// `xs`: [B, C, H, W]; `mask`: [B, 1, H, W] of 0/1; `points`: number of on-board points in
    /// the batch (mask sum), used in training only.
    fn forward_t(&self, xs: &Tensor, mask: &Tensor, points: &Tensor, train: bool) -> Tensor {
        if !train {
            return xs.batch_norm(
                Some(&self.weight),
                Some(&self.bias),
                Some(&self.running_mean),
                Some(&self.running_var),
                false,
                BN_MOMENTUM,
                BN_EPS,
                true,
            );
        }
        let c = self.weight.size()[0];
        let dims: &[i64] = &[0, 2, 3];
        let mean = (xs * mask).sum_dim_intlist(dims, false, Kind::Float) / points;
        let centered = (xs - mean.view([1, c, 1, 1])) * mask;
        let var = centered.square().sum_dim_intlist(dims, false, Kind::Float) / points;
        tch::no_grad(|| {
            // Running variance is the unbiased estimate, as in PyTorch.
            let n = points.clamp_min(2.0);
            let unbiased = &var * &n / (&n - 1.0);
            let mut rm = self.running_mean.shallow_clone();
            let mut rv = self.running_var.shallow_clone();
            let new_mean = &rm * (1.0 - BN_MOMENTUM) + mean.detach() * BN_MOMENTUM;
            let new_var = &rv * (1.0 - BN_MOMENTUM) + unbiased.detach() * BN_MOMENTUM;
            rm.copy_(&new_mean);
            rv.copy_(&new_var);
        });
        let inv_std = (var + BN_EPS).rsqrt() * &self.weight;
        (xs - mean.view([1, c, 1, 1])) * inv_std.view([1, c, 1, 1]) + self.bias.view([1, c, 1, 1])
    }
}

#[derive(Debug)]
struct ResidualBlock {
    conv1: nn::Conv2D,
    bn1: MaskedBatchNorm,
    conv2: nn::Conv2D,
    bn2: MaskedBatchNorm,
}

fn conv3x3(vs: nn::Path, cin: i64, cout: i64) -> nn::Conv2D {
    let cfg = nn::ConvConfig {
        padding: 1,
        bias: false,
        ..Default::default()
    };
    nn::conv2d(vs, cin, cout, 3, cfg)
}

fn conv1x1(vs: nn::Path, cin: i64, cout: i64, bias: bool) -> nn::Conv2D {
    let cfg = nn::ConvConfig {
        bias,
        ..Default::default()
    };
    nn::conv2d(vs, cin, cout, 1, cfg)
}

impl ResidualBlock {
    fn new(vs: nn::Path, c: i64) -> ResidualBlock {
        ResidualBlock {
            conv1: conv3x3(&vs / "conv1", c, c),
            bn1: MaskedBatchNorm::new(&vs / "bn1", c),
            conv2: conv3x3(&vs / "conv2", c, c),
            bn2: MaskedBatchNorm::new(&vs / "bn2", c),
        }
    }
}

/// The network's modules. Built on a `tch::nn::Path`; [`super::Network`] owns the var store.
#[derive(Debug)]
pub struct PolicyValueNet {
    stem: nn::Conv2D,
    stem_bn: MaskedBatchNorm,
    blocks: Vec<ResidualBlock>,
    policy_conv: nn::Conv2D,
    policy_bn: MaskedBatchNorm,
    policy_out: nn::Conv2D,
    value_conv: nn::Conv2D,
    value_bn: MaskedBatchNorm,
    value_fc1: nn::Linear,
    value_fc2: nn::Linear,
}

impl PolicyValueNet {
    pub fn new(vs: &nn::Path, arch: Arch) -> PolicyValueNet {
        let c = arch.channels as i64;
        PolicyValueNet {
            stem: conv3x3(vs / "stem", INPUT_PLANES as i64, c),
            stem_bn: MaskedBatchNorm::new(vs / "stem_bn", c),
            blocks: (0..arch.blocks)
                .map(|i| ResidualBlock::new(vs / "blocks" / i, c))
                .collect(),
            policy_conv: conv1x1(vs / "policy_conv", c, HEAD_CHANNELS, false),
            policy_bn: MaskedBatchNorm::new(vs / "policy_bn", HEAD_CHANNELS),
            policy_out: conv1x1(vs / "policy_out", HEAD_CHANNELS, 1, true),
            value_conv: conv1x1(vs / "value_conv", c, HEAD_CHANNELS, false),
            value_bn: MaskedBatchNorm::new(vs / "value_bn", HEAD_CHANNELS),
            value_fc1: nn::linear(
                vs / "value_fc1",
                3 * HEAD_CHANNELS,
                VALUE_HIDDEN,
                Default::default(),
            ),
            value_fc2: nn::linear(vs / "value_fc2", VALUE_HIDDEN, 3, Default::default()),
        }
    }

    /// `xs`: [B, 16, H, W] encoded by [`super::encode_into`] (any padding), of the weights' kind
    /// and device. Returns `(policy_logits [B, H*W], wdl_logits [B, 3])`; policy logits of
    /// off-board and occupied points are [`MASKED_LOGIT`]. Policy index `y * W + x` over the
    /// (padded) tensor width `W`.
    pub fn forward_t(&self, xs: &Tensor, train: bool) -> (Tensor, Tensor) {
        let (mask, per_sample) = board_mask(xs);
        let points = per_sample.sum(Kind::Float);
        let bn = |bn: &MaskedBatchNorm, x: &Tensor| bn.forward_t(x, &mask, &points, train);

        let mut x = bn(&self.stem_bn, &self.stem.forward(xs)).relu() * &mask;
        for block in &self.blocks {
            let h = bn(&block.bn1, &block.conv1.forward(&x)).relu() * &mask;
            let h = bn(&block.bn2, &block.conv2.forward(&h));
            x = (h + x).relu() * &mask;
        }
        let p = bn(&self.policy_bn, &self.policy_conv.forward(&x)).relu();
        let v = bn(&self.value_bn, &self.value_conv.forward(&x)).relu() * &mask;
        self.heads(xs, &mask, &per_sample, &p, &v)
    }

    /// A snapshot of the convolutions with the (eval-mode) batch norms folded in, for
    /// [`PolicyValueNet::forward_fused`]. Must be taken again after the weights change.
    pub fn fuse(&self) -> FusedConvs {
        tch::no_grad(|| FusedConvs {
            stem: FusedConv::new(&self.stem, &self.stem_bn, 1),
            blocks: self
                .blocks
                .iter()
                .map(|b| {
                    (
                        FusedConv::new(&b.conv1, &b.bn1, 1),
                        FusedConv::new(&b.conv2, &b.bn2, 1),
                    )
                })
                .collect(),
            policy: FusedConv::new(&self.policy_conv, &self.policy_bn, 0),
            value: FusedConv::new(&self.value_conv, &self.value_bn, 0),
        })
    }

    /// Inference with folded batch norms: the same function as `forward_t(xs, false)` with
    /// about a third fewer operations. Call inside `tch::no_grad`.
    pub fn forward_fused(&self, xs: &Tensor, fused: &FusedConvs) -> (Tensor, Tensor) {
        let (mask, per_sample) = board_mask(xs);
        let mut x = fused.stem.forward(xs).relu_() * &mask;
        for (c1, c2) in &fused.blocks {
            let h = c1.forward(&x).relu_() * &mask;
            x = (c2.forward(&h) + x).relu_() * &mask;
        }
        let p = fused.policy.forward(&x).relu_();
        let v = fused.value.forward(&x).relu_() * &mask;
        self.heads(xs, &mask, &per_sample, &p, &v)
    }

    /// The part after the head convolutions: policy logits (masked) and WDL logits.
    fn heads(
        &self,
        xs: &Tensor,
        mask: &Tensor,
        per_sample: &Tensor,
        p: &Tensor,
        v: &Tensor,
    ) -> (Tensor, Tensor) {
        let (b, _, h, w) = xs.size4().expect("input must be [B, 16, H, W]");
        // Policy: legal = on board and empty.
        let occupied = xs
            .narrow(1, plane::OWN_STONES as i64, 2)
            .sum_dim_intlist(1, true, None);
        let illegal = (mask - occupied).le(0.5);
        let policy = self
            .policy_out
            .forward(p)
            .masked_fill(&illegal, MASKED_LOGIT)
            .view([b, h * w]);

        // Value: pooled over board points only. After ReLU and masking the padding is 0 and
        // every value is >= 0, so a plain max is the max over the board.
        // Pool in f32: a sum over up to 1024 points can overflow f16.
        let kind = v.kind();
        let count = per_sample.clamp_min(1.0).view([b, 1]);
        let sum = v.sum_dim_intlist([2i64, 3].as_slice(), false, Kind::Float);
        let mean = sum / &count;
        // Board-size aware mean (as in KataGo): lets the head tell a 15x15 from a 20x20 board.
        let size_scale = (count.sqrt() - 14.0) / 10.0;
        let mean_scaled = &mean * size_scale;
        let max = v.amax([2i64, 3].as_slice(), false).to_kind(Kind::Float);
        let pooled = Tensor::cat(&[mean, mean_scaled, max], 1).to_kind(kind);
        let wdl = self
            .value_fc2
            .forward(&self.value_fc1.forward(&pooled).relu());
        (policy, wdl)
    }
}

/// The on-board plane `[B, 1, H, W]` and the number of board points per sample `[B]` (f32).
fn board_mask(xs: &Tensor) -> (Tensor, Tensor) {
    let mask = xs.narrow(1, plane::ON_BOARD as i64, 1);
    let per_sample = mask.sum_dim_intlist([1i64, 2, 3].as_slice(), false, Kind::Float);
    (mask, per_sample)
}

/// A convolution followed by an eval-mode batch norm, folded into one convolution with bias:
/// `w' = w * s`, `b' = beta - mean * s` with `s = gamma / sqrt(var + eps)`.
#[derive(Debug)]
pub struct FusedConv {
    weight: Tensor,
    bias: Tensor,
    padding: i64,
}

impl FusedConv {
    fn new(conv: &nn::Conv2D, bn: &MaskedBatchNorm, padding: i64) -> FusedConv {
        let kind = conv.ws.kind();
        let f = |t: &Tensor| t.to_kind(Kind::Float);
        let scale = f(&bn.weight) / (f(&bn.running_var) + BN_EPS).sqrt();
        let out = scale.size()[0];
        let weight = f(&conv.ws) * scale.view([out, 1, 1, 1]);
        let bias = f(&bn.bias) - f(&bn.running_mean) * &scale;
        FusedConv {
            weight: weight.to_kind(kind),
            bias: bias.to_kind(kind),
            padding,
        }
    }

    fn forward(&self, xs: &Tensor) -> Tensor {
        let p = self.padding;
        xs.conv2d(&self.weight, Some(&self.bias), [1, 1], [p, p], [1, 1], 1)
    }
}

/// Every batch-normed convolution of a net, folded (see [`PolicyValueNet::fuse`]).
#[derive(Debug)]
pub struct FusedConvs {
    stem: FusedConv,
    blocks: Vec<(FusedConv, FusedConv)>,
    policy: FusedConv,
    value: FusedConv,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{Color, Rule};
    use crate::nn::features::encoded_len;
    use crate::nn::{encode_into, GridPosition, Network, Symmetry};
    use tch::Device;

    fn encode(pos: &GridPosition, pad_w: usize, pad_h: usize) -> Tensor {
        let mut buf = vec![0.0; encoded_len(pad_w, pad_h)];
        encode_into(pos, Symmetry::IDENTITY, pad_w, pad_h, &mut buf);
        Tensor::from_slice(&buf).view([1, INPUT_PLANES as i64, pad_h as i64, pad_w as i64])
    }

    fn tiny() -> Network {
        Network::random(Arch::new(2, 16), 5, Device::Cpu).unwrap()
    }

    #[test]
    fn policy_is_zero_off_board_and_on_stones_and_sums_to_one() {
        let net = tiny();
        let mut pos = GridPosition::new(7, 5, Rule::Renju);
        pos.place(3, 2, Color::Black);
        pos.place(0, 0, Color::White);
        pos.place(6, 4, Color::Black);
        pos.side_to_move = Color::White;
        let (pw, ph) = (9, 8);
        let (policy, wdl) = net.infer(&encode(&pos, pw, ph));
        assert_eq!(policy.size(), vec![1, (pw * ph) as i64]);
        let p = Vec::<f32>::try_from(policy.view([-1])).unwrap();
        let total: f32 = p.iter().sum();
        assert!((total - 1.0).abs() < 1e-5, "sum {total}");
        for y in 0..ph {
            for x in 0..pw {
                let v = p[y * pw + x];
                let legal = x < 7 && y < 5 && ![(3, 2), (0, 0), (6, 4)].contains(&(x, y));
                if legal {
                    assert!(v > 0.0, "legal point {x},{y} has 0");
                } else {
                    assert_eq!(v, 0.0, "illegal point {x},{y} has {v}");
                }
            }
        }
        let w = Vec::<f32>::try_from(wdl.view([-1])).unwrap();
        assert_eq!(w.len(), 3);
        assert!((w.iter().sum::<f32>() - 1.0).abs() < 1e-5);
    }

    #[test]
    fn padding_does_not_change_the_answer() {
        let net = tiny();
        let mut pos = GridPosition::new(9, 6, Rule::Standard);
        pos.scatter(10, 3);
        let xs = encode(&pos, 9, 6);
        let padded = encode(&pos, 13, 11);
        let (l1, v1) = tch::no_grad(|| net.forward_t(&xs, false));
        let (l2, v2) = tch::no_grad(|| net.forward_t(&padded, false));
        let l2 = l2
            .view([11, 13])
            .narrow(0, 0, 6)
            .narrow(1, 0, 9)
            .reshape([1, 54]);
        let diff = (&l1 - &l2).abs().max().double_value(&[]);
        assert!(diff < 1e-4, "policy logits differ by {diff}");
        let diff = (&v1 - &v2).abs().max().double_value(&[]);
        assert!(diff < 1e-4, "value logits differ by {diff}");
    }

    #[test]
    fn training_statistics_ignore_the_padding() {
        // The same position, padded or not, must give the same training-mode outputs (batch norm
        // statistics are taken over board points only) and gradients must flow.
        let net = tiny();
        let mut pos = GridPosition::new(8, 8, Rule::Freestyle);
        pos.scatter(9, 4);
        let a = Tensor::cat(&[encode(&pos, 8, 8), encode(&pos, 8, 8)], 0);
        let b = Tensor::cat(&[encode(&pos, 12, 10), encode(&pos, 12, 10)], 0);
        let (la, va) = net.forward_t(&a, true);
        let (lb, vb) = net.forward_t(&b, true);
        let lb = lb
            .view([2, 10, 12])
            .narrow(1, 0, 8)
            .narrow(2, 0, 8)
            .reshape([2, 64]);
        assert!((&la - &lb).abs().max().double_value(&[]) < 1e-3);
        assert!((&va - &vb).abs().max().double_value(&[]) < 1e-3);
        let loss = va.sum(Kind::Float)
            + la.log_softmax(1, Kind::Float)
                .narrow(1, 0, 3)
                .sum(Kind::Float);
        loss.backward();
        let grads: f64 = net
            .var_store()
            .trainable_variables()
            .iter()
            .map(|v| v.grad().abs().sum(Kind::Float).double_value(&[]))
            .sum();
        assert!(grads.is_finite() && grads > 0.0);
        // Running statistics moved away from their initial values.
        let rm = net.var_store().variables()["stem_bn.running_mean"]
            .abs()
            .sum(Kind::Float)
            .double_value(&[]);
        assert!(rm > 0.0);
    }

    #[test]
    fn one_network_plays_every_size() {
        let net = tiny();
        for (w, h) in [(5, 5), (15, 15), (20, 20), (12, 7)] {
            let pos = GridPosition::new(w, h, Rule::Freestyle);
            let (p, v) = net.infer(&encode(&pos, w, h));
            assert_eq!(p.size(), vec![1, (w * h) as i64]);
            assert_eq!(v.size(), vec![1, 3]);
        }
    }
}

#[cfg(test)]
mod half_tests {
    use super::*;
    use crate::game::Rule;
    use crate::nn::features::encoded_len;
    use crate::nn::{encode_into, GridPosition, Network, Symmetry};
    use tch::Device;

    #[test]
    fn half_precision_matches_single_precision() {
        let mut net = Network::random(Arch::new(2, 16), 9, Device::Cpu).unwrap();
        let mut pos = GridPosition::new(15, 15, Rule::Freestyle);
        pos.scatter(30, 1);
        let mut buf = vec![0.0; encoded_len(15, 15)];
        encode_into(&pos, Symmetry::IDENTITY, 15, 15, &mut buf);
        let xs = Tensor::from_slice(&buf).view([1, 16, 15, 15]);
        let (p32, v32) = net.infer(&xs);
        net.set_half(true);
        assert_eq!(net.kind(), Kind::Half);
        let (p16, v16) = net.infer(&xs);
        assert_eq!(p16.kind(), Kind::Float);
        assert!((&p32 - &p16).abs().max().double_value(&[]) < 2e-3);
        assert!((&v32 - &v16).abs().max().double_value(&[]) < 2e-2);
    }
}
