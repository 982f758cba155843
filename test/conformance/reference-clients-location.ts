import { existsSync } from 'node:fs'
import { resolve } from 'node:path'

/**
 * Where the official clients are, if anywhere. They cannot be installed from
 * a registry and must not be copied into the project, so a user's clone has
 * none: there the conformance suite skips, saying why and how to run it. CI
 * has them beside its clone and sets QE_REQUIRE_REFERENCE_CLIENTS=1, so a
 * suite that would skip there fails instead.
 */

const ROOT = resolve(__dirname, '../..')
export const CLIENTS_VARIABLE = 'QE_REFERENCE_CLIENTS'
export const REQUIRE_VARIABLE = 'QE_REQUIRE_REFERENCE_CLIENTS'
/** The files the suite runs: a folder without them is not the reference clients. */
const NEEDED = ['build-query-api-ts.sh', 'query-api-ts', 'query-api-python/spinque-query-api']

export type ClientsLocation = { found: true; dir: string } | { found: false; reason: string }

export function locateReferenceClients(env: NodeJS.ProcessEnv = process.env): ClientsLocation {
  const given = env[CLIENTS_VARIABLE]
  const dir = given ? resolve(given) : resolve(ROOT, '../shared/reference-clients')
  const missing = NEEDED.filter((name) => !existsSync(resolve(dir, name)))
  if (missing.length === 0) return { found: true, dir }
  const where = given ? `${CLIENTS_VARIABLE}=${given}` : '../shared/reference-clients (beside this clone)'
  return {
    found: false,
    reason:
      `the official clients are not at ${where}: ${missing.join(', ')} missing. ` +
      `To run the conformance tests, point ${CLIENTS_VARIABLE} at a copy of the reference-clients folder (${CLIENTS_VARIABLE}=DIR npm test).`,
  }
}

/** CI requires the suite: `.ci/run` sets this, and a missing folder then fails the run. */
export const referenceClientsRequired = (env: NodeJS.ProcessEnv = process.env) => env[REQUIRE_VARIABLE] === '1'
