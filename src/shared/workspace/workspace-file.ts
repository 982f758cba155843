/**
 * The workspace file (`.qxw.json`): named saved queries and the connections
 * they run on, as plain JSON meant to be committed to git and shared. So it is
 * written byte-stable (the same workspace always gives the same text) and read
 * as hostile input: a file from someone else is checked field by field, and a
 * field that looks like a secret or a token is refused rather than ignored,
 * because such a file must not travel around with a credential in it.
 */

export * from './workspace-schema'
export { secretLookingField } from './workspace-secrets'
export { parseWorkspace } from './workspace-parse'
export { layoutOf, serializeParsed, serializeWorkspace, type WorkspaceLayout } from './workspace-text'
