import { z } from 'zod'

const RunId = z.string().min(1).max(200)

/** Where a background job is: every kind has these four. */
export const JOB_STATES = ['running', 'done', 'cancelled', 'failed'] as const

/**
 * What every background job's status holds, whatever it runs (a test run,
 * an evaluation, an experiment, an export): a kind's status schema extends it
 * with its own progress.
 */
export const JobStatusSchema = z.object({
  runId: RunId,
  state: z.enum(JOB_STATES),
  durationMs: z.number(),
  /** Why it ended as it did, when there is something to say (a failure, what a cancel kept). */
  message: z.string().nullable(),
})

export type JobStatus = z.infer<typeof JobStatusSchema>

/**
 * The status of a job that runs a query set's queries (an evaluation, an
 * experiment): the set, and how many queries are done of all the run asks
 * (across an experiment's sides and steps). Each kind extends it with its own.
 */
export const SetJobStatusSchema = JobStatusSchema.extend({
  set: z.string(),
  done: z.number().int(),
  total: z.number().int(),
})

const RunIdRequest = z.object({ runId: RunId }).strict()

type JobChannels<Kind extends string, Start extends z.ZodTypeAny, StartReply extends z.ZodTypeAny, Status extends z.ZodTypeAny> = {
  [K in `${Kind}:start`]: { request: Start; reply: StartReply }
} & { [K in `${Kind}:status` | `${Kind}:cancel`]: { request: typeof RunIdRequest; reply: Status } }

/**
 * A kind of background job's three channels, declared from its schemas:
 * `<kind>:start` (replies at once with the first status, or `startReply`
 * where the start may not happen, e.g. a dialog the user cancelled),
 * `<kind>:status` (polled) and `<kind>:cancel` (replies once it has stopped),
 * the last two by `runId`.
 */
export function jobChannels<Kind extends string, Start extends z.ZodTypeAny, Status extends z.ZodTypeAny, StartReply extends z.ZodTypeAny = Status>(
  kind: Kind,
  schemas: { start: Start; status: Status; startReply?: StartReply },
): JobChannels<Kind, Start, StartReply, Status> {
  return {
    [`${kind}:start`]: { request: schemas.start, reply: schemas.startReply ?? schemas.status },
    [`${kind}:status`]: { request: RunIdRequest, reply: schemas.status },
    [`${kind}:cancel`]: { request: RunIdRequest, reply: schemas.status },
  } as JobChannels<Kind, Start, StartReply, Status>
}
