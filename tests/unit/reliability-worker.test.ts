import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { tsxExecArgv } from '../../src-main/services/pool/node-launcher';
import { alive } from './lab-fixtures';

describe('a simulation process whose owner dies', () => {
  it.each([
    { what: 'run', label: 'a long run' },
    { what: 'rows', label: "a scorecard row's minute-long run" },
    { what: 'timing', label: 'a timing kernel of few long blocks (seconds between progress reports)' },
  ])('exits within a second, in the middle of $label', async ({ what }) => {
    const parent = spawn(process.execPath, [...tsxExecArgv(), fileURLToPath(new URL('./fixtures/orphan-parent.ts', import.meta.url)), what], { stdio: ['ignore', 'pipe', 'inherit'] });
    const workerPid = await new Promise<number>((resolve) => {
      let out = '';
      parent.stdout.on('data', (c: Buffer) => {
        out += c.toString();
        if (out.includes('\n')) resolve(Number(out.split('\n')[0]));
      });
    });
    // (into the row's run: the scorecard reports before each row, then the run goes on for a minute)
    if (what === 'rows') await new Promise((r) => setTimeout(r, 1_000));
    expect(alive(workerPid)).toBe(true);
    process.kill(parent.pid!, 'SIGKILL');
    const t0 = Date.now();
    while (alive(workerPid) && Date.now() - t0 < 5_000) await new Promise((r) => setTimeout(r, 50));
    const ms = Date.now() - t0;
    if (alive(workerPid)) process.kill(workerPid, 'SIGKILL');
    console.log(`worker exited ${ms} ms after its owner was killed (${what})`);
    expect(ms).toBeLessThan(1_000);
  }, 60_000);
});
