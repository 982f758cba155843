import { MAX_WORKSPACE_BYTES } from '../../main/workspaces/workspace-files'
import { formatBytes } from '../../shared/byte-size'
import { readRequestJson } from '../../shared/query/request-json'
import { buildUrl, parseUrl } from '../../shared/query/url'
import { requestWarnings, validateRequest } from '../../shared/query/validate'
import { EXIT_OK, InputError, problemLines, stringOption, type Command } from '../command'
import { InputTooLarge } from '../io'
import { withFlags } from '../flags'
import { checkBase } from './base'
import { EMPTY_VALUES_FLAG } from './parse-command'

/** A request as JSON is one saved query of a workspace file: no larger than a whole workspace file may be. */
const MAX_REQUEST_FILE_BYTES = MAX_WORKSPACE_BYTES

/**
 * `url <file.json|-> --base <query_url>`: the request model in, its URL out.
 * The input may carry `base` itself (as `parse` prints it), so
 * `query-explorer parse <url> | query-explorer url -` gives the URL back.
 */
export const urlCommand: Command = {
  name: 'url',
  summary: 'print the Query API URL of a request given as JSON',
  usage: '<file.json|-> [--base <query_url>]',
  ...withFlags([
    '<file.json|->          the request model as JSON; - reads standard input',
    { base: { type: 'string', value: '<query_url>', help: 'the query URL, e.g. https://query.example.com (overrides "base" in the JSON)' } },
    EMPTY_VALUES_FLAG,
  ]),
  positionals: { min: 1, max: 1 },
  async run({ positionals, values }, io) {
    const source = positionals[0]!
    let text: string
    try {
      text = await io.readInput(source, MAX_REQUEST_FILE_BYTES)
    } catch (error) {
      if (error instanceof InputTooLarge) {
        throw new InputError([`${source}: the request holds more than ${formatBytes(MAX_REQUEST_FILE_BYTES)}, more than a request file may (a request is one saved query of a workspace file, which holds at most that).`])
      }
      throw new InputError([`${source}: cannot read the request (${(error as Error).message})`])
    }
    const read = readRequestJson(text, { withBase: true })
    if (!read.ok) throw new InputError(problemLines(read.problems))
    const base = stringOption(values, 'base') ?? read.base
    if (base === undefined) throw new InputError(['--base: the query URL is required, e.g. --base https://query.example.com'])
    const baseProblem = checkBase(base)
    if (baseProblem) throw new InputError([`--base: ${baseProblem}`])
    const problems = validateRequest(read.request, { allowEmptyValues: values['allow-empty-values'] === true })
    if (problems.length > 0) throw new InputError(problemLines(problems))
    // Sent as the official clients send it, but not as the seed writes it: said on stderr, the output stays the model.
    for (const line of problemLines(requestWarnings(read.request))) io.err(`warning: ${line}`)

    const url = buildUrl(base, read.request)
    // A base whose path ends in a number reads back as the version segment:
    // refuse to print a URL that says something else than the input.
    const back = parseUrl(url)
    if (!back.ok || back.value.request.version !== read.request.version) {
      throw new InputError([`--base: "${base}" ends in a segment that reads as a version; the URL would not mean this request`])
    }
    io.out(url)
    return EXIT_OK
  },
}
