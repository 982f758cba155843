import { describe, expect, it } from 'vitest'
import { unreadablePage } from '../../src/main/export/page-error'

describe('page error', () => {
  it('is a bad_response naming the format and the reason, as the user reads it', () => {
    const error = unreadablePage('xlsx', 'it is not a zip archive')
    expect(error.toIpc()).toEqual({ code: 'bad_response', message: "The service's xlsx answer cannot be read: it is not a zip archive" })
  })
})
