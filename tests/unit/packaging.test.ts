import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const root = new URL('../../', import.meta.url);
const read = (p: string): string => readFileSync(new URL(p, root), 'utf8');
const config = JSON.parse(read('electron-builder.json')) as Record<string, unknown>;
const pkg = JSON.parse(read('package.json')) as {
  main?: string;
  scripts: Record<string, string>;
  dependencies: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  devDependencies: Record<string, string>;
};

describe('electron-builder configuration (packaging cannot run here; its shape must not rot)', () => {
  it('pins the Electron version to the one package.json installs', () => {
    expect(config.electronVersion).toBe(pkg.optionalDependencies?.electron);
  });
  it('packages the built app and unpacks the worker and the Node-API binaries from the asar, rebuilding nothing', () => {
    expect(config.files).toContain('out/**/*');
    expect(config.asarUnpack).toEqual(expect.arrayContaining(['out/main/**/worker*.js', 'node_modules/better-sqlite3/prebuilds/*.node']));
    expect(config.npmRebuild).toBe(false);
    expect(pkg.dependencies['better-sqlite3']).toMatch(/^1[3-9]\./);
    // The binary the pattern unpacks is the one better-sqlite3 loads on this platform.
    const prebuild = new URL(`node_modules/better-sqlite3/prebuilds/${process.platform}-${process.arch}.node`, root);
    expect(existsSync(prebuild)).toBe(true);
  });
  it('targets Linux (AppImage, deb), Windows (NSIS) and macOS (dmg) with the icon from resources/', () => {
    expect((config.linux as { target: string[] }).target).toEqual(['AppImage', 'deb']);
    expect((config.win as { target: string[] }).target).toEqual(['nsis']);
    expect((config.mac as { target: string[] }).target).toEqual(['dmg']);
    for (const os of ['linux', 'win', 'mac']) expect(existsSync(new URL((config[os] as { icon: string }).icon, root))).toBe(true);
    expect((config.directories as { buildResources: string }).buildResources).toBe('resources');
  });
  it('has a dist script that builds first, and no install hook that rebuilds native modules', () => {
    expect(pkg.scripts.dist).toMatch(/electron-vite build && electron-builder/);
    for (const hook of ['install', 'postinstall', 'preinstall']) expect(pkg.scripts[hook] ?? '').not.toMatch(/rebuild|install-app-deps/);
  });
  it('declares Node 22 and 24, npm 11 as its package manager, and names Node 24 for nvm', () => {
    const full = JSON.parse(read('package.json')) as {
      engines: { node: string };
      packageManager: string;
      devEngines: { packageManager: { name: string; version: string } };
    };
    expect(full.engines.node).toBe('^22.12.0 || ^24.0.0');
    expect(full.packageManager).toMatch(/^npm@11\./);
    expect(full.devEngines.packageManager).toMatchObject({ name: 'npm', version: '>=11.0.0' });
    expect(read('.nvmrc').trim()).toBe('24');
    expect(read('.node-version').trim()).toBe('24');
  });
  it('points package.json main at the built Electron entry', () => {
    expect(pkg.main).toMatch(/^out\/main\//);
  });
});
