//! The codebook's mapping network, for training only: a small MLP reads the cells a codebook
//! row stands for (its centre and four cells each side, `pattern::codes::row_cells`) and gives
//! the row, so that a pattern seen rarely in the data learns from the common ones that look
//! like it (Rapfi's Mixnet trains its codebook this way). A learnt table is added to the MLP's
//! rows, so that a net trained without it can go on from where it was. A saved network holds
//! the sum, an ordinary codebook: the engine never runs the MLP.
use tch::nn::{self, Module};
use tch::{Device, Kind, Tensor};

use super::pattern::codes::{row_cells, ID_COUNT, SIDE_CELLS};
use super::pattern::LEAK;

/// One-hot inputs of a row: the centre's three states, then each side's cells, four states
/// each (empty, own, opponent, wall).
const INPUTS: usize = 3 + 2 * SIDE_CELLS * 4;

/// Hidden layers of the MLP.
const LAYERS: usize = 2;

/// The prefix of the mapping's tensors in the var store; a saved network leaves them out.
pub const MAPPING_PREFIX: &str = "mapping.";

#[derive(Debug)]
pub struct CodebookMapping {
    /// `[2, ID_COUNT, INPUTS]`: every row's cells, read with its sides in both orders (the pair
    /// is unordered, so the rows average the two readings).
    inputs: Tensor,
    hidden: Vec<nn::Linear>,
    out: nn::Linear,
}

fn leaky(x: &Tensor) -> Tensor {
    x.maximum(&(x * LEAK as f64))
}

/// The one-hot readings of every row, in both orders of its sides.
fn row_inputs() -> Tensor {
    let mut flat = vec![0f32; 2 * ID_COUNT * INPUTS];
    for id in 0..ID_COUNT {
        let row = row_cells(id);
        for (order, sides) in [row.sides, [row.sides[1], row.sides[0]]].iter().enumerate() {
            let at = (order * ID_COUNT + id) * INPUTS;
            flat[at + row.centre] = 1.0;
            for (s, side) in sides.iter().enumerate() {
                for (c, &cell) in side.iter().enumerate() {
                    flat[at + 3 + (s * SIDE_CELLS + c) * 4 + cell as usize] = 1.0;
                }
            }
        }
    }
    Tensor::from_slice(&flat).view([2, ID_COUNT as i64, INPUTS as i64])
}

impl CodebookMapping {
    /// `width` hidden units a layer, `dim` features a row; the output layer starts at zero (the
    /// rows then are the table's alone).
    pub fn new(vs: &nn::Path, width: usize, dim: usize) -> CodebookMapping {
        let path = vs / "mapping";
        let mut hidden = Vec::with_capacity(LAYERS);
        let mut fan_in = INPUTS as i64;
        for l in 0..LAYERS {
            hidden.push(nn::linear(
                &path / format!("hidden{l}"),
                fan_in,
                width as i64,
                Default::default(),
            ));
            fan_in = width as i64;
        }
        let zero = nn::LinearConfig {
            ws_init: nn::Init::Const(0.0),
            bs_init: Some(nn::Init::Const(0.0)),
            bias: true,
        };
        CodebookMapping {
            inputs: row_inputs(),
            hidden,
            out: nn::linear(&path / "out", fan_in, dim as i64, zero),
        }
    }

    /// `[ID_COUNT, dim]`: the MLP's row for every codebook id.
    pub fn rows(&self, device: Device) -> Tensor {
        self.run(self.inputs.to_device(device))
    }

    /// `[n, dim]`: the MLP's rows for the codebook ids `ids` (int64 `[n]`).
    pub fn rows_of(&self, ids: &Tensor) -> Tensor {
        self.run(self.inputs.to_device(ids.device()).index_select(1, ids))
    }

    fn run(&self, mut x: Tensor) -> Tensor {
        for layer in &self.hidden {
            x = leaky(&layer.forward(&x));
        }
        self.out.forward(&x).mean_dim(0, false, Kind::Float)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_rows_start_at_zero_and_read_an_unordered_pair() {
        let vs = nn::VarStore::new(Device::Cpu);
        let mapping = CodebookMapping::new(&vs.root(), 16, 8);
        let rows = mapping.rows(Device::Cpu);
        assert_eq!(rows.size(), [ID_COUNT as i64, 8]);
        assert_eq!(rows.abs().sum(Kind::Float).double_value(&[]), 0.0);
        tch::no_grad(|| {
            for (name, mut var) in vs.variables() {
                if name.starts_with("mapping.out") {
                    let _ = var.fill_(0.3);
                }
            }
        });
        let rows = mapping.rows(Device::Cpu);
        // Both readings of a row hold the same cells, one-hot: every row has 1 + 2 * 4 ones.
        let ones = mapping.inputs.sum_dim_intlist(-1, false, Kind::Float);
        assert_eq!(ones.min().double_value(&[]), (1 + 2 * SIDE_CELLS) as f64);
        // Rows that stand for different cells differ; the empty row is not a stone's row.
        let (a, b) = (rows.get(0), rows.get(ID_COUNT as i64 / 3));
        assert!((a - b).abs().sum(Kind::Float).double_value(&[]) > 1e-6);
    }
}
