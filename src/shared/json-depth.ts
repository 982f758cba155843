/**
 * The deepest nesting a server's JSON answer may have. Real answers stay far
 * below (a level-3 result is about a dozen levels deep); a hostile one 100,000
 * levels deep parses, but then breaks every recursive step after it (IPC
 * serialization, rendering) with nothing said.
 */
export const MAX_JSON_DEPTH = 64

/**
 * True when `value` nests objects or arrays deeper than `max` levels (the
 * value itself is level 1). It runs on every answer, so it allocates nothing:
 * a recursion that stops `max` levels down (so at most 64 frames, however
 * deep the input) and at the first branch that is too deep.
 */
export function nestedDeeperThan(value: unknown, max = MAX_JSON_DEPTH): boolean {
  if (typeof value !== 'object' || value === null) return false
  return max < 1 || deeper(value, max - 1)
}

/** `room`: how many levels may still lie below `node`. */
function deeper(node: object, room: number): boolean {
  if (Array.isArray(node)) {
    for (let i = 0; i < node.length; i++) {
      const child: unknown = node[i]
      if (typeof child === 'object' && child !== null && (room === 0 || deeper(child, room - 1))) return true
    }
    return false
  }
  const record = node as Record<string, unknown>
  for (const key in record) {
    const child = record[key]
    if (typeof child === 'object' && child !== null && (room === 0 || deeper(child, room - 1))) return true
  }
  return false
}
