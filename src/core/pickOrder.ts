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

/** A choice's plain name: its label without a leading icon (`$(git-branch) main` is "main"). */
export function plainLabel(label: string): string {
  return label.replace(/^\$\([\w~-]+\)\s*/, '');
}

/**
 * What a text typed and accepted in a pick-or-type box answers once the choices are listed: the
 * choice of that name, or the text itself. The box offers "use what you typed" only when no choice
 * has that name, but while the choices are still loading it is the only row, and a quick person
 * accepts it (e2e 30 once typed "main" for a release's commit and was told it is not a hash).
 */
export async function typedAnswer<T>(
  choices: readonly { label: string; value: T }[] | Promise<readonly { label: string; value: T }[]>,
  typed: string,
): Promise<{ value: T } | { typed: string }> {
  const listed = await Promise.resolve(choices).catch(() => []);
  const named = listed.find((c) => plainLabel(c.label) === typed.trim());
  return named ? { value: named.value } : { typed };
}
