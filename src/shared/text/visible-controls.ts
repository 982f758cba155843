/**
 * Server values are shown as they were sent, except for the invisible
 * characters that reorder the text around them: "Invoice", an RLO (U+202E),
 * then "txt.exe" reads as "Invoiceexe.txt", so a name, id or URL could pass
 * for another. These are the Unicode bidirectional formatting
 * characters: the embeddings and overrides U+202A–U+202E (LRE, RLE, PDF, LRO,
 * RLO), the isolates U+2066–U+2069 (LRI, RLI, FSI, PDI) and the marks U+200E,
 * U+200F and U+061C (LRM, RLM, ALM).
 */

// The class lists the characters themselves (as escapes, so this file holds none of them).
const BIDI_CONTROL = /[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/
const EVERY_BIDI_CONTROL = new RegExp(BIDI_CONTROL.source, 'g')

/** Every bidirectional formatting character, for tests and callers that list them. */
export const BIDI_CONTROL_CODES: readonly number[] = [0x061c, 0x200e, 0x200f, 0x202a, 0x202b, 0x202c, 0x202d, 0x202e, 0x2066, 0x2067, 0x2068, 0x2069]

/** The escape shown in place of a bidi control: "⟨U+202E⟩" (mathematical angle brackets, 4 upper-case hex digits). */
export function controlEscape(code: number): string {
  return `⟨U+${code.toString(16).toUpperCase().padStart(4, '0')}⟩`
}

/**
 * The text to show for a server value: each bidi formatting character
 * replaced by its visible escape, `⟨U+XXXX⟩` (see controlEscape), so it can
 * neither reorder what follows nor hide. Everything else is left as it is,
 * right-to-left scripts included: Arabic and Hebrew get their direction from
 * their letters, not from these characters. Only for display: copying,
 * filtering and requests keep the value as sent.
 */
export function visibleControls(text: string): string {
  return replaceBidiControls(text, controlEscape)
}

/**
 * Each bidi formatting character replaced by what `escape` writes for its
 * code: the one list of these characters, for the places that need another
 * spelling than visibleControls' (JSON printed on a terminal, terminal-safe.ts).
 */
export function replaceBidiControls(text: string, escape: (code: number) => string): string {
  // Most values hold none: test first, so they come back as the same string without a replace.
  if (!BIDI_CONTROL.test(text)) return text
  return text.replace(EVERY_BIDI_CONTROL, (char) => escape(char.charCodeAt(0)))
}
