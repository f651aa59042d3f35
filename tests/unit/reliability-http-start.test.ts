/**
 * runs.start through the browser mode's HTTP API: parameters that can only fail on the chosen
 * preset, and numbers that are not plain decimals, are answered 400 with the reason, and nothing is
 * stored or queued.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LabService } from '../../src-main/services/lab';
import { startLabServer } from '../../src-main/web/server';
import type { LabServer } from '../../src-main/web/server';
import { raw, TempDir, testLab } from './lab-fixtures';

const tmp = new TempDir();
let lab: LabService;
let server: LabServer;

beforeAll(async () => {
  lab = testLab(tmp.file('start.db')).lab;
  server = await startLabServer({ lab, staticDir: null });
});

afterAll(async () => {
  await server.close();
  await lab.close();
  tmp.remove();
});

const start = (args: Record<string, unknown>) =>
  raw(server.port, 'POST', '/api/call/runs.start', { headers: { authorization: `Bearer ${server.token}`, 'content-type': 'application/json' }, body: JSON.stringify(args) });
const runCount = () => lab.store.listRuns({}).total;

async function refused(args: Record<string, unknown>): Promise<{ code: string; message: string }> {
  const before = runCount();
  const r = await start(args);
  expect(r.status, r.text).toBe(400);
  expect(runCount()).toBe(before);
  expect(lab.queue()).toEqual({ queued: [], running: [] });
  const { error } = JSON.parse(r.text) as { error: { code: string; message: string } };
  expect(error.message).not.toMatch(/\n\s+at /);
  return error;
}

describe('runs.start over HTTP: runs that could only fail', () => {
  it('refuses a TPC the GPU does not have (tpc=16 on Fermi) with 400 and the reason', async () => {
    const e = await refused({ experiment: 'pchase-fine', preset: 'fermi', params: { tpc: 16 } });
    expect(e.message).toMatch(/"tpc" is 16/);
    expect(e.message).toMatch(/has TPCs 0 to \d+/);
  });

  it('refuses a stride larger than the array with 400 and the reason', async () => {
    const e = await refused({ experiment: 'pchase-fine', preset: 'fermi', params: { size: '4KB', stride: '8KB' } });
    expect(e.message).toMatch(/stride/);
    const avg = await refused({ experiment: 'pchase-average', preset: 'kepler', params: { strides: ['1MB'], sizeFrom: '4KB', sizeTo: '8KB' } });
    expect(avg.message).toMatch(/stride/);
  });

  it('still queues the same experiment with parameters the preset can run', async () => {
    const before = runCount();
    const r = await start({ experiment: 'pchase-fine', preset: 'fermi', params: { tpc: 0, size: '8KB', stride: '128', iterations: 64 } });
    expect(r.status, r.text).toBe(200);
    expect(runCount()).toBe(before + 1);
    const { runId } = (JSON.parse(r.text) as { result: { runId: string } }).result;
    expect((await lab.finished(runId)).status).toBe('done');
  });
});

describe('runs.start over HTTP: numbers are decimal only', () => {
  it.each([
    ['blank', '   '],
    ['hexadecimal', '0x10'],
    ['exponent', '1e1'],
  ])('refuses a %s number (%j) with 400', async (_what, value) => {
    const e = await refused({ experiment: 'pchase-fine', preset: 'fermi', params: { iterations: value } });
    expect(e.code).toBe('invalid-args');
    expect(e.message).toMatch(/iterations/);
  });

  it.each([
    ['blank', '   '],
    ['hexadecimal', '0x10'],
    ['exponent', '1e1'],
  ])('refuses a %s TPC (%j) with 400', async (_what, value) => {
    const e = await refused({ experiment: 'pchase-fine', preset: 'fermi', params: { tpc: value } });
    expect(e.message).toMatch(/tpc/);
  });
});
