#!/usr/bin/env bash
# The Slurm batch scripts (scripts/slurm/) as a cluster runs them, on a one-node cluster of this
# machine: installs Debian's slurm-wlm and munge if sbatch is missing, starts munged, slurmctld
# and slurmd with a config, key, state, spool and logs of their own in a temporary folder,
# submits a tiny generation through scripts/slurm/generation.sh (2 self-play array tasks of 2
# games at 32 playouts, 20 training steps, a 2-game gate at 32 playouts), waits for it, checks
# that the shards, the checkpoint and the gate result are there, prints a summary and stops the
# daemons (also on failure or interruption). Under a minute on two cores once the binary is
# built (and apt-get's install the first time).
#
# If Slurm or munge cannot be installed (no network, no apt, no root), it says so loudly and
# exits 0: the smoke test is skipped, not failed. Anything else that goes wrong fails it, with
# the daemons' and jobs' logs printed.
#
#   bash scripts/slurm-smoke.sh
#
# Environment: BIN (a pbrain-hoshi built with the torch feature; default: build
# target/release/pbrain-hoshi as scripts/test.sh does), PREVIOUS (networks/hoshi-p32-g24),
# SMOKE_TIMEOUT (seconds to wait for the jobs, default 900), SMOKE_PORT (slurmctld's port, slurmd
# takes the next; default 16817), KEEP=1 (keep the temporary folder).
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$repo"

skip() {
    echo "==========================================================================" >&2
    echo "SLURM SMOKE TEST SKIPPED: $*" >&2
    echo "==========================================================================" >&2
    exit 0
}
say() { echo "slurm-smoke.sh: $*" >&2; }

# --- Slurm and munge ----------------------------------------------------------------------------
export PATH="$PATH:/usr/sbin:/sbin"   # the daemons, for a user whose PATH lacks them
have_tools() {
    local t
    for t in sbatch squeue scontrol sinfo slurmctld slurmd munged; do
        command -v "$t" >/dev/null || return 1
    done
}
if ! have_tools; then
    say "installing slurm-wlm and munge"
    sudo=()
    if [ "$(id -u)" != 0 ]; then sudo=(sudo -n); fi
    export DEBIAN_FRONTEND=noninteractive
    packages=(slurm-wlm munge)
    if ! timeout 900 "${sudo[@]}" apt-get install -y -q --no-install-recommends "${packages[@]}" </dev/null >&2; then
        timeout 300 "${sudo[@]}" apt-get update -q </dev/null >&2 || true
        timeout 900 "${sudo[@]}" apt-get install -y -q --no-install-recommends "${packages[@]}" </dev/null >&2 ||
            skip "slurm-wlm and munge are not installed and could not be installed (apt-get failed: no network or no root?)"
    fi
    have_tools || skip "sbatch, slurmctld, slurmd or munged still missing after apt-get"
fi

# --- the binary ---------------------------------------------------------------------------------
if [ -z "${BIN:-}" ]; then
    LIBTORCH="$(bash scripts/libtorch.sh)"
    export LIBTORCH
    cargo build --release --bins >&2
    BIN="$repo/target/release/pbrain-hoshi"
fi
previous=${PREVIOUS:-networks/hoshi-p32-g24}

