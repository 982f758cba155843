import { z } from 'zod'
import { describe, expect, it } from 'vitest'
import { JobStatusSchema, jobChannels, SetJobStatusSchema } from '../../src/shared/ipc/job-channels'
import { ExperimentRunStatusSchema } from '../../src/shared/ipc/experiment-contract'
import { EvalRunStatusSchema } from '../../src/shared/ipc/relevance-contract'

/** A background job's three channels declared from its schemas, and the status every job's extends. */

const Start = z.object({ rows: z.number().int() }).strict()
const Status = JobStatusSchema.extend({ rows: z.number() })
const status = { runId: 'r1', state: 'running', durationMs: 12, message: null, rows: 3 }

describe('job channels', () => {
  it('declares <kind>:start, :status and :cancel, the start replying with the status unless a start reply is given', () => {
    const channels = jobChannels('export', { start: Start, status: Status })
    expect(Object.keys(channels).sort()).toEqual(['export:cancel', 'export:start', 'export:status'])
    expect(channels['export:start'].request).toBe(Start)
    expect(channels['export:start'].reply).toBe(Status)
    expect(channels['export:status'].reply).toBe(Status)
    expect(channels['export:cancel'].reply).toBe(Status)
    const Maybe = Status.nullable()
    expect(jobChannels('eval', { start: Start, status: Status, startReply: Maybe })['eval:start'].reply).toBe(Maybe)
  })

  it('status and cancel take a runId alone: not empty, at most 200 characters, no other field', () => {
    const { request } = jobChannels('tests', { start: Start, status: Status })['tests:status']
    expect(request.parse({ runId: 'r1' })).toEqual({ runId: 'r1' })
    expect(request.safeParse({ runId: 'x'.repeat(200) }).success).toBe(true)
    expect(request.safeParse({ runId: 'x'.repeat(201) }).success).toBe(false)
    expect(request.safeParse({ runId: '' }).success).toBe(false)
    expect(request.safeParse({ runId: 'r1', extra: 1 }).success).toBe(false)
    expect(request.safeParse({}).success).toBe(false)
  })

  it("every job's status has a runId, one of four states, a duration and a message or null", () => {
    expect(Status.parse(status)).toEqual(status)
    for (const state of ['running', 'done', 'cancelled', 'failed']) expect(JobStatusSchema.safeParse({ ...status, state }).success).toBe(true)
    expect(JobStatusSchema.safeParse({ ...status, state: 'paused' }).success).toBe(false)
    expect(JobStatusSchema.safeParse({ ...status, message: undefined }).success).toBe(false)
    expect(JobStatusSchema.safeParse({ ...status, durationMs: '12' }).success).toBe(false)
  })
})

/** The status of a job over a query set, an evaluation's and an experiment's alike: the set, and queries done of all it asks. */

const job = { runId: 'r1', state: 'running', durationMs: 12, message: null, set: 'Cities', done: 3, total: 10 }
const kinds = [
  { name: 'evaluation', schema: EvalRunStatusSchema, status: { ...job, targetText: 'Demo, config production', failed: 1, evaluationId: null } },
  { name: 'experiment', schema: ExperimentRunStatusSchema, status: { ...job, phase: 'B: Demo, config production', experimentId: null } },
]

describe('a query set job status', () => {
  it('holds the set and the queries done of all, as whole numbers', () => {
    expect(SetJobStatusSchema.parse(job)).toEqual(job)
    for (const bad of [{ done: 1.5 }, { total: '10' }, { set: undefined }]) expect(SetJobStatusSchema.safeParse({ ...job, ...bad }).success).toBe(false)
  })

  it("is what an evaluation's and an experiment's status hold, with their own fields", () => {
    for (const { name, schema, status } of kinds) {
      expect(schema.parse(status), name).toEqual(status)
      expect(schema.safeParse({ ...status, done: 1.5 }).success, name).toBe(false)
      expect(schema.safeParse({ ...status, set: undefined }).success, name).toBe(false)
    }
  })
})
