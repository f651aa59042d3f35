import type { KindDecl } from './types';

/**
 * Kind declarations for rows and references (REPRODUCTION.md, "Every check declares its kind"). A
 * 'calibrated' or 'specification' kind must say why in one line; a 'predicted' check gives a reason
 * only where it cites a table or figure that is also the provenance of a number in its preset, to say
 * why that number does not determine the value checked.
 */
export const PREDICTED: KindDecl = { kind: 'predicted' };

/** Predicted although the citation is also a preset number's source: `why` that number does not determine the value. */
export const predictedBecause = (why: string): KindDecl => ({ kind: 'predicted', reason: why });

/** A preset number was set from this very value: a pass proves consistency only. */
export const calibrated = (why: string): KindDecl => ({ kind: 'calibrated', reason: why });

/** The value is read back from preset data, with no simulation. */
export const specification = (why: string): KindDecl => ({ kind: 'specification', reason: why });

/** `ref` with its own kind, where it differs from its row's. */
export const withKind = <R extends { kind?: KindDecl }>(ref: R, kind: KindDecl): R => ({ ...ref, kind });

/** An analyser infers, from simulated timings alone, what the preset was set to: a method check. */
export const recovered = (why: string): KindDecl => ({ kind: 'recovered', reason: why });

/** The structure rows: an analyser infers it from simulated timings, never reading the preset. */
export const INFERRED = recovered(
  "the preset's structure was set from the paper's; the analyser infers it from simulated timings alone, never reading the preset, so a pass shows that the paper's method recovers the configured structure",
);
