import type Database from 'libsql'

/** One rating as the journal keeps it: `grade` null clears it. */
export interface JournalRating {
  set: string
  query: string
  item: string
  grade: number | null
  /** Who rated (the column is named `by`, as the journal's first version wrote it); null in a row of that version without one. */
  rater: string | null
  at: string
  /** An LLM judge's explanation of its grade. */
  explanation?: string | undefined
  /** The digest of the prompt that produced an LLM judge's grade. */
  promptDigest?: string | undefined
}

/** A rating read back, with its place in the journal. */
export interface JournaledRating extends JournalRating {
  seq: number
}

/**
 * The journal of ratings: each rating of the open document, appended before
 * its reply, so a rating confirmed is never lost though the session file is
 * written later (workspace-session.ts). `document` is the open document's
 * journal key (session.json keeps it). Rows go once the session file holds them.
 * Runs on the store's thread only.
 */
export class RatingsTable {
  private readonly insert: Database.Statement
  private readonly after: Database.Statement
  private readonly trim: Database.Statement
  private readonly db: Database.Database

  constructor(db: Database.Database) {
    this.db = db
    this.insert = db.prepare('INSERT INTO ratings (document, set_name, query, item, grade, by, at, notes) VALUES (?, ?, ?, ?, ?, ?, ?, ?)')
    this.after = db.prepare('SELECT seq, set_name, query, item, grade, by, at, notes FROM ratings WHERE document = ? AND seq > ? ORDER BY seq')
    this.trim = db.prepare('DELETE FROM ratings WHERE document = ? AND seq <= ?')
  }

  /** Appends a rating; its seq. */
  add(document: string, rating: JournalRating): number {
    const notes = rating.explanation === undefined && rating.promptDigest === undefined ? null : JSON.stringify({ explanation: rating.explanation, promptDigest: rating.promptDigest })
    return Number(this.insert.run(document, rating.set, rating.query, rating.item, rating.grade, rating.rater, rating.at, notes).lastInsertRowid)
  }

  /** Appends ratings in one transaction (one fsync, not one a rating); the last one's seq. */
  addMany(document: string, ratings: readonly JournalRating[]): number {
    let seq = 0
    this.db.transaction(() => {
      for (const rating of ratings) seq = this.add(document, rating)
    })()
    return seq
  }

  /** The document's ratings after `seq`, oldest first. */
  since(document: string, seq: number): JournaledRating[] {
    return (this.after.raw(true).all(document, seq) as unknown[][]).map(([rowSeq, set, query, item, grade, by, at, notes]) => ({
      seq: Number(rowSeq),
      set: String(set),
      query: String(query),
      item: String(item),
      grade: grade === null ? null : Number(grade),
      rater: by === null ? null : String(by),
      at: String(at),
      ...judgeNotes(notes),
    }))
  }

  /** Drops the document's ratings up to `seq`: the session file holds them. */
  trimTo(document: string, seq: number): number {
    return this.trim.run(document, seq).changes
  }
}

/** A row's judge notes, as written by add; a row without (a person's rating) or that does not read gives none. */
function judgeNotes(notes: unknown): { explanation?: string; promptDigest?: string } {
  if (typeof notes !== 'string') return {}
  try {
    const value = JSON.parse(notes) as { explanation?: unknown; promptDigest?: unknown }
    return {
      ...(typeof value.explanation === 'string' ? { explanation: value.explanation } : {}),
      ...(typeof value.promptDigest === 'string' ? { promptDigest: value.promptDigest } : {}),
    }
  } catch {
    return {}
  }
}
