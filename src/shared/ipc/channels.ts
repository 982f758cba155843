/**
 * The names of every IPC channel, without their schemas, so the sandboxed
 * preload can whitelist them without bundling the schema library.
 */
export const CHANNELS = [
  'app:info',
  'connections:list',
  'connections:save',
  'connections:delete',
  'secrets:set',
  'secrets:clear',
  'connections:test',
  'connections:check',
  'connections:duplicate',
  'connections:reauth',
  'connections:use',
  'api:describe',
  'query:run',
  'query:cancel',
  'history:list',
  'history:clear',
] as const

export type Channel = (typeof CHANNELS)[number]

export function isChannel(value: unknown): value is Channel {
  return typeof value === 'string' && (CHANNELS as readonly string[]).includes(value)
}
