import { useRememberedFold } from '../../composables/useRememberedFold'

/** At this width and below, the results need the room: the panel starts folded. */
export const NARROW_QUERY = '(max-width: 1100px)'
/**
 * Whether the statistics and facets panel is open. It is remembered apart for
 * narrow and wide windows, as the reasons to fold it differ: on a laptop the
 * grid needs the width, on a large screen there is room for both.
 */
export function useInsightsPanel() {
  const { open, toggle } = useRememberedFold({ query: NARROW_QUERY, storageKey: 'query-explorer.insights', modes: ['narrow', 'wide'] })
  return { open, toggle }
}
