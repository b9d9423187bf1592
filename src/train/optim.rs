//! Adam and SGD with momentum over a var store, written out on tch tensors because a checkpoint
//! needs the optimizer's state: `tch::nn::Optimizer` keeps it inside libtorch with no way to
//! read or restore it, so a resumed run would restart its moments from zero.
//!
//! Weight decay applies to convolution and linear weights (tensors of two or more dimensions),
//! not to biases or batch-norm parameters: decoupled (AdamW) for Adam, L2 in the gradient for SGD.
use std::collections::BTreeMap;
use std::path::Path;

use tch::nn::VarStore;
use tch::{Device, Tensor};

use super::error::TrainError;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OptimizerKind {
    Adam,
    Sgd,
}

impl OptimizerKind {
    pub fn name(self) -> &'static str {
        match self {
            OptimizerKind::Adam => "adam",
            OptimizerKind::Sgd => "sgd",
        }
    }

    pub fn from_name(name: &str) -> Option<OptimizerKind> {
        match name {
            "adam" => Some(OptimizerKind::Adam),
            "sgd" => Some(OptimizerKind::Sgd),
            _ => None,
        }
    }
}

/// Hyper-parameters.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct OptimizerSettings {
    pub kind: OptimizerKind,
    pub lr: f64,
    pub weight_decay: f64,
    /// SGD momentum (Adam uses beta1 = 0.9, beta2 = 0.999, eps = 1e-8).
    pub momentum: f64,
}

const BETA1: f64 = 0.9;
const BETA2: f64 = 0.999;
const EPS: f64 = 1e-8;

struct Param {
    name: String,
    var: Tensor,
    decay: bool,
    /// Adam: first moment; SGD: momentum buffer.
    first: Tensor,
    /// Adam: second moment; SGD: unused (zeros, saved all the same to keep one file layout).
    second: Tensor,
}

pub struct Optimizer {
    settings: OptimizerSettings,
    params: Vec<Param>,
    /// Updates applied so far (Adam's bias correction needs it).
    steps: u64,
}

impl Optimizer {
    /// Over every trainable variable of `vs`.
    pub fn new(vs: &VarStore, settings: OptimizerSettings) -> Optimizer {
        let vars: BTreeMap<String, Tensor> = vs.variables().into_iter().collect();
        let params = vars
            .into_iter()
            .filter(|(_, v)| v.requires_grad())
            .map(|(name, var)| Param {
                decay: var.dim() >= 2,
                first: var.zeros_like().detach(),
                second: var.zeros_like().detach(),
                name,
                var,
            })
            .collect();
        Optimizer {
            settings,
            params,
            steps: 0,
        }
    }

    pub fn settings(&self) -> OptimizerSettings {
        self.settings
    }

    /// Changes the learning rate of the next updates (a schedule).
    pub fn set_lr(&mut self, lr: f64) {
        self.settings.lr = lr;
    }

    pub fn steps(&self) -> u64 {
        self.steps
    }

    pub fn zero_grad(&mut self) {
        for p in &mut self.params {
            p.var.zero_grad();
        }
    }

    /// Applies one update from the gradients left by `backward`.
    pub fn step(&mut self) {
        self.steps += 1;
        let s = self.settings;
        let t = self.steps as i32;
        tch::no_grad(|| {
            for p in &mut self.params {
                let grad = p.var.grad();
                if !grad.defined() {
                    continue;
                }
                match s.kind {
                    OptimizerKind::Adam => {
                        let _ = p.first.g_mul_scalar_(BETA1);
                        let _ = p.first.g_add_(&(&grad * (1.0 - BETA1)));
                        let _ = p.second.g_mul_scalar_(BETA2);
                        let _ = p.second.addcmul_(&(&grad * (1.0 - BETA2)), &grad);
                        let m_hat = &p.first / (1.0 - BETA1.powi(t));
                        let v_hat = &p.second / (1.0 - BETA2.powi(t));
                        if p.decay && s.weight_decay > 0.0 {
                            let _ = p.var.g_mul_scalar_(1.0 - s.lr * s.weight_decay);
                        }
                        let _ = p.var.g_sub_(&(m_hat / (v_hat.sqrt() + EPS) * s.lr));
                    }
                    OptimizerKind::Sgd => {
                        let grad = if p.decay && s.weight_decay > 0.0 {
                            grad + &p.var * s.weight_decay
                        } else {
                            grad
                        };
                        let _ = p.first.g_mul_scalar_(s.momentum);
                        let _ = p.first.g_add_(&grad);
                        let _ = p.var.g_sub_(&(&p.first * s.lr));
                    }
                }
            }
        });
    }

    /// Writes the moments (`first.<var>`, `second.<var>`) as safetensors.
    pub fn save(&self, path: &Path) -> Result<(), TrainError> {
        let tensors: Vec<(String, Tensor)> = self
            .params
            .iter()
            .flat_map(|p| {
                [
                    (format!("first.{}", p.name), p.first.to_device(Device::Cpu)),
                    (
                        format!("second.{}", p.name),
                        p.second.to_device(Device::Cpu),
                    ),
                ]
            })
            .collect();
        let named: Vec<(&str, &Tensor)> = tensors.iter().map(|(k, v)| (k.as_str(), v)).collect();
        Tensor::write_safetensors(&named, path)?;
        Ok(())
    }

