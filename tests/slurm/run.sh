#!/usr/bin/env bash
# A sweep on a real one-node Slurm cluster, checked against the same plan run on the local pool.
#
#   bash tests/slurm/run.sh        (npm run test:slurm)
#
# 1. Installs slurm-wlm and munge where missing (apt-get, as root), starts a private munged, slurmctld
#    and slurmd on this machine (tests/slurm/slurm.conf, filled in: this host, its CPUs and memory,
#    free ports; state, logs and sockets in a temporary folder) and waits for the node to be idle.
# 2. Writes a 12-point plan (pchase-fine, fermi and kepler x 6 strides), `gpulab sweep plan.json
#    --slurm <dir>` with job arrays of at most 5 tasks (GPULAB_ARRAY_MAX=5; the cluster's MaxArraySize
#    is 5, so one array of 12 is refused), submits them with submit.sh (three arrays, each after the
#    one before: --max-parallel) and GPULAB naming this checkout's CLI, waits for them (squeue) and
#    checks that every task completed with exit code 0 (the job-completion log).
# 3. `gpulab sweep collect <dir> --db slurm.db` (twice: the second imports nothing); with three
#    bundles (points 3, 7 and 11) set aside, `collect --resubmit` into another database and
#    resubmit.sh (three arrays at their offsets), then collect again; the same plan with
#    `gpulab sweep plan.json --db local.db`; and compares both collected sweeps with the local one
#    point for point (tests/slurm/compare.ts: findings, series, tables, traces).
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
GPULAB_ARRAY_MAX=5 gpulab sweep "$DIR/plan.json" --slurm "$DIR/sweep" --max-parallel 16 --db "$DIR/planning.db" >/dev/null || fail "gpulab sweep --slurm failed"
for f in sweep.sbatch submit.sh; do bash -n "$DIR/sweep/$f" || fail "$f is not valid bash"; done
grep -q '^#SBATCH --array=0-4%16$' "$DIR/sweep/sweep.sbatch" || fail "sweep.sbatch has no array of tasks 0 to 4"
# What the arrays are for: this cluster takes tasks 0 to 4 and refuses one array of all the points.
(cd "$DIR/sweep" && sbatch --test-only --array=0-4 sweep.sbatch) >/dev/null 2>&1 || fail "sbatch --test-only refused --array=0-4"
if refusal=$(cd "$DIR/sweep" && sbatch --test-only --array=0-$((POINTS - 1)) sweep.sbatch 2>&1); then
  fail "the cluster takes --array=0-$((POINTS - 1)): MaxArraySize is not in force"
fi
case "$refusal" in *"Invalid job array specification"*) ;; *) fail "sbatch --test-only --array=0-$((POINTS - 1)): $refusal" ;; esac

