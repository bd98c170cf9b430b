// Helpers for the Changes scenarios (not a scenario: the runner only takes NN-name.mjs).
import { waitFor } from '../../helpers/waitFor.cjs';

/**
 * The frame of the webview that holds `selector` (the Changes view, the pull view): webviews are
 * two iframes deep, and several may be open; the one with that content is the one wanted.
 */
export async function frameWith(ctx, selector, { timeout = ctx.scaled(30_000) } = {}) {
  return waitFor(
    `a webview that shows ${selector}`,
    async () => {
      for (const frame of ctx.page.frames()) {
        if (frame.isDetached()) continue;
        if (
          (await frame
            .locator(selector)
            .count()
            .catch(() => 0)) > 0
        )
          return frame;
      }
      return undefined;
    },
    { timeoutMs: timeout, intervalMs: 200 },
  );
}

/** A plain read through the hub's SQL endpoint: rows as objects by column name. */
export async function plainRows(ctx, db, ref, query) {
  const r = await ctx.hub.api(`/databases/${db}/sql?ref=${encodeURIComponent(ref)}&q=${encodeURIComponent(query)}`);
  if (r.status !== 200 || r.body.data.status !== 'success') throw new Error(`${query} at ${ref}: ${JSON.stringify(r.body)}`);
  const { columns, rows } = r.body.data;
  return rows.map((row) => Object.fromEntries(columns.map((c, i) => [c.name, row[i]])));
}

function norm(v) {
  if (v === null || v === undefined) return null;
  return /^-?\d+(\.\d+)?$/.test(v) ? String(Number(v)) : v;
}

/**
 * What changed in `table` between two refs by plain reads of each (key = first column): the
 * counts per kind, the keys removed and, per modified key, the columns whose value changed with old and new.
 */
export async function plainDiff(ctx, db, table, from, to, key = 'id') {
  const a = new Map((await plainRows(ctx, db, from, `SELECT * FROM \`${table}\``)).map((r) => [String(r[key]), r]));
  const b = new Map((await plainRows(ctx, db, to, `SELECT * FROM \`${table}\``)).map((r) => [String(r[key]), r]));
  const counts = { added: 0, modified: 0, removed: 0 };
  const modified = [];
  const removed = [];
  for (const k of new Set([...a.keys(), ...b.keys()])) {
    const f = a.get(k);
    const t = b.get(k);
    if (f && !t) {
      counts.removed++;
      removed.push({ key: k });
    } else if (!f && t) counts.added++;
    else {
      const cells = [...new Set([...Object.keys(f), ...Object.keys(t)])]
        .filter((c) => norm(f[c] ?? null) !== norm(t[c] ?? null))
        .map((c) => ({ column: c, old: f[c] ?? null, new: t[c] ?? null }));
      if (cells.length) {
        counts.modified++;
        modified.push({ key: k, cells });
      }
    }
  }
  return { counts, modified, removed };
}

/** The merge base of two branches by the plain logs: the first commit of `head`'s log on `base`. */
export async function plainMergeBase(ctx, db, base, head) {
  const onBase = new Set((await plainRows(ctx, db, base, 'SELECT commit_hash FROM dolt_log')).map((r) => r.commit_hash));
  return (await plainRows(ctx, db, head, 'SELECT commit_hash FROM dolt_log')).map((r) => r.commit_hash).find((h) => onBase.has(h));
}
