import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { OptionsSchema, RESPONSE_TYPES, type QueryRequest } from '../../src/shared/query/model'
import { NUMERIC_OPTION_FIELDS, type NumericOptionField } from '../../src/shared/query/option-fields'
import { OPTIONS_BY_TYPE } from '../../src/shared/query/response-types'
import { validateRequest } from '../../src/shared/query/validate'

/**
 * The numeric options the options form asks for (src/shared/query/option-fields.ts):
 * one field per numeric option of the request model, and bounds that say
 * what validation takes, so the form never offers a value the request then
 * refuses, nor turns one down that it takes.
 */

/** The problem validation finds in the field's option set to `value`, on a response type that takes the option; null when none. */
function problemWith(field: NumericOptionField, value: number): string | null {
  const responseType = RESPONSE_TYPES.find((type) => OPTIONS_BY_TYPE[type].includes(field.name))!
  const request: QueryRequest = { workspace: 'world', api: 'places', steps: [{ endpoint: 'search', parameters: { query: 'paris' } }], responseType, options: { [field.name]: value } }
  return validateRequest(request).find((problem) => problem.field === `options.${field.name}`)?.message ?? null
}

describe('NUMERIC_OPTION_FIELDS', () => {
  it('asks for every numeric option of the model but the page size and offset, in the form order, each by a label of its own', () => {
    const numeric = Object.entries(OptionsSchema.shape)
      .filter(([, schema]) => schema instanceof z.ZodOptional && schema.unwrap() instanceof z.ZodNumber)
      .map(([name]) => name)
    expect(numeric.filter((name) => name !== 'count' && name !== 'offset').sort()).toEqual(NUMERIC_OPTION_FIELDS.map((field) => field.name).sort())
    expect(NUMERIC_OPTION_FIELDS.map((field) => [field.name, field.label])).toEqual([
      ['rank', 'Rank'],
      ['column', 'Column'],
      ['level', 'Level'],
      ['cutoff', 'Cutoff'],
    ])
  })

  it('holds each field to the bounds validation holds the option to: its least and greatest taken, one step past them refused', () => {
    for (const field of NUMERIC_OPTION_FIELDS) {
      expect(problemWith(field, field.min), field.name).toBeNull()
      expect(problemWith(field, field.min - field.step), field.name).toMatch(new RegExp(`^Option ${field.name} must be`))
      if (field.max === undefined) {
        expect(problemWith(field, 1_000_000), field.name).toBeNull()
      } else {
        expect(problemWith(field, field.max), field.name).toBeNull()
        expect(problemWith(field, field.max + field.step), field.name).toMatch(new RegExp(`^Option ${field.name} must be`))
      }
    }
  })

  it('steps whole numbers where validation takes whole numbers only, and a twentieth for the cutoff', () => {
    for (const field of NUMERIC_OPTION_FIELDS) {
      const fraction = problemWith(field, field.min + 0.5)
      if (field.step === 1) expect(fraction, field.name).toMatch(/must be a whole number/)
      else expect(fraction, field.name).toBeNull()
    }
    expect(NUMERIC_OPTION_FIELDS.find((field) => field.name === 'cutoff')).toMatchObject({ min: 0, max: 1, step: 0.05 })
    expect(problemWith(NUMERIC_OPTION_FIELDS.find((field) => field.name === 'cutoff')!, 0.05)).toBeNull()
  })

  it('says what the service does with an option left empty, and asks always for rank and column, which start from 1', () => {
    expect(NUMERIC_OPTION_FIELDS.map((field) => [field.name, field.required, field.min, field.placeholder])).toEqual([
      ['rank', true, 1, undefined],
      ['column', true, 1, undefined],
      ['level', false, 0, '1'],
      ['cutoff', false, 0, 'none'],
    ])
  })
})
