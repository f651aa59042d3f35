/**
 * A sweep plan: one experiment run over a grid of points. The plan names the experiment, the
 * presets, the base parameters and the axes to vary (an experiment parameter or a field of the
 * preset, each as a list of values or a range), takes their cross product or a given list of
 * points, and a seed rule. `expandPlan` turns it into its points, in a fixed order: preset first,
 * then the axes in the order given, the last axis varying fastest. A point's index in that order
 * is its number everywhere (the database, a Slurm array task, a bundle's file name).
 *
 * This module imports zod only: the contract (src-main/contract.ts) declares the sweep calls with
 * it, the CLI reads plan files with it, and the renderer imports its types.
 */
import { z } from 'zod';
import { jsonErrorWhere } from '../src-sim/json-error';

/** Bounds of a plan. */
export const SWEEP_LIMITS = {
  /** Points of one sweep (all presets). */
  points: 10_000,
  axes: 8,
  /** Values of one axis (a list, or a range once expanded). */
  axisValues: 10_000,
  presets: 64,
  nameChars: 120,
  /** A plan as JSON. */
  planBytes: 1024 * 1024,
} as const;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const PRESET_ID = /^[a-z0-9][a-z0-9-]{0,39}$/;
const EXPERIMENT_ID = /^[a-z0-9][a-z0-9-]{0,63}$/;
const PARAM_NAME = /^[A-Za-z][A-Za-z0-9_]{0,63}$/;
/** A dotted path into a preset ("timing.l1.mshrs", "spaces.global.levels.0.geometry.ways"). */
const FIELD_PATH = /^[A-Za-z][A-Za-z0-9_]{0,63}(\.([A-Za-z][A-Za-z0-9_]{0,63}|[0-9]{1,4})){0,11}$/;
const FORBIDDEN = ['__proto__', 'constructor', 'prototype'];
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/;

const label = (max: number) =>
  z
    .string()
    .min(1, 'must not be empty')
    .max(max, `at most ${max} characters`)
    .refine((s) => !CONTROL.test(s), 'must not contain control characters');

/** One value of an axis or a parameter: a number, a word ("4KB", "lrr"), a flag or a list of numbers. */
const value = z.union([z.number().finite(), label(256), z.boolean(), z.array(z.number().finite()).max(4096, 'at most 4096 items')]);
export type SweepValue = z.infer<typeof value>;

const seedInt = z.int('a seed is a whole number').min(0, 'a seed is at least 0').max(0xffffffff, 'a seed is at most 4294967295');

const range = z
  .strictObject({
    from: z.number().finite(),
    to: z.number().finite(),
    /** Linear: from, from + step, ... up to to (inclusive). */
    step: z.number().finite().positive('step must be more than 0').optional(),
    /** Geometric: from, from x times, ... up to to (inclusive). */
    times: z.number().finite().gt(1, 'times must be more than 1').optional(),
  })
  .superRefine((r, ctx) => {
    if ((r.step === undefined) === (r.times === undefined)) ctx.addIssue({ code: 'custom', message: 'give either step (linear) or times (geometric)' });
    if (r.to < r.from) ctx.addIssue({ code: 'custom', message: `to (${r.to}) is less than from (${r.from})` });
    if (r.times !== undefined && r.from <= 0) ctx.addIssue({ code: 'custom', message: 'a geometric range starts above 0' });
  });
export type SweepRange = z.infer<typeof range>;

const axis = z
  .strictObject({
    /** An experiment parameter ("iterations"). */
    param: z.string().regex(PARAM_NAME, 'is not a parameter name').refine((k) => !FORBIDDEN.includes(k), 'is a reserved name').optional(),
    /** A field of the preset, as a dotted path ("timing.l1.mshrs"). */
    field: z
      .string()
      .regex(FIELD_PATH, 'is not a field path (dotted names and indices, e.g. timing.l1.mshrs)')
      .refine((p) => !p.split('.').some((k) => FORBIDDEN.includes(k)), 'names a reserved key')
      .optional(),
    /** Its name in tables and points; default the parameter or the field path. */
    name: label(64).optional(),
    values: z.array(value).min(1, 'give at least one value').max(SWEEP_LIMITS.axisValues, `at most ${SWEEP_LIMITS.axisValues} values`).optional(),
    range: range.optional(),
  })
  .superRefine((a, ctx) => {
    if ((a.param === undefined) === (a.field === undefined)) ctx.addIssue({ code: 'custom', message: 'an axis varies either a param (experiment parameter) or a field (of the preset)' });
  });
export type SweepAxis = z.infer<typeof axis>;

const seedRule = z.union([
  seedInt,
  z.strictObject({ rule: z.literal('fixed'), value: seedInt }),
  z.strictObject({ rule: z.literal('per-point'), base: seedInt }),
]);
export type SweepSeedRule = z.infer<typeof seedRule>;

