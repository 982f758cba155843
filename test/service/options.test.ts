import { describe, expect, it } from 'vitest'
import type { RankingConfig } from '../../src/service/query/endpoint'
import { resolveDescriptionConfig, resolveOptions } from '../../src/service/query/options'
import type { QueryOptions } from '../../src/shared/query/model'
import { serviceRefusal } from '../fixtures/service-refusal'

/** A request's options with their defaults and bounds (SERVICE-CONTRACT "Options"); what is out of bounds is a 400 naming the option. */

const DEFAULT: RankingConfig = { name: 'default', ranking: 'text', xml: false }
const PRODUCTION: RankingConfig = { name: 'production', ranking: 'text-and-population', xml: true }
const CONFIGS = [DEFAULT, PRODUCTION]
const resolve = (options: QueryOptions, type: Parameters<typeof resolveOptions>[1] = 'results') => resolveOptions(options, type, 'world', CONFIGS)
const refused = (options: QueryOptions, type: Parameters<typeof resolveOptions>[1] = 'results') => serviceRefusal(() => resolve(options, type))

describe('resolveOptions', () => {
  it('fills in every default for a request that sets none', () => {
    expect(resolve({})).toEqual({
      config: DEFAULT,
      count: 10,
      offset: 0,
      format: 'json',
      level: 1,
      homogeneousArrays: false,
      cutoff: 0,
      rank: 1,
      column: 1,
      multiselect: false,
      countGiven: false,
    })
  })

  it('takes the options given, at their bounds', () => {
    expect(resolve({ config: 'production', count: 100, offset: 5, format: 'xlsx', level: 0, homogeneousArrays: true, cutoff: 1 })).toMatchObject({
      config: PRODUCTION,
      count: 100,
      offset: 5,
      format: 'xlsx',
      level: 0,
      homogeneousArrays: true,
      cutoff: 1,
      countGiven: true,
    })
    expect(resolve({ rank: 3, column: 2 }, 'resultitem')).toMatchObject({ rank: 3, column: 2 })
    expect(resolve({ multiselect: true, count: 1 }, 'options')).toMatchObject({ multiselect: true, count: 1 })
  })

  it('refuses options the response type does not take, naming each and where it applies', () => {
    expect(refused({ rank: 2, multiselect: true })).toEqual({
      status: 400,
      message: 'Option rank applies to resultitem only, not to results; Option multiselect applies to options only, not to results',
    })
  })

  it('refuses a configuration the workspace lacks with a 404', () => {
    expect(refused({ config: 'staging' })).toEqual({ status: 404, message: 'No such workspace configuration: world/staging' })
  })

  it('refuses an unknown format and a cutoff outside 0 to 1', () => {
    expect(refused({ format: 'pdf' })).toEqual({ status: 400, message: 'Option format "pdf" is unknown (known: json, xml, rdf, csv, xlsx)' })
    expect(refused({ cutoff: 1.5 })).toEqual({ status: 400, message: 'Option cutoff must be a number from 0 to 1, not 1.5' })
    expect(refused({ cutoff: Number.NaN })).toEqual({ status: 400, message: 'Option cutoff must be a number from 0 to 1, not NaN' })
  })

  it('refuses a count, offset, level, rank or column that is not a whole number in its range', () => {
    expect(refused({ count: 0 })).toEqual({ status: 400, message: 'Option count must be a whole number from 1 to 100, not 0' })
    expect(refused({ count: 101 })).toEqual({ status: 400, message: 'Option count must be a whole number from 1 to 100, not 101' })
    expect(refused({ offset: -1 })).toEqual({ status: 400, message: 'Option offset must be a whole number 0 or more, not -1' })
    expect(refused({ level: 1.5 })).toEqual({ status: 400, message: 'Option level must be a whole number 0 or more, not 1.5' })
    expect(refused({ offset: 2 ** 53 })).toEqual({ status: 400, message: `Option offset must be a whole number 0 or more, not ${2 ** 53}` })
    expect(refused({ rank: 0 }, 'resultitem')).toEqual({ status: 400, message: 'Option rank must be a whole number 1 or more, not 0' })
    expect(refused({ column: 0 }, 'resultitem')).toEqual({ status: 400, message: 'Option column must be a whole number 1 or more, not 0' })
  })
})

describe('resolveDescriptionConfig', () => {
  it('takes config alone, default when left out', () => {
    expect(resolveDescriptionConfig({}, 'world', CONFIGS)).toBe(DEFAULT)
    expect(resolveDescriptionConfig({ config: 'production' }, 'world', CONFIGS)).toBe(PRODUCTION)
  })

  it('ignores options it does not know, as the query route does (dev_version=master)', () => {
    expect(resolveDescriptionConfig({ extra: { dev_version: 'master' } }, 'world', CONFIGS)).toBe(DEFAULT)
  })

  it('refuses any other option, and a configuration the workspace lacks', () => {
    expect(serviceRefusal(() => resolveDescriptionConfig({ count: 5 }, 'world', CONFIGS))).toEqual({
      status: 400,
      message: 'Option count does not apply to the API description; only config does',
    })
    expect(serviceRefusal(() => resolveDescriptionConfig({ config: 'x' }, 'world', CONFIGS))).toEqual({ status: 404, message: 'No such workspace configuration: world/x' })
  })
})