# --- the daemons' stop, on every exit -----------------------------------------------------------
pids=()
jobs_submitted=()
status=1
dump_logs() {
    local f
    for f in "$tmp"/log/*.log "$tmp"/data/slurm/*.out; do
        [ -e "$f" ] || continue
        echo "----- $f (last 40 lines)" >&2
        tail -n 40 "$f" >&2
    done
}
stop() {
    local pid i
    if ((${#jobs_submitted[@]} > 0)) && [ -n "${slurm_up:-}" ]; then
        timeout 20 scancel "${jobs_submitted[@]}" 2>/dev/null || true
        for ((i = 0; i < 30; i++)); do
            [ -z "$(timeout 10 squeue -h -t PD,CF,R,CG,S -j "$(IFS=,; echo "${jobs_submitted[*]}")" 2>/dev/null)" ] && break
            sleep 1
        done
    fi
    # The daemons in reverse order of their start: slurmd, slurmctld, munged.
    for ((i = ${#pids[@]} - 1; i >= 0; i--)); do
        pid=${pids[i]}
        kill "$pid" 2>/dev/null || continue
        for _ in 1 2 3 4 5 6 7 8 9 10; do kill -0 "$pid" 2>/dev/null || break; sleep 0.5; done
        kill -9 "$pid" 2>/dev/null || true
        wait "$pid" 2>/dev/null || true
    done
    if [ "$status" != 0 ]; then
        dump_logs
        say "FAILED; the cluster's folder is kept: $tmp"
    elif [ -n "${KEEP:-}" ]; then
        say "the cluster's folder is kept: $tmp"
    else
        rm -rf "$tmp"
    fi
}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/hoshi-slurm-smoke.XXXXXX")
chmod 755 "$tmp"
trap stop EXIT
trap 'exit 130' INT TERM

# A copy of the binary in the temporary folder: the jobs run the binary that was given, whatever
# is rebuilt meanwhile.
mkdir -p "$tmp/bin"
cp "$BIN" "$tmp/bin/pbrain-hoshi"
# With its config as well (the one beside BIN, else the repository's), which it finds there.
config="$(dirname "$BIN")/hoshi.toml"
[ -e "$config" ] || config="$repo/config/hoshi.toml"
cp "$config" "$tmp/bin/hoshi.toml"
bin="$tmp/bin/pbrain-hoshi"

# --- a one-node cluster in $tmp -----------------------------------------------------------------
host=$(hostname -s)
cpus=$(nproc)
user=$(id -un)
port=${SMOKE_PORT:-16817}
mkdir -p "$tmp/munge" "$tmp/state" "$tmp/spool" "$tmp/log" "$tmp/run"
chmod 755 "$tmp/munge"
export SLURM_CONF="$tmp/slurm.conf"
: >"$tmp/plugstack.conf"
cat >"$SLURM_CONF" <<EOF
# One node, this machine; written by scripts/slurm-smoke.sh.
ClusterName=hoshismoke
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$port
SlurmdPort=$((port + 1))
SlurmUser=$user
SlurmdUser=$user
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$tmp/munge/munge.socket
StateSaveLocation=$tmp/state
SlurmdSpoolDir=$tmp/spool
SlurmctldPidFile=$tmp/run/slurmctld.pid
SlurmdPidFile=$tmp/run/slurmd.pid
SlurmctldLogFile=$tmp/log/slurmctld.log
SlurmdLogFile=$tmp/log/slurmd.log
SlurmctldDebug=info
SlurmdDebug=info
PlugStackConfig=$tmp/plugstack.conf
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SchedulerType=sched/builtin
MpiDefault=none
ReturnToService=2
MinJobAge=3600
SlurmdParameters=config_overrides
NodeName=$host NodeAddr=127.0.0.1 CPUs=$cpus State=UNKNOWN
PartitionName=smoke Nodes=$host Default=YES MaxTime=INFINITE State=UP
EOF

say "munged"
if command -v mungekey >/dev/null; then
    mungekey --create --keyfile "$tmp/munge/munge.key" >&2
else
    dd if=/dev/urandom of="$tmp/munge/munge.key" bs=1 count=1024 status=none
fi
chmod 400 "$tmp/munge/munge.key"
munged --foreground --force --key-file "$tmp/munge/munge.key" \
    --socket "$tmp/munge/munge.socket" --pid-file "$tmp/run/munged.pid" \
    --log-file "$tmp/log/munged.log" --seed-file "$tmp/munge/munged.seed" \
    >"$tmp/log/munged.stdout" 2>&1 &
pids+=($!)
for ((i = 0; i < 50; i++)); do [ -S "$tmp/munge/munge.socket" ] && break; sleep 0.2; done
[ -S "$tmp/munge/munge.socket" ] || { say "munged did not start"; exit 1; }

say "slurmctld and slurmd on $host ($cpus CPUs), config $SLURM_CONF"
slurmctld -D -i -f "$SLURM_CONF" >"$tmp/log/slurmctld.stdout" 2>&1 &
pids+=($!)
slurmd -D -f "$SLURM_CONF" -N "$host" >"$tmp/log/slurmd.stdout" 2>&1 &
pids+=($!)
slurm_up=1
state=
for ((i = 0; i < 60; i++)); do
    state=$(timeout 10 sinfo -h -n "$host" -o %T 2>/dev/null || true)
    [ "$state" = idle ] && break
    sleep 1
done
[ "$state" = idle ] || { say "the node is not idle after 60 s (state: ${state:-none})"; exit 1; }

# --- a tiny generation through sbatch -----------------------------------------------------------
data="$tmp/data"
started=$(date +%s)
ids=$(GAMES=2 WORKERS=2 NODES=32 STEPS=20 GATE_GAMES=2 GATE_NODES=32 BIN="$bin" \
    bash scripts/slurm/generation.sh 1 "$previous" "$data" -- --partition=smoke)
read -r sp_job train_job gate_job <<<"$ids"
jobs_submitted=("$sp_job" "$train_job" "$gate_job")
say "submitted: self-play $sp_job (array 1-2), training $train_job, gate $gate_job"
timeout_s=${SMOKE_TIMEOUT:-900}
while [ -n "$(timeout 10 squeue -h -j "$sp_job,$train_job,$gate_job" -t PD,CF,R,CG,S -o %i 2>/dev/null || echo waiting)" ]; do
    if (($(date +%s) - started > timeout_s)); then
        say "the jobs did not finish within $timeout_s s:"
        timeout 10 squeue -j "$sp_job,$train_job,$gate_job" >&2 || true
        exit 1
    fi
    sleep 2
done
elapsed=$(($(date +%s) - started))

# --- checks -------------------------------------------------------------------------------------
failed=()
# One line a job (an array task each): id, name, task, state, run time.
job_states=""
while read -r record; do
    [ -n "$record" ] || continue
    field() { sed -n "s/.*\b$1=\([^ ]*\).*/\1/p" <<<"$record"; }
    task=$(field ArrayTaskId)
    job_states+="$(field JobId) $(field JobName)${task:+ task $task} $(field JobState) $(field RunTime)"$'\n'
    [ "$(field JobState)" = COMPLETED ] ||
        failed+=("job $(field JobId) ($(field JobName)${task:+ task $task}) ended $(field JobState)")
done < <(for j in "$sp_job" "$train_job" "$gate_job"; do timeout 10 scontrol show job -o "$j" 2>&1; done)
[ -n "$job_states" ] || failed+=("scontrol knows none of the jobs")
shards=("$data"/gen1/*.hsp)
[ -e "${shards[0]}" ] || failed+=("no shards in $data/gen1")
for w in 1 2; do
    [ -n "$(ls "$data/gen1/$w-"*.hsp 2>/dev/null)" ] || failed+=("no shard from self-play worker $w")
done
checkpoints=("$data"/ckpt-gen1/ckpt-*.safetensors)
[ -e "${checkpoints[0]}" ] || failed+=("no checkpoint in $data/ckpt-gen1")
gate_file="$data/gate-gen1.txt"
[ -s "$gate_file" ] || failed+=("no gate result in $gate_file")

echo
echo "=== Slurm smoke test: one generation through sbatch on a one-node cluster ($host, $cpus CPUs)"
echo "jobs (id, name, state, run time), all done in $elapsed s:"
sed '/^$/d; s/^/  /' <<<"$job_states"
echo "self-play shards:"
for f in "$data"/gen1/*.hsp; do [ -e "$f" ] && echo "  $(basename "$f") $(stat -c %s "$f") bytes"; done
grep -h '^selfplay ' "$data"/slurm/selfplay-gen1-*.out 2>/dev/null | sed 's/^/  /' || true
echo "checkpoints:"
for f in "$data"/ckpt-gen1/ckpt-*.safetensors; do [ -e "$f" ] && echo "  $(basename "$f")"; done
echo "gate result ($gate_file):"
sed 's/^/  /' "$gate_file" 2>/dev/null || true
if ((${#failed[@]} > 0)); then
    echo "SLURM SMOKE TEST FAILED:"
    printf '  %s\n' "${failed[@]}"
    exit 1
fi
status=0
echo "SLURM SMOKE TEST PASSED"
