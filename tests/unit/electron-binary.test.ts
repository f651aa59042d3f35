/**
 * `npm start` and the Electron spec find Electron's executable from the package's files alone
 * (scripts/electron-binary.mjs): a package without its binary is named in one reason, never loaded
 * (its index.js would try a download and print a network error and advice to delete the package).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { electronBinary } from '../../scripts/electron-binary.mjs';

const roots: string[] = [];
afterEach(() => {
  for (const r of roots.splice(0)) rmSync(r, { recursive: true, force: true });
});
const fresh = (): string => {
  const r = mkdtempSync(join(tmpdir(), 'gpulab-electron-'));
  roots.push(r);
  return r;
};

/** A project folder whose node_modules/electron holds `files` (and an index.js that throws if loaded). */
function project(files: Record<string, string>): string {
  const root = fresh();
  writeFileSync(join(root, 'package.json'), '{"name":"p"}');
  const pkg = join(root, 'node_modules', 'electron');
  mkdirSync(join(pkg, 'dist'), { recursive: true });
  writeFileSync(join(pkg, 'package.json'), '{"name":"electron","main":"index.js"}');
  writeFileSync(join(pkg, 'index.js'), 'throw new Error("loaded: it would try a download")');
  for (const [name, text] of Object.entries(files)) writeFileSync(join(pkg, name), text);
  return root;
}

describe("Electron's executable", () => {
  it('is found where the package names one under dist/', () => {
    const r = project({ 'path.txt': 'electron', 'dist/electron': '' });
    expect(electronBinary(r, {})).toEqual({ path: join(r, 'node_modules', 'electron', 'dist', 'electron') });
  });
  it('is missing, in words, where the download never happened, without loading the package', () => {
    const r = project({});
    expect(electronBinary(r, {})).toEqual({ missing: 'its binary was not downloaded at install: offline, or ELECTRON_SKIP_BINARY_DOWNLOAD' });
    expect(electronBinary(project({ 'path.txt': 'electron' }), {})).toMatchObject({ missing: expect.stringMatching(/^its binary is missing \(/) });
  });
  it('is missing where the package is not installed, and taken from ELECTRON_OVERRIDE_DIST_PATH as the package does', () => {
    const root = fresh();
    writeFileSync(join(root, 'package.json'), '{"name":"p"}');
    expect(electronBinary(root, {})).toEqual({ missing: 'the electron package is not installed' });
    const r = project({ 'path.txt': 'electron' });
    const dist = join(r, 'elsewhere');
    mkdirSync(dist);
    writeFileSync(join(dist, 'electron'), '');
    expect(electronBinary(r, { ELECTRON_OVERRIDE_DIST_PATH: dist })).toEqual({ path: join(dist, 'electron') });
  });
});
