import { build } from 'esbuild'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'

/**
 * Imports `entry` bundled into one module, as the app ships it (electron-vite
 * bundles main and renderer). Under tsx every module boundary costs a getter
 * call per imported function, which no shipped build has: for a hot pure
 * function spread over a few modules (the URL codec) that alone read as an
 * 18 % slowdown when url.ts was split in three.
 */
export async function importBundled<T>(entry: string): Promise<T> {
  const dir = mkdtempSync(join(tmpdir(), 'qe-bench-'))
  try {
    const outfile = join(dir, 'bundle.mjs')
    await build({ entryPoints: [entry], bundle: true, platform: 'node', format: 'esm', outfile, logLevel: 'warning' })
    return (await import(pathToFileURL(outfile).href)) as T
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}
