import { describe, expect, it } from 'vitest'
import { integerParameter, oneOfParameter, parameterLabel, requiredText } from '../../src/service/query/endpoint'
import { serviceRefusal } from '../fixtures/service-refusal'
import { city } from '../../src/service/query/endpoints/lookup'
import { search } from '../../src/service/query/endpoints/search'

/** An endpoint's parameters read from their text, refused with a 400 that names the parameter, the endpoint and the rule. */

describe('parameterLabel', () => {
  it('names the parameter and its endpoint', () => {
    expect(parameterLabel('population', 'min')).toBe('parameter "min" of endpoint "population"')
  })
})

describe('integerParameter', () => {
  it('reads a whole number, spaces around it allowed, and nothing from nothing', () => {
    expect(integerParameter('population', 'min', ' 42 ')).toBe(42)
    expect(integerParameter('population', 'min', '-7')).toBe(-7)
    expect(integerParameter('population', 'min', '999999999999999')).toBe(999_999_999_999_999)
    expect(integerParameter('population', 'min', undefined)).toBeUndefined()
  })

  it('refuses a fraction, an empty value, a word and more digits than a number holds exactly', () => {
    for (const value of ['1.5', '', 'ten', '1e3', '1000000000000000']) {
      expect(serviceRefusal(() => integerParameter('population', 'min', value))).toEqual({
        status: 400,
        message: `The parameter "min" of endpoint "population" must be a whole number, not "${value}"`,
      })
    }
  })
})

describe('oneOfParameter', () => {
  it('takes one of the allowed words as written, and refuses any other, listing them', () => {
    expect(oneOfParameter('sort', 'order', 'asc', ['asc', 'desc'])).toBe('asc')
    expect(oneOfParameter('sort', 'order', undefined, ['asc', 'desc'])).toBeUndefined()
    expect(serviceRefusal(() => oneOfParameter('sort', 'order', 'ASC', ['asc', 'desc']))).toEqual({
      status: 400,
      message: 'The parameter "order" of endpoint "sort" must be one of asc, desc, not "ASC"',
    })
  })
})

/** A required text parameter (a city's id, a search's words): refused with a 400 naming it and its endpoint when missing or blank. */

describe('requiredText', () => {
  it('gives the value as written, spaces and all', () => {
    expect(requiredText('search', 'query', ' new york ')).toBe(' new york ')
  })

  it('refuses a missing, empty or blank value, naming the parameter and the endpoint', () => {
    for (const value of [undefined, '', '  \t']) {
      expect(serviceRefusal(() => requiredText('city', 'id', value))).toEqual({ status: 400, message: 'The parameter "id" of endpoint "city" must not be empty' })
    }
  })

  it('is how the city and search endpoints refuse a blank parameter, before anything is read', () => {
    // Refused before the input or the dataset is read: none is given.
    const run = (endpoint: typeof city, parameters: Record<string, string>) => () => endpoint.run(undefined as never, parameters, {} as never)
    expect(serviceRefusal(run(city, { id: ' ' }))).toEqual({ status: 400, message: 'The parameter "id" of endpoint "city" must not be empty' })
    expect(serviceRefusal(run(city, {}))).toEqual({ status: 400, message: 'The parameter "id" of endpoint "city" must not be empty' })
    expect(serviceRefusal(run(search, { query: '' }))).toEqual({ status: 400, message: 'The parameter "query" of endpoint "search" must not be empty' })
  })
})
