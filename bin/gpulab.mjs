#!/usr/bin/env node
// The `gpulab` command: runs the TypeScript command line (src-main/cli.ts) in this process through
// tsx's loader, resolved next to this file, so it works from any working directory. Arguments,
// output and the exit code are the CLI's own. The Node version guard first, then tsx (loaded
// only once the guard has passed).
import '../scripts/node-guard.mjs';

const { register } = await import('tsx/esm/api');
register();
await import(new URL('../src-main/cli.ts', import.meta.url).href);
