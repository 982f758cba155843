import { existsSync } from 'node:fs'
import { dirname, join } from 'node:path'

/**
 * Where a built entry is: a sibling bundle of the code that starts it
 * (electron.vite.config.ts puts them in out/main/, scripts/build-cli.cjs the
 * command line's in out/cli/), which may itself sit there or in a chunks/
 * folder below. The worker threads (worker-thread.ts) and the demo service's
 * child process (src/main/demo/demo-service-process.ts) are found alike.
 */
export function builtEntry(caller: string, names: readonly string[]): string {
  const here = dirname(caller)
  const found = [here, join(here, '..')].flatMap((folder) => names.map((name) => join(folder, name))).find((path) => existsSync(path))
  if (!found) throw new MissingBuiltEntry(names[0] ?? '(no entry named)', here)
  return found
}

/** A built entry that is not there: the app or the command line was not built, or not wholly. */
export class MissingBuiltEntry extends Error {
  constructor(
    readonly built: string,
    readonly folder: string,
  ) {
    super(`${built} is missing next to ${folder}; build the app (npm run build)`)
    this.name = 'MissingBuiltEntry'
  }
}
