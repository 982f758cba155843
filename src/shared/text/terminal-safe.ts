import { replaceBidiControls, visibleControls } from './visible-controls'

/**
 * Text from a workspace file or a server, made safe to print on a terminal.
 * A terminal obeys control characters wherever they come from: ESC and the
 * C1 CSI start sequences that clear the screen, move the cursor or set the
 * window title, a CR lets a line overwrite itself, and a line feed inside one
 * value (a test name) starts a line the value makes up, such as a fake
 * "✓ pass". So every C0 control, DEL and every C1 control is shown as a
 * visible escape instead; everything else, non-ASCII text included, is kept.
 *
 * C0 controls read as `\xHH` (TAB, LF and CR as `\t`, `\n`, `\r`), the way
 * people write them in a shell; DEL and C1 as `\u00HH`, which is also a JSON
 * escape: JSON.stringify leaves those raw, and JSON printed through this
 * stays valid JSON with the same meaning. A backslash is left alone, so the
 * result is for reading, not for turning back into the original.
 *
 * The bidirectional controls (an RLO, an isolate) reorder a terminal's line
 * just as they reorder the app's text, so they read as the app shows them:
 * `⟨U+202E⟩` (visibleControls). That escape is not JSON's, so JSON goes
 * through terminalJson first, which writes them as `\u202e` instead.
 */

export interface TerminalSafeOptions {
  /** Keep line feeds as new lines: only for text the caller itself composed over several lines. */
  keepNewlines?: boolean
}

// Built from a string so the pattern's source holds no control character itself.
const CONTROL = new RegExp('[\\u0000-\\u001f\\u007f-\\u009f]', 'g')

const NAMED: Readonly<Record<string, string>> = { '\t': '\\t', '\n': '\\n', '\r': '\\r' }

export function terminalSafe(text: string, options: TerminalSafeOptions = {}): string {
  return visibleControls(text).replace(CONTROL, (control) => {
    if (control === '\n' && options.keepNewlines === true) return control
    const named = NAMED[control]
    if (named !== undefined) return named
    const code = control.charCodeAt(0)
    const hex = code.toString(16).padStart(2, '0')
    return code < 0x20 ? `\\x${hex}` : `\\u00${hex}`
  })
}

/**
 * JSON text (JSON.stringify's) to print on a terminal: its bidi controls, which
 * it can only hold inside strings, written as JSON escapes (`\u202e`). Printed
 * through terminalSafe, it then parses back to the very value, where
 * terminalSafe's own `⟨U+202E⟩` would have changed the strings.
 */
export function terminalJson(json: string): string {
  return replaceBidiControls(json, (code) => `\\u${code.toString(16).padStart(4, '0')}`)
}
