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
  'api:learn',
  'query:run',
  'query:cancel',
  'history:list',
  'history:clear',
  'workspace:current',
  'workspace:new',
  'workspace:open',
  'workspace:import',
  'workspace:save',
  'workspace:save-query',
  'workspace:rename-query',
  'workspace:duplicate-query',
  'workspace:delete-query',
  'workspace:bind',
  'workspace:create-connection',
  'workspace:recent',
  'workspace:draft',
  'workspace:set-facets',
  'export:start',
  'export:status',
  'export:cancel',
  'copy-as:demo-with-secret',
  'tests:run',
  'tests:status',
  'tests:cancel',
  'tests:add-from-query',
  'tests:edit',
  'tests:delete',
  'tests:update-snapshot',
  'compare:run',
  'view-prefs:get',
  'view-prefs:set',
  'view-prefs:reset',
] as const

export type Channel = (typeof CHANNELS)[number]

export function isChannel(value: unknown): value is Channel {
  return typeof value === 'string' && (CHANNELS as readonly string[]).includes(value)
}
