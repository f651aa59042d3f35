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
      t = { exact: 0, honest: 0, wrong: 0, examples: [] };
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

  /** Per quantity: cases, exact, honest, wrong. */
  summary(): { quantity: string; cases: number; exact: number; honest: number; wrong: number; examples: string[] }[] {
    return [...this.rows.entries()].map(([quantity, t]) => ({ quantity, cases: t.exact + t.honest + t.wrong, ...t }));
  }

  /** A markdown table of the summary. */
  table(): string {
    const lines = [`| ${this.name}: quantity | cases | exact | honest | wrong |`, '|---|---:|---:|---:|---:|'];
    for (const r of this.summary()) lines.push(`| ${r.quantity} | ${r.cases} | ${r.exact} | ${r.honest} | ${r.wrong} |`);
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
