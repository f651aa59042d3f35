import type { Finding } from '../results';

/**
 * The value of a finding whose evidence does not decide it. An analyser that cannot tell says so,
 * with the reason and what to run next, instead of printing a number the data do not support.
 */
export const CANNOT_TELL = 'cannot tell';

/**
 * A finding that the measurements do not decide: `reason` says why, `next` what would decide it; an
 * empty `next` where no run of the experiment would (no suggestion that cannot help is printed).
 */
export function cannotTell(key: string, label: string, reason: string, next: string): Finding {
  return { key, label, value: CANNOT_TELL, unit: '', evidence: next ? `${reason}; to decide: ${next}` : reason };
}

/** True when a finding's value is an honest "cannot tell". */
export function isCannotTell(value: unknown): boolean {
  return value === CANNOT_TELL;
}
