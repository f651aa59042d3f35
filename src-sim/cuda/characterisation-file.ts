/**
 * How a characterisation's file (characterise.ts, CharacterisationFile) is told from a program's
 * output, without the analysers: for the Real GPU page, which sends each kind of file to its own call.
 */
export const CHARACTERISATION_FILE_TYPE = 'gpulab-characterisation';

/** Whether a text (its first 200 characters suffice) is a characterisation's file, not a program's output. */
export function isCharacterisationFile(text: string): boolean {
  return /^\s*\{\s*"type"\s*:\s*"gpulab-characterisation"/.test(text.slice(0, 200));
}
