import { describe, expect, it } from 'vitest'
import { pickedFileName, UNTITLED_WORKSPACE, withWorkspaceExtension, workspaceFileName, workspaceName } from '../../src/main/workspaces/workspace-names'
import { refusal } from '../fixtures/failure-of'

/** How a workspace is named after its file, and the file name a typed name makes. */

describe('workspace names', () => {
  it('names a workspace after its file, without the extension', () => {
    expect(workspaceName(null)).toBe(UNTITLED_WORKSPACE)
    expect(workspaceName('')).toBe('Untitled workspace')
    expect(workspaceName('team.qxw.json')).toBe('team')
    expect(workspaceName('Team.QXW.JSON')).toBe('Team')
    expect(workspaceName('old.json')).toBe('old')
    expect(workspaceName('notes.txt')).toBe('notes.txt')
    // A name that is only the extension keeps it, rather than become empty.
    expect(workspaceName('.qxw.json')).toBe('.qxw.json')
  })

  it('gives a saved file the .qxw.json extension once', () => {
    expect(withWorkspaceExtension('team')).toBe('team.qxw.json')
    expect(withWorkspaceExtension('team.qxw')).toBe('team.qxw.json')
    expect(withWorkspaceExtension('team.json')).toBe('team.qxw.json')
    expect(withWorkspaceExtension('team.QXW.json')).toBe('team.QXW.json')
    expect(withWorkspaceExtension('v1.2')).toBe('v1.2.qxw.json')
  })

  it('keeps only the last part of a picked file\'s name, without control characters, never empty', () => {
    expect(pickedFileName('C:\\Users\\me\\team.qxw.json')).toBe('team.qxw.json')
    expect(pickedFileName('../../etc/passwd')).toBe('passwd')
    expect(pickedFileName('bad\u0000na\u001bme.json')).toBe('badname.json')
    expect(pickedFileName('folder/')).toBe('workspace.qxw.json')
    expect(pickedFileName('  ')).toBe('workspace.qxw.json')
  })

  it('makes a download name of a typed name, refusing what could name a path, naming the rule', () => {
    expect(workspaceFileName('  Team queries ')).toBe('Team queries.qxw.json')
    const cases: [string, string][] = [
      ['', 'give the workspace a name'],
      ['a/b', 'a name cannot hold / or \\'],
      ['a\\b', 'a name cannot hold / or \\'],
      ['tab\there', 'a name cannot hold control characters'],
      ['..', 'a name needs more than dots'],
    ]
    for (const [name, rule] of cases) {
      const error = refusal(() => workspaceFileName(name))
      expect([error.code, error.message, error.extra.problems]).toEqual(['validation', `Workspace name: ${rule}.`, [{ field: 'name', message: rule }]])
    }
  })
})
