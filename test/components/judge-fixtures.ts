import type { JudgeRunStatus } from '../../src/shared/ipc/judge-contract'
import type { WorkspaceView } from '../../src/shared/ipc/contract'
import { JudgeSchema, type Judge } from '../../src/shared/relevance/llm-judge'
import type { QuerySet } from '../../src/shared/relevance/query-set'
import { demoSetView } from './demo-set-view'

/** The example's judge on the demo service's stand-in model, as the workspace file keeps it (defaults filled by the schema). */
export const DEMO_JUDGE: Judge = JudgeSchema.parse({
  name: 'demo', provider: 'openai', baseUrl: 'http://127.0.0.1:8080/v1', model: 'demo-judge', depth: 5, notes: "The demo service's stand-in model, demo-judge: not a real LLM.",
})

/** A real provider's judge. */
export const GPT_JUDGE: Judge = JudgeSchema.parse({ name: 'gpt', provider: 'openai', baseUrl: 'https://api.openai.com/v1', model: 'gpt-4o-mini', seed: 7 })

/** The workspace view of `set` on the Demo (demoSetView) with `judges`. */
export function judgesView(set: QuerySet, judges: Judge[] = [DEMO_JUDGE, GPT_JUDGE]): WorkspaceView {
  return { ...demoSetView(set), judges }
}

/** A judging job's status as main answers it: `runId` r1, the demo judge on `set`, running unless told. */
export function judgeStatus(set: string, patch: Partial<JudgeRunStatus> = {}): JudgeRunStatus {
  return {
    runId: 'r1', state: 'running', durationMs: 1, message: null, set, done: 0, total: 170, judge: 'demo', phase: 'judging', estimate: null,
    graded: 0, cached: 0, failedCount: 0, failures: [], calls: 0, tokens: { input: 0, output: 0 }, stoppedByBudget: false, left: 170,
    ...patch,
  }
}
