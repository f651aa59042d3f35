#!/usr/bin/env bash
# A sweep on a real one-node Slurm cluster, checked against the same plan run on the local pool.
#
#   bash tests/slurm/run.sh        (npm run test:slurm)
#
# 1. Installs slurm-wlm and munge where missing (apt-get, as root), starts a private munged, slurmctld
#    and slurmd on this machine (tests/slurm/slurm.conf, filled in: this host, its CPUs and memory,
#    free ports; state, logs and sockets in a temporary folder) and waits for the node to be idle.
# 2. Writes a 12-point plan (pchase-fine, fermi and kepler x 6 strides), `gpulab sweep plan.json
#    --slurm <dir>`, submits sweep.sbatch with GPULAB naming this checkout's CLI, waits for the array
#    (squeue) and checks that every task completed with exit code 0 (the job-completion log).
# 3. `gpulab sweep collect <dir> --db slurm.db` (twice: the second imports nothing), the same plan
#    with `gpulab sweep plan.json --db local.db`, and compares the two sweeps point for point
#    (tests/slurm/compare.ts: findings, series, tables, traces).
#
# Exit code 0 when all holds; else 1 with the reason and the tail of the daemons' logs. The daemons
# are stopped at exit, whatever happens; the temporary folder is removed on success and kept (its
# path printed) on failure. SLURM_TEST_TIMEOUT (seconds, default 600) bounds the wait for the array.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$ROOT"
TIMEOUT=${SLURM_TEST_TIMEOUT:-600}
t_start=$(date +%s)

say() { printf '[slurm] %s\n' "$*"; }
elapsed() { echo $(($(date +%s) - t_start)); }

# --- 1. Slurm and munge -------------------------------------------------------------------------
need=""
for tool in slurmctld:slurm-wlm slurmd:slurm-wlm sbatch:slurm-client munged:munge; do
  command -v "${tool%%:*}" >/dev/null 2>&1 || need="$need ${tool#*:}"
done
if [ -n "$need" ]; then
  if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null 2>&1; then
    echo "[slurm] FAIL: slurm-wlm and munge are not installed and cannot be (needs root and apt-get): apt-get install slurm-wlm munge" >&2
    exit 1
  fi
  say "installing slurm-wlm munge"
  if ! { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq slurm-wlm munge >/dev/null; }; then
    echo "[slurm] FAIL: apt-get install slurm-wlm munge failed" >&2
    exit 1
  fi
fi
if [ "$(id -u)" != 0 ]; then
  say "note: not root; slurmd runs as $(id -un) and can start jobs of this user only"
fi

