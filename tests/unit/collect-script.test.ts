/**
 * tests/fixtures/real/h100/collect.sh and the run-all.sh it writes: every program built at once (up to
 * the CPU count), a failed build printed with the end of its log, then the programs run one after
 * another. Stand-in nvcc and nvidia-smi: nvcc takes a second a build and fails on one program.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = resolve(__dirname, '../..');
const tmp = mkdtempSync(join(tmpdir(), 'gpulab-collect-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('collect.sh and run-all.sh', () => {
  it('builds the programs in parallel, prints a failed build with its log tail, then runs the others one after another', () => {
    const bin = join(tmp, 'bin');
    mkdirSync(bin);
    const times = join(tmp, 'times');
    writeFileSync(
      join(bin, 'nvcc'),
      `#!/bin/sh
src=""; out=""
while [ $# -gt 0 ]; do case "$1" in -o) shift; out="$1";; *.cu) src="$1";; esac; shift; done
echo "start $(date +%s.%N) $src" >> "${times}"
sleep 1
if [ "$src" = "shared-bank-stride.cu" ]; then echo "$src(12): error: identifier \\"boom\\" is undefined" >&2; exit 1; fi
printf '#!/bin/sh\\necho "{\\\\"ran\\\\":\\\\"%s\\\\"}"\\n' "$out" > "$out"; chmod +x "$out"
echo "end $(date +%s.%N) $src" >> "${times}"
`,
      { mode: 0o755 },
    );
    writeFileSync(join(bin, 'nvidia-smi'), '#!/bin/sh\necho "9.0"\n', { mode: 0o755 });
    const runs = join(tmp, 'runs.txt');
    writeFileSync(runs, 'fine pchase-fine --param size=16KB\nbanks shared-bank-stride --param strideTo=8\navg pchase-average --param strides=64 --param sizeFrom=8KB --param sizeTo=64KB --param sizeStep=8KB\n');
    const dir = join(tmp, 'progs');
    execFileSync('sh', [join(ROOT, 'tests/fixtures/real/h100/collect.sh'), dir, runs], { cwd: ROOT, encoding: 'utf8', timeout: 120_000 });
    const out = join(tmp, 'out');
    const r = spawnSync('sh', [join(dir, 'run-all.sh'), out], { encoding: 'utf8', timeout: 60_000, env: { PATH: `${bin}:/usr/bin:/bin`, JOBS: '3' } });
    expect(r.status, r.stderr).toBe(1);
    // The three builds overlap: every one started before the first one ended.
    const log = readFileSync(times, 'utf8').trim().split('\n').map((l) => l.split(' '));
    const starts = log.filter((l) => l[0] === 'start').map((l) => Number(l[1]));
    const ends = log.filter((l) => l[0] === 'end').map((l) => Number(l[1]));
    expect(starts).toHaveLength(3);
    expect(Math.max(...starts)).toBeLessThan(Math.min(...ends));
    expect(r.stdout).toBe(
      [
        `banks: build failed (${out}/banks.build.log):`,
        '  build.sh: building shared-bank-stride for -arch=sm_90',
        '  shared-bank-stride.cu(12): error: identifier "boom" is undefined',
        'fine: exit code 0',
        'avg: exit code 0',
        '',
      ].join('\n'),
    );
    expect(readFileSync(join(out, 'fine.jsonl'), 'utf8')).toBe('{"ran":"pchase-fine"}\n');
    expect(readFileSync(join(out, 'avg.jsonl'), 'utf8')).toBe('{"ran":"pchase-average"}\n');
  }, 180_000);
});
