import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { checkedForKeeping, RECORD_ID } from '../../src/main/storage/kept-records'
import { refusal } from '../fixtures/failure-of'

/** A record is kept only as its own schema will read it back; the refusal names the field and the rule. */

const Ranking = z.object({ items: z.array(z.string()), probabilities: z.array(z.number()) })
const KeptRecord = z.object({ id: z.string(), rankings: z.array(Ranking) })

describe('checkedForKeeping', () => {
  it('gives the JSON text of a record that reads back', () => {
    const record = { id: 'r', rankings: [{ items: ['a'], probabilities: [0.5] }] }
    expect(checkedForKeeping(KeptRecord, record, 'evaluation')).toBe(JSON.stringify(record))
  })

  it('refuses a value JSON cannot hold, naming where it sits and the rule', () => {
    const error = refusal(() => checkedForKeeping(KeptRecord, { id: 'r', rankings: [{ items: ['a', 'b'], probabilities: [1, Infinity] }] }, 'evaluation'))
    expect(error.code).toBe('validation')
    expect(error.message).toMatch(/^Not kept: the evaluation would not read back \(rankings\.0\.probabilities\.1: .+\)\.$/)
  })

  it('a record checked in parts names the part by its path; a whole record of the wrong kind is "record"', () => {
    const part = refusal(() => checkedForKeeping(Ranking, { items: [3 as unknown as string], probabilities: [] }, 'experiment', 'rankings.12'))
    expect(part.message).toMatch(/^Not kept: the experiment would not read back \(rankings\.12\.items\.0: /)
    expect(refusal(() => checkedForKeeping(z.string(), 5 as unknown as string, 'note')).message).toMatch(/^Not kept: the note would not read back \(record: /)
  })
})

describe('RECORD_ID', () => {
  it('takes the ids the app makes and nothing that could name a path', () => {
    expect(RECORD_ID.test('0b9a4c2e-8d7f-4e1a-9c3b-2f6e5d4c3b2a')).toBe(true)
    for (const id of ['../../etc/passwd', '0B9A4C2E-8D7F-4E1A-9C3B-2F6E5D4C3B2A', 'short', `${'a'.repeat(36)}/`]) expect(RECORD_ID.test(id)).toBe(false)
  })
})
