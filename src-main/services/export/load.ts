/** Reading the runs an export names, with the same checks the contract makes. */
import type { RunDetail } from '../../contract';
import { FIELDS, LabError, LIMITS } from '../../contract';
import type { RunStore } from '../store';

/**
 * The runs, in the order given: 1 to LIMITS.runsPerReport distinct ids, each one stored.
 * Throws LabError('invalid-args') or ('not-found').
 */
export function loadRuns(store: RunStore, runIds: readonly string[]): RunDetail[] {
  const parsed = FIELDS.runIds.safeParse(runIds);
  if (!parsed.success) throw new LabError('invalid-args', `runIds: ${parsed.error.issues.map((i) => i.message).join('; ')}`);
  if (runIds.length > LIMITS.runsPerReport) throw new LabError('invalid-args', `runIds: at most ${LIMITS.runsPerReport} runs per export; got ${runIds.length}`);
  return runIds.map((id) => store.getRun(id));
}
