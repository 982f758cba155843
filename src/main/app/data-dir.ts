import { homedir } from 'node:os'
import { join } from 'node:path'

/** Where the browser host keeps its files when not told otherwise (Electron uses its userData). */
export function defaultDataDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.QUERY_EXPLORER_DATA_DIR) return env.QUERY_EXPLORER_DATA_DIR
  const base = env.XDG_CONFIG_HOME || join(homedir(), '.config')
  return join(base, 'query-explorer')
}
