//! With the `torch` feature (the default), gives every binary of the crate (engine, tests,
//! benches) an rpath to libtorch's `lib` folder, so `target/release/pbrain-hoshi` runs without
//! LD_LIBRARY_PATH. Builds without libtorch (`--no-default-features`) get nothing from here.
use std::path::PathBuf;

fn main() {
    println!("cargo:rerun-if-env-changed=LIBTORCH");
    println!("cargo:rerun-if-changed=build.rs");
    if std::env::var_os("CARGO_FEATURE_TORCH").is_none() {
        return;
    }
    if let Ok(root) = std::env::var("LIBTORCH") {
        let lib = PathBuf::from(root).join("lib");
        let lib = lib.canonicalize().unwrap_or(lib);
        println!("cargo:rustc-link-arg=-Wl,-rpath,{}", lib.display());
        println!("cargo:rustc-env=HOSHI_LIBTORCH_LIB={}", lib.display());
    }
}
