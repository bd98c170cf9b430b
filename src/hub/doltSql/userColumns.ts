// DoltLite's version tables (dolt_at_<t>, dolt_history_<t>, dolt_blame_<t>, dolt_diff_<t>)
// declare generic column types; the result grid should show the user table's declared types
// (decimal scale included) and its primary key, as a plain read of the table does.

/** The user table column a column of a DoltLite version table stands for, if any. */
export function userColumnOf(table: string, origin: string): { table: string; column: string } | undefined {
  const direct = /^dolt_(?:at|history|blame)_(.+)$/.exec(table);
  if (direct) return { table: direct[1] as string, column: origin };
  const diff = /^dolt_diff_(.+)$/.exec(table);
  const side = /^(?:to|from)_(.+)$/.exec(origin);
  if (diff && side) return { table: diff[1] as string, column: side[1] as string };
  return undefined;
}
