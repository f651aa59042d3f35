// Types of scripts/node-guard.mjs (plain JavaScript, so that it runs on the Nodes it refuses).
export type Version = [number, number, number];
export function parseVersion(text: string): Version | null;
export function compareVersions(a: Version, b: Version): -1 | 0 | 1;
export function parseRange(range: string): [op: string, version: Version, parts: number][][];
export function satisfies(version: string | Version, range: string): boolean;
export function minimumOf(range: string): Version;
export function newestMajorOf(range: string): number;
export function checkNode(options: { node?: string; range?: string; name?: string; electron?: string }): { ok: true; warning?: string } | { ok: false; message: string };
export function packageRange(url?: URL): { name: string; range: string };
export function guardNode(): void;
