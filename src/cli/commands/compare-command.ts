import { runComparison, type CompareSideTarget } from '../../main/compare/run-comparison'
import { readWorkspaceFile } from '../../main/workspaces/workspace-files'
import { COMPARE_DEPTHS, labelsByKey, type CompareDepth } from '../../shared/compare/comparison'
import { coverageOf, overlapText, overWhat, sharedCount } from '../../shared/compare/figure-text'
import { moveText } from '../../shared/compare/rank-metrics'
import type { CompareSide, Comparison } from '../../shared/ipc/contract'
import { ExplorerError } from '../../shared/ipc/errors'
import type { TargetOverrides } from '../../shared/test-cases/case-request'
import type { SavedQuery, Workspace } from '../../shared/workspace/workspace-file'
import { EXIT_OK, InputError, stringOption, type Command, type OptionValues } from '../command'
import { describedAs, withFlags } from '../flags'
import { chooseConnection, openRunTarget, type RunTarget, warmedUp } from '../run-target'
import { writeJson } from '../terminal-io'
import { EXIT_FAILED } from './test-command'
import { CONNECTION_FLAGS, CONNECTION_NOTES, connectionFlags, maxWaitOf, readWorkspaceArgument, targetText } from './workspace-arguments'

const SIDE_KEYS = ['connection', 'config', 'api', 'version'] as const
type SideKey = (typeof SIDE_KEYS)[number]
export type SideSpec = Partial<Record<SideKey, string>>

/** `config=production,api=places`: a side as comma-separated key=value pairs; bad input names the flag and the rule. */
export function parseSideSpec(flag: string, text: string): SideSpec {
  const spec: SideSpec = {}
  for (const part of text.split(',').map((each) => each.trim()).filter(Boolean)) {
    const at = part.indexOf('=')
    const key = at < 0 ? part : part.slice(0, at).trim()
    const value = at < 0 ? '' : part.slice(at + 1).trim()
    if (!(SIDE_KEYS as readonly string[]).includes(key)) {
      throw new InputError([`--${flag}: "${key}" is not a side setting; write key=value pairs separated by commas, keys: ${SIDE_KEYS.join(', ')} (e.g. --${flag} config=production).`])
    }
    if (at < 0 || value === '') throw new InputError([`--${flag}: "${key}" needs a value, as in ${key}=NAME.`])
    if (spec[key as SideKey] !== undefined) throw new InputError([`--${flag}: "${key}" is given twice.`])
    spec[key as SideKey] = value
  }
  return spec
}

function depthOf(values: OptionValues): CompareDepth {
  const text = stringOption(values, 'depth')
  if (text === undefined) return 10
  const depth = COMPARE_DEPTHS.find((each) => String(each) === text.trim())
  if (depth === undefined) throw new InputError([`--depth: "${text}" is not one of ${COMPARE_DEPTHS.join(', ')}.`])
  return depth
}

function savedQuery(workspace: Workspace, name: string | undefined, fileName: string): SavedQuery {
  const names = workspace.queries.map((query) => `"${query.name}"`)
  const listed = names.length === 0 ? 'it has no saved queries' : `it has: ${names.slice(0, 20).join(', ')}${names.length > 20 ? ', …' : ''}`
  if (name === undefined) throw new InputError([`--query: name the saved query of ${fileName} to compare (${listed}).`])
  const found = workspace.queries.find((query) => query.name === name)
  if (!found) throw new InputError([`--query: "${name}" is not a saved query of ${fileName} (${listed}).`])
  return found
}

interface Side {
  /** The file connection's id. */
  connection: string
  overrides: TargetOverrides
}

const number = (value: number | null) => (value === null ? '–' : value.toLocaleString('en-US'))
const milliseconds = (value: number) => `${Math.round(value).toLocaleString('en-US')} ms`

