import { randomUUID } from 'node:crypto'
import { join } from 'node:path'
import { z } from 'zod'
import { ConnectionInputSchema, type ConnectionInput } from '../../shared/ipc/contract'
import { writeFileAtomic } from '../storage/atomic-file'
import { readJsonFile, setAside } from '../storage/json-file'

export type StoredConnection = ConnectionInput & { id: string }

const FileSchema = z.object({
  version: z.literal(1),
  connections: z.array(ConnectionInputSchema.extend({ id: z.string().min(1) })),
  /** The connection the app reopens on: the one last chosen (a saved profile or a built-in one). */
  lastUsed: z.string().min(1).optional(),
})

export const CONNECTIONS_FILE = 'connections.json'

/**
 * The non-secret part of connection profiles, in one JSON file in the data
 * folder. Secrets never enter this file: they live in the SecretStore.
 */
export class ConnectionStore {
  private connections: StoredConnection[] = []
  private lastUsedId: string | null = null
  /** Set when the file on disk could not be read; the UI tells the user. */
  problem: string | null = null

  constructor(private readonly dataDir: string) {}

  private get path(): string {
    return join(this.dataDir, CONNECTIONS_FILE)
  }

  /** `setAside: false` (a reader that is not the app, the command line) leaves an unreadable file where it is. */
  async load(options: { setAside?: boolean } = {}): Promise<void> {
    const read = await readJsonFile(this.path, FileSchema)
    if (read.kind === 'missing') return
    if (read.kind === 'ok') {
      this.connections = read.value.connections
      this.lastUsedId = read.value.lastUsed ?? null
      return
    }
    if (options.setAside === false) {
      this.problem = `The connections file ${this.path} could not be read.`
      return
    }
    const aside = await setAside(this.path)
    this.problem = `The connections file could not be read and was kept as ${aside}; starting with no saved connections.`
  }

  list(): StoredConnection[] {
    return [...this.connections]
  }

  get(id: string): StoredConnection | undefined {
    return this.connections.find((connection) => connection.id === id)
  }

  lastUsed(): string | null {
    return this.lastUsedId
  }

  async markUsed(id: string): Promise<void> {
    if (id === this.lastUsedId) return
    await this.write(this.connections, id)
  }

  async save(input: ConnectionInput): Promise<StoredConnection> {
    const saved: StoredConnection = { ...input, id: input.id ?? randomUUID() }
    const index = this.connections.findIndex((connection) => connection.id === saved.id)
    const next = [...this.connections]
    if (index >= 0) next[index] = saved
    else next.push(saved)
    await this.write(next)
    return saved
  }

  async delete(id: string): Promise<boolean> {
    const next = this.connections.filter((connection) => connection.id !== id)
    if (next.length === this.connections.length) return false
    await this.write(next, this.lastUsedId === id ? null : this.lastUsedId)
    return true
  }

  private async write(connections: StoredConnection[], lastUsed = this.lastUsedId): Promise<void> {
    const file: z.infer<typeof FileSchema> = { version: 1, connections, ...(lastUsed ? { lastUsed } : {}) }
    await writeFileAtomic(this.path, JSON.stringify(file, null, 2) + '\n')
    this.connections = connections
    this.lastUsedId = lastUsed
  }
}
