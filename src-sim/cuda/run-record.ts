/**
 * A real GPU's output as a run record: the measured-device record that stands where a simulated
 * run has its preset, and the experiment, parameters and analysed result the store keeps. Generic
 * over the experiments: whatever `importGpuOutput` reads becomes a record the same way. Pure.
 */
import { z } from 'zod';
import type { ExperimentResult, ParamValues } from '../experiments/types';
import { analyseGpuOutput, DEVICE_FIELDS, parseGpuOutput } from './import';
import type { ImportOptions } from './import';

const count = z.number().int().nonnegative();

/**
 * The GPU a real run was measured on, as its program printed it (the `device` line), with the
 * settings the run asked for (the carveout), when and from where it came.
 */
export const measuredDeviceSchema = z.strictObject({
  ...DEVICE_FIELDS,
  /** The shared-memory carveout the chase asked for, % of the largest; null where the experiment takes none. */
  carveout: z.number().min(0).max(100).nullable(),
  /** The measured clock64 overhead, cycles. */
  clockOverheadCycles: z.number().min(0).nullable(),
  /** When the output was made (a file's modification time) or imported, ms since the epoch. */
  measuredAt: count,
  /** The imported file's name, or "gpu run". */
  source: z.string().min(1).max(300),
});

export type MeasuredDevice = z.infer<typeof measuredDeviceSchema>;

/** What a real run's record says of its origin. */
export interface RecordOrigin {
  /** The file name (no folders needed) or "gpu run". */
  source: string;
  /** When it was measured or imported (ms). */
  measuredAt: number;
}

/** A real run, ready for the store: no preset, the device instead. */
export interface RealRunRecord {
  experiment: string;
  params: ParamValues;
  device: MeasuredDevice;
  result: ExperimentResult;
  title: string;
}

/** CUDA's version integers as people write them: 13000 is 13.0, 12040 is 12.4. */
export const cudaVersion = (v: number): string => `${Math.floor(v / 1000)}.${Math.floor((v % 1000) / 10)}`;

/** How a real device is named wherever a preset name would be: "NVIDIA H100 80GB HBM3 (real)". */
export const realDeviceLabel = (name: string): string => `${name} (real)`;

/**
 * The id a real run carries in place of a preset id: "real-" and the device name as lower-case
 * letters, digits and dashes (at most 40 characters, the preset ids' rule). Runs of one device
 * share it, so the library groups and colours them together.
 */
export function realDeviceId(name: string): string {
  const slug = name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  return `real-${slug || 'gpu'}`.slice(0, 40).replace(/-+$/, '');
}

/** The UTC day of a record, "2026-11-27". */
export const measuredDay = (d: Pick<MeasuredDevice, 'measuredAt'>): string => new Date(d.measuredAt).toISOString().slice(0, 10);

/** One line describing a device record (run view, CSV, PDF, CLI). */
export function deviceLine(d: MeasuredDevice): string {
  return [
    `${d.name}, compute capability ${d.computeCapability}, ${d.sms} SMs at ${(d.clockKHz / 1000).toFixed(0)} MHz`,
    `L2 ${(d.l2Bytes / 2 ** 20).toFixed(1)} MB`,
    `shared memory ${Math.round(d.sharedPerSM / 1024)} KB per SM (${Math.round(d.sharedPerBlockOptin / 1024)} KB per block by opt-in)`,
    ...(d.carveout === null ? [] : [`carveout asked ${d.carveout} %`]),
    `CUDA driver ${cudaVersion(d.driverVersion)}, runtime ${cudaVersion(d.runtimeVersion)}`,
    `measured ${measuredDay(d)} (${d.source})`,
  ].join('; ');
}

/**
 * Reads a program's output (validated line by line, then analysed: `importGpuOutput`) into a run
 * record. Throws ImportError naming the line at the first problem.
 */
export function realRunRecord(text: string, origin: RecordOrigin, options: ImportOptions = {}): RealRunRecord {
  const out = parseGpuOutput(text);
  const r = analyseGpuOutput(out, options);
  const { type: _type, ...props } = out.device;
  void _type;
  const device: MeasuredDevice = {
    ...props,
    carveout: typeof r.params.carveout === 'number' ? r.params.carveout : null,
    clockOverheadCycles: out.clockOverhead,
    measuredAt: Math.max(0, Math.floor(origin.measuredAt)),
    source: origin.source.slice(0, 300) || 'import',
  };
  const { device: _d, experiment, params, ...result } = r;
  void _d;
  return { experiment, params, device: measuredDeviceSchema.parse(device), result, title: `${experiment} on ${realDeviceLabel(device.name)}`.slice(0, 200) };
}
