import type { ReproductionRow } from './types';

export const ROWS: ReproductionRow[] = [];
