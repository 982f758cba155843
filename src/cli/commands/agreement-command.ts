import { readWorkspaceFile } from '../../main/workspaces/workspace-files'
import { scaleOf, scaleText, type QuerySet } from '../../shared/relevance/query-set'
import { raterAgreement, type AgreementReport } from '../../shared/relevance/rater-agreement'
import { ratersOf, type Rater } from '../../shared/relevance/raters'
import { EXIT_OK, InputError, stringOption, type Command } from '../command'
import type { CliIo } from '../io'
import { withFlags } from '../flags'
import { writeJson } from '../terminal-io'
import { chooseSet, quotedList, ratersListed } from './eval-flags'
import { columns } from './eval-experiment-output'
import { figure } from './eval-output'
import { readWorkspaceArgument } from './workspace-arguments'

/**
 * `agreement <workspace.qxw.json>`: how far a query set's raters agree
 * (issue 35): per pair of raters percent agreement and Cohen's kappa
 * (unweighted, linear, quadratic), Fleiss' kappa, Krippendorff's alpha
 * (nominal, ordinal, interval) and each query's ordinal alpha, all from
 * raterAgreement, the Agreement view's own. docs/METRICS.md defines them.
 * A figure that is undefined is null (–), with why on standard error.
 */

/** How many of the queries with the lowest ordinal alpha the text lists. */
export const LOWEST_QUERIES = 10

export const agreementCommand: Command = {
  name: 'agreement',
  summary: "how far a query set's raters agree: Cohen's kappa per pair, Fleiss' kappa, Krippendorff's alpha",
  usage: '<workspace.qxw.json> [--set NAME] [--raters A,B] [--json]',
  ...withFlags([
    '<workspace.qxw.json>   the workspace file holding the query set ("sets")',
    {
      set: { type: 'string', value: 'NAME', help: "the query set (default: the file's only one; a file of several needs it)" },
      raters: { type: 'string', value: 'A,B', help: "only these raters' judgments, comma-separated (default: every rater's)" },
      json: {
        type: 'boolean',
        help: [
          'print one JSON object: raters [{ rater, kind, judgments }], pairs [{ a, b, n,',
          'agreement (a share, 0 to 1), kappa, kappaLinear, kappaQuadratic }], fleiss { n,',
          'raters (per item), kappa }, alpha { n, nominal, ordinal, interval }, queries',
          "[{ id, n, alpha (ordinal) }] of each query with judgments; n counts items, alpha's",
          'and the queries\' those with two grades or more',
        ],
      },
    },
    'A figure that is undefined (fewer than two raters, every grade the same, no item both graded) is',
    'null in the JSON and – in the tables, with the reason on standard error; the exit status is still 0.',
    "Fleiss' kappa is over the items graded by the most common number of raters (ties to the larger).",
    'Exit status: 0 done, 2 bad input (file, set, rater, flag).',
  ]),
  positionals: { min: 1, max: 1 },
  async run({ positionals, values }, io) {
    const { workspace, fileName } = await readWorkspaceArgument(positionals[0]!, readWorkspaceFile)
    const set = chooseSet(workspace, stringOption(values, 'set'), fileName, { verb: 'report on', only: true })
    const raters = ratersChosen(set, stringOption(values, 'raters'))
    const kept = new Set(raters.map((rater) => rater.name))
    const judgments = set.judgments.filter((judgment) => kept.has(judgment.rater))
    const scale = scaleOf(set)
    const report = raterAgreement({ scale: scale.map((step) => step.grade), judgments, raters })
    // The set's order of queries, whatever the order of its judgments' lines.
    const order = new Map(set.queries.map((query, index) => [query.id, index]))
    report.queries.sort((x, y) => (order.get(x.id) ?? Infinity) - (order.get(y.id) ?? Infinity))
    if (values.json === true) writeJson(io.out, JSON.stringify(agreementJson(report), null, 2))
    else {
      io.out(`Agreement of "${set.name}" of ${fileName}: ${raters.length} rater${raters.length === 1 ? '' : 's'}, ${judgments.length} judgment${judgments.length === 1 ? '' : 's'}, scale ${scaleText(scale)}`)
      for (const line of agreementLines(report)) io.out(line)
    }
    for (const line of reasonLines(report)) io.err(line)
    return EXIT_OK
  },
}

/**
 * The set's raters, or those --raters names (in the set's order); a name the
 * set lacks is bad input naming its raters. The adjudicator is no rater here,
 * as in the window's Agreement part (set-agreement.ts): its grades settle
 * items, they are not a reading to agree with.
 */
export function ratersChosen(set: QuerySet, text: string | undefined): Rater[] {
  const all = ratersOf(set).filter((rater) => rater.kind !== 'adjudication')
  if (text === undefined) return all
  const names = [...new Set(text.split(',').map((name) => name.trim()).filter(Boolean))]
  if (names.length === 0) throw new InputError([`--raters: "${text}" names no rater: write names separated by commas, e.g. --raters alice,bob (${ratersListed(set)}).`])
  const known = new Set(all.map((rater) => rater.name))
  const unknown = names.filter((name) => !known.has(name))
  if (unknown.length > 0) {
    const which = unknown.length === 1 ? `"${unknown[0]}" is not a rater` : `${quotedList(unknown)} are not raters`
    throw new InputError([`--raters: ${which} of the set "${set.name}" (${ratersListed(set)}).`])
  }
  const chosen = new Set(names)
  return all.filter((rater) => chosen.has(rater.name))
}

