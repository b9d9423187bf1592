//! `pbrain-hoshi`: the Hoshi brain. With no subcommand it speaks the Gomocup protocol (and its
//! extensions) on stdin/stdout; subcommands run benchmarks and the training pipeline. Every
//! command lives in `hoshi::cli`, one file each.
fn main() -> std::process::ExitCode {
    hoshi::cli::pbrain_main()
}
