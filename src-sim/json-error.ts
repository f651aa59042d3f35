/**
 * Where a JSON.parse failed, without the text it quotes: V8's messages carry an excerpt of the
 * input ("Unexpected token 'T', "TOP SECRET"... is not valid JSON"), and a file that was not what it
 * claimed (a link to something else) must not have its bytes shown in an error.
 */
export function jsonErrorWhere(err: unknown): string {
  const message = err instanceof Error ? err.message : String(err);
  const at = /at position (\d+)(?: \(line (\d+) column (\d+)\))?/.exec(message);
  if (at) return at[2] ? `at line ${at[2]}, column ${at[3]}` : `at character ${Number(at[1]) + 1}`;
  if (/end of JSON input|Unterminated/i.test(message)) return 'it ends early';
  return 'an unexpected character';
}
