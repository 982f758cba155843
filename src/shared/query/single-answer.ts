import type { CountResponse, OptionsResponse, ResultObject, StatisticsResponse } from '../responses'
import type { QueryRequest } from './model'

/** The answer of a response type that is not a page of rows, with what it was asked for. */
export type SingleAnswer =
  | { type: 'count'; body: CountResponse }
  | { type: 'statistics'; body: StatisticsResponse }
  | { type: 'resultitem'; body: ResultObject; rank: number; column: number }
  | { type: 'options'; body: OptionsResponse; facet: string; multiselect: boolean }

/** The answer to `built` (a request of a type that is not rows), tagged with its type and what it asked for. */
export function singleAnswer(built: QueryRequest, body: unknown): SingleAnswer {
  switch (built.responseType) {
    case 'count':
      return { type: 'count', body: body as CountResponse }
    case 'resultitem':
      return { type: 'resultitem', body: body as ResultObject, rank: built.options.rank ?? 1, column: built.options.column ?? 1 }
    case 'options':
      return { type: 'options', body: body as OptionsResponse, facet: built.facet ?? '', multiselect: built.options.multiselect ?? false }
    default:
      return { type: 'statistics', body: body as StatisticsResponse }
  }
}
