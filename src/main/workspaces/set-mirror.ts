import type { Judgment, QuerySet } from '../../shared/relevance/query-set'
import type { Workspace } from '../../shared/workspace/workspace-file'
import { JUDGMENTS_PER_PART, type DocumentOnWire, type SetOnWire, type SetPart } from './file-thread-protocol'
import type { Rating } from './rating-index'

/** Where main's set stands in its line of versions: `version` ratings after the thread's copy was first made. */
interface Known {
  id: string
  version: number
}

/** The ratings of a set since the version the thread holds: ratings[i] makes version base + i + 1. */
interface Line {
  base: number
  ratings: Rating[]
}

/**
 * Main's record of which sets the workspace file thread holds, so that a
 * document crosses to it as cheaply as it can (file-thread-protocol.ts): a
 * set the thread has goes by id with the ratings taken since, only a new or
 * edited set goes in full. Sets are told apart by identity (the session
 * never changes one in place: an edit or a rating makes a new one), and a
 * rating's new set is tied to the one it came from (rated()).
 *
 * Handing a whole 200,000-judgment set to a thread costs main ~80 ms of
 * structured cloning (bench/workspace-files.ts); by id, a few microseconds.
 */
export class SetMirror {
  private known = new WeakMap<QuerySet, Known>()
  /** The version of each set the thread holds, by id. */
  private held = new Map<string, number>()
  private lines = new Map<string, Line>()
  private documents = new WeakMap<Workspace, number>()
  private nextDocument = 1
  private nextSet = 1

  /** A rating took `from` to `to`: the thread can follow by taking the same rating. */
  rated(from: QuerySet, to: QuerySet, rating: Rating): void {
    this.ratedMany(from, to, [rating])
  }

  /** Ratings taken at once took `from` to `to`: the thread follows by taking them in order (each a version of the set there). */
  ratedMany(from: QuerySet, to: QuerySet, ratings: readonly Rating[]): void {
    const known = this.known.get(from)
    const line = known && this.lines.get(known.id)
    // Only the newest version is rated on; another (an edit's leftover) has no line to follow.
    if (!known || !line || known.version !== line.base + line.ratings.length) return
    line.ratings.push(...ratings)
    this.known.set(to, { id: known.id, version: known.version + ratings.length })
  }

  /** Main's name for a workspace object (the thread keeps the text it made of the last one named). */
  documentId(workspace: Workspace): number {
    let id = this.documents.get(workspace)
    if (id === undefined) {
      id = this.nextDocument++
      this.documents.set(workspace, id)
    }
    return id
  }

  /** A name for the workspace main will make of a reply (check, open), given ahead so the thread keeps its text under it. */
  reserveDocumentId(): number {
    return this.nextDocument++
  }

  nameDocument(workspace: Workspace, id: number): void {
    this.documents.set(workspace, id)
  }

  /**
   * The document for the thread; the judgments of each set it lacks go first
   * through `send`, a part at a time, main yielding between parts.
   */
  async encode(workspace: Workspace, send: (part: SetPart) => void): Promise<DocumentOnWire> {
    const { sets, ...top } = workspace
    const wired: SetOnWire[] | null = sets ? [] : null
    const used = new Set<string>()
    for (const set of sets ?? []) {
      const known = this.known.get(set)
      const held = known && this.held.get(known.id)
      const line = known && this.lines.get(known.id)
      if (known && held !== undefined && line && known.version >= held && known.version <= line.base + line.ratings.length) {
        wired!.push({ ref: known.id, ratings: line.ratings.slice(held - line.base, known.version - line.base) })
        this.held.set(known.id, known.version)
        used.add(known.id)
        continue
      }
      const id = `m${this.nextSet++}`
      await sendParts(id, set.judgments, send)
      const { judgments: _judgments, ...rest } = set
      wired!.push({ full: id, set: rest })
      this.hold(set, id)
      used.add(id)
    }
    const drop = [...this.held.keys()].filter((id) => !used.has(id))
    for (const id of drop) {
      this.held.delete(id)
      this.lines.delete(id)
    }
    // Lines start again from what the thread now holds.
    for (const id of used) {
      const line = this.lines.get(id)!
      const held = this.held.get(id)!
      if (held > line.base) this.lines.set(id, { base: held, ratings: line.ratings.slice(held - line.base) })
    }
    return { id: this.documentId(workspace), top, sets: wired, drop }
  }

  /** The workspace a reply carries: its sets by id are main's own (`sent`), its full ones came in parts (`parts`, unpacked by set id) and are now held. */
  decode(document: DocumentOnWire, parts: Map<string, Judgment[]>, sent: Workspace | null): Workspace {
    const mine = new Map<string, QuerySet>()
    for (const set of sent?.sets ?? []) {
      const known = this.known.get(set)
      if (known) mine.set(known.id, set)
    }
    let sets: QuerySet[] | undefined
    for (const wired of document.sets ?? []) {
      sets ??= []
      if ('ref' in wired) {
        sets.push(mine.get(wired.ref)!)
        continue
      }
      const set = { ...wired.set, judgments: parts.get(wired.full) ?? [] } as QuerySet
      this.hold(set, wired.full)
      sets.push(set)
    }
    if (document.sets && !sets) sets = []
    const workspace = (sets ? { ...document.top, sets } : { ...document.top }) as Workspace
    this.nameDocument(workspace, document.id)
    return workspace
  }

  /** The thread started afresh: it holds nothing. */
  reset(): void {
    this.known = new WeakMap()
    this.held.clear()
    this.lines.clear()
  }

  private hold(set: QuerySet, id: string): void {
    this.known.set(set, { id, version: 0 })
    this.held.set(id, 0)
    this.lines.set(id, { base: 0, ratings: [] })
  }
}

/** A set's judgments a part at a time, yielding the event loop between parts: no one structured clone holds main long. */
async function sendParts(id: string, judgments: readonly Judgment[], send: (part: SetPart) => void): Promise<void> {
  for (let at = 0; at < judgments.length; at += JUDGMENTS_PER_PART) {
    if (at > 0) await new Promise((resolve) => setImmediate(resolve))
    send({ type: 'part', set: id, judgments: judgments.slice(at, at + JUDGMENTS_PER_PART) })
  }
}
