// The order of a quick pick's rows when its choices arrive after the person started typing.
//
// The workbench names a picked row by its place in the list (a handle the extension host maps to its
// own items). Before the choices arrive, the list is one row: what was typed. An Enter or click on that
// row may already be on its way when the choices replace it, so the row now first must be the one the
// person meant: the active row if the host has heard which it is, else the choice named exactly what
// was typed (e2e 54 once typed "main", clicked the typed row, and got the first branch, "experiment":
// the host had not yet heard that the typed row was active).

/**
 * `rows` reordered so the row named `active` (the active row's name, when the host knows it) or,
 * failing that, the row named `typed`, comes first; `undefined` when neither names a row. `name`
 * gives a row's plain name (its label without a leading icon).
 */
export function keepNamedFirst<T>(
  rows: readonly T[],
  name: (row: T) => string,
  active: string | undefined,
  typed: string,
): T[] | undefined {
  const wanted = active ?? (typed || undefined);
  if (wanted === undefined) return undefined;
  const first = rows.find((r) => name(r) === wanted);
  return first === undefined ? undefined : [first, ...rows.filter((r) => r !== first)];
}