function sideLine(which: 'A' | 'B', side: CompareSide): string {
  if (side.error !== null) return `  ${which}  ${side.label}: failed: ${side.error}`
  return `  ${which}  ${side.label}: ${side.status}, ${number(side.total)} results, ${milliseconds(side.durationMs)}`
}

/** The comparison as a person reads it: each side, the figures with what they mean, then the rank diff. */
export function comparisonText(query: string, fileName: string, result: Comparison): string[] {
  const k = result.depth
  const lines = [`Comparing "${query}" of ${fileName}, top ${k}`, sideLine('A', result.a), sideLine('B', result.b)]
  const figures = result.figures
  if (!figures) return lines
  const shared = sharedCount(result.changes)
  const coverage = coverageOf(result)
  // A side that returned fewer than k is taken whole: the figures say what they are over.
  const over = coverage.note === null ? '' : `; over ${overWhat(coverage)}`
  const rows: [string, string, string][] = [
    [`overlap@${k}`, overlapText(figures.overlap, coverage), `items in both top ${k}s`],
    [`Jaccard@${k}`, figures.jaccard.toFixed(3), `shared items / all items of the two top ${k}s${over}`],
    ['RBO', figures.rbo.toFixed(3), `rank-biased overlap, p = 0.9, extrapolated: 1 the same ranking, 0 nothing shared${over}`],
    ["Kendall's tau", figures.kendallTau === null ? '–' : figures.kendallTau.toFixed(3), `agreement on the order of the ${shared} shared items, from -1 to 1`],
    ['total', `${number(result.a.total)} → ${number(result.b.total)}`, 'results of A and B'],
    ['duration', `${milliseconds(result.a.durationMs)} → ${milliseconds(result.b.durationMs)}`, 'each side, from the request to the last byte'],
  ]
  const width = [Math.max(...rows.map((row) => row[0].length)), Math.max(...rows.map((row) => row[1].length))]
  lines.push('', ...rows.map(([name, value, meaning]) => `  ${name.padEnd(width[0]!)}  ${value.padEnd(width[1]!)}  ${meaning}`))
  const labels = labelsByKey(result)
  lines.push('', `Rank changes (top ${k})`, `  ${'A'.padStart(3)}  ${'B'.padStart(3)}  ${'move'.padEnd(11)}  item`)
  for (const change of result.changes) {
    const label = labels.get(change.key)
    const item = label && label !== change.key ? `${change.key} ${label}` : change.key
    lines.push(`  ${String(change.rankA ?? '–').padStart(3)}  ${String(change.rankB ?? '–').padStart(3)}  ${moveText(change.move).padEnd(11)}  ${item}`)
  }
  return lines
}

/** The comparison for a program: the reply of `compare:run`, with the query, and each change's label and move in words. */
function comparisonJson(query: string, fileName: string, result: Comparison): unknown {
  const labels = labelsByKey(result)
  return {
    workspace: fileName,
    query,
    ...result,
    // How many items each side returned within the depth, and the most they could share.
    coverage: result.figures ? coverageOf(result) : null,
    changes: result.changes.map((change) => ({ ...change, label: labels.get(change.key) ?? change.key, moveText: moveText(change.move) })),
  }
}

/**
 * `compare <workspace.qxw.json> --query NAME --a SPEC --b SPEC`: one saved
 * query on two targets at once, through the app's own runner and metrics;
 * prints the figures and the rank diff (or JSON), and exits 0 when both
 * sides answered, 1 when one failed, 2 on bad input.
 */
