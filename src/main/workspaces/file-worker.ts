import { join } from 'node:path'
import { serialize } from 'node:v8'
import { parentPort } from 'node:worker_threads'
import { formatBytes } from '../../shared/byte-size'
import type { Judgment, QuerySet } from '../../shared/relevance/query-set'
import { layoutOf, parseWorkspace, serializeParsed, serializeWorkspace, type Workspace, type WorkspaceLayout } from '../../shared/workspace/workspace-file'
import { isTextOf } from '../../shared/workspace/workspace-text'
import { writeFileAtomic } from '../storage/atomic-file'
import { JUDGMENTS_PER_PART, type DocumentOnWire, type FileReply, type FileRequest, type SetOnWire, type SetPart } from './file-thread-protocol'
import { RatingIndex } from './rating-index'
import { digest, readSession, SESSION_FILE, sessionText } from './session-file'
import { documentOfParsed, MAX_WORKSPACE_BYTES, readWorkspaceFileText, writeWorkspaceText } from './workspace-files'

/**
 * The workspace file thread (electron.vite.config.ts: `workspace-files`;
 * main's side: file-thread.ts). It holds a copy of the open document's sets,
 * kept in step by ids and ratings, and the text it last made; it reads,
 * parses and checks workspace files and session.json, and serializes and
 * writes them, so that none of that costs the event loop that answers the window.
 */

const port = parentPort
if (!port) throw new Error('file-worker runs as a worker thread')

const sets = new Map<string, QuerySet>()
const incoming = new Map<string, Judgment[][]>()
const ratings = new RatingIndex()
/** The text last made, under main's name for its document: a session write after a save (or a check) does not serialize again. */
let made: { document: number; layout: WorkspaceLayout; text: string; digest: string; bytes: number } | null = null
let nextSet = 1

port.on('message', (message: SetPart | FileRequest) => {
  if (message.type === 'part') {
    if (!('judgments' in message)) return
    const parts = incoming.get(message.set) ?? []
    parts.push(message.judgments)
    incoming.set(message.set, parts)
    return
  }
  let document: Workspace | null = null
  try {
    // Taken at once, in the order sent: the next request's ids and ratings build on this one's.
    document = 'document' in message ? decode(message.document) : null
  } catch (error) {
    port.postMessage({ type: 'reply', id: message.id, ok: false, message: (error as Error).message } satisfies FileReply)
    return
  }
  handle(message, document).then(
    (reply) => port.postMessage({ type: 'reply', id: message.id, ...reply }),
    (error: unknown) => port.postMessage({ type: 'reply', id: message.id, ok: false, message: error instanceof Error ? error.message : String(error) }),
  )
})

type Reply = Omit<FileReply & { ok: true }, 'type' | 'id'> | Omit<FileReply & { ok: false }, 'type' | 'id'>

async function handle(request: FileRequest, workspace: Workspace | null): Promise<Reply> {
  stage(request)
  switch (request.kind) {
    case 'open': {
      const read = await readWorkspaceFileText(request.path)
      return read.ok ? adopted(request.id, request.as, read.workspace, () => documentText(read.workspace, read.text, read.bytes)) : read
    }
    case 'import': {
      const bytes = Buffer.byteLength(request.text, 'utf8')
      if (bytes > MAX_WORKSPACE_BYTES) {
        return { ok: false, message: `"${request.fileName}" is too large to be a workspace file (${formatBytes(bytes)}; the most is ${formatBytes(MAX_WORKSPACE_BYTES)}).` }
      }
      const read = parseWorkspace(request.text, request.fileName)
      return read.ok ? adopted(request.id, request.as, read.workspace, () => documentText(read.workspace, request.text, bytes)) : read
    }
    case 'read-session': {
      const read = await readSession(request.dataDir)
      if (!read.state) return { ok: true, problem: read.problem }
      const { workspace: stored, document, ...session } = read.state
      return { ...adopted(request.id, request.as, stored, () => document), session }
    }
    case 'check':
      return check(request, workspace!)
    case 'save': {
      const text = textOf(request.document.id, workspace!, request.layout)
      if (text.bytes > MAX_WORKSPACE_BYTES) return tooLargeToSave(text.bytes)
      try {
        await writeWorkspaceText(request.path, text.text)
      } catch (error) {
        return { ok: false, write: true, code: (error as NodeJS.ErrnoException).code, message: (error as Error).message }
      }
      return facts(text)
    }
    case 'text': {
      const text = textOf(request.document.id, workspace!, request.layout)
      if (text.bytes > MAX_WORKSPACE_BYTES) return tooLargeToSave(text.bytes)
      return { ...facts(text), text: text.text }
    }
    case 'write-session': {
      const text = textOf(request.document.id, workspace!, request.layout)
      await writeFileAtomic(join(request.dataDir, SESSION_FILE), sessionText(request.meta, text.text))
      return facts(text)
    }
  }
}

/**
 * An edited document as a save would write it: serialized (which refuses
 * what a file may not hold), held to the bound unless it shrinks, and read
 * back. Sets main sent by id come back by id; the others as read back.
 */
