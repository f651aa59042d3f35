import { mkdirSync, writeFileSync } from 'node:fs';
import { isCannotTell } from '../../src-sim/analysis/cannot-tell';

/**
 * Scores an analyser's answers against the truth of generated presets, per quantity:
 * exact (the value matches), honest (the analyser said "cannot tell" or gave no value), wrong
 * (a value that is not the truth). Truth lives here, in the test; the analysers never see it.
 */
export type Outcome = 'exact' | 'honest' | 'wrong';

interface Tally {
  exact: number;
  honest: number;
  wrong: number;
  /** A few wrong cases, for the failure message. */
  examples: string[];
  /** "cannot tell" answers of the first run that named a follow-up, and those the follow-up decided. */
  followUps: number;
  resolved: number;
}

export class Scorecard {
  private readonly rows = new Map<string, Tally>();

  constructor(readonly name: string) {}

  /**
   * Judges one answer. Numbers match within `tolerance` (relative, default exact); strings match
   * exactly. `context` names the case (preset and run) for the failure message.
   */
  judge(quantity: string, truth: number | string, reported: unknown, context: string, tolerance = 0): Outcome {
    let t = this.rows.get(quantity);
    if (!t) {
      t = { exact: 0, honest: 0, wrong: 0, examples: [], followUps: 0, resolved: 0 };
      this.rows.set(quantity, t);
    }
    let outcome: Outcome;
    if (reported === undefined || reported === null || isCannotTell(reported)) outcome = 'honest';
    else if (typeof truth === 'number' && typeof reported === 'number')
      outcome = Math.abs(reported - truth) <= tolerance * Math.abs(truth) ? 'exact' : 'wrong';
    else outcome = String(reported) === String(truth) ? 'exact' : 'wrong';
    t[outcome]++;
    if (outcome === 'wrong' && t.examples.length < 8) t.examples.push(`${context}: reported ${String(reported)}, truth ${String(truth)}`);
    return outcome;
  }

  /** Records that the first run's "cannot tell" on `quantity` named a follow-up run, and whether that run decided it. */
  followUp(quantity: string, resolved: boolean): void {
    const t = this.rows.get(quantity);
    if (!t) throw new Error(`followUp before judge: ${quantity}`);
    t.followUps++;
    if (resolved) t.resolved++;
  }

  /** Of the "cannot tell" answers that named a follow-up, the share it decided (0..1; 1 when there were none). */
  resolvedShare(): { followUps: number; resolved: number; share: number } {
    const s = [...this.rows.values()];
    const followUps = s.reduce((a, t) => a + t.followUps, 0);
    const resolved = s.reduce((a, t) => a + t.resolved, 0);
    return { followUps, resolved, share: followUps ? resolved / followUps : 1 };
  }

  /** Per quantity: cases, exact, honest, wrong. */
  summary(): { quantity: string; cases: number; exact: number; honest: number; wrong: number; examples: string[]; followUps: number; resolved: number }[] {
    return [...this.rows.entries()].map(([quantity, t]) => ({ quantity, cases: t.exact + t.honest + t.wrong, ...t }));
  }

  /** A markdown table of the summary. */
  table(): string {
    const fu = this.summary().some((r) => r.followUps > 0);
    const lines = [`| ${this.name}: quantity | cases | exact | honest | wrong |${fu ? ' follow-ups | decided by it |' : ''}`, `|---|---:|---:|---:|---:|${fu ? '---:|---:|' : ''}`];
    for (const r of this.summary()) lines.push(`| ${r.quantity} | ${r.cases} | ${r.exact} | ${r.honest} | ${r.wrong} |${fu ? ` ${r.followUps} | ${r.resolved} |` : ''}`);
    return lines.join('\n');
  }

  /** Prints the table and writes it to test-results/blind/<file>.md (CI keeps it as evidence). */
  report(file: string): void {
    const text = this.table();
    console.log(`\n${text}\n`);
    mkdirSync('test-results/blind', { recursive: true });
    writeFileSync(`test-results/blind/${file}.md`, `${text}\n`);
  }

  /** Total wrong answers, and the examples of each quantity that had any. */
  wrong(): { total: number; detail: string } {
    const bad = this.summary().filter((r) => r.wrong > 0);
    return { total: bad.reduce((a, r) => a + r.wrong, 0), detail: bad.map((r) => `${r.quantity}: ${r.wrong} wrong\n  ${r.examples.join('\n  ')}`).join('\n') };
  }

  /** Honest answers as a share of all answers (0..1). */
  honestShare(): number {
    const s = this.summary();
    const cases = s.reduce((a, r) => a + r.cases, 0);
    return cases ? s.reduce((a, r) => a + r.honest, 0) / cases : 0;
  }
}
