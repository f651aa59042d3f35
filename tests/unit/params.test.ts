import { describe, expect, it } from 'vitest';
import { formatBytes, parseBytes, resolveParams } from '../../src-sim/experiments/params';
import type { ParamSpec } from '../../src-sim/experiments/types';
import { EXPERIMENTS } from '../../src-sim/experiments';
import { findPreset } from '../../src-sim/presets';

describe('sizes', () => {
  it('parses the ways users write sizes', () => {
    expect(parseBytes('4096')).toBe(4096);
    expect(parseBytes('4KB')).toBe(4096);
    expect(parseBytes('2 MB')).toBe(2 * 1024 ** 2);
    expect(parseBytes('1.5GB')).toBe(1.5 * 1024 ** 3);
    expect(parseBytes('16KiB')).toBe(16384);
    expect(parseBytes('12 parsecs')).toBeNaN();
  });
  it('formats them as the papers do', () => {
    expect(formatBytes(512)).toBe('512 B');
    expect(formatBytes(12 * 1024)).toBe('12 KB');
    expect(formatBytes(130 * 1024 ** 2)).toBe('130 MB');
  });
});

describe('resolveParams', () => {
  const specs: ParamSpec[] = [
    { name: 'n', label: 'n', unit: 'B', kind: 'bytes', default: 64, min: 4, max: 1024, description: '' },
    { name: 'k', label: 'k', unit: '', kind: 'integer', default: 1, min: 1, max: 10, description: '' },
    { name: 'm', label: 'm', unit: '', kind: 'enum', default: 'a', options: ['a', 'b'], description: '' },
    { name: 'l', label: 'l', unit: 'B', kind: 'bytes-list', default: [4], min: 4, max: 64, maxItems: 3, description: '' },
  ];
  it('fills defaults', () => expect(resolveParams(specs, {})).toEqual({ n: 64, k: 1, m: 'a', l: [4] }));
  it('names the parameter and its allowed range', () => {
    expect(() => resolveParams(specs, { n: '2KB' })).toThrow('parameter "n" is 2 KB; allowed: 4 B to 1 KB');
    expect(() => resolveParams(specs, { k: '2.5' })).toThrow(/"k" must be a whole number \(1 to 10\)/);
    expect(() => resolveParams(specs, { m: 'c' })).toThrow('parameter "m" must be one of: a, b');
    expect(() => resolveParams(specs, { l: '4,8,16,32' })).toThrow(/at most 3/);
    expect(() => resolveParams(specs, { zz: 1 })).toThrow('unknown parameter "zz"; known: n, k, m, l');
  });
});

describe('every experiment', () => {
  it('has a described, well-formed parameter schema whose defaults resolve', () => {
    for (const e of EXPERIMENTS) {
      expect(e.description.length).toBeGreaterThan(20);
      for (const p of e.params) {
        expect(p.description.length, `${e.id}.${p.name}`).toBeGreaterThan(10);
        if ('min' in p && typeof p.default === 'number') expect(p.default).toBeGreaterThanOrEqual(p.min);
      }
      expect(() => resolveParams(e.params, {})).not.toThrow();
    }
  });
  it('refuses work beyond the per-run limit before simulating', () => {
    const e = EXPERIMENTS.find((x) => x.id === 'pchase-average')!;
    expect(() => e.run(findPreset('fermi')!, { strides: '4', sizeFrom: '1GB', sizeTo: '4GB', sizeStep: '1GB' }, 1, () => {})).toThrow(/over the limit/);
  });
});

describe('malformed sizes', () => {
  it('say what a size looks like, with the range written once', () => {
    const specs: ParamSpec[] = [{ name: 'n', label: 'n', unit: 'B', kind: 'bytes', default: 64, min: 4, max: 1024, description: '' }];
    expect(() => resolveParams(specs, { n: 'lots' })).toThrow('parameter "n" must be a size such as 4096, 4KB or 2MB (4 B to 1 KB)');
  });
});
