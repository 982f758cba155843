/**
 * Text written into an XML 1.0 document: the service's xml answers and the
 * JUnit report a test run writes. One escaper for both, so neither can write
 * a document a conforming parser refuses.
 *
 * XML 1.0 cannot hold most control characters at all, not even as character
 * references: C0 controls other than TAB, LF and CR, U+FFFE, U+FFFF and lone
 * surrogates (the spec's Char production). They are dropped.
 */

/** Every character XML 1.0's Char production leaves out (a lone surrogate is one in `u` mode). */
const FORBIDDEN = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu

/** The text without the characters XML 1.0 forbids. */
export function xmlAllowed(value: string): string {
  return value.replace(FORBIDDEN, '')
}

/**
 * Character content: forbidden characters dropped, `&`, `<`, `>` and `"`
 * escaped, and CR written as `&#13;` (a parser turns a raw CR, or CR LF, into
 * LF, so only the reference keeps it).
 */
export function xmlText(value: string): string {
  return xmlAllowed(value)
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/\r/g, '&#13;')
}

/**
 * An attribute value in double quotes: as xmlText, and TAB and LF written as
 * references too, as a parser reads a raw one in an attribute as a space.
 */
export function xmlAttribute(value: string): string {
  return xmlText(value).replace(/\t/g, '&#9;').replace(/\n/g, '&#10;')
}