/** The report as `--json` prints it: the figures only (the reasons go to standard error, the confusion matrices stay in the window). */
export function agreementJson(report: AgreementReport): unknown {
  return {
    raters: report.raters.map(({ rater, kind, judgments }) => ({ rater, kind, judgments })),
    pairs: report.pairs.map(({ a, b, n, agreement, kappa, kappaLinear, kappaQuadratic }) => ({ a, b, n, agreement, kappa, kappaLinear, kappaQuadratic })),
    fleiss: { n: report.fleiss.n, raters: report.fleiss.raters, kappa: report.fleiss.kappa },
    alpha: { n: report.alpha.n, nominal: report.alpha.nominal, ordinal: report.alpha.ordinal, interval: report.alpha.interval },
    queries: report.queries.map(({ id, n, alpha }) => ({ id, n, alpha })),
  }
}

const percent = (share: number | null) => (share === null ? '–' : `${(share * 100).toFixed(1)}%`)
const items = (n: number) => `${n} item${n === 1 ? '' : 's'}`

/** The tables and figures, as the text prints them. */
export function agreementLines(report: AgreementReport): string[] {
  const lines = ['', ...columns([['rater', 'kind', 'judgments'], ...report.raters.map((rater) => [rater.rater, rater.kind ?? '–', String(rater.judgments)])], 2)]
  lines.push('')
  if (report.pairs.length === 0) lines.push('No pair of raters.')
  else {
    const header = ['a', 'b', 'n', 'agreement', 'kappa', 'linear', 'quadratic']
    const rows = report.pairs.map((pair) => [pair.a, pair.b, String(pair.n), percent(pair.agreement), figure(pair.kappa), figure(pair.kappaLinear), figure(pair.kappaQuadratic)])
    lines.push(...columns([header, ...rows], 2))
  }
  const { fleiss, alpha } = report
  lines.push('')
  lines.push(
    fleiss.raters === null
      ? `Fleiss' kappa ${figure(fleiss.kappa)} (no item graded by two raters or more)`
      : `Fleiss' kappa ${figure(fleiss.kappa)} over the ${items(fleiss.n)} graded by ${fleiss.raters} raters each (the most common number)`,
  )
  lines.push(`Krippendorff's alpha over the ${items(alpha.n)} with two grades or more: nominal ${figure(alpha.nominal)}, ordinal ${figure(alpha.ordinal)}, interval ${figure(alpha.interval)}`)
  const figured = report.queries.filter((query) => query.alpha !== null)
  lines.push('')
  if (figured.length === 0) lines.push('No query has an ordinal alpha of its own.')
  else {
    const lowest = [...figured].sort((x, y) => x.alpha! - y.alpha!).slice(0, LOWEST_QUERIES)
    const of = `of the ${figured.length} quer${figured.length === 1 ? 'y' : 'ies'} with one`
    lines.push(lowest.length === 1 ? `The query with the lowest ordinal alpha (${of}):` : `The ${lowest.length} queries with the lowest ordinal alpha (${of}):`)
    lines.push(...columns([['query', 'n', 'alpha'], ...lowest.map((query) => [query.id, String(query.n), figure(query.alpha)])], 1))
  }
  return lines
}

/** Why each null figure is null, a line per reason, named as the JSON names the figure. */
export function reasonLines(report: AgreementReport): string[] {
  const lines: string[] = []
  const grouped = (names: string[]) => (names.length === 1 ? `${names[0]} is` : `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]} are`)
  // Figures null for one reason share its line: "pair alice/bob: kappa, kappaLinear and kappaQuadratic are null: …".
  const byReason = (reasons: Partial<Record<string, string>>, line: string, prefix: string) => {
    const names = new Map<string, string[]>()
    for (const [name, reason] of Object.entries(reasons)) if (reason !== undefined) names.set(reason, [...(names.get(reason) ?? []), `${prefix}${name}`])
    for (const [reason, which] of names) lines.push(`${line}${grouped(which)} null: ${reason}.`)
  }
  for (const pair of report.pairs) byReason(pair.reasons, `pair ${pair.a}/${pair.b}: `, '')
  if (report.fleiss.kappa === null && report.fleiss.reason) lines.push(`fleiss.kappa is null: ${report.fleiss.reason}.`)
  byReason(report.alpha.reasons, '', 'alpha.')
  const queries = new Map<string, string[]>()
  for (const query of report.queries) if (query.alpha === null && query.reason) queries.set(query.reason, [...(queries.get(query.reason) ?? []), query.id])
  for (const [reason, ids] of queries) {
    const shown = ids.slice(0, 10).join(', ') + (ids.length > 10 ? `, … (${ids.length - 10} more)` : '')
    lines.push(`queries[].alpha is null for ${ids.length} quer${ids.length === 1 ? 'y' : 'ies'} (${shown}): ${reason}.`)
  }
  return lines
}
