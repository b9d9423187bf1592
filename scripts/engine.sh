#!/usr/bin/env bash
# Builds Hoshi and starts the engine on stdin/stdout with the default config. Extra arguments go
# to pbrain-hoshi (e.g. --config PATH, or a subcommand).
#
# Which build: the default config's network is a pattern net, which runs in plain Rust, so where
# no libtorch is installed the engine is built without one (`--no-default-features`: the pattern
# net and the classical evaluator) and nothing is downloaded but Rust crates. The build with
# libtorch (the residual net, training, CUDA) is made, installing libtorch first where needed
# (scripts/libtorch.sh; HOSHI_CUDA=1 for CUDA), when
#   - LIBTORCH is set, or scripts/libtorch.sh has already installed libtorch into .libtorch/
#     (then every build of the repo shares it, and nothing is built twice), or
#   - the config's `[search] network` is not a pattern net (its sidecar .toml says `kind`), or
#   - the command is `train` or `promote`, or HOSHI_TORCH=1 asks for it.
# HOSHI_TORCH=0 builds without libtorch whatever the config says (a residual net then falls back
# to the classical evaluator, as the engine logs).
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$repo"

# The config the engine will read: --config PATH (or --config=PATH), else the repo's default.
config="config/hoshi.toml"
command=""
args=("$@")
for ((i = 0; i < ${#args[@]}; i++)); do
  case "${args[i]}" in
    --config) config="${args[i + 1]:-}"; i=$((i + 1)) ;;
    --config=*) config="${args[i]#--config=}" ;;
    -*) ;;
    *) [ -z "$command" ] && command="${args[i]}" ;;
  esac
done

# Prints the value of `key = "value"` in [section] of a TOML file (nothing when it is absent).
toml_value() {
  awk -v section="$2" -v key="$3" '
    BEGIN { inside = (section == "") }
    /^[ \t]*\[/ { inside = ($0 ~ "^[ \t]*\\[" section "\\][ \t]*(#.*)?$"); next }
    inside && $0 ~ "^[ \t]*" key "[ \t]*=" {
      sub("^[^=]*=[ \t]*\"", ""); sub("\".*$", ""); print; exit
    }' "$1" 2>/dev/null || true
}

# Does the config's network need libtorch? Only a pattern net (or no network) does not.
network_needs_torch() {
  local network=""
  if [ -f "$config" ] && grep -Eq '^[[:space:]]*network[[:space:]]*=' "$config"; then
    network="$(toml_value "$config" search network)"
  else
    network="$(toml_value config/hoshi.toml search network)"
  fi
  [ -z "$network" ] && return 1
  local sidecar="${network%.safetensors}.toml"
  for dir in "" "$repo/"; do
    if [ -f "$dir$sidecar" ]; then
      [ "$(toml_value "$dir$sidecar" "" kind)" = "pattern" ] && return 1
      return 0
    fi
  done
  return 0 # not found here: let the build with libtorch decide
}

torch="${HOSHI_TORCH:-}"
if [ -z "$torch" ]; then
  if [ -n "${LIBTORCH:-}" ] || [ -e .libtorch/torch-2.13.0/torch/lib/libtorch_cpu.so ]; then
    torch=1
  elif [ "$command" = "train" ] || [ "$command" = "promote" ] || network_needs_torch; then
    torch=1
  else
    torch=0
  fi
fi

if [ "$torch" = "1" ]; then
  LIBTORCH="$(bash scripts/libtorch.sh)"
  export LIBTORCH
  cargo build --release --quiet --bins
else
  cargo build --release --quiet --bins --no-default-features
fi
"$repo/target/release/pbrain-hoshi" --version >&2
exec "$repo/target/release/pbrain-hoshi" "$@"
