import { z } from 'zod'

/**
 * Validation of the long lists a file may hold (a set's 200,000 judgments,
 * its 10,000 queries, a workspace's saved queries and tests) with a bounded
 * number of problems. zod gathers every problem of a list and hands them up
 * each level of nesting as one spread call, which past about 100,000 of
 * them overflows the stack ("Maximum call stack size exceeded"); and no
 * person reads 100,000 problems. So a list names its first
 * MAX_ISSUES_NAMED problems and counts the rest in one last issue, which
 * `namedIssues` adds back up: "… (and 99,995 more)".
 */

/** Problems a list names one by one; the rest are counted. */
export const MAX_ISSUES_NAMED = 20

/** The issue that stands for the problems a list did not name. */
type CountedRest = {
  code: 'custom'
  path: PropertyKey[]
  message: string
  params: { moreIssues: number }
}

function counted(issue: z.core.$ZodIssue): number | null {
  if (issue.code !== 'custom') return null
  const more = (issue as { params?: { moreIssues?: unknown } }).params?.moreIssues
  return typeof more === 'number' ? more : null
}

function countedRest(more: number, path: PropertyKey[] = []): CountedRest {
  return { code: 'custom', path, message: `… and ${more.toLocaleString('en-US')} more problem${more === 1 ? '' : 's'}`, params: { moreIssues: more } }
}

/**
 * `z.array(element).max(max)`, the elements checked one by one: the first
 * MAX_ISSUES_NAMED problems named (with their paths), the rest counted,
 * problems a nested list only counted included. `quick`, for a list of
 * hundreds of thousands: a hand-written check that gives the element's
 * output for an entry it finds plainly valid and undefined for any other,
 * which the schema then checks (so every problem is the schema's own).
 */
export function listOf<T extends z.ZodType>(element: T, max: number, quick?: (item: unknown) => z.output<T> | undefined) {
  return z
    .array(z.unknown())
    .max(max)
    .transform((items, context) => {
      const out: z.output<T>[] = new Array(items.length)
      let named = 0
      let more = 0
      for (let index = 0; index < items.length; index++) {
        const plain = quick?.(items[index])
        if (plain !== undefined) {
          out[index] = plain
          continue
        }
        const result = element.safeParse(items[index])
        if (result.success) {
          out[index] = result.data
          continue
        }
        for (const issue of result.error.issues) {
          const rest = counted(issue)
          if (rest !== null) more += rest
          else if (named < MAX_ISSUES_NAMED) {
            context.addIssue({ ...(issue as z.core.$ZodIssueCustom), path: [index, ...issue.path] })
            named++
          } else more++
        }
      }
      if (more > 0) context.addIssue(countedRest(more))
      return out
    })
}

/** For a superRefine that may find a problem in each of many entries: names the first MAX_ISSUES_NAMED, counts the rest. */
export function issueBudget(context: z.RefinementCtx): { add(issue: { path: PropertyKey[]; message: string }): void; finish(): void } {
  let named = 0
  let more = 0
  return {
    add(issue) {
      if (named++ < MAX_ISSUES_NAMED) context.addIssue({ code: 'custom', ...issue })
      else more++
    },
    finish() {
      if (more > 0) context.addIssue(countedRest(more))
    },
  }
}

/** The first `shown` problems to name, and how many more there are in all (counted ones included). */
export function namedIssues<I extends z.core.$ZodIssue>(issues: readonly I[], shown: number): { named: I[]; more: number } {
  const plain: I[] = []
  let more = 0
  for (const issue of issues) {
    const rest = counted(issue)
    if (rest !== null) more += rest
    else plain.push(issue)
  }
  return { named: plain.slice(0, shown), more: more + Math.max(0, plain.length - shown) }
}
