//! `hoshi`: the Hoshi brain for the legacy file protocol (PLOCHA.DAT, TAH.DAT); see
//! `hoshi::cli::legacy`.
fn main() -> std::process::ExitCode {
    hoshi::cli::legacy::main()
}