DIR=$(mktemp -d "${TMPDIR:-/tmp}/gpulab-slurm.XXXXXX")
chmod 755 "$DIR"
mkdir -p "$DIR/state" "$DIR/spool"
: > "$DIR/plugstack.conf"
ok=0
pids=()
cleanup() {
  local code=$?
  for pidfile in "$DIR/slurmd.pid" "$DIR/slurmctld.pid" "$DIR/munged.pid"; do
    [ -s "$pidfile" ] && kill "$(cat "$pidfile")" 2>/dev/null || true
  done
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  sleep 1
  for pidfile in "$DIR/slurmd.pid" "$DIR/slurmctld.pid" "$DIR/munged.pid"; do
    [ -s "$pidfile" ] && kill -9 "$(cat "$pidfile")" 2>/dev/null || true
  done
  if [ "$ok" = 1 ]; then rm -rf "$DIR"; else echo "[slurm] kept $DIR (logs, sweep folder, databases)" >&2; fi
  exit "$code"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

fail() {
  echo "[slurm] FAIL: $*" >&2
  for log in munged.log slurmctld.log slurmd.log; do
    if [ -s "$DIR/$log" ]; then echo "--- tail of $log" >&2; tail -n 20 "$DIR/$log" >&2; fi
  done
  exit 1
}

# Free TCP ports (a daemon of an earlier run, or another cluster, may hold the usual 6817/6818).
port_free() { ! (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
pick_port() {
  local p=$1
  while ! port_free "$p" || [ "$p" = "${2:-}" ]; do p=$((p + 1)); done
  echo "$p"
}
CTLD_PORT=$(pick_port 6817)
SLURMD_PORT=$(pick_port $((CTLD_PORT + 1)) "$CTLD_PORT")

NODE=$(hostname -s 2>/dev/null || hostname)
CPUS=$(nproc)
[ "$CPUS" -ge 2 ] || CPUS=2
MEMORY=$(awk '/^MemTotal:/ { printf "%d", $2 / 1024 * 0.9 }' /proc/meminfo)
sed -e "s|@NODE@|$NODE|g" -e "s|@CTLD_PORT@|$CTLD_PORT|g" -e "s|@SLURMD_PORT@|$SLURMD_PORT|g" \
  -e "s|@USER@|$(id -un)|g" -e "s|@DIR@|$DIR|g" -e "s|@CPUS@|$CPUS|g" -e "s|@MEMORY@|$MEMORY|g" \
  tests/slurm/slurm.conf > "$DIR/slurm.conf"
export SLURM_CONF="$DIR/slurm.conf"

# A munge key of this cluster only, and a munged on its own socket (the machine's munged, if any,
# is left alone).
dd if=/dev/urandom of="$DIR/munge.key" bs=1024 count=1 status=none
chmod 400 "$DIR/munge.key"
munged --force --socket="$DIR/munge.sock" --key-file="$DIR/munge.key" --pid-file="$DIR/munged.pid" \
  --log-file="$DIR/munged.log" --seed-file="$DIR/munged.seed" || fail "munged did not start"
munge -S "$DIR/munge.sock" -n | unmunge -S "$DIR/munge.sock" >/dev/null || fail "munge credentials do not round-trip"

slurmctld -f "$SLURM_CONF" -i || fail "slurmctld did not start"
slurmd -f "$SLURM_CONF" -N "$NODE" || fail "slurmd did not start"
say "cluster: node $NODE, $CPUS CPUs, $MEMORY MB, ports $CTLD_PORT/$SLURMD_PORT, folder $DIR"

deadline=$(($(date +%s) + 60))
state=""
while :; do
  state=$(sinfo -h -n "$NODE" -o '%T' 2>/dev/null || true)
  case "$state" in idle*) break ;; esac
  [ "$(date +%s)" -lt "$deadline" ] || fail "the node is not idle after 60 s (state: ${state:-no answer from slurmctld})"
  sleep 1
done
say "node idle after $(elapsed) s"

# --- 2. The sweep as a job array ------------------------------------------------------------------
NODE_BIN=$(command -v node)
case "$ROOT$NODE_BIN" in *[[:space:]]*) fail "the checkout or node path has a space: GPULAB cannot name it" ;; esac
export GPULAB="$NODE_BIN $ROOT/bin/gpulab.mjs"
gpulab() { $GPULAB "$@"; }

cat > "$DIR/plan.json" <<'PLAN'
{
  "name": "slurm test: fine chase, stride x preset",
  "experiment": "pchase-fine",
  "presets": ["fermi", "kepler"],
  "params": { "size": "16KB", "iterations": 512 },
  "axes": [{ "param": "stride", "range": { "from": 32, "to": 1024, "times": 2 } }],
  "seed": { "rule": "per-point", "base": 7 }
}
PLAN
POINTS=12
gpulab sweep "$DIR/plan.json" --slurm "$DIR/sweep" --max-parallel 16 --db "$DIR/planning.db" >/dev/null || fail "gpulab sweep --slurm failed"
bash -n "$DIR/sweep/sweep.sbatch" || fail "sweep.sbatch is not valid bash"
grep -q "^#SBATCH --array=0-$((POINTS - 1))%16$" "$DIR/sweep/sweep.sbatch" || fail "sweep.sbatch has no array of $POINTS tasks"

job=$(cd "$DIR/sweep" && sbatch --parsable sweep.sbatch) || fail "sbatch refused the script"
job=${job%%;*}
say "submitted job array $job ($POINTS tasks)"
deadline=$(($(date +%s) + TIMEOUT))
while :; do
  left=$(squeue -h -j "$job" -r -o '%i' 2>/dev/null | wc -l) || left=1
  [ "$left" = 0 ] && break
  [ "$(date +%s)" -lt "$deadline" ] || { scancel "$job" 2>/dev/null || true; fail "the array has $left tasks left after $TIMEOUT s"; }
  sleep 1
done
say "array done after $(elapsed) s"

# Every task ended COMPLETED, exit code 0 (JobCompType=jobcomp/filetxt: a line per task).
for _ in $(seq 10); do
  ended=$(grep -c "ArrayJobId=$job " "$DIR/jobcomp.log" 2>/dev/null || true)
  [ "${ended:-0}" -ge "$POINTS" ] && break
  sleep 1
done
done_tasks=$(grep "ArrayJobId=$job " "$DIR/jobcomp.log" | grep -c 'JobState=COMPLETED .*ExitCode=0:0' || true)
if [ "$done_tasks" != "$POINTS" ]; then
  grep "ArrayJobId=$job " "$DIR/jobcomp.log" | grep -v 'JobState=COMPLETED' | head -n 5 >&2 || true
  for f in "$DIR"/sweep/logs/*.out; do [ -s "$f" ] && { echo "--- $f" >&2; tail -n 5 "$f" >&2; }; done
  fail "$done_tasks of $POINTS tasks completed with exit code 0"
fi
bundles=$(find "$DIR/sweep/bundles" -name 'point-*.gmlbundle' | wc -l)
[ "$bundles" = "$POINTS" ] || fail "$bundles bundles for $POINTS points"
say "$POINTS tasks completed (exit code 0), $bundles bundles"

# --- 3. Collect, run locally, compare ---------------------------------------------------------------
gpulab sweep collect "$DIR/sweep" --db "$DIR/slurm.db" --format json > "$DIR/collect.json" || fail "sweep collect failed"
node -e '
  const r = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
  const n = Number(process.argv[2]);
  if (r.done !== n || r.imported !== n || r.missing.length || r.failed.length || r.unreadable.length)
    { console.error("[slurm] collect: " + JSON.stringify(r)); process.exit(1); }' "$DIR/collect.json" "$POINTS" || fail "collect did not import every point as done"
gpulab sweep collect "$DIR/sweep" --db "$DIR/slurm.db" --format json > "$DIR/collect2.json" || fail "the second sweep collect failed"
node -e '
  const r = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
  if (r.imported !== 0 || r.alreadyHere !== Number(process.argv[2])) { console.error("[slurm] second collect: " + JSON.stringify(r)); process.exit(1); }' "$DIR/collect2.json" "$POINTS" || fail "the second collect was not idempotent"
say "collected $POINTS points (a second collect imported none)"

gpulab sweep "$DIR/plan.json" --db "$DIR/local.db" >/dev/null || fail "the local sweep failed"
node --import tsx tests/slurm/compare.ts "$DIR/slurm.db" "$DIR/local.db" || fail "the Slurm and local sweeps differ"

ok=1
say "passed in $(elapsed) s"
