/**
 * Schema version 4: sweeps, each owning its runs (src-main/services/store/schema.ts lists it).
 * - sweeps: one row per sweep: its plan as validated (JSON), a hash of the plan that finds the
 *   sweep again for a resumed `gpulab sweep plan.json`, the number of points, the creation time.
 * - sweep_runs: which point of which sweep a run is (every attempt; a point may have several runs).
 *   Deleting a run drops it from its sweep; deleting a sweep (sweeps service) deletes its runs first.
 */
export const SWEEPS_SQL = `
  CREATE TABLE sweeps (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    experiment TEXT NOT NULL,
    plan_json TEXT NOT NULL,
    plan_hash TEXT NOT NULL,
    points INTEGER NOT NULL,
    created_at INTEGER NOT NULL
  ) STRICT;
  CREATE INDEX sweeps_hash ON sweeps (plan_hash, created_at);
  CREATE INDEX sweeps_created ON sweeps (created_at, id);
  CREATE TABLE sweep_runs (
    run_id TEXT PRIMARY KEY REFERENCES runs (id) ON DELETE CASCADE,
    sweep_id TEXT NOT NULL REFERENCES sweeps (id) ON DELETE CASCADE,
    point INTEGER NOT NULL
  ) STRICT;
  CREATE INDEX sweep_runs_sweep ON sweep_runs (sweep_id, point);
`;
