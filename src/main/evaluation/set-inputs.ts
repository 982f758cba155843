import type { RunTarget } from '../../shared/compare/compare-targets'
import { ExplorerError } from '../../shared/ipc/errors'
import { DEFAULT_METRICS, parseMetrics, type MetricSpec } from '../../shared/relevance/metrics'
import type { QuerySet } from '../../shared/relevance/query-set'
import { requireSet } from '../../shared/relevance/set-edits'
import { resolveTemplate } from '../../shared/relevance/set-template'
import type { QueryRequest } from '../../shared/query/model'
import type { TargetOverrides } from '../../shared/test-cases/case-request'
import { targetText } from '../../shared/test-cases/target-text'
import type { ConnectionRegistry } from '../connections/connection-registry'
import type { QueryTarget } from '../http/query-runner'
import { caseTargets } from '../test-cases/case-targets'
import type { TestContext } from '../workspaces/workspace-session'

/**
 * What an evaluation or an experiment of the window starts from: the set by
 * name, its template, the metrics asked, and each target it runs on, with
 * each refusal a sentence for the user (validation).
 */

export interface SetRunInputs {
  set: QuerySet
  template: QueryRequest
  /** The file connection the template belongs to. */
  templateConnection: string | null
  metrics: MetricSpec[]
}

export function setRunInputs(context: TestContext, name: string, metricsText: string | undefined): SetRunInputs {
  const set = requireSet(context.workspace, name)
  if (set.queries.length === 0) throw new ExplorerError('validation', `The query set "${name}" has no queries to evaluate: add some first.`)
  const template = resolveTemplate(context.workspace, set)
  if (template.error !== null || template.request === null) throw new ExplorerError('validation', template.error ?? 'The set has no template.')
  const parsed = metricsText === undefined ? ({ ok: true, metrics: DEFAULT_METRICS } as const) : parseMetrics(metricsText)
  if (!parsed.ok) throw new ExplorerError('validation', `metrics: ${parsed.message}`)
  return { set, template: template.request, templateConnection: template.connection, metrics: parsed.metrics }
}

export interface SetTarget {
  target: QueryTarget
  overrides: TargetOverrides
  /** "Demo, config production": the configuration named even when it is the template's own. */
  label: string
}

/** Where a set runs: `spec`, or the app connection its template's file connection is bound to. */
export function setTarget(registry: ConnectionRegistry, context: TestContext, inputs: SetRunInputs, spec?: RunTarget): SetTarget {
  const targets = caseTargets(registry, context, spec)
  const target = targets.targetOf({ connection: inputs.templateConnection })
  if (typeof target === 'string') throw new ExplorerError('validation', target.replace('this case', 'this set'))
  const connection = registry.get(target.key)
  const api = spec?.api ?? (inputs.template.api !== connection.api ? inputs.template.api : undefined)
  const label = targetText(connection.name, { api, config: spec?.config ?? inputs.template.options.config, version: spec?.version })
  return { target, overrides: targets.overrides, label }
}
