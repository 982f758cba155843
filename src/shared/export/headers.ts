/**
 * What a csv or xlsx export's header says. The service names a page's
 * columns for machines (`rank`, `probability`, `1.id`, `1.class`,
 * `1.<attribute>`, and `2` for a plain value in tuple column 2); a person
 * opening the file wants `name`. The rule, one for every table:
 *
 * - a column is named by what it holds: `id`, `class`, the attribute's name,
 *   `value` for a plain value; `rank` and `probability` as they are;
 * - where two columns written would then have the same name (a table of two
 *   objects has two `id`s, and two `name`s when both have one; an attribute
 *   called `rank`), each of them that comes from a tuple column carries that
 *   column's number as the grid shows it: `1. name`, `2. name`; the others
 *   stay bare (`population`, when only the first object has one);
 * - should two still be alike (an attribute called `id` beside the object's
 *   id), the second gets ` (2)`, the third ` (3)`.
 */

const TUPLE_COLUMN = /^(\d+)(?:\.([\s\S]*))?$/

function parts(name: string): { column: string | null; what: string } {
  const match = TUPLE_COLUMN.exec(name)
  if (!match) return { column: null, what: name }
  return { column: match[1]!, what: match[2] ?? 'value' }
}

/** The header for columns the service named `names` (in the order written). */
export function readableHeaders(names: readonly string[]): string[] {
  const split = names.map(parts)
  const times = new Map<string, number>()
  for (const { what } of split) times.set(what, (times.get(what) ?? 0) + 1)
  const first = split.map(({ column, what }) => (column !== null && times.get(what)! > 1 ? `${column}. ${what}` : what))
  const seen = new Set<string>()
  const taken = new Set(first)
  // Where each name's next ` (n)` is looked for: every suffix tried once per name, so the header stays linear in its length.
  const next = new Map<string, number>()
  return first.map((name) => {
    if (!seen.has(name)) {
      seen.add(name)
      return name
    }
    let n = next.get(name) ?? 2
    while (taken.has(`${name} (${n})`)) n++
    next.set(name, n + 1)
    const unique = `${name} (${n})`
    taken.add(unique)
    return unique
  })
}

/**
 * The columns an export writes, as keys of the pages' union: the grid's
 * columns (the Columns choice), in the grid's order, or every column the
 * pages hold. A grid column no page has is written empty: the file has the
 * grid's shape.
 */
export function writtenColumns(union: readonly string[], chosen: readonly string[] | null): string[] {
  return chosen ? [...new Set(chosen)] : [...union]
}
