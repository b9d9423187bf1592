//! `pbrain-hoshi` (or `pbrain-hoshi engine`): the brain on stdin/stdout, every protocol dialect.
use std::process::ExitCode;

use crate::config::Config;

/// Serves the protocol until END or the end of input, then leaves through [`crate::quit::now`].
pub fn run(config: Config) -> ExitCode {
    let thinker = crate::setup::engine_thinker(&config);
    let input = Box::new(std::io::BufReader::new(std::io::stdin()));
    let code = crate::protocol::serve(config, input, crate::protocol::Output::stdout(), thinker);
    // Skip the exit-time teardown (see crate::quit), as END does.
    crate::quit::now(code)
}
