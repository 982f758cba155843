import { randomUUID } from 'node:crypto'
import { formatBytes } from '../../shared/byte-size'
import { ExplorerError } from '../../shared/ipc/errors'
import type { Logger } from '../logging/logger'
import { DataStore } from '../storage/data-store/data-store'
import type { WorkspaceFileThread } from './file-thread'
import { UNNAMED_RATER } from '../../shared/relevance/raters'
import { RatingIndex, type Rating } from './rating-index'
import type { JournalMark, SessionState } from './session-file'
import { MAX_WORKSPACE_BYTES } from './workspace-files'

/**
 * A pause in rating this long writes the session file: ratings are durable in
 * the journal before that, and the write, though it runs on the file thread,
 * serializes the whole document (~0.9 s at 200,000 judgments), so it waits for a real pause.
 */
const SESSION_FLUSH_MS = 30_000

/** What the ratings need of the session. */
export interface RatingsAccess {
  dataDir: string
  log: Logger
  thread: WorkspaceFileThread
  state(): SessionState
  setState(state: SessionState): void
  /** Writes session.json now (in the session's turn order: the caller is in a turn, or makes one). */
  persist(): Promise<void>
  /** Runs work in the session's turn. */
  serial<T>(work: () => Promise<T>): Promise<T>
}

/**
 * The open document's ratings: each taken through the index by (query,
 * item), appended to the data folder's ratings journal before its reply (so
 * it survives a crash), and written to session.json after a pause; at start,
 * the journal's ratings newer than session.json are taken back.
 */
export class SessionRatings {
  private index = new RatingIndex()
  /** The bytes ratings added to the document since its text was last made, about: the file bound is kept without serializing. */
  private ratedBytes = 0
  private flushTimer: NodeJS.Timeout | null = null
  private data: DataStore | null
  private readonly ownsData: boolean

  constructor(
    private readonly session: RatingsAccess,
    data: DataStore | undefined,
  ) {
    this.data = data ?? null
    this.ownsData = !data
  }

  /**
   * A rating of one judgment (`grade` null clears it): checked on its own,
   * taken into the document through the index, and appended to the ratings
   * journal before the reply. The caller is in the session's turn.
   */
  async rate(rating: Rating): Promise<void> {
    const state = this.session.state()
    const { workspace, added, set } = this.index.rated(state.workspace, rating)
    if (workspace === state.workspace) return
    const refused = this.refusedSize(state.documentBytes, added)
    if (refused) throw new ExplorerError('validation', refused)
    // The file thread follows by the rating, not by the set.
    if (set) this.session.thread.rated(set.from, set.to, rating)
    await this.keep(workspace, added, [rating])
  }

  /**
   * Many ratings of one set at once (an LLM judge's grades as they come):
   * taken through the index on one copy of the set's judgments, journaled in
   * one transaction before the reply, as one rating is. Each is checked on its
   * own: the errors, at their places (null: taken). The caller is in the session's turn.
   */
  async rateMany(setName: string, ratings: readonly Rating[]): Promise<(string | null)[]> {
    const state = this.session.state()
    const { workspace, added, set, taken, errors } = this.index.ratedMany(state.workspace, setName, ratings)
    if (workspace === state.workspace) return errors
    const refused = this.refusedSize(state.documentBytes, added)
    if (refused) return ratings.map(() => refused)
    if (set) this.session.thread.ratedMany(set.from, set.to, taken)
    await this.keep(workspace, added, taken)
    return errors
  }

  /**
   * Why ratings adding `added` bytes are refused (the file bound), or null.
   * When refused, the index (which moved with the refused document) is made
   * again from the one that stands.
   */
  private refusedSize(documentBytes: number, added: number): string | null {
    const bytes = documentBytes + this.ratedBytes + added
    if (bytes <= MAX_WORKSPACE_BYTES) return null
    this.index = new RatingIndex()
    return `This change would make the workspace ${formatBytes(bytes)}, more than the ${formatBytes(MAX_WORKSPACE_BYTES)} a workspace file may hold; it was not made.`
  }

