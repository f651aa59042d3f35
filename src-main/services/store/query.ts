/**
 * The library's list query: WHERE and ORDER BY clauses from a validated RunQuery. Columns and
 * directions come from fixed maps (never from the caller's strings); values are bound parameters.
 */
import type { RunQuery, RunSortKey } from '../../contract';

/** ORDER BY per sort key; `id` breaks ties so that pages are stable. */
const SORT: Record<RunSortKey, (dir: 'ASC' | 'DESC') => string> = {
  created: (d) => `r.created_at ${d}, r.id ${d}`,
  title: (d) => `r.title COLLATE NOCASE ${d}, r.id ${d}`,
  experiment: (d) => `r.experiment ${d}, r.created_at ${d}, r.id ${d}`,
  preset: (d) => `r.preset_name COLLATE NOCASE ${d}, r.created_at ${d}, r.id ${d}`,
  // Runs without a duration (unfinished, never started) come last in both directions; each
  // direction has its own index (schema.ts).
  duration: (d) => (d === 'ASC' ? 'r.duration_ms IS NULL ASC, r.duration_ms ASC, r.id ASC' : 'r.duration_ms IS NOT NULL DESC, r.duration_ms DESC, r.id DESC'),
  status: (d) => `r.status ${d}, r.created_at ${d}, r.id ${d}`,
};

/** Escapes LIKE wildcards so that the user's text matches literally. */
function likePattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** The columns of a RunSummary (runs table and tags; never results or blobs). */
export const SUMMARY_COLUMNS = `r.id, r.experiment, r.title, r.preset_id, r.preset_name, r.seed, r.sim_version, r.status, r.error,
  r.created_at, r.started_at, r.finished_at, r.duration_ms, r.notes, (r.device_json IS NOT NULL) AS real,
  (SELECT json_group_array(tag) FROM (SELECT tag FROM run_tags t WHERE t.run_id = r.id ORDER BY tag)) AS tags_json`;

/** The list's columns: a summary's, and the sweep and point of a run of a sweep (schema version 4). */
const LIST_COLUMNS = `${SUMMARY_COLUMNS},
  (SELECT s.sweep_id FROM sweep_runs s WHERE s.run_id = r.id) AS sweep_id, (SELECT s.point FROM sweep_runs s WHERE s.run_id = r.id) AS sweep_point`;

/**
 * The count and page statements of a list query, with their named parameters; with `sweep: "none"`
 * also `bySweep`, the matching runs of each sweep (the other filters applied).
 */
export function listSql(q: RunQuery): { count: string; page: string; bySweep: string | null; params: Record<string, string | number> } {
  const { where, order, params } = listQuery(q);
  const others = q.sweep === 'none' ? listQuery({ ...q, sweep: undefined }).where : '';
  return {
    count: `SELECT count(*) AS n FROM runs r ${where}`,
    page: `SELECT ${LIST_COLUMNS} FROM runs r ${where} ${order} LIMIT @limit OFFSET @offset`,
    bySweep:
      q.sweep === 'none'
        ? `SELECT s.sweep_id AS id, count(*) AS runs FROM runs r JOIN sweep_runs s ON s.run_id = r.id JOIN sweeps w ON w.id = s.sweep_id ${others}
           GROUP BY s.sweep_id ORDER BY max(w.created_at) DESC, s.sweep_id DESC`
        : null,
    params: { ...params, limit: q.limit, offset: q.offset },
  };
}

function listQuery(q: RunQuery): { where: string; order: string; params: Record<string, string | number> } {
  const clauses: string[] = [];
  const params: Record<string, string | number> = {};
  if (q.experiment !== undefined) {
    clauses.push('r.experiment = @experiment');
    params.experiment = q.experiment;
  }
  if (q.preset !== undefined) {
    clauses.push('r.preset_id = @preset');
    params.preset = q.preset;
  }
  if (q.status !== undefined) {
    const statuses = Array.isArray(q.status) ? q.status : [q.status];
    clauses.push(`r.status IN (${statuses.map((_, i) => `@status${i}`).join(', ')})`);
    statuses.forEach((s, i) => (params[`status${i}`] = s));
  }
  if (q.tag !== undefined) {
    clauses.push('EXISTS (SELECT 1 FROM run_tags t WHERE t.run_id = r.id AND t.tag = @tag)');
    params.tag = q.tag;
  }
  if (q.text !== undefined && q.text.trim() !== '') {
    clauses.push("(r.title LIKE @text ESCAPE '\\' OR r.notes LIKE @text ESCAPE '\\' OR r.experiment LIKE @text ESCAPE '\\')");
    params.text = likePattern(q.text.trim());
  }
  if (q.from !== undefined) {
    clauses.push('r.created_at >= @from');
    params.from = q.from;
  }
  if (q.to !== undefined) {
    clauses.push('r.created_at <= @to');
    params.to = q.to;
  }
  if (q.sweep === 'none') clauses.push('NOT EXISTS (SELECT 1 FROM sweep_runs s WHERE s.run_id = r.id)');
  else if (q.sweep !== undefined) {
    clauses.push('EXISTS (SELECT 1 FROM sweep_runs s WHERE s.run_id = r.id AND s.sweep_id = @sweep)');
    params.sweep = q.sweep;
  }
  return {
    where: clauses.length ? `WHERE ${clauses.join(' AND ')}` : '',
    order: `ORDER BY ${SORT[q.sort](q.order === 'asc' ? 'ASC' : 'DESC')}`,
    params,
  };
}
