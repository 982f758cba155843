/** The value at a fraction of the sorted samples (0.5 median, 0.99 p99): nearest rank, no interpolation. */
export function percentile(values: readonly number[], fraction: number): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * fraction))] ?? 0
}

export function median(values: readonly number[]): number {
  return percentile(values, 0.5)
}