const params = z
  .record(z.string().regex(PARAM_NAME, 'is not a parameter name').refine((k) => !FORBIDDEN.includes(k), 'is a reserved name'), value)
  .refine((p) => Object.keys(p).length <= 64, 'at most 64 parameters');

export const sweepPlanSchema = z
  .strictObject({
    /** Set by `gpulab sweep --slurm`: ties the bundles of the array's tasks to one sweep. */
    id: z.string().regex(UUID, 'must be a sweep id (a lower-case UUID)').optional(),
    name: label(SWEEP_LIMITS.nameChars).optional(),
    experiment: z.string().regex(EXPERIMENT_ID, 'must be an experiment id: lower-case letters, digits and dashes'),
    presets: z
      .array(z.string().regex(PRESET_ID, 'must be a preset id: 1-40 lower-case letters, digits and dashes'))
      .min(1, 'name at least one preset')
      .max(SWEEP_LIMITS.presets, `at most ${SWEEP_LIMITS.presets} presets`)
      .refine((p) => new Set(p).size === p.length, 'presets must not repeat'),
    /** The parameters every point starts from (an axis overrides its own). */
    params: params.default({}),
    axes: z.array(axis).max(SWEEP_LIMITS.axes, `at most ${SWEEP_LIMITS.axes} axes`).default([]),
    /** Instead of the axes' cross product: these points, each a value per axis name (presets still cross them). */
    points: z.array(z.record(z.string(), value)).min(1, 'give at least one point').max(SWEEP_LIMITS.points, `at most ${SWEEP_LIMITS.points} points`).optional(),
    /** A number: every point runs with that seed. per-point: a seed of its own from base and the point's values. */
    seed: seedRule.default(1),
  })
  .superRefine((p, ctx) => {
    const names = p.axes.map(axisName);
    names.forEach((n, i) => {
      if (names.indexOf(n) !== i) ctx.addIssue({ code: 'custom', path: ['axes', i, 'name'], message: `the axis name "${n}" repeats` });
      if (n === 'preset') ctx.addIssue({ code: 'custom', path: ['axes', i, 'name'], message: '"preset" is the presets\' own axis; name this one otherwise' });
    });
    p.axes.forEach((a, i) => {
      if (p.points === undefined && a.values === undefined && a.range === undefined)
        ctx.addIssue({ code: 'custom', path: ['axes', i], message: 'give values or a range (or list the points)' });
      if (a.values !== undefined && a.range !== undefined) ctx.addIssue({ code: 'custom', path: ['axes', i], message: 'give values or a range, not both' });
    });
    if (p.points) {
      p.points.forEach((pt, i) => {
        const keys = Object.keys(pt);
        for (const k of keys) if (!names.includes(k)) ctx.addIssue({ code: 'custom', path: ['points', i, k], message: `is not an axis; axes: ${names.join(', ') || '(none)'}` });
        for (const n of names) if (!keys.includes(n)) ctx.addIssue({ code: 'custom', path: ['points', i], message: `gives no value for the axis "${n}"` });
      });
      if (names.length === 0) ctx.addIssue({ code: 'custom', path: ['points'], message: 'points give values of axes: declare the axes first' });
    }
    for (const a of p.axes) {
      if (a.range) {
        const n = rangeLength(a.range);
        if (n > SWEEP_LIMITS.axisValues) {
          ctx.addIssue({ code: 'custom', path: ['axes'], message: `the range of "${axisName(a)}" has ${n} values; at most ${SWEEP_LIMITS.axisValues}` });
          return;
        }
      }
    }
    const count = countPoints(p as SweepPlan);
    if (count > SWEEP_LIMITS.points)
      ctx.addIssue({ code: 'custom', path: ['axes'], message: `the plan has ${count} points; at most ${SWEEP_LIMITS.points}: shorten an axis or split the sweep` });
  });

/** A plan as written (defaults optional). */
export type SweepPlanInput = z.input<typeof sweepPlanSchema>;
/** A plan after validation (defaults filled). */
export type SweepPlan = z.output<typeof sweepPlanSchema>;

export function axisName(a: Pick<SweepAxis, 'name' | 'param' | 'field'>): string {
  return a.name ?? a.param ?? a.field ?? '?';
}

/** Rounds away the binary noise of a range's arithmetic (0.1 + 0.2). */
const tidy = (x: number): number => Number.parseFloat(x.toPrecision(12));

function rangeLength(r: SweepRange): number {
  if (r.step !== undefined) return Math.floor((r.to - r.from) / r.step + 1e-9) + 1;
  if (r.times !== undefined) return Math.floor(Math.log(r.to / r.from) / Math.log(r.times) + 1e-9) + 1;
  return 0;
}

