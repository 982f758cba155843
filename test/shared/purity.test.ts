import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'

/** ARCHITECTURE: src/shared is pure TypeScript: no Node built-in, no DOM, nothing from the other folders. */
const ROOT = resolve(__dirname, '../../src/shared')
const NODE_OR_DOM = /\b(process|Buffer|require|window|document|navigator|localStorage|setTimeout|fetch)\b/g
/** The one seam to the host's timers: the real clock, which every rule about time takes as a parameter. */
const HOST_TIMERS: Record<string, string[]> = { 'time/clock.ts': ['setTimeout'] }

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? sources(join(dir, entry.name)) : entry.name.endsWith('.ts') ? [join(dir, entry.name)] : [],
  )
}

/** An import is allowed when it is zod or a module inside src/shared. */
function allowed(file: string, name: string): boolean {
  if (name === 'zod') return true
  if (!name.startsWith('.')) return false
  return !relative(ROOT, resolve(dirname(file), name)).startsWith('..')
}

describe('src/shared', () => {
  for (const file of sources(ROOT)) {
    it(`${relative(ROOT, file)} imports only shared modules and zod, and uses no Node or DOM API`, () => {
      const source = readFileSync(file, 'utf8')
      // Import and re-export statements start a line; code that writes other programs' imports keeps them in strings.
      const imports = [...source.matchAll(/^(?:import|export)\b[^'\n]*from '([^']+)'/gm)].map((match) => match[1]!)
      expect(imports.filter((name) => !allowed(file, name))).toEqual([])
      const code = source.replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, '').replace(/'[^'\n]*'|`[^`]*`/g, "''")
      const used = [...code.matchAll(NODE_OR_DOM)].map((match) => match[0])
      expect(used.filter((name) => !(HOST_TIMERS[relative(ROOT, file)] ?? []).includes(name))).toEqual([])
    })
  }
})
