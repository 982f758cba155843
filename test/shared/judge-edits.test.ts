import { describe, expect, it } from 'vitest'
import { judgesOf, requireJudge, withJudge, withoutJudge } from '../../src/shared/relevance/judge-edits'
import { JudgeSchema } from '../../src/shared/relevance/llm-judge'
import { emptyWorkspace } from '../../src/shared/workspace/workspace-schema'
import { parseWorkspace, serializeWorkspace } from '../../src/shared/workspace/workspace-file'

const judge = (name: string, model = 'gpt') => JudgeSchema.parse({ name, provider: 'openai', baseUrl: 'https://api.openai.com/v1', model })

describe('judge edits', () => {
  it('adds, renames, replaces and deletes a judge; the file keeps it without a key and reads it back', () => {
    let workspace = withJudge(emptyWorkspace(), judge('gpt'))
    workspace = withJudge(workspace, judge('claude', 'claude-x'))
    workspace = withJudge(workspace, judge('gpt-4', 'gpt-4o'), 'gpt')
    expect(judgesOf(workspace).map((each) => [each.name, each.model])).toEqual([
      ['gpt-4', 'gpt-4o'],
      ['claude', 'claude-x'],
    ])
    const text = serializeWorkspace(workspace)
    const read = parseWorkspace(text, 'team.qxw.json')
    expect(read.ok && judgesOf(read.workspace)).toEqual(judgesOf(workspace))
    expect(text).not.toMatch(/key/i)
    workspace = withoutJudge(workspace, 'claude')
    expect(judgesOf(workspace).map((each) => each.name)).toEqual(['gpt-4'])
  })

  it('refuses a name taken by another judge, and a judge that is not there, naming it', () => {
    const workspace = withJudge(withJudge(emptyWorkspace(), judge('a')), judge('b'))
    expect(() => withJudge(workspace, judge('b'), 'a')).toThrow('name: a judge named "b" exists; choose another name.')
    expect(() => withJudge(workspace, judge('  '))).toThrow('name: give the judge a name.')
    expect(() => requireJudge(workspace, 'c')).toThrow('There is no judge named "c" in this workspace.')
    expect(() => withoutJudge(workspace, 'c')).toThrow('There is no judge named "c"')
  })

  it('a file naming two judges alike is neither written nor opened, saying where', () => {
    const twice = { ...emptyWorkspace(), judges: [judge('a'), judge('a')] }
    expect(() => serializeWorkspace(twice)).toThrow('judges[1].name: the name "a" is used by two judges')
    const read = parseWorkspace(JSON.stringify(twice), 'team.qxw.json')
    expect(read.ok).toBe(false)
    expect(!read.ok && read.message).toContain('the name "a" is used by two judges')
  })
})
