/**
 * The one rule for the name the app and the command line offer a file under
 * (an export, a set's judgments, an evaluation's run file, a comparison): the
 * name as the user wrote it ("Italian cities.csv", "Italian cities (Demo,
 * config default).run.txt"), case, accents, scripts and punctuation kept,
 * with only what a file system refuses or a file dialog shows falsely
 * replaced by a space:
 *
 * - path separators and the characters Windows reserves: \ / : * ? " < > |
 * - control characters, and bidirectional overrides (which can make
 *   `txt.exe` read as `exe.txt`)
 * - a leading dot (a hidden file) and trailing dots and spaces (Windows drops
 *   them), runs of white space (one space)
 * - Windows' device names (CON, NUL, COM1…), which get the fallback word
 *
 * and cut, on a character a person sees as one, to 80 of them and 160 bytes
 * of UTF-8: readable in a file dialog, and with any extension far under the
 * 255 bytes a file name may have on Linux and macOS.
 */

const REFUSED = /[\\/:*?"<>|\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]+/g
const DEVICE = /^(con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³])(?=\s*(\.|$))/i
const MAX_CHARACTERS = 80
const MAX_BYTES = 160

/** A code point's length in UTF-8. */
function utf8Length(text: string): number {
  let bytes = 0
  for (const point of text) {
    const code = point.codePointAt(0)!
    bytes += code < 0x80 ? 1 : code < 0x800 ? 2 : code < 0x10000 ? 3 : 4
  }
  return bytes
}

/** What a person sees as one character (an emoji with its joiners, a letter with its accents); code points where Intl.Segmenter is missing. */
function characters(text: string): string[] {
  if (typeof Intl.Segmenter !== 'function') return [...text]
  return [...new Intl.Segmenter(undefined, { granularity: 'grapheme' }).segment(text)].map((part) => part.segment)
}

const trimmed = (text: string) => text.replace(/^[\s.]+|[\s.]+$/g, '')

/** The name by the rule, without an extension; '' when nothing of it is left. */
export function fileNameStem(name: string): string {
  const clean = trimmed(name.normalize('NFC').replace(REFUSED, ' ').replace(/\s+/g, ' '))
  let stem = ''
  let count = 0
  let bytes = 0
  for (const character of characters(clean)) {
    const size = utf8Length(character)
    if (count + 1 > MAX_CHARACTERS || bytes + size > MAX_BYTES) break
    stem += character
    count++
    bytes += size
  }
  return trimmed(stem)
}

/**
 * `name` by the rule, then `.extension` ("csv", "run.txt"). `fallback` (a
 * plain word such as "judgments") names the file when nothing of `name` is
 * left, and follows a device name.
 */
export function suggestedFileName(name: string, extension: string, fallback: string): string {
  const stem = fileNameStem(name)
  if (stem === '') return `${fallback}.${extension}`
  return `${stem.replace(DEVICE, `$1 ${fallback}`)}.${extension}`
}
