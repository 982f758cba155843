/**
 * The deepest nesting a server's JSON answer may have. Real answers stay far
 * below (a level-3 result is about a dozen levels deep); a hostile one 100,000
 * levels deep parses, but then breaks every recursive step after it (IPC
 * serialization, rendering) with nothing said.
 */
export const MAX_JSON_DEPTH = 64

/** True when `value` nests objects or arrays deeper than `max` levels; walks without recursion and stops at the first too-deep branch. */
export function nestedDeeperThan(value: unknown, max = MAX_JSON_DEPTH): boolean {
  if (typeof value !== 'object' || value === null) return false
  const stack: unknown[] = [value]
  const depths: number[] = [1]
  while (stack.length > 0) {
    const node = stack.pop() as object
    const depth = depths.pop()!
    if (depth > max) return true
    const children = Array.isArray(node) ? node : Object.values(node)
    for (let i = 0; i < children.length; i++) {
      const child: unknown = children[i]
      if (typeof child === 'object' && child !== null) {
        stack.push(child)
        depths.push(depth + 1)
      }
    }
  }
  return false
}
