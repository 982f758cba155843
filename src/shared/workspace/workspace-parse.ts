import type { z } from 'zod'
import { namedIssues } from '../capped-issues'
import { nestedDeeperThan } from '../json-depth'
import { formatPath } from '../query/request-json'
import { WORKSPACE_FORMAT, WORKSPACE_VERSION, WorkspaceSchema, type ParseWorkspaceResult, type Workspace } from './workspace-schema'
import { secretLookingField } from './workspace-secrets'

/** Reading a workspace file's text: JSON, then the format and version, depth, secret-looking names, the schema, in that order. */

function own(value: unknown, key: string | number): unknown {
  return value !== null && typeof value === 'object' && Object.hasOwn(value, key) ? (value as Record<string, unknown>)[key] : undefined
}

/**
 * zod's records leave out a `__proto__` key, but to the URL codec it is an
 * ordinary parameter name (see records.ts), so it would be lost on the next
 * save. Puts such records back as they were read, in their order; returns the
 * path of a `__proto__` whose value is not text.
 */
export function keepProtoNames(workspace: Workspace, raw: unknown): (string | number)[] | null {
  const queries = own(raw, 'queries')
  for (const [q, query] of workspace.queries.entries()) {
    const steps = own(own(own(queries, q), 'request'), 'steps')
    for (const [s, step] of query.request.steps.entries()) {
      for (const name of ['parameters', 'context'] as const) {
        const record = own(own(steps, s), name)
        if (record === undefined || !Object.hasOwn(record as object, '__proto__')) continue
        const path = ['queries', q, 'request', 'steps', s, name, '__proto__']
        if (typeof own(record, '__proto__') !== 'string') return path
        ;(step as Record<string, unknown>)[name] = Object.fromEntries(Object.entries(record as Record<string, string>))
      }
    }
    // The same for the options this client does not know: `__proto__` is a name there too.
    const extra = own(own(own(own(queries, q), 'request'), 'options'), 'extra')
    if (extra !== undefined && Object.hasOwn(extra as object, '__proto__') && query.request.options.extra) {
      if (typeof own(extra, '__proto__') !== 'string') return ['queries', q, 'request', 'options', 'extra', '__proto__']
      query.request.options.extra = Object.fromEntries(Object.entries(extra as Record<string, string>))
    }
  }
  return null
}

export function describeIssue(issue: z.core.$ZodIssue): string {
  const path = issue.path.filter((part): part is string | number => typeof part !== 'symbol')
  const field = formatPath(path) || '(file)'
  if (issue.code === 'invalid_type' && /received undefined$/.test(issue.message)) return `${field}: is missing (expected ${issue.expected})`
  return `${field}: ${issue.message.replace(/^Invalid input: /, '')}`
}

/** Reads a workspace file's text; `fileName` is only for the messages. */
export function parseWorkspace(text: string, fileName: string): ParseWorkspaceResult {
  const fail = (what: string): ParseWorkspaceResult => ({ ok: false, message: `"${fileName}" ${what}` })
  let input: unknown
  try {
    input = JSON.parse(text.startsWith('\uFEFF') ? text.slice(1) : text)
  } catch (error) {
    return fail(`is not valid JSON: ${(error as Error).message}.`)
  }
  if (input === null || typeof input !== 'object' || Array.isArray(input)) {
    return fail(`is not a Query Explorer workspace: it holds no JSON object.`)
  }
  const top = input as Record<string, unknown>
  if (top.format !== WORKSPACE_FORMAT) {
    const found = top.format === undefined ? 'it has no "format"' : `its "format" is ${JSON.stringify(top.format)}`
    return fail(`is not a Query Explorer workspace: ${found}, expected "${WORKSPACE_FORMAT}".`)
  }
  if (typeof top.version === 'number' && top.version > WORKSPACE_VERSION) {
    return fail(
      `was written by a newer Query Explorer (workspace format version ${top.version}); this version reads version ${WORKSPACE_VERSION}. Update the app to open it.`,
    )
  }
  if (nestedDeeperThan(input)) return fail('nests its values too deeply to be a workspace.')
  const secret = secretLookingField(input)
  if (secret) {
    return fail(
      `holds a field that looks like a secret or a token (${formatPath(secret)}); a workspace file never holds one. Remove the field and keep the secret in the app's keychain.`,
    )
  }
  const parsed = WorkspaceSchema.safeParse(input)
  if (!parsed.success) {
    const { named, more: rest } = namedIssues(parsed.error.issues, 5)
    const shown = named.map(describeIssue).join('; ')
    const more = rest > 0 ? ` (and ${rest.toLocaleString('en-US')} more)` : ''
    return fail(`is not a valid workspace: ${shown}${more}.`)
  }
  const badProto = keepProtoNames(parsed.data, input)
  if (badProto) return fail(`is not a valid workspace: ${formatPath(badProto)}: expected string.`)
  return { ok: true, workspace: parsed.data }
}

