/** One figure of `npm run bench`. */
export interface BenchResult {
  name: string
  value: number
  unit: string
  note?: string
}
