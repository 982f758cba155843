import { homedir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { defaultDataDir } from '../../src/main/app/data-dir'

describe('data dir', () => {
  it('is QUERY_EXPLORER_DATA_DIR when set, else query-explorer under XDG_CONFIG_HOME, else under ~/.config', () => {
    expect(defaultDataDir({ QUERY_EXPLORER_DATA_DIR: '/srv/qe', XDG_CONFIG_HOME: '/xdg' })).toBe('/srv/qe')
    expect(defaultDataDir({ XDG_CONFIG_HOME: '/xdg' })).toBe('/xdg/query-explorer')
    // Set but empty is not set, as the XDG specification says.
    expect(defaultDataDir({ XDG_CONFIG_HOME: '', QUERY_EXPLORER_DATA_DIR: '' })).toBe(join(homedir(), '.config', 'query-explorer'))
    expect(defaultDataDir({})).toBe(join(homedir(), '.config', 'query-explorer'))
  })
})
