/**
 * The Node version guard (scripts/node-guard.mjs): its reading of package.json's engines range and
 * its version comparison, and every entry point refusing an old Node (Debian's /usr/bin/node, 20.x,
 * where it is installed) with the one line and exit 1, before the build, tsx or better-sqlite3.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { checkNode, compareVersions, minimumOf, newestMajorOf, packageRange, parseRange, parseVersion, satisfies } from '../../scripts/node-guard.mjs';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { engines: { node: string }; devEngines: { runtime: { version: string } }; scripts: Record<string, string> };
const RANGE = '^22.12.0 || ^24.0.0';

describe('the version comparison', () => {
  it('reads versions and compares them part by part', () => {
    expect(parseVersion('v20.20.2')).toEqual([20, 20, 2]);
    expect(parseVersion('24')).toEqual([24, 0, 0]);
    expect(parseVersion('22.12.0-nightly')).toEqual([22, 12, 0]);
    expect(parseVersion('not a version')).toBeNull();
    expect(compareVersions([22, 9, 0], [22, 12, 0])).toBe(-1);
    expect(compareVersions([22, 12, 0], [22, 12, 0])).toBe(0);
    expect(compareVersions([24, 0, 0], [22, 99, 99])).toBe(1);
  });

  it("reads npm's ranges: caret, tilde, comparators and alternatives", () => {
    for (const [v, ok] of [
      ['20.20.2', false],
      ['22.11.9', false],
      ['22.12.0', true],
      ['22.23.3', true],
      ['23.1.0', false],
      ['24.0.0', true],
      ['24.21.0', true],
      ['25.0.0', false],
    ] as const)
      expect([v, satisfies(v, RANGE)]).toEqual([v, ok]);
    expect(satisfies('24.1.5', '~24.1.0')).toBe(true);
    expect(satisfies('24.2.0', '~24.1.0')).toBe(false);
    expect(satisfies('23.0.0', '>=22 <25')).toBe(true);
    expect(satisfies('25.0.0', '>=22 <25')).toBe(false);
    expect(satisfies('22.12.0', '22.12.0')).toBe(true);
    expect(minimumOf(RANGE)).toEqual([22, 12, 0]);
    expect(newestMajorOf(RANGE)).toBe(24);
    expect(() => parseRange('latest')).toThrow(/not a version this guard reads/);
  });

  it('refuses a Node older than the lowest version in one line naming both, warns on a newer one the range does not list', () => {
    expect(checkNode({ node: '20.20.2', range: RANGE })).toEqual({ ok: false, message: 'gpu-memory-lab needs Node.js 22.12 or newer (24 LTS recommended); this is Node 20.20.2.' });
    expect(checkNode({ node: 'v22.11.0', range: RANGE, name: 'x' })).toEqual({ ok: false, message: 'x needs Node.js 22.12 or newer (24 LTS recommended); this is Node 22.11.0.' });
    expect(checkNode({ node: '22.12.0', range: RANGE })).toEqual({ ok: true });
    expect(checkNode({ node: '24.21.0', range: RANGE })).toEqual({ ok: true });
    expect(checkNode({ node: '26.0.0', range: RANGE })).toMatchObject({ ok: true, warning: expect.stringMatching(/tested on Node\.js \^22\.12\.0 \|\| \^24\.0\.0; this is Node 26\.0\.0: if something fails, use Node 24 LTS/) });
    // Electron's own Node passes (the desktop main process runs the same guard).
    expect(checkNode({ electron: '43.8.12', node: '20.0.0', range: RANGE })).toEqual({ ok: true });
  });

  it("takes its range from package.json's engines, the one the devEngines check repeats", () => {
    expect(packageRange()).toEqual({ name: 'gpu-memory-lab', range: pkg.engines.node });
    expect(pkg.devEngines.runtime.version).toBe(pkg.engines.node);
    expect(satisfies(process.versions.node, pkg.engines.node)).toBe(true);
  });
});

// Debian's Node 20 (the system one) where it is installed: each entry refuses it.
const OLD_NODE = '/usr/bin/node';
const oldVersion = existsSync(OLD_NODE) ? spawnSync(OLD_NODE, ['--version'], { encoding: 'utf8' }).stdout.trim() : '';
const haveOld = oldVersion !== '' && !satisfies(oldVersion, pkg.engines.node);
const NPM = [join(dirname(process.execPath), '../lib/node_modules/npm/bin/npm-cli.js'), '/usr/lib/node_modules/npm/bin/npm-cli.js'].find((p) => existsSync(p));
const LINE = `gpu-memory-lab needs Node.js 22.12 or newer (24 LTS recommended); this is Node ${oldVersion.replace(/^v/, '')}.`;
/** A package.json script as the old Node runs it (its leading `node` is that Node). */
const script = (name: string): string[] => {
  const [cmd, ...args] = pkg.scripts[name]!.split(' ');
  expect(cmd).toBe('node');
  return args;
};

describe.skipIf(!haveOld)(`every entry point on an old Node (${OLD_NODE} ${oldVersion})`, () => {
  const entries: [string, string[]][] = [
    ['npm start (scripts/start.mjs)', ['scripts/start.mjs', '--no-open']],
    ['npm run web (its script)', [...script('web'), '--no-open']],
    ['the browser mode started through tsx (src-main/web/main.ts)', ['--import', 'tsx', 'src-main/web/main.ts', '--no-open']],
    ['gpulab (bin/gpulab.mjs)', ['bin/gpulab.mjs', 'run', 'pchase-average', '--save']],
    ['npm run lab (its script)', [...script('lab'), 'run', 'pchase-average', '--save']],
    ['the command line started through tsx (src-main/cli.ts)', ['--import', 'tsx', 'src-main/cli.ts', '--version']],
  ];
  for (const [what, args] of entries)
    it(`${what}: one line, exit 1`, () => {
      const r = spawnSync(OLD_NODE, args, { cwd: ROOT, encoding: 'utf8', timeout: 60_000, env: { ...process.env, HOME: '/nonexistent' } });
      expect({ status: r.status, stdout: r.stdout, stderr: r.stderr }).toEqual({ status: 1, stdout: '', stderr: `${LINE}\n` });
    });

  it.skipIf(!NPM)('npm start, npm run web and npm run lab through npm itself: the same line, exit 1', () => {
    for (const args of [['start', '--', '--no-open'], ['run', 'web', '--', '--no-open'], ['run', 'lab', '--', '--version']]) {
      const r = spawnSync(OLD_NODE, [NPM!, '--silent', ...args], { cwd: ROOT, encoding: 'utf8', timeout: 60_000, env: { ...process.env, PATH: `${dirname(OLD_NODE)}:${process.env.PATH ?? ''}` } });
      expect([args[0], args[1], r.status]).toEqual([args[0], args[1], 1]);
      expect(r.stderr.split('\n').filter((l) => !l.startsWith('npm warn'))).toEqual([LINE, '']);
    }
  });
});
