/**
 * How long each part of the app's start took, written to the log as one
 * line: the bench reads it to say where `npm start` → `Open:` goes, and a
 * user who finds the start slow can see which part was slow. Parts that run
 * at once each count from their own start, so they may add up to more than
 * the whole.
 */
export interface StartupMarks {
  /** Times `work` as the part `name`, whether it ends well or not. */
  time<T>(name: string, work: () => Promise<T>): Promise<T>
  /** "start-up 812 ms: keychain 40 ms, demo service 760 ms, …" */
  summary(): string
}

export function startupMarks(now: () => number = () => performance.now()): StartupMarks {
  const began = now()
  const parts: { name: string; ms: number }[] = []
  return {
    async time(name, work) {
      const started = now()
      try {
        return await work()
      } finally {
        parts.push({ name, ms: Math.round(now() - started) })
      }
    },
    summary() {
      const list = parts.map((part) => `${part.name} ${part.ms} ms`).join(', ')
      return `start-up ${Math.round(now() - began)} ms${list ? `: ${list}` : ''}`
    },
  }
}
