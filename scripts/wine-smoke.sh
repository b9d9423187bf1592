#!/usr/bin/env bash
# The Windows brain under Wine, as users run it: builds the Gomocup folder (scripts/windows.sh),
# then runs the integration tests that drive the real binaries against its pbrain-hoshi.exe and
# hoshi.exe through Wine, and the smoke test (tests/smoke.rs), whose figures (answer times as
# the manager sees them, the brain's own time, Wine's overhead, peak memory) are printed at the
# end and kept in target/windows/wine-smoke.log. CI runs it after scripts/test.sh (.ci/run).
#
# Installs what it needs (Debian's wine, the mingw linker, the Rust target) without reading
# stdin. If Wine cannot be installed (no network, no apt), it says so loudly and exits 0: the
# smoke test is skipped, not failed. Wine runs in its own prefix (target/windows/wine-prefix),
# where a test-only bcryptprimitives.dll (tests/wine/) stands in for the one Wine 8 lacks; the
# shipped folder is run as it is, with nothing added.
#
#   bash scripts/wine-smoke.sh            # everything
#   bash scripts/wine-smoke.sh smoke      # only tests/smoke.rs
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$repo"

skip() {
    echo "==========================================================================" >&2
    echo "WINE SMOKE TEST SKIPPED: $*" >&2
    echo "==========================================================================" >&2
    exit 0
}

# --- Wine -------------------------------------------------------------------------------------
if ! command -v wine >/dev/null; then
    echo "wine-smoke.sh: installing wine" >&2
    sudo=()
    if [ "$(id -u)" != 0 ]; then sudo=(sudo -n); fi
    export DEBIAN_FRONTEND=noninteractive
    packages=(wine wine64)
    if ! "${sudo[@]}" apt-get install -y -q --no-install-recommends "${packages[@]}" </dev/null >&2; then
        "${sudo[@]}" apt-get update -q </dev/null >&2 || true
        "${sudo[@]}" apt-get install -y -q --no-install-recommends "${packages[@]}" </dev/null >&2 ||
            skip "wine is not installed and could not be installed (apt-get failed: no network or no root?)"
    fi
    command -v wine >/dev/null || skip "wine still missing after apt-get"
fi

# --- the folder as shipped ----------------------------------------------------------------------
# A build that fails is a failure; only missing tools that cannot be installed (status 3) skip.
status=0
bash scripts/windows.sh || status=$?
if [ "$status" = 3 ]; then skip "the Windows build's tools could not be installed (see above)"; fi
if [ "$status" != 0 ]; then exit "$status"; fi
folder="$repo/target/windows/hoshi"

# --- Wine's prefix, with the test-only shim ---------------------------------------------------
export WINEPREFIX="$repo/target/windows/wine-prefix"
export WINEDEBUG=-all
export WINEDLLOVERRIDES="mscoree,mshtml="   # no Mono/Gecko installer prompts
if [ ! -f "$WINEPREFIX/system.reg" ]; then
    echo "wine-smoke.sh: creating the Wine prefix $WINEPREFIX" >&2
    timeout 300 wineboot --init </dev/null >&2 2>&1 || true
fi
timeout 120 wineserver -w || true
shim="$WINEPREFIX/drive_c/windows/system32/bcryptprimitives.dll"
x86_64-w64-mingw32-gcc -shared -O2 -s -o "$shim" tests/wine/bcryptprimitives.c -ladvapi32
# One wineserver for the whole run (started here, ended by us on exit): brains then start warm.
wineserver -p
trap 'wineserver -k 2>/dev/null || true' EXIT

# A first launch: does the .exe run at all?
probe="$(printf 'START 15\r\nEND\r\n' | timeout 120 wine "$folder/pbrain-hoshi.exe" 2>/dev/null | tr -d '\r')" || true
if [ "$probe" != "OK" ]; then
    echo "wine-smoke.sh: pbrain-hoshi.exe under Wine answered ${probe:-nothing} to START 15" >&2
    exit 1
fi

# --- the tests --------------------------------------------------------------------------------
# The test binaries only drive the brains, so any feature set does: the default one when libtorch
# is there (CI has built it already), else none (nothing to build against libtorch).
features=()
if [ -z "${LIBTORCH:-}" ]; then features=(--no-default-features); fi
export HOSHI_BRAIN_CMD="wine $folder/pbrain-hoshi.exe"
export HOSHI_LEGACY_CMD="wine $folder/hoshi.exe"
log="$repo/target/windows/wine-smoke.log"
tests=(--test gomocup --test dialects --test extended --test tactics --test legacy --test notorch)
if [ "${1:-}" = smoke ]; then tests=(); fi
echo "wine-smoke.sh: $(wine --version), brain: $HOSHI_BRAIN_CMD" | tee "$log" >&2
if [ ${#tests[@]} -gt 0 ]; then
    cargo test --release "${features[@]}" "${tests[@]}" 2>&1 | tee -a "$log" >&2
fi
# The smoke test alone (one test at a time): its timings are the figures reported.
cargo test --release "${features[@]}" --test smoke -- --nocapture --test-threads=1 2>&1 |
    tee -a "$log" >&2
echo "wine-smoke.sh: figures (also in $log):"
grep -o 'smoke: .*' "$log" || true