    /// Restores the moments written by [`Optimizer::save`] and the update count.
    pub fn load(&mut self, path: &Path, steps: u64) -> Result<(), TrainError> {
        let file: BTreeMap<String, Tensor> = Tensor::read_safetensors(path)?.into_iter().collect();
        let bad = |message: String| {
            TrainError::Config(format!("optimizer state {}: {message}", path.display()))
        };
        if file.len() != 2 * self.params.len() {
            return Err(bad(format!(
                "{} tensors, expected {}",
                file.len(),
                2 * self.params.len()
            )));
        }
        for p in &mut self.params {
            for (slot, dst) in [("first", &mut p.first), ("second", &mut p.second)] {
                let key = format!("{slot}.{}", p.name);
                let src = file
                    .get(&key)
                    .ok_or_else(|| bad(format!("{key} missing")))?;
                if src.size() != dst.size() {
                    return Err(bad(format!("{key} has shape {:?}", src.size())));
                }
                tch::no_grad(|| dst.f_copy_(src))?;
            }
        }
        self.steps = steps;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tch::nn::{self, Module};
    use tch::Kind;

    /// Fits y = 3x - 1 with a 1-in 1-out linear layer.
    fn fit(kind: OptimizerKind, steps: usize) -> (f64, Optimizer, VarStore) {
        let vs = VarStore::new(Device::Cpu);
        let layer = nn::linear(vs.root() / "l", 1, 1, Default::default());
        let mut opt = Optimizer::new(
            &vs,
            OptimizerSettings {
                kind,
                lr: 0.05,
                weight_decay: 0.0,
                momentum: 0.9,
            },
        );
        let xs = Tensor::from_slice(&[-1.0f32, 0.0, 1.0, 2.0]).view([4, 1]);
        let ys = &xs * 3.0 - 1.0;
        let mut loss = 0.0;
        for _ in 0..steps {
            let l = (layer.forward(&xs) - &ys).square().mean(Kind::Float);
            opt.zero_grad();
            l.backward();
            opt.step();
            loss = l.double_value(&[]);
        }
        (loss, opt, vs)
    }

    #[test]
    fn both_optimizers_fit_a_line() {
        for kind in [OptimizerKind::Adam, OptimizerKind::Sgd] {
            let (loss, opt, _) = fit(kind, 400);
            assert!(loss < 1e-3, "{kind:?}: loss {loss}");
            assert_eq!(opt.steps(), 400);
        }
    }

    #[test]
    fn saved_state_resumes_identically() {
        let dir = std::env::temp_dir().join(format!("hoshi-optim-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("opt.safetensors");
        let (_, opt, _) = fit(OptimizerKind::Adam, 10);
        opt.save(&path).unwrap();
        let (_, mut other, _) = fit(OptimizerKind::Adam, 1);
        other.load(&path, 10).unwrap();
        assert_eq!(other.steps(), 10);
        for (a, b) in opt.params.iter().zip(&other.params) {
            assert_eq!(a.name, b.name);
            assert!(a.first.equal(&b.first) && a.second.equal(&b.second));
        }
        // State of another shape of model is refused.
        let vs = VarStore::new(Device::Cpu);
        let _ = nn::linear(vs.root() / "l", 2, 1, Default::default());
        let mut wrong = Optimizer::new(
            &vs,
            OptimizerSettings {
                kind: OptimizerKind::Adam,
                lr: 0.1,
                weight_decay: 0.0,
                momentum: 0.0,
            },
        );
        assert!(wrong.load(&path, 10).is_err());
        std::fs::remove_dir_all(dir).ok();
    }

    #[test]
    fn weight_decay_shrinks_weights_not_biases() {
        let vs = VarStore::new(Device::Cpu);
        let layer = nn::linear(vs.root() / "l", 3, 1, Default::default());
        let mut opt = Optimizer::new(
            &vs,
            OptimizerSettings {
                kind: OptimizerKind::Sgd,
                lr: 0.1,
                weight_decay: 0.5,
                momentum: 0.0,
            },
        );
        tch::no_grad(|| {
            let mut b = layer.bs.as_ref().unwrap().shallow_clone();
            let _ = b.fill_(1.0);
        });
        let w0 = layer.ws.abs().sum(Kind::Float).double_value(&[]);
        // A zero loss that still touches every parameter: gradients are all zero.
        let zero = (layer.forward(&Tensor::zeros([1, 3], (Kind::Float, Device::Cpu))) * 0.0)
            .sum(Kind::Float);
        opt.zero_grad();
        zero.backward();
        opt.step();
        let w1 = layer.ws.abs().sum(Kind::Float).double_value(&[]);
        assert!((w1 - w0 * 0.95).abs() < 1e-6, "{w0} -> {w1}");
        let b = layer.bs.as_ref().unwrap().double_value(&[0]);
        assert_eq!(b, 1.0);
    }
}
