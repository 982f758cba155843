import { readdirSync, readFileSync } from 'node:fs'
import { basename, join, relative, sep } from 'node:path'
import { describe, expect, it } from 'vitest'

/**
 * Each module's own tests are found by its name: `src/<area>/…/<name>.ts` is
 * tested in `test/<area>/…/<name>.test.ts`, and a component's composable
 * `useX.ts` in the component's test `test/components/X.test.ts` (a window
 * module that needs a page, in `test/components/<name>.test.ts`). Behaviour
 * suites that cross modules stay, but a newcomer opening a module finds its
 * tests without a search. A module that holds no code that runs (types,
 * schemas, constants) needs no file of its own.
 */

const root = join(__dirname, '..')

/** Entry points and wiring that the e2e and behaviour suites run whole, and why each has no file of its own. */
const wiring = 'maps its channels to a store or session method, one line each; the store, the session and app-core are tested'
const exempt: Readonly<Record<string, string>> = {
  'src/main/ipc/handlers/app-handlers.ts': wiring,
  'src/main/ipc/handlers/export-handlers.ts': wiring,
  'src/main/ipc/handlers/history-handlers.ts': wiring,
  'src/main/ipc/handlers/view-prefs-handlers.ts': wiring,
}

function filesUnder(folder: string, suffix: string): string[] {
  const found: string[] = []
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    const path = join(folder, entry.name)
    if (entry.isDirectory()) found.push(...filesUnder(path, suffix))
    else if (entry.name.endsWith(suffix)) found.push(path)
  }
  return found
}

/** Whether a module holds code that runs: an exported function, class or arrow, or a default export. */
export function holdsCode(text: string): boolean {
  return /export\s+(async\s+)?function|export\s+class|export\s+const\s+\w+\s*(:[^=]+)?=\s*(async\s*)?\(|export\s+default/.test(text)
}

/** The test names each area holds, e.g. `main` → {`data-store`, …}. */
function testNamesByArea(): Map<string, Set<string>> {
  const byArea = new Map<string, Set<string>>()
  for (const file of filesUnder(join(root, 'test'), '.test.ts')) {
    const area = relative(join(root, 'test'), file).split(sep)[0]!
    const names = byArea.get(area) ?? new Set<string>()
    names.add(basename(file, '.test.ts'))
    byArea.set(area, names)
  }
  return byArea
}

function modulesWithoutOwnTests(): string[] {
  const tests = testNamesByArea()
  const missing: string[] = []
  for (const file of filesUnder(join(root, 'src'), '.ts')) {
    if (file.endsWith('.d.ts')) continue
    const path = relative(root, file).split(sep).join('/')
    const area = path.split('/')[1]!
    const name = basename(file, '.ts')
    if (tests.get(area)?.has(name)) continue
    // The window's modules that need a page (the clipboard, a download, the theme, a frame) are tested in Chromium.
    if (area === 'renderer' && (tests.get('components')?.has(name) || (/^use[A-Z]/.test(name) && tests.get('components')?.has(name.slice(3))))) continue
    if (path in exempt || !holdsCode(readFileSync(file, 'utf8'))) continue
    missing.push(path)
  }
  return missing.sort()
}

describe('tests named after their module', () => {
  it('finds a test file named after every module that holds code', () => {
    expect(modulesWithoutOwnTests()).toEqual([])
  })

  it('tells code from declarations', () => {
    expect(holdsCode('export function parse(text: string) {}')).toBe(true)
    expect(holdsCode('export const scoreOf = (grade: number) => grade * 2')).toBe(true)
    expect(holdsCode('export class JobTable {}')).toBe(true)
    expect(holdsCode('export type Grade = number\nexport interface Set { name: string }')).toBe(false)
    expect(holdsCode("export const GradeSchema = z.number().int()\nexport const LIMIT = 10_000")).toBe(false)
  })
})
