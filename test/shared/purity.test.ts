import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'

/** ARCHITECTURE: src/shared is pure TypeScript: no Node built-in, no DOM, nothing from the other folders. */
const ROOT = join(__dirname, '../../src/shared/query')
const ALLOWED = /^(\.\/|\.\.\/[a-z-]+$|zod$)/
const NODE_OR_DOM = /\b(process|Buffer|require|window|document|navigator|localStorage|setTimeout|fetch)\b/

describe('src/shared/query', () => {
  for (const file of readdirSync(ROOT).filter((name) => name.endsWith('.ts'))) {
    it(`${file} imports only shared modules and zod, and uses no Node or DOM API`, () => {
      const source = readFileSync(join(ROOT, file), 'utf8')
      const imports = [...source.matchAll(/from '([^']+)'/g)].map((match) => match[1]!)
      expect(imports.filter((name) => !ALLOWED.test(name))).toEqual([])
      const code = source.replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, '').replace(/'[^'\n]*'|`[^`]*`/g, "''")
      expect(code.match(NODE_OR_DOM)).toBeNull()
    })
  }
})
