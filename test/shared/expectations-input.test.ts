import { describe, expect, it } from 'vitest'
import { EXPECTATION_KEYS, expectationsText, problemText, readExpectations } from '../../src/shared/test-cases/expectations-input'
import type { Expectations } from '../../src/shared/test-cases/test-case'

const problems = (text: string) => {
  const read = readExpectations(text)
  return read.ok ? [] : read.problems.map(problemText)
}

describe('expectationsText', () => {
  it('writes one expectation a line in the schema order, and reads back to the same expectations', () => {
    const expect_: Expectations = {
      snapshot: { ids: ['3167796', '3168001', '1957691'], minRbo: 0.9 },
      totalAtLeast: 1000,
      status: 200,
      contains: [{ id: '3167796', within: 3 }],
    }
    const text = expectationsText(expect_)
    expect(text).toBe(
      [
        '{',
        '  "status": 200,',
        '  "totalAtLeast": 1000,',
        '  "contains": [{"id": "3167796", "within": 3}],',
        '  "snapshot": {"ids": ["3167796", "3168001", "1957691"], "minRbo": 0.9}',
        '}',
      ].join('\n'),
    )
    expect(readExpectations(text)).toEqual({ ok: true, expect: expect_ })
  })

  it('breaks a long list one entry a line, and an empty set of expectations is {}', () => {
    const ids = Array.from({ length: 10 }, (_, i) => `id-number-${i}`)
    const text = expectationsText({ snapshot: { ids, minRbo: 0.9 } })
    expect(text.split('\n')).toContain('      "id-number-0",')
    expect(text.split('\n').every((line) => line.length <= 80)).toBe(true)
    expect(readExpectations(text)).toEqual({ ok: true, expect: { snapshot: { ids, minRbo: 0.9 } } })
    expect(expectationsText({})).toBe('{}')
  })
})

describe('readExpectations', () => {
  it('fills in the snapshot threshold as the schema does', () => {
    expect(readExpectations('{"snapshot": {"ids": ["a"]}}')).toEqual({ ok: true, expect: { snapshot: { ids: ['a'], minRbo: 0.9 } } })
  })

  it('names the field and the rule of every problem', () => {
    expect(problems('{"totalAtLeast": -1, "contains": [{"id": "", "within": 200}], "status": "200"}')).toEqual([
      'status: must be a number, not a string',
      'totalAtLeast: must be at least 0',
      'contains[0].id: must not be empty',
      'contains[0].within: must be at most 100',
    ])
    expect(problems('{"durationAtMostMs": 1.5}')).toEqual(['durationAtMostMs: must be a whole number, not a decimal number'])
    expect(problems('{"rankAtMost": [{"id": "x"}]}')).toEqual(['rankAtMost[0].rank: is missing (a number)'])
    expect(problems('{"snapshot": {"ids": [], "minRbo": 2}}')).toEqual(['snapshot.ids: needs at least 1 entry', 'snapshot.minRbo: must be at most 1'])
    expect(problems('{"snapshot": {"ids": ["a", "b"], "names": ["A"]}}')).toEqual([
      "snapshot.names: must give one name per id, in the same order ('' for none): 2 ids, 1 names",
    ])
    expect(problems('{"firstItem": [{"field": "name", "equals": {"a": 1}}]}')).toEqual([
      'firstItem[0].equals: must be a string, a number, true/false or null, not an object',
    ])
  })

  it('lists the known fields for a key it does not know, at each level', () => {
    expect(problems('{"totalAtleast": 5}')).toEqual([`totalAtleast: is not an expectation (known: ${EXPECTATION_KEYS.join(', ')})`])
    expect(problems('{"contains": [{"id": "x", "within": 3, "rank": 1}]}')).toEqual(['contains[0].rank: is not a field here (known: id, within)'])
    expect(problems('{"snapshot": {"ids": ["x"], "depth": 3}}')).toEqual(['snapshot.depth: is not a field here (known: ids, names, minRbo)'])
  })

  it('refuses text that is not a JSON object, saying what it is', () => {
    expect(problems('')).toEqual(['(expectations): is empty: write a JSON object, such as {"status": 200}'])
    expect(problems('{"status": 200,}')[0]).toMatch(/^\(json\): not valid JSON: /)
    expect(problems('[1]')).toEqual(['(expectations): must be a JSON object such as {"status": 200}, not a list'])
    expect(problems('null')).toEqual(['(expectations): must be a JSON object such as {"status": 200}, not null'])
  })

  it('refuses expectations that can never pass together', () => {
    expect(problems('{"totalAtLeast": 10, "totalAtMost": 5}')).toEqual(['totalAtMost: is below totalAtLeast (10): no total passes both'])
    expect(problems('{"messageStartsWith": "no endpoint"}')).toEqual([
      'messageStartsWith: goes with an error status (400 or above in "status"): an answer with status 200 has no message',
    ])
    expect(readExpectations('{"status": 400, "messageStartsWith": "no endpoint"}').ok).toBe(true)
  })
})
