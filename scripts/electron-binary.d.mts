/** Where Electron's executable is, or why there is none (scripts/electron-binary.mjs). */
export function electronBinary(root: string, env?: NodeJS.ProcessEnv): { path: string } | { missing: string };
