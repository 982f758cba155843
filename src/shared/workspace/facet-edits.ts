import { ExplorerError } from '../ipc/errors'
import { FACET_FIELD_LABELS, facetDeclarationProblems, MAX_FACET_DECLARATIONS, type FacetDeclaration } from '../query/facet-declaration'
import type { Workspace } from './workspace-file'

/**
 * The facets declared by hand on one of the file's connections, replaced as a
 * whole: the panel sends the list as it should be after an Add, Edit or
 * Remove. Refused, with the facet and the field named, when a declaration
 * breaks a rule, so the document never holds one a save would refuse.
 */
export function withFacetDeclarations(workspace: Workspace, fileConnectionId: string, facets: readonly FacetDeclaration[]): Workspace {
  const connection = workspace.connections.find((each) => each.id === fileConnectionId)
  if (!connection) throw new ExplorerError('not_found', `The workspace has no connection "${fileConnectionId}".`)
  if (facets.length > MAX_FACET_DECLARATIONS) {
    throw new ExplorerError('validation', `Facets: a connection holds at most ${MAX_FACET_DECLARATIONS} declared facets; this list has ${facets.length}.`)
  }
  const problems = facets.flatMap((facet, index) =>
    facetDeclarationProblems(facets, index).map((problem) => ({
      field: `facets[${index}].${problem.field}`,
      message: `Facet "${facet.options}", ${FACET_FIELD_LABELS[problem.field]}: ${problem.message}.`,
    })),
  )
  if (problems.length > 0) throw new ExplorerError('validation', problems.map((problem) => problem.message).join(' '), { problems })
  const { facets: _previous, ...rest } = connection
  const next = facets.length > 0 ? { ...rest, facets: [...facets] } : rest
  return { ...workspace, connections: workspace.connections.map((each) => (each === connection ? next : each)) }
}