export const compareCommand: Command = {
  name: 'compare',
  summary: 'run a saved query on two targets (configs, APIs, connections) and print the rank diff and figures',
  usage: '<workspace.qxw.json> --query NAME --a SPEC --b SPEC [--depth 10|50|100] [--json]',
  ...withFlags([
    '<workspace.qxw.json>   the workspace file holding the query',
    {
      query: { type: 'string', value: 'NAME', help: 'the saved query to compare' },
      a: {
        type: 'string',
        term: '--a SPEC, --b SPEC',
        help: [
          'each side as comma-separated key=value pairs: connection (a connection of',
          "the file, by name or id; default the query's own), config, api, version;",
          'e.g. --a config=default --b config=production',
        ],
      },
      b: { type: 'string' },
      depth: { type: 'string', value: 'N', help: `how many top results to compare: ${COMPARE_DEPTHS.join(', ')} (default 10)` },
      json: { type: 'boolean', help: 'print the comparison as JSON' },
    },
    describedAs(CONNECTION_FLAGS, {
      connection: "both sides' connection, by name or id (default: the query's own)",
      config: 'both sides use this configuration, unless a side names one',
      api: 'both sides use this API, unless a side names one',
    }),
    ...CONNECTION_NOTES,
    'The URL, workspace and client ID flags apply to every connection the sides use; two sides on',
    'one connection share its token.',
    'Exit status: 0 both sides answered, 1 a side failed, 2 bad input (file, query, side, connection, secret).',
  ]),
  positionals: { min: 1, max: 1 },
  async run({ positionals, values }, io) {
    const { workspace, fileName } = await readWorkspaceArgument(positionals[0]!, readWorkspaceFile)
    const query = savedQuery(workspace, stringOption(values, 'query'), fileName)
    const depth = depthOf(values)
    const flags = connectionFlags(values)
    const maxWait = maxWaitOf(values)
    const sideOf = (flag: 'a' | 'b'): Side => {
      const spec = parseSideSpec(flag, stringOption(values, flag) ?? '')
      const name = spec.connection ?? flags.connection
      const connection = name === undefined ? query.connection : chooseConnection(workspace, name, fileName).id
      if (!workspace.connections.some((each) => each.id === connection)) throw new InputError([`--query: "${query.name}" runs on no connection of ${fileName}.`])
      const version = spec.version
      if (version !== undefined && !/^\d+(\.\d+)*$/.test(version)) throw new InputError([`--${flag}: version "${version}" is not a version number such as 2 or 1.5.`])
      return { connection, overrides: { config: spec.config ?? stringOption(values, 'config'), api: spec.api ?? stringOption(values, 'api'), version } }
    }
    const sides = { a: sideOf('a'), b: sideOf('b') }

    // One run target (runner, token, maybe the in-process demo) per connection the sides use.
    const targets = new Map<string, RunTarget>()
    const json = values.json === true
    const say = (line: string) => (json ? io.err(line) : io.out(line))
    try {
      for (const side of [sides.a, sides.b]) {
        if (targets.has(side.connection)) continue
        const target = await openRunTarget(workspace, { ...flags, connection: side.connection }, io.env ?? process.env, fileName, io.clock, io.secrets)
        targets.set(side.connection, target)
        await warmedUp(target, say, maxWait)
      }
      const specOf = (side: Side): CompareSideTarget => {
        const target = targets.get(side.connection)!
        const shown = { ...side.overrides, config: side.overrides.config ?? query.request.options.config }
        const overrides = { ...side.overrides, workspace: target.connection.workspace }
        return { runner: target.runner, target: target.target, overrides, label: targetText(target.label, shown) }
      }
      let result: Comparison
      try {
        result = await runComparison({ requestId: 'cli-compare', request: query.request, depth, a: specOf(sides.a), b: specOf(sides.b) })
      } catch (error) {
        if (error instanceof ExplorerError && error.code === 'validation') throw new InputError([`--query: "${query.name}" cannot be sent: ${error.message}`])
        throw error
      }
      if (json) writeJson(io.out, JSON.stringify(comparisonJson(query.name, fileName, result), null, 2))
      else for (const line of comparisonText(query.name, fileName, result)) io.out(line)
      return result.a.error === null && result.b.error === null ? EXIT_OK : EXIT_FAILED
    } finally {
      for (const target of targets.values()) await target.close()
    }
  },
}
