/** A file that is not the JSON it claims to be is refused by where it fails, never with its bytes. */
import { describe, expect, it } from 'vitest';
import { jsonErrorWhere } from '../../src-sim/json-error';
import { decodeWire } from '../../src-main/shared/wire';
import { parsePlan } from '../../src-main/sweep-plan';
import { TempDb } from './store-fixtures';

const errorOf = (text: string): unknown => {
  try {
    JSON.parse(text);
  } catch (err) {
    return err;
  }
  throw new Error('parsed');
};

describe('JSON errors', () => {
  it('say where, not what', () => {
    expect(jsonErrorWhere(errorOf('TOPSECRET-4d1f'))).toBe('an unexpected character');
    expect(jsonErrorWhere(errorOf('{"a":1}TOPSECRET'))).toBe('at line 1, column 8');
    expect(jsonErrorWhere(errorOf('{"a":'))).toBe('it ends early');
    for (const text of ['TOPSECRET-4d1f', '{"a":1}TOPSECRET', '["TOPSECRET" 1]']) expect(jsonErrorWhere(errorOf(text))).not.toMatch(/TOPSECRET/);
  });

  it('a bundle, a plan or a wire body that is some other file shows none of its bytes', async () => {
    const tmp = new TempDb();
    try {
      await expect(tmp.open().importBundle(Buffer.from('TOPSECRET-4d1f\nroot:x:0:0\n'))).rejects.toThrow(/^(?!.*TOPSECRET).*not valid JSON \(an unexpected character\)/);
    } finally {
      tmp.cleanup();
    }
    expect(() => parsePlan('TOPSECRET')).toThrow(/^the plan is not JSON: an unexpected character$/);
    expect(() => decodeWire('TOPSECRET')).toThrow(/^not JSON: an unexpected character$/);
  });
});
