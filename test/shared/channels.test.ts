import { describe, expect, it } from 'vitest'
import { CHANNELS, isChannel } from '../../src/shared/ipc/channels'
import { contract } from '../../src/shared/ipc/contract'

/**
 * The channel names the sandboxed preload lets through: exactly the
 * contract's (one missing would leave a feature unreachable from the window,
 * one extra would open a door with no schema), and nothing that merely looks
 * like one. test/main/ipc-fuzz.test.ts sends every channel malformed requests.
 */

describe('IPC channel names', () => {
  it('are exactly the channels the contract gives a schema, each once', () => {
    expect([...CHANNELS].sort()).toEqual(Object.keys(contract).sort())
    expect(new Set(CHANNELS).size).toBe(CHANNELS.length)
  })

  it('a channel is only a listed name: not a near miss, an inherited property name or another type', () => {
    expect(isChannel('query:run')).toBe(true)
    expect(isChannel('experiments:get')).toBe(true)
    for (const value of ['Query:run', 'query:run ', 'query:', '', 'toString', 'constructor', '__proto__', 'hasOwnProperty']) {
      expect(isChannel(value), value).toBe(false)
    }
    for (const value of [undefined, null, 42, ['query:run'], { toString: () => 'query:run' }, Symbol('query:run')]) {
      expect(isChannel(value)).toBe(false)
    }
  })
})
