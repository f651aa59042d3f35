/**
 * The compiled access path against the golden model at full size: 300 random geometries and 12,000
 * accesses on every preset space (`npm test` runs a sample of it: tests/unit/compiled-path.test.ts).
 */
export {};

process.env.GPULAB_EQUIVALENCE = 'full';
await import('../unit/compiled-path.test');
