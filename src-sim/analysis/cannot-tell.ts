import type { Finding } from '../results';

/**
 * The value of a finding whose evidence does not decide it. An analyser that cannot tell says so,
 * with the reason and what to run next, instead of printing a number the data do not support.
 */
export const CANNOT_TELL = 'cannot tell';

/** A finding that the measurements do not decide: `reason` says why, `next` what would decide it. */
export function cannotTell(key: string, label: string, reason: string, next: string): Finding {
  return { key, label, value: CANNOT_TELL, unit: '', evidence: `${reason}; to decide: ${next}` };
}

/** True when a finding's value is an honest "cannot tell". */
export function isCannotTell(value: unknown): boolean {
  return value === CANNOT_TELL;
}