  /** The document with the ratings taken: journaled (one transaction) before the caller replies, then written to session.json after a pause. */
  private async keep(workspace: SessionState['workspace'], added: number, ratings: readonly Rating[]): Promise<void> {
    const journal = await this.journalMark()
    let seq: number | null = null
    const at = new Date().toISOString()
    try {
      seq = await this.dataStore().call(
        'ratings.addMany',
        journal.key,
        ratings.map((rating) => ({ set: rating.set, query: rating.query, item: rating.item, grade: rating.grade, rater: rating.rater, at, explanation: rating.explanation, promptDigest: rating.promptDigest })),
      )
    } catch (error) {
      // A database that cannot be written (damaged, from a newer app) costs speed, never a rating: session.json is written now instead.
      this.session.log.error('the ratings journal could not be written; the session file is written for these ratings', error)
    }
    this.session.setState({ ...this.session.state(), workspace, stale: true, journal: { key: journal.key, seq: seq ?? journal.seq } })
    this.ratedBytes += added
    if (seq === null) await this.session.persist()
    else this.scheduleFlush()
  }

  /** The document's text was made again (a check, a save, a session write): the ratings' estimate starts from it. */
  madeText(): void {
    this.ratedBytes = 0
  }

  /** Once session.json holds the document's ratings, the journal lets them go. */
  async written(mark: JournalMark | undefined): Promise<void> {
    if (mark && mark.seq > 0 && this.data) {
      await this.data.call('ratings.trimTo', mark.key, mark.seq).catch((error: unknown) => this.session.log.error('the ratings journal could not be trimmed', error))
    }
  }

  /** A journal key for a document first written (what session.json names). */
  withJournalKey(state: SessionState): SessionState {
    return state.journal ? state : { ...state, journal: { key: randomUUID(), seq: 0 } }
  }

  /** Stops the pending flush; lets go of the database when the session opened it. */
  stopFlush(): void {
    if (this.flushTimer) clearTimeout(this.flushTimer)
    this.flushTimer = null
  }

  async close(): Promise<void> {
    this.stopFlush()
    if (this.ownsData) await this.data?.close()
  }

  /**
   * At start: the ratings journaled after the session file's document are
   * taken into it again (a crash came before the session was written), and
   * the workspace says it has unsaved changes. A rating that no longer
   * applies (its set or query gone) is left out, said in the log.
   */
  async replay(notice?: (text: string) => void): Promise<void> {
    const mark = this.session.state().journal
    if (!mark) return
    let entries
    try {
      entries = await this.dataStore().call('ratings.since', mark.key, mark.seq)
    } catch (error) {
      const text = `Ratings made after the workspace session was last written could not be read back: ${(error as Error).message}`
      this.session.log.error(text)
      notice?.(text)
      return
    }
    if (entries.length === 0) return
    let workspace = this.session.state().workspace
    let skipped = 0
    for (const entry of entries) {
      const rating = {
        set: entry.set,
        query: entry.query,
        item: entry.item,
        grade: entry.grade,
        rater: entry.rater ?? UNNAMED_RATER,
        explanation: entry.explanation,
        promptDigest: entry.promptDigest,
      }
      try {
        const taken = this.index.rated(workspace, rating)
        if (taken.set) this.session.thread.rated(taken.set.from, taken.set.to, rating)
        workspace = taken.workspace
      } catch {
        skipped++
      }
    }
    if (skipped > 0) this.session.log.error(`${skipped} journaled rating(s) no longer apply to the workspace and were left out`)
    this.session.log.info(`${entries.length - skipped} rating(s) made after the session was last written were taken back from the journal`)
    this.session.setState({ ...this.session.state(), workspace, stale: true, journal: { key: mark.key, seq: entries[entries.length - 1]!.seq } })
  }

  /** The document's journal key, written to session.json before its first rating is journaled, so a restart finds its ratings. */
  private async journalMark(): Promise<JournalMark> {
    if (!this.session.state().journal) await this.session.persist()
    // A session file that could not be written is logged (persist): the rating still goes to the journal.
    const state = this.session.state()
    if (!state.journal) this.session.setState(this.withJournalKey(state))
    return this.session.state().journal!
  }

  private scheduleFlush(): void {
    if (this.flushTimer) clearTimeout(this.flushTimer)
    this.flushTimer = setTimeout(() => {
      this.flushTimer = null
      void this.session.serial(() => this.session.persist())
    }, SESSION_FLUSH_MS)
    // A pending write never keeps the process alive: the journal holds the ratings.
    this.flushTimer.unref()
  }

  private dataStore(): DataStore {
    this.data ??= new DataStore(this.session.dataDir)
    return this.data
  }
}
