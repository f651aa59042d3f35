/**
 * The gallery's templates as the workbench lists them (src-renderer/src/composables/builder.ts): a
 * reproduction row and an experiment that reproduces it; where a row names its experiments, only
 * those. Read by tests/repro/templates.test.ts and the bench's template row.
 */
import type { Experiment } from '../../src-sim/experiments';
import { EXPERIMENTS } from '../../src-sim/experiments';
import { REPRODUCTION_ROWS, rowPlans } from '../../src-sim/reference';
import type { ReproductionRow } from '../../src-sim/reference/types';

export interface GalleryTemplate {
  row: ReproductionRow;
  e: Experiment;
  named: boolean;
}

export function galleryTemplates(): GalleryTemplate[] {
  const pairs = EXPERIMENTS.flatMap((e) => REPRODUCTION_ROWS.filter((r) => e.reproduces.includes(r.id)).map((row) => ({ row, e, named: rowPlans(row, e.id).some((p) => p.named) })));
  return pairs.filter((t) => t.named || !pairs.some((o) => o.row === t.row && o.named));
}
