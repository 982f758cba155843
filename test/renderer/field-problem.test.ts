import { describe, expect, it } from 'vitest'
import { problemAttrs } from '../../src/renderer/composables/field-problem'

describe('problemAttrs', () => {
  it('marks the field invalid and points it at the message while there is a problem', () => {
    expect(problemAttrs('Enter a name.', 'name-problem')).toEqual({ 'aria-invalid': true, 'aria-describedby': 'name-problem' })
    expect(problemAttrs('Too large.', 'up-to-problem', 'up-to-hint')).toEqual({ 'aria-invalid': true, 'aria-describedby': 'up-to-problem' })
  })

  it('marks the field valid with no problem, described by its hint when it has one', () => {
    expect(problemAttrs(null, 'name-problem')).toEqual({ 'aria-invalid': false, 'aria-describedby': undefined })
    expect(problemAttrs(undefined, 'up-to-problem', 'up-to-hint')).toEqual({ 'aria-invalid': false, 'aria-describedby': 'up-to-hint' })
  })

  it('takes an empty message as no problem, so the field never points at a message that is not shown', () => {
    expect(problemAttrs('', 'name-problem', 'name-hint')).toEqual({ 'aria-invalid': false, 'aria-describedby': 'name-hint' })
  })
})
