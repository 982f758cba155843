import { describe, expect, it } from 'vitest'
import { formOptions, formRequest, type RequestForm } from '../../src/shared/query/form-request'

const FORM: RequestForm = {
  workspace: 'world',
  api: 'places',
  version: undefined,
  config: 'default',
  steps: [{ endpoint: 'search', parameters: { query: 'madrid' } }],
  format: 'json',
  level: null,
  homogeneousArrays: false,
  cutoff: null,
  rank: 1,
  column: 1,
  facet: '',
  multiselect: false,
}

describe('formOptions', () => {
  it('sends a page size always, an offset only past the first row, and the configuration always, default included', () => {
    expect(formOptions(FORM, 'results', 0, 25, false)).toEqual({ config: 'default', count: 25 })
    expect(formOptions(FORM, 'results', 50, 25, false)).toEqual({ config: 'default', count: 25, offset: 50 })
    expect(formOptions({ ...FORM, config: 'nightly' }, 'results', 0, 10, false)).toEqual({ config: 'nightly', count: 10 })
    // An empty choice is the default configuration, as the official clients send it.
    expect(formOptions({ ...FORM, config: '' }, 'count', 0, 10, false)).toEqual({ config: 'default' })
  })

  it('sends the options it does not know as written, in their order, after the known ones, with every type', () => {
    const form = { ...FORM, extra: { dev_version: 'master', 'x y': 'a&b' } }
    for (const type of ['results', 'statistics', 'resultitem', 'options'] as const) {
      const options = formOptions(form, type, 0, 10, false)
      expect(Object.keys(options).at(-1)).toBe('extra')
      expect(Object.entries(options.extra!)).toEqual([['dev_version', 'master'], ['x y', 'a&b']])
    }
    expect(formOptions(FORM, 'results', 0, 10, false)).not.toHaveProperty('extra')
  })

  it('keeps only the options the response type takes', () => {
    const form = { ...FORM, level: 2, homogeneousArrays: true, cutoff: 0.5, rank: 3, column: 2 }
    expect(formOptions(form, 'results', 10, 10, false)).toEqual({ config: 'default', count: 10, offset: 10, level: 2, homogeneousArrays: true, cutoff: 0.5 })
    // statistics takes no page, no tuple form and no rank
    const statistics = formOptions(form, 'statistics', 10, 10, false)
    expect(statistics).not.toHaveProperty('count')
    expect(statistics).not.toHaveProperty('rank')
    expect(formOptions(form, 'resultitem', 0, 10, false)).toMatchObject({ rank: 3, column: 2 })
  })

  it('writes the format only when asked to and when it is not JSON', () => {
    const csv = { ...FORM, format: 'csv' }
    expect(formOptions(csv, 'results', 0, 10, false)).not.toHaveProperty('format')
    expect(formOptions(csv, 'results', 0, 10, true)).toMatchObject({ format: 'csv' })
    expect(formOptions(FORM, 'results', 0, 10, true)).not.toHaveProperty('format')
  })

  it('reads a rank or column that is not a number as 1', () => {
    expect(formOptions({ ...FORM, rank: Number.NaN, column: 0 }, 'resultitem', 0, 10, false)).toMatchObject({ rank: 1, column: 1 })
  })
})

describe('formRequest', () => {
  it('builds the request of the form, with the version only when there is one', () => {
    expect(formRequest(FORM, 'results', 0, 10, false)).toEqual({
      workspace: 'world',
      api: 'places',
      steps: [{ endpoint: 'search', parameters: { query: 'madrid' } }],
      responseType: 'results',
      options: { config: 'default', count: 10 },
    })
    expect(formRequest({ ...FORM, version: '4' }, 'results', 0, 10, false).version).toBe('4')
  })

  it('copies the steps: editing the request leaves the form alone', () => {
    const built = formRequest(FORM, 'results', 0, 10, false)
    ;(built.steps[0] as { parameters: Record<string, string> }).parameters.query = 'paris'
    expect(FORM.steps[0]).toEqual({ endpoint: 'search', parameters: { query: 'madrid' } })
    const form = { ...FORM, extra: { dev_version: 'master' } }
    formRequest(form, 'results', 0, 10, false).options.extra!.dev_version = 'edited'
    expect(form.extra).toEqual({ dev_version: 'master' })
  })

  it("asks a facet's options without a page, multiselect only when chosen", () => {
    const single = formRequest({ ...FORM, facet: 'country' }, 'options', 20, 10, false)
    expect(single.facet).toBe('country')
    expect(single.options).not.toHaveProperty('count')
    expect(single.options).not.toHaveProperty('offset')
    expect(single.options).not.toHaveProperty('multiselect')
    expect(formRequest({ ...FORM, facet: 'country', multiselect: true }, 'options', 0, 10, false).options.multiselect).toBe(true)
  })
})
