import { parseUrl } from '../../shared/query/url'
import { requestWarnings, validateRequest } from '../../shared/query/validate'
import { EXIT_OK, InputError, problemLines, type Command } from '../command'
import { withFlags, type Flags } from '../flags'
import { writeJson } from '../terminal-io'

/** The flag of the commands that read a request (parse, url): the validation the app applies to a server that allows empty values. */
export const EMPTY_VALUES_FLAG = {
  'allow-empty-values': { type: 'boolean', help: 'accept empty parameter values (only for a server that supports them)' },
} as const satisfies Flags

/** `parse <url>`: a pasted Query API URL in, `{base, ...request}` out as JSON. */
export const parseCommand: Command = {
  name: 'parse',
  summary: 'print the request model of a Query API URL as JSON (with "base")',
  usage: '<url>',
  ...withFlags(['<url>                  a Query API URL, e.g. https://q.example.com/4/world/api/places/e/search/p/query/paris/results', EMPTY_VALUES_FLAG]),
  positionals: { min: 1, max: 1 },
  async run({ positionals, values }, io) {
    const parsed = parseUrl(positionals[0]!)
    if (!parsed.ok) throw new InputError([`url segment "${parsed.error.segment}": ${parsed.error.message}`])
    const { base, request } = parsed.value
    const problems = validateRequest(request, { allowEmptyValues: values['allow-empty-values'] === true })
    if (problems.length > 0) throw new InputError(problemLines(problems))
    // Sent as the official clients send it, but not as the seed writes it: said on stderr, the output stays the model.
    for (const line of problemLines(requestWarnings(request))) io.err(`warning: ${line}`)
    writeJson(io.out, JSON.stringify({ base, ...request }, null, 2))
    return EXIT_OK
  },
}
