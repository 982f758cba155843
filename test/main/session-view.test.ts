import { describe, expect, it } from 'vitest'
import type { FileDialogs } from '../../src/main/host/file-dialogs'
import { digest, type SessionState } from '../../src/main/workspaces/session-file'
import { sessionView, untitled } from '../../src/main/workspaces/session-view'
import { JudgeSchema } from '../../src/shared/relevance/llm-judge'
import { serializeWorkspace } from '../../src/shared/workspace/workspace-file'
import { FILE_DEMO_CONNECTION } from '../fixtures/file-demo-connection'
import { openRegistry, PROFILE } from '../fixtures/registry'
import { useTempDirs } from '../fixtures/temp-dirs'

/** What the window is shown of the open workspace, from the session's state. */

const ELECTRON: FileDialogs = { chooseOpen: async () => null, chooseSave: async () => null }
const STAGING = { ...FILE_DEMO_CONNECTION, id: 'staging', name: 'Staging' }

describe('sessionView', () => {
  const tempDir = useTempDirs('qe-session-view')

  it('an untitled workspace: empty, saved as it is, to be downloaded in the browser host and chosen in Electron', async () => {
    const { registry } = await openRegistry(tempDir())
    const state = untitled(null)
    expect(state.documentDigest).toBe(digest(serializeWorkspace(state.workspace)))
    expect(state.documentBytes).toBe(Buffer.byteLength(serializeWorkspace(state.workspace)))
    expect(sessionView(state, null, registry)).toEqual({
      name: 'Untitled workspace',
      fileName: null,
      folder: null,
      saveTarget: 'download', judges: [],
      dirty: false,
      queries: [],
      tests: [],
      sets: [],
      bindings: [],
    })
    expect(sessionView(state, ELECTRON, registry).saveTarget).toBe('choose')
  })

  it('a workspace from a file: named after it, its folder shown where there are dialogs, dirty once changed or ahead of its text', async () => {
    const { registry } = await openRegistry(tempDir())
    const base = untitled(null)
    const state: SessionState = { ...base, file: { kind: 'path', path: '/home/me/team.qxw.json' } }
    expect(sessionView(state, ELECTRON, registry)).toMatchObject({ name: 'team', fileName: 'team.qxw.json', folder: '/home/me', saveTarget: 'file', dirty: false })
    expect(sessionView({ ...state, file: { kind: 'name', name: 'shared.qxw.json' } }, null, registry)).toMatchObject({ name: 'shared', folder: null, saveTarget: 'download' })
    expect(sessionView({ ...state, savedDigest: digest('older text') }, ELECTRON, registry).dirty).toBe(true)
    expect(sessionView({ ...state, stale: true }, ELECTRON, registry).dirty).toBe(true)
  })

  it("shows each file connection's binding while its app connection exists, and each set's summary", async () => {
    const { registry } = await openRegistry(tempDir())
    const prod = await registry.save(PROFILE)
    const base = untitled(null)
    const state: SessionState = {
      ...base,
      workspace: { ...base.workspace, connections: [FILE_DEMO_CONNECTION, STAGING], sets: [{ name: 'Cities', query: 'Template', queries: [{ id: 'q1', text: 'paris' }], judgments: [] }] },
      bindings: [
        { fileConnectionId: 'demo', connectionId: prod.id, how: 'chosen' },
        { fileConnectionId: 'staging', connectionId: 'deleted-since', how: 'same' },
      ],
    }
    const view = sessionView(state, null, registry)
    expect(view.bindings.map((binding) => [binding.fileConnectionId, binding.connectionId, binding.how])).toEqual([
      ['demo', prod.id, 'chosen'],
      ['staging', null, null],
    ])
    expect(view.sets).toMatchObject([{ name: 'Cities', template: 'Template', queries: 1, judgments: 0 }])
  })

  it("says where a judge's calls go when it moved with the Demo's binding, and nothing for one that stays", async () => {
    const { registry } = await openRegistry(tempDir())
    const here = await registry.save({ ...PROFILE, name: 'Demo here', authUrl: 'http://127.0.0.1:43117/auth', queryUrl: 'http://127.0.0.1:43117/query' })
    const base = untitled(null)
    const fileDemo = { ...FILE_DEMO_CONNECTION, authUrl: 'http://127.0.0.1:8080/auth', queryUrl: 'http://127.0.0.1:8080/query' }
    const judge = (name: string, baseUrl: string) => JudgeSchema.parse({ name, provider: 'openai', baseUrl, model: 'demo-judge' })
    const state: SessionState = {
      ...base,
      workspace: { ...base.workspace, connections: [fileDemo], judges: [judge('demo', 'http://127.0.0.1:8080/v1'), judge('gpt', 'https://api.openai.com/v1')] },
      bindings: [{ fileConnectionId: 'demo', connectionId: here.id, how: 'moved' }],
    }
    const view = sessionView(state, null, registry)
    expect(view.judgeUrls).toEqual({ demo: 'http://127.0.0.1:43117/v1' })
    expect(view.judges.map((each) => each.baseUrl)).toEqual(['http://127.0.0.1:8080/v1', 'https://api.openai.com/v1'])
    expect(sessionView({ ...state, bindings: [] }, null, registry).judgeUrls).toBeUndefined()
  })
})
