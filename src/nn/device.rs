//! Device selection: `cpu`, `cuda` (= `cuda:0`) or `cuda:N`.
//!
//! The binary does not link `libtorch_cuda.so` (it would cost ~400 MB of memory on every run,
//! GPU or not), and libtorch only sees CUDA once that library's static initialisers have run.
//! So asking for a CUDA device loads it at run time, once, and keeps it loaded for the life of
//! the process. Where it is looked for, in order: the libtorch `lib` folder recorded at build
//! time (`HOSHI_LIBTORCH_LIB`), `$LIBTORCH/lib`, then the plain soname (the loader's search path).
//!
//! Device names parse in every build (the config checks them); opening a device needs the
//! `torch` feature.
use std::str::FromStr;

use super::error::NnError;

#[cfg(feature = "torch")]
pub use self::torch::{open_device, parse_device};

/// A parsed device name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DeviceSpec {
    Cpu,
    Cuda(usize),
}

impl FromStr for DeviceSpec {
    type Err = NnError;

    fn from_str(s: &str) -> Result<DeviceSpec, NnError> {
        let s = s.trim().to_ascii_lowercase();
        let bad = || {
            NnError::Device(format!(
                "unknown device {s:?} (expected cpu, cuda or cuda:N)"
            ))
        };
        match s.as_str() {
            "cpu" => Ok(DeviceSpec::Cpu),
            "cuda" | "gpu" => Ok(DeviceSpec::Cuda(0)),
            _ => {
                let n = s.strip_prefix("cuda:").ok_or_else(bad)?;
                n.parse().map(DeviceSpec::Cuda).map_err(|_| bad())
            }
        }
    }
}

#[cfg(feature = "torch")]
mod torch {
    use std::path::PathBuf;
    use std::sync::OnceLock;

    use tch::Device;

    use super::{DeviceSpec, NnError};

    const CUDA_LIBRARY: &str = "libtorch_cuda.so";

    /// The loaded CUDA library (or why it could not be loaded), kept for the process lifetime.
    static CUDA_LIB: OnceLock<Result<libloading::Library, String>> = OnceLock::new();

    fn cuda_library_candidates() -> Vec<PathBuf> {
        let mut paths = Vec::new();
        if let Some(dir) = option_env!("HOSHI_LIBTORCH_LIB") {
            paths.push(PathBuf::from(dir).join(CUDA_LIBRARY));
        }
        if let Some(root) = std::env::var_os("LIBTORCH") {
            paths.push(PathBuf::from(root).join("lib").join(CUDA_LIBRARY));
        }
        paths.push(PathBuf::from(CUDA_LIBRARY));
        paths
    }

    fn load_cuda_library() -> Result<libloading::Library, String> {
        let mut failures = Vec::new();
        for path in cuda_library_candidates() {
            // A bare soname goes to the loader's search path; a missing explicit path is skipped.
            if path.components().count() > 1 && !path.exists() {
                failures.push(format!("{}: no such file", path.display()));
                continue;
            }
            // RTLD_GLOBAL: the CUDA kernels register themselves with libtorch_cpu's dispatcher and
            // must resolve its symbols; RTLD_NOW: fail here, not at the first CUDA call.
            let flags = libloading::os::unix::RTLD_NOW | libloading::os::unix::RTLD_GLOBAL;
            // SAFETY: loading libtorch's own CUDA library runs its static initialisers, which only
            // register CUDA kernels and hooks with the already loaded libtorch.
            match unsafe { libloading::os::unix::Library::open(Some(&path), flags) } {
                Ok(lib) => {
                    log::info!("loaded {}", path.display());
                    return Ok(lib.into());
                }
                Err(e) => failures.push(format!("{}: {e}", path.display())),
            }
        }
        Err(format!(
            "cannot load {CUDA_LIBRARY} ({})",
            failures.join("; ")
        ))
    }

    /// Turns a spec into a usable `tch::Device`, loading CUDA support when needed.
    /// Errors (never crashes) when the CUDA library or the GPU is missing.
    pub fn open_device(spec: DeviceSpec) -> Result<Device, NnError> {
        match spec {
            DeviceSpec::Cpu => Ok(Device::Cpu),
            DeviceSpec::Cuda(n) => {
                if let Err(e) = CUDA_LIB.get_or_init(load_cuda_library) {
                    return Err(NnError::Device(format!("CUDA requested but {e}")));
                }
                if !tch::Cuda::is_available() {
                    return Err(NnError::Device(
                        "CUDA requested but no CUDA GPU is available (driver or device missing)"
                            .into(),
                    ));
                }
                let count = tch::Cuda::device_count();
                if n as i64 >= count {
                    return Err(NnError::Device(format!(
                        "cuda:{n} requested but only {count} CUDA device(s) found"
                    )));
                }
                Ok(Device::Cuda(n))
            }
        }
    }

    /// `parse` then `open_device`.
    pub fn parse_device(name: &str) -> Result<Device, NnError> {
        open_device(name.parse()?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_device_names() {
        assert_eq!("cpu".parse::<DeviceSpec>().unwrap(), DeviceSpec::Cpu);
        assert_eq!(" CUDA ".parse::<DeviceSpec>().unwrap(), DeviceSpec::Cuda(0));
        assert_eq!("cuda:3".parse::<DeviceSpec>().unwrap(), DeviceSpec::Cuda(3));
        for bad in ["", "cuda:", "cuda:x", "tpu", "cuda:-1"] {
            let err = bad.parse::<DeviceSpec>().unwrap_err();
            assert!(
                err.to_string().contains("expected cpu, cuda or cuda:N"),
                "{err}"
            );
        }
        #[cfg(feature = "torch")]
        assert_eq!(parse_device("cpu").unwrap(), tch::Device::Cpu);
    }

    #[cfg(feature = "torch")]
    #[test]
    fn cuda_without_a_gpu_is_a_readable_error() {
        let result = parse_device("cuda");
        let gpu_present = std::path::Path::new("/dev/nvidiactl").exists();
        match result {
            Err(e) => {
                let msg = e.to_string();
                eprintln!("cuda request on this machine: {msg}");
                assert!(msg.contains("CUDA") || msg.contains("cuda"), "{msg}");
                assert!(
                    !gpu_present || msg.contains("cuda:"),
                    "unexpected failure with a GPU: {msg}"
                );
            }
            Ok(d) => assert!(gpu_present, "got {d:?} on a machine without a GPU"),
        }
        // An index past the last device is always an error.
        assert!(parse_device("cuda:999").is_err());
    }
}
