type PostTask = (work: () => void, options: { priority: 'background' }) => Promise<unknown>

/**
 * Runs `work` after the next frame, behind the tasks that frame queued (a
 * timer set in it runs first, the next frame may too): at background
 * priority where the browser has a task scheduler. For work a new answer
 * brings that is not the answer itself, so the rows are drawn first.
 */
export function afterNextFrame(work: () => void): void {
  requestAnimationFrame(() => {
    const scheduler = (globalThis as { scheduler?: { postTask?: PostTask } }).scheduler
    if (scheduler?.postTask) void scheduler.postTask(work, { priority: 'background' }).catch(() => undefined)
    else setTimeout(work, 0)
  })
}
