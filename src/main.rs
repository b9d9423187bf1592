fn main() {
    let t = tch::Tensor::from_slice(&[1.0f32, 2.0]);
    eprintln!("{}", t.sum(tch::Kind::Float).double_value(&[]));
}
