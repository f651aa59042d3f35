/** The error `f` throws, for a test to read its message and fields; fails the test when it returns. */
export function thrown(f: () => unknown): Error {
  try {
    f();
  } catch (e) {
    return e as Error;
  }
  throw new Error('expected a throw');
}
