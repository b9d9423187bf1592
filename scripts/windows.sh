#!/usr/bin/env bash
# Cross-builds the Windows brain (no libtorch: `--no-default-features`) and lays out the folder
# to zip for the Gomocup: pbrain-hoshi.exe, hoshi.exe, hoshi.toml (and the network that config
# names, when it names one); nothing else. Installs what it needs on first use (the Rust target
# x86_64-pc-windows-gnu, Debian's gcc-mingw-w64-x86-64), never reading stdin.
#
#   bash scripts/windows.sh            # build, lay out target/windows/hoshi/, zip it
#
# Exit status 3: what the build needs could not be installed (no network, no root); other
# non-zero statuses are build failures.
#
# Output: target/windows/hoshi/ (the folder), target/windows/hoshi.zip (the same, zipped) and
# a note of what each file is, with sizes, on stdout. Tests and their Wine shim live elsewhere
# (scripts/wine-smoke.sh, tests/wine/): nothing of them goes into the folder.
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$repo"

target=x86_64-pc-windows-gnu
linker=x86_64-w64-mingw32-gcc
out="$repo/target/windows"
folder="$out/hoshi"

# --- what the build needs -------------------------------------------------------------------
cannot_install() {
    echo "windows.sh: cannot install $1" >&2
    exit 3
}
if ! rustup target list --installed 2>/dev/null | grep -qx "$target"; then
    echo "windows.sh: installing the Rust target $target" >&2
    rustup target add "$target" >&2 || cannot_install "the Rust target $target (rustup failed)"
fi
if ! command -v "$linker" >/dev/null; then
    echo "windows.sh: installing gcc-mingw-w64-x86-64 (the linker)" >&2
    sudo=()
    if [ "$(id -u)" != 0 ]; then sudo=(sudo -n); fi
    export DEBIAN_FRONTEND=noninteractive
    if ! "${sudo[@]}" apt-get install -y -q --no-install-recommends gcc-mingw-w64-x86-64 </dev/null >&2; then
        "${sudo[@]}" apt-get update -q </dev/null >&2 || true
        "${sudo[@]}" apt-get install -y -q --no-install-recommends gcc-mingw-w64-x86-64 </dev/null >&2 ||
            cannot_install "gcc-mingw-w64-x86-64 (apt-get failed)"
    fi
fi

# --- the build --------------------------------------------------------------------------------
# No debug info and stripped symbols: the shipped .exe carries no DWARF (the Linux build keeps
# its line tables). Panics still print their message.
export CARGO_TARGET_X86_64_PC_WINDOWS_GNU_LINKER="$linker"
export CARGO_PROFILE_RELEASE_DEBUG=0
export CARGO_PROFILE_RELEASE_STRIP=symbols
cargo build --release --no-default-features --target "$target" --bins >&2
built="$repo/target/$target/release"

# --- the folder -------------------------------------------------------------------------------
rm -rf "$folder" "$out/hoshi.zip"
mkdir -p "$folder"
cp "$built/pbrain-hoshi.exe" "$built/hoshi.exe" "$folder/"

# The config: the default one, with the network this build can run: the default config's network
# when it is a pattern net (plain Rust), else none (`network = ""`, the classical evaluator);
# HOSHI_WINDOWS_NETWORK=networks/NAME picks another.
default_network=$(sed -nE 's|^network = "([^"]*)"|\1|p' config/hoshi.toml | head -n 1)
if [ -n "$default_network" ] && grep -qx 'kind = "pattern"' "$default_network.toml" 2>/dev/null; then
    network="${HOSHI_WINDOWS_NETWORK-$default_network}"
else
    network="${HOSHI_WINDOWS_NETWORK-}"
fi
{
    echo "# Hoshi's Windows brain: built without libtorch, so [search] network names only what this"
    echo "# build can run (\"\" = the classical evaluator). See README, \"The Windows brain\"."
    echo
    sed -E "s|^network = \"[^\"]*\"|network = \"$network\"|" config/hoshi.toml
} >"$folder/hoshi.toml"
if ! grep -qx "network = \"$network\"" "$folder/hoshi.toml"; then
    echo "windows.sh: could not set [search] network in hoshi.toml" >&2
    exit 1
fi
if [ -n "$network" ]; then
    mkdir -p "$folder/$(dirname "$network")"
    cp "$network".* "$folder/$(dirname "$network")/"
fi

# The zip (Python's zipfile: no zip tool needed), files at its root as the Gomocup wants.
python3 - "$folder" "$out/hoshi.zip" <<'EOF'
import os, sys, zipfile
folder, dest = sys.argv[1], sys.argv[2]
with zipfile.ZipFile(dest, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as z:
    for root, _, files in os.walk(folder):
        for f in sorted(files):
            path = os.path.join(root, f)
            z.write(path, os.path.relpath(path, folder))
EOF

# --- the note ---------------------------------------------------------------------------------
what() {
    case "$1" in
        pbrain-hoshi.exe) echo "the brain: Gomocup protocol and its extensions on stdin/stdout (Piskvork, Yixin-Board, GomocupJudge)" ;;
        hoshi.exe) echo "the same brain for the legacy file protocol (PLOCHA.DAT/TAH.DAT), one move a run" ;;
        hoshi.toml) echo "its configuration (read from beside the executable); network = \"$network\"" ;;
        *) echo "the network the config names" ;;
    esac
}
echo "Windows brain folder: $folder"
(cd "$folder" && find . -type f | sort | while read -r f; do
    f="${f#./}"
    printf '  %-28s %9s bytes  %s\n' "$f" "$(stat -c %s "$f")" "$(what "$(basename "$f")")"
done)
echo "  total: $(du -sb "$folder" | cut -f1) bytes ($(du -sh --apparent-size "$folder" | cut -f1))"
echo "zip for the Gomocup: $out/hoshi.zip, $(stat -c %s "$out/hoshi.zip") bytes"