/** A range's values, inclusive of `to` when it falls on the grid. */
export function rangeValues(r: SweepRange): number[] {
  const n = Math.min(rangeLength(r), SWEEP_LIMITS.axisValues + 1);
  const out: number[] = [];
  for (let i = 0; i < n; i++) out.push(tidy(r.step !== undefined ? r.from + i * r.step : r.from * r.times! ** i));
  return out;
}

/** An axis's values (a range expanded). */
export function axisValues(a: SweepAxis): SweepValue[] {
  return a.values ?? (a.range ? rangeValues(a.range) : []);
}

function countPoints(p: SweepPlan): number {
  if (p.points) return p.points.length * p.presets.length;
  return p.axes.reduce((n, a) => n * (a.values?.length ?? (a.range ? rangeLength(a.range) : 1)), p.presets.length);
}

/** One point of a sweep: its index, its preset and the value of every axis. */
export interface SweepPoint {
  index: number;
  preset: string;
  /** By axis name, in the plan's axis order. */
  values: Record<string, SweepValue>;
  seed: number;
}

/** FNV-1a over a string, 32-bit. */
function fnv1a(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

/** A point's identity, independent of its position: the preset and the axis values. */
export function pointKey(preset: string, values: Record<string, SweepValue>): string {
  return JSON.stringify([preset, ...Object.entries(values)]);
}

/**
 * The seed of a point: the plan's seed, or (per-point) one mixed from the base and the point's
 * preset and values, so that it does not move when points are added or reordered.
 */
export function pointSeed(plan: Pick<SweepPlan, 'seed'>, preset: string, values: Record<string, SweepValue>): number {
  const rule = plan.seed;
  if (typeof rule === 'number') return rule;
  if (rule.rule === 'fixed') return rule.value;
  let z = (fnv1a(pointKey(preset, values)) ^ Math.imul(rule.base + 1, 0x9e3779b9)) >>> 0;
  z = Math.imul(z ^ (z >>> 15), 0x2c1b3c6d) >>> 0;
  z = Math.imul(z ^ (z >>> 12), 0x297a2d39) >>> 0;
  return (z ^ (z >>> 15)) >>> 0;
}

/** Every point of a validated plan, in index order. */
export function expandPlan(plan: SweepPlan): SweepPoint[] {
  const names = plan.axes.map(axisName);
  let combos: Record<string, SweepValue>[];
  if (plan.points) combos = plan.points.map((pt) => Object.fromEntries(names.map((n) => [n, pt[n]!])));
  else {
    combos = [{}];
    plan.axes.forEach((a, i) => {
      const vs = axisValues(a);
      combos = combos.flatMap((c) => vs.map((v) => ({ ...c, [names[i]!]: v })));
    });
  }
  const out: SweepPoint[] = [];
  for (const preset of plan.presets)
    for (const values of combos) out.push({ index: out.length, preset, values, seed: pointSeed(plan, preset, values) });
  return out;
}

/** The run parameters of a point: the base parameters with its parameter axes. */
export function pointParams(plan: SweepPlan, point: SweepPoint): Record<string, SweepValue> {
  const out: Record<string, SweepValue> = { ...plan.params };
  for (const a of plan.axes) if (a.param !== undefined) out[a.param] = point.values[axisName(a)]!;
  return out;
}

/** The preset fields a point sets: path -> value. */
export function pointFields(plan: SweepPlan, point: SweepPoint): [path: string, value: SweepValue][] {
  return plan.axes.filter((a) => a.field !== undefined).map((a) => [a.field!, point.values[axisName(a)]!]);
}

/** "iterations=64, timing.l1.mshrs=8": a point's values in words. */
export function pointLabel(point: Pick<SweepPoint, 'values'>): string {
  return Object.entries(point.values)
    .map(([k, v]) => `${k}=${Array.isArray(v) ? v.join('/') : String(v)}`)
    .join(', ');
}

/**
 * Validates a plan (an object, or the text of a plan file), naming every problem by its path.
 * Throws an Error whose message lists them ("axes.0.range: give either step ... ; presets: ...").
 */
export function parsePlan(input: unknown): SweepPlan {
  let raw = input;
  if (typeof input === 'string') {
    if (input.length > SWEEP_LIMITS.planBytes) throw new Error(`the plan is larger than ${SWEEP_LIMITS.planBytes} bytes`);
    try {
      raw = JSON.parse(input) as unknown;
    } catch (err) {
      throw new Error(`the plan is not JSON: ${jsonErrorWhere(err)}`);
    }
  }
  const parsed = sweepPlanSchema.safeParse(raw);
  if (!parsed.success) {
    const lines = parsed.error.issues.slice(0, 10).map((i) => `${i.path.length ? i.path.join('.') : '(plan)'}: ${i.message}`);
    throw new Error(`invalid sweep plan: ${lines.join('; ')}`);
  }
  return parsed.data;
}