# Runs submit.sh or resubmit.sh (from elsewhere: it submits from its own folder); JOBS: the ids of
# the arrays it submitted (its "Submitted batch job <id>" lines), comma-separated.
submit() {
  local out
  out=$(bash "$1" 2>&1) || fail "$(basename "$1") failed: $out"
  JOBS=$(echo "$out" | sed -n 's/^Submitted batch job \([0-9][0-9]*\).*/\1/p' | paste -sd, -)
}
wait_jobs() {
  local jobs=$1 left
  local deadline=$(($(date +%s) + TIMEOUT))
  while :; do
    left=$(squeue -h -j "$jobs" -r -o '%i' 2>/dev/null | wc -l) || left=1
    [ "$left" = 0 ] && break
    [ "$(date +%s)" -lt "$deadline" ] || { scancel ${jobs//,/ } 2>/dev/null || true; fail "the arrays $jobs have $left tasks left after $TIMEOUT s"; }
    sleep 1
  done
}
# Every task of the arrays ended COMPLETED, exit code 0 (JobCompType=jobcomp/filetxt: a line per task).
check_tasks() {
  local jobs=$1 tasks=$2 pattern ended done_tasks
  pattern="ArrayJobId=(${jobs//,/|}) "
  for _ in $(seq 10); do
    ended=$(grep -cE "$pattern" "$DIR/jobcomp.log" 2>/dev/null || true)
    [ "${ended:-0}" -ge "$tasks" ] && break
    sleep 1
  done
  done_tasks=$(grep -E "$pattern" "$DIR/jobcomp.log" | grep -c 'JobState=COMPLETED .*ExitCode=0:0' || true)
  if [ "$done_tasks" != "$tasks" ]; then
    grep -E "$pattern" "$DIR/jobcomp.log" | grep -v 'JobState=COMPLETED' | head -n 5 >&2 || true
    for f in "$DIR"/sweep/logs/*.out; do [ -s "$f" ] && { echo "--- $f" >&2; tail -n 5 "$f" >&2; }; done
    fail "$done_tasks of $tasks tasks completed with exit code 0"
  fi
}

submit "$DIR/sweep/submit.sh"
jobs=$JOBS
[ "$(echo "$jobs" | tr ',' '\n' | grep -c .)" = 3 ] || fail "submit.sh submitted the arrays $jobs, not 3"
say "submitted 3 job arrays $jobs ($POINTS tasks, at most 5 each)"
wait_jobs "$jobs"
say "arrays done after $(elapsed) s"
check_tasks "$jobs" "$POINTS"
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

# Three points missing (their bundles set aside): collect --resubmit lists them, resubmit.sh runs them
# as three arrays at their offsets (points 3, 7 and 11: task 3 at 0, 2 at 5, 1 at 10), and a collect
# then has all of them.
mkdir -p "$DIR/aside"
for p in 3 7 11; do mv "$DIR/sweep/bundles/point-$(printf '%06d' "$p").gmlbundle" "$DIR/aside/"; done
gpulab sweep collect "$DIR/sweep" --db "$DIR/partial.db" --resubmit --format json > "$DIR/collect3.json" || fail "sweep collect --resubmit failed"
node -e '
  const r = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
  const want = [{ offset: 0, array: "3%16" }, { offset: 5, array: "2%16" }, { offset: 10, array: "1%16" }];
  const got = r.resubmitArrays.map((a) => ({ offset: a.offset, array: a.array + "%16" }));
  if (JSON.stringify(r.missing) !== "[3,7,11]" || JSON.stringify(got) !== JSON.stringify(want))
    { console.error("[slurm] collect --resubmit: " + JSON.stringify(r)); process.exit(1); }' "$DIR/collect3.json" || fail "collect --resubmit did not list points 3, 7 and 11 in three arrays"
grep -q "^part 10 '1%16' --dependency=\"afterany:\$last\" \"\$@\"$" "$DIR/sweep/resubmit.sh" || fail "resubmit.sh has no array for point 11 after the one before"
submit "$DIR/sweep/resubmit.sh"
jobs=$JOBS
wait_jobs "$jobs"
check_tasks "$jobs" 3
gpulab sweep collect "$DIR/sweep" --db "$DIR/partial.db" --format json > "$DIR/collect4.json" || fail "sweep collect after the resubmission failed"
node -e '
  const r = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
  if (r.done !== Number(process.argv[2]) || r.imported !== 3 || r.missing.length || r.failed.length) { console.error("[slurm] collect after resubmit: " + JSON.stringify(r)); process.exit(1); }' "$DIR/collect4.json" "$POINTS" || fail "the resubmitted points were not collected as done"
say "resubmitted points 3, 7 and 11 as arrays $jobs, collected"

gpulab sweep "$DIR/plan.json" --db "$DIR/local.db" >/dev/null || fail "the local sweep failed"
node --import tsx tests/slurm/compare.ts "$DIR/slurm.db" "$DIR/local.db" || fail "the Slurm and local sweeps differ"
node --import tsx tests/slurm/compare.ts "$DIR/partial.db" "$DIR/local.db" || fail "the resubmitted Slurm sweep and the local one differ"

ok=1
say "passed in $(elapsed) s"
