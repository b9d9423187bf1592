//! Configuration (serde + toml).
