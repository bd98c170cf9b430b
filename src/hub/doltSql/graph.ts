// The commit graph from DoltLite's dolt_commit_ancestors: each commit's parents in order, and
// its height (Dolt's commit_order: 1 for a first commit, else one more than its highest parent).
import type { DoltSqlContext } from './common';

export interface CommitGraph {
  parents: Map<string, string[]>;
  heights: Map<string, number>;
}

export function commitGraph(ctx: DoltSqlContext): CommitGraph {
  const parents = new Map<string, string[]>();
  for (const [c, p] of ctx.rows('SELECT commit_hash, parent_hash FROM dolt_commit_ancestors ORDER BY commit_hash, parent_index')) {
    const list = parents.get(String(c)) ?? [];
    if (p !== null && p !== undefined) list.push(String(p));
    parents.set(String(c), list);
  }
  const heights = new Map<string, number>();
  // Iterative depth-first walk: histories can be longer than the call stack is deep.
  for (const start of parents.keys()) {
    const stack = [start];
    while (stack.length > 0) {
      const c = stack[stack.length - 1] as string;
      if (heights.has(c)) {
        stack.pop();
        continue;
      }
      const ps = parents.get(c) ?? [];
      const missing = ps.filter((p) => !heights.has(p) && parents.has(p));
      if (missing.length > 0) {
        stack.push(...missing);
        continue;
      }
      heights.set(c, 1 + Math.max(0, ...ps.map((p) => heights.get(p) ?? 0)));
      stack.pop();
    }
  }
  return { parents, heights };
}
