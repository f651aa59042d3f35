// The Node.js version guard of every entry point: `npm start` (scripts/start.mjs), the browser mode
// (`npm run web`: `node --import ./scripts/node-guard.mjs --import tsx ...`, so that it runs before
// tsx or better-sqlite3 load), the command line (bin/gpulab.mjs, `npm run lab`, src-main/cli.ts) and
// the desktop main process (src-main/electron/main.ts). Importing it checks this process's Node
// against package.json's `engines.node` (the one place the supported range is written): on a Node
// older than the range's lowest version it prints one line naming both versions to stderr and exits
// 1, before anything native loads. Under Electron the Node is Electron's own, the one the app is
// built for: the same check passes there. On a newer Node that the range does not list it says so
// in one line and goes on.
//
// Plain JavaScript without dependencies, written for old Nodes too (no syntax newer than Node 12's):
// it must run on the Nodes it refuses.
import { readFileSync } from 'node:fs';

// Through a variable: a bundler (electron-vite, for the main process) leaves it alone.
const PACKAGE_JSON = '../package.json';

/** "20.20.2" or "v20.20.2" as [20, 20, 2] (missing parts 0), or null. */
export function parseVersion(text) {
  const m = /^v?(\d+)(?:\.(\d+))?(?:\.(\d+))?/.exec(String(text).trim());
  return m ? [Number(m[1]), Number(m[2] || 0), Number(m[3] || 0)] : null;
}

/** -1, 0 or 1 as a is older than, the same as or newer than b. */
export function compareVersions(a, b) {
  for (let i = 0; i < 3; i++) if (a[i] !== b[i]) return a[i] < b[i] ? -1 : 1;
  return 0;
}

/**
 * A range as npm writes it in `engines` (the forms this project uses: `^22.12.0 || ^24.0.0`,
 * `>=22.12.0`, `~24.1.0`, `24.1.0`, `>=22 <25`): its alternatives, each a list of [operator, version]
 * that must all hold. Throws on anything else.
 */
export function parseRange(range) {
  return String(range)
    .split('||')
    .map((alt) => {
      const parts = alt.trim().split(/\s+/).filter(Boolean);
      if (parts.length === 0) throw new Error(`empty alternative in the range "${range}"`);
      return parts.map((p) => {
        const m = /^(\^|~|>=|<=|>|<|=)?v?(\d+(?:\.\d+){0,2})$/.exec(p);
        if (!m) throw new Error(`"${p}" in the range "${range}" is not a version this guard reads`);
        return [m[1] || '=', parseVersion(m[2]), m[2].split('.').length];
      });
    });
}

function holds(version, [op, v, parts]) {
  const c = compareVersions(version, v);
  switch (op) {
    case '^':
      // ^22.12.0: 22.12.0 up to, not including, 23; ^0.x is not used here.
      return c >= 0 && version[0] === v[0];
    case '~':
      return c >= 0 && version[0] === v[0] && (parts < 2 || version[1] === v[1]);
    case '>=':
      return c >= 0;
    case '>':
      return c > 0;
    case '<=':
      return c <= 0;
    case '<':
      return c < 0;
    default:
      return parts === 3 ? c === 0 : version[0] === v[0] && (parts < 2 || version[1] === v[1]);
  }
}

/** Whether a version ("20.20.2" or [20, 20, 2]) is in the range. */
export function satisfies(version, range) {
  const v = Array.isArray(version) ? version : parseVersion(version);
  return v !== null && parseRange(range).some((alt) => alt.every((c) => holds(v, c)));
}

/** The lowest version the range admits (the smallest lower bound of its alternatives). */
export function minimumOf(range) {
  let min = null;
  for (const alt of parseRange(range)) {
    let low = [0, 0, 0];
    for (const [op, v] of alt) if (op !== '<' && op !== '<=' && compareVersions(v, low) > 0) low = v;
    if (min === null || compareVersions(low, min) < 0) min = low;
  }
  return min;
}

/** The newest major version the range names (the one recommended). */
export function newestMajorOf(range) {
  let major = 0;
  for (const alt of parseRange(range)) for (const [op, v] of alt) if (op !== '<' && op !== '<=' && v[0] > major) major = v[0];
  return major;
}

/** "22.12" for 22.12.0, "22.12.1" for 22.12.1. */
const short = (v) => (v[2] === 0 ? `${v[0]}.${v[1]}` : v.join('.'));

/**
 * The verdict on a Node version: `{ ok: true }`, `{ ok: true, warning }` (newer than the range
 * lists), or `{ ok: false, message }` (older than its lowest version, or not a version at all).
 * `electron`: Electron's version when the process is Electron's (its Node passes: it is the one the
 * app is built and packaged for).
 */
export function checkNode({ node, range, name = 'gpu-memory-lab', electron } = {}) {
  if (electron) return { ok: true };
  const v = parseVersion(node);
  const min = minimumOf(range);
  const need = `${name} needs Node.js ${short(min)} or newer (${newestMajorOf(range)} LTS recommended)`;
  if (v === null) return { ok: false, message: `${need}; this is Node ${node}.` };
  if (satisfies(v, range)) return { ok: true };
  if (compareVersions(v, min) < 0) return { ok: false, message: `${need}; this is Node ${v.join('.')}.` };
  return { ok: true, warning: `${name} is tested on Node.js ${range}; this is Node ${v.join('.')}: if something fails, use Node ${newestMajorOf(range)} LTS.` };
}

/** package.json's name and engines.node (the one source of the range). */
export function packageRange(url = new URL(PACKAGE_JSON, import.meta.url)) {
  const pkg = JSON.parse(readFileSync(url, 'utf8'));
  if (!pkg.engines || typeof pkg.engines.node !== 'string') throw new Error(`${url.pathname} names no engines.node range`);
  return { name: pkg.name || 'gpu-memory-lab', range: pkg.engines.node };
}

/** The guard: this process's Node against package.json; refuses (stderr, exit 1) or returns. */
export function guardNode() {
  const electron = process.versions.electron;
  // Electron's Node passes without a look at package.json (which a packaged app keeps in its asar).
  const verdict = electron ? checkNode({ electron }) : checkNode({ node: process.versions.node, ...packageRange() });
  if (!verdict.ok) {
    process.stderr.write(`${verdict.message}\n`);
    process.exit(1);
  }
  // Said once: the processes an entry starts (npm start's browser mode) inherit that it was.
  if (verdict.warning && !process.env.GPULAB_NODE_WARNED) {
    process.stderr.write(`${verdict.warning}\n`);
    process.env.GPULAB_NODE_WARNED = '1';
  }
}

guardNode();