function check(request: FileRequest & { kind: 'check' }, workspace: Workspace): Reply {
  let text: string
  try {
    // In the layout the document has: a compact file stays compact (workspace-text.ts, WorkspaceLayout).
    text = serializeWorkspace(workspace, request.layout)
  } catch (error) {
    return { ok: false, message: (error as Error).message }
  }
  const bytes = Buffer.byteLength(text, 'utf8')
  if (bytes > MAX_WORKSPACE_BYTES && bytes > request.previousBytes) {
    return {
      ok: false,
      message: `This change would make the workspace ${formatBytes(bytes)}, more than the ${formatBytes(MAX_WORKSPACE_BYTES)} a workspace file may hold; it was not made.`,
    }
  }
  const reread = parseWorkspace(text, request.name)
  if (!reread.ok) return reread
  const { sets: readSets, ...top } = reread.workspace
  const wired = request.document.sets?.map((sent, index): SetOnWire => ('ref' in sent ? { ref: sent.ref, ratings: [] } : sendSet(request.id, readSets![index]!)))
  const document: DocumentOnWire = { id: request.as, top, sets: wired ?? null, drop: [] }
  made = { document: request.as, layout: request.layout, text, digest: digest(text), bytes }
  return { ...facts(made), document }
}

/**
 * A document read from a file: held, sent to main in parts, and its text
 * made (`text`) after the parts are on their way, so main unpacks them while
 * this thread serializes.
 */
function adopted(reply: number, as: number, workspace: Workspace, text: () => string): Reply & { ok: true } {
  const { sets: read, ...top } = workspace
  const document: DocumentOnWire = { id: as, top, sets: read ? read.map((set) => sendSet(reply, set)) : null, drop: [] }
  const written = text()
  made = { document: as, layout: layoutOf(written), text: written, digest: digest(written), bytes: Buffer.byteLength(written, 'utf8') }
  return { ...facts(made), document }
}

/**
 * The text a save of a document read from `text` (`bytes` long) writes
 * (documentOfParsed): `text` itself when it is that text already, as a file
 * the app wrote is, which is found without making it again. Then its layout
 * is the file's, and its size and digest the file's: the choice
 * documentOfParsed makes, since the readable text is never larger than itself
 * and always larger than the compact one (test/main/file-thread-read-text.test.ts).
 */
function documentText(workspace: Workspace, text: string, bytes: number): string {
  return isTextOf(text, workspace, layoutOf(text)) ? text : documentOfParsed(workspace, bytes)
}

function sendSet(reply: number, set: QuerySet): SetOnWire {
  const id = `t${nextSet++}`
  sets.set(id, set)
  for (let at = 0; at < set.judgments.length; at += JUDGMENTS_PER_PART) {
    const packed = serialize(set.judgments.slice(at, at + JUDGMENTS_PER_PART))
    const part: SetPart = { type: 'part', reply, set: id, packed }
    port!.postMessage(part, [packed.buffer as ArrayBuffer])
  }
  const { judgments: _judgments, ...rest } = set
  return { full: id, set: rest }
}

/** Main's document from what this thread holds, the ratings taken in the order main took them. */
function decode(wired: DocumentOnWire): Workspace {
  for (const id of wired.drop) sets.delete(id)
  const decoded = wired.sets?.map((entry) => {
    if ('full' in entry) {
      const set = { ...entry.set, judgments: (incoming.get(entry.full) ?? []).flat() } as QuerySet
      incoming.delete(entry.full)
      sets.set(entry.full, set)
      return set
    }
    let set = sets.get(entry.ref)
    if (!set) throw new Error(`The workspace file thread lost the set it knew as ${entry.ref}; open the workspace again.`)
    // All of them on one copy of the set's judgments (a refused one, which main refused too, left out).
    if (entry.ratings.length > 0) set = ratings.ratedSetMany(set, entry.ratings).set
    sets.set(entry.ref, set)
    return set
  })
  return (decoded ? { ...wired.top, sets: decoded } : { ...wired.top }) as Workspace
}

/**
 * The document's text in `layout`: the one last made when main names the same
 * document, else made now. Main's document is always one this thread checked
 * (read, or an edit's check) with ratings each checked on their own
 * (rating-index.ts), so it is not put through the whole schema again.
 */
function textOf(document: number, workspace: Workspace, layout: WorkspaceLayout): NonNullable<typeof made> {
  if (made && made.document === document && made.layout === layout) return made
  const text = serializeParsed(workspace, layout)
  made = { document, layout, text, digest: digest(text), bytes: Buffer.byteLength(text, 'utf8') }
  return made
}

function tooLargeToSave(bytes: number): Reply {
  return {
    ok: false,
    message: `The workspace is ${formatBytes(bytes)}, more than the ${formatBytes(MAX_WORKSPACE_BYTES)} a workspace file may hold, so it could not be opened again; it was not saved. Delete some queries or notes, then save.`,
  }
}

function facts(text: { layout: WorkspaceLayout; bytes: number; digest: string }): { ok: true; layout: WorkspaceLayout; bytes: number; digest: string } {
  return { ok: true, layout: text.layout, bytes: text.bytes, digest: text.digest }
}

function stage(request: FileRequest): void {
  port!.postMessage({ type: 'stage', id: request.id, kind: request.kind })
}
