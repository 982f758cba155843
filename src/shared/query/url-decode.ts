/**
 * `decodeURIComponent` for the URL reader (url-parse.ts), over a range of a
 * longer string and with null where the native call throws. The native call
 * costs a trip into the engine's runtime per segment, more than the decoding
 * itself: a chain with facet filters has a dozen escaped segments, and those
 * calls were a quarter of reading it. Same result as the native call for
 * every input, malformed UTF-8 included (test/shared/url-decode.test.ts
 * compares them).
 */

/** Hex digit values by char code below 128; -1 for every other character. */
const HEX = new Int8Array(128).fill(-1)
for (let i = 0; i < 10; i++) HEX[48 + i] = i
for (let i = 0; i < 6; i++) {
  HEX[65 + i] = 10 + i
  HEX[97 + i] = 10 + i
}

/** The octet written by the two hex digits at `i` and `i + 1`, or -1. The caller checks both are in range. */
function hexOctet(text: string, i: number): number {
  const high = text.charCodeAt(i)
  const low = text.charCodeAt(i + 1)
  if (high >= 128 || low >= 128) return -1
  const a = HEX[high]!
  const b = HEX[low]!
  return (a | b) < 0 ? -1 : (a << 4) | b
}

/**
 * The code point of the UTF-8 sequence led by `lead`, its continuation bytes
 * escaped from `i` on (before `end`); -1 when it is not well-formed UTF-8
 * (Unicode table 3-7: no overlong forms, no surrogates, nothing past
 * U+10FFFF), where the native call throws.
 */
function codePointAt(text: string, i: number, end: number, lead: number): number {
  let count: number
  let point: number
  if (lead >= 0xc2 && lead <= 0xdf) {
    count = 1
    point = lead & 0x1f
  } else if (lead >= 0xe0 && lead <= 0xef) {
    count = 2
    point = lead & 0x0f
  } else if (lead >= 0xf0 && lead <= 0xf4) {
    count = 3
    point = lead & 0x07
  } else return -1
  // The second byte's range is narrower after these leads: that is what rules out overlong forms, surrogates and values past U+10FFFF.
  let low = lead === 0xe0 ? 0xa0 : lead === 0xf0 ? 0x90 : 0x80
  let high = lead === 0xed ? 0x9f : lead === 0xf4 ? 0x8f : 0xbf
  for (let k = 0; k < count; k++) {
    if (i + 2 >= end || text.charCodeAt(i) !== 37) return -1
    const byte = hexOctet(text, i + 1)
    if (byte < low || byte > high) return -1
    low = 0x80
    high = 0xbf
    point = (point << 6) | (byte & 0x3f)
    i += 3
  }
  return point
}

/**
 * `decodeURIComponent(text.slice(start, end))`, or null where that throws;
 * `percent` is the index of the first `%` in the range (the caller has
 * found it). Text between escapes is copied as it is.
 */
export function decodeRange(text: string, start: number, end: number, percent: number): string | null {
  let out = percent === start ? '' : text.slice(start, percent)
  let i = percent
  for (;;) {
    const byte = i + 2 < end ? hexOctet(text, i + 1) : -1
    if (byte < 0) return null
    i += 3
    if (byte < 0x80) out += String.fromCharCode(byte)
    else {
      const point = codePointAt(text, i, end, byte)
      if (point < 0) return null
      // The lead byte says how many escaped continuation bytes codePointAt read.
      i += byte >= 0xf0 ? 9 : byte >= 0xe0 ? 6 : 3
      out += String.fromCodePoint(point)
    }
    if (i === end) return out
    // Escapes often come in runs (`%3A%2F%2F`): the next one needs no search.
    if (text.charCodeAt(i) === 37) continue
    const next = text.indexOf('%', i)
    if (next < 0 || next >= end) return out + text.slice(i, end)
    out += text.slice(i, next)
    i = next
  }
}

/** `decodeURIComponent(text)`, or null where that throws. */
export function decodeText(text: string): string | null {
  const percent = text.indexOf('%')
  return percent < 0 ? text : decodeRange(text, 0, text.length, percent)
}
