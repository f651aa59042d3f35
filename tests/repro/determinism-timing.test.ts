/**
 * Determinism of every experiment, the timing tier's included (`npm test` runs the latency tier's:
 * tests/unit/determinism.test.ts).
 */
export {};

process.env.GPULAB_DETERMINISM = 'all';
await import('../unit/determinism.test');
