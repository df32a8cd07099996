import { beforeEach, describe, expect, it, vi } from 'vitest'

vi.mock('../../api', async (orig) => {
  const real = await orig<typeof import('../../api')>()
  return { ...real, api: { tools: vi.fn(), runTool: vi.fn() } }
})

import { api, ApiError } from '../../api'
import { resetStore, useStore } from '../index'

const mocked = api as unknown as Record<string, ReturnType<typeof vi.fn>>
const st = () => useStore.getState()

describe('tools slice', () => {
  beforeEach(() => {
    resetStore()
    vi.clearAllMocks()
  })

  it('loadTools keeps the last list when the backend fails', async () => {
    mocked.tools.mockResolvedValueOnce([{ name: 'read_file' }]).mockRejectedValueOnce(new Error('x'))
    await st().loadTools()
    await st().loadTools()
    expect(st().tools.map((t) => t.name)).toEqual(['read_file'])
  })

  it('runTool returns the output or the error, never throws', async () => {
    mocked.runTool.mockResolvedValueOnce({ output: 'hi' }).mockRejectedValueOnce(new ApiError('tool_failed', 'no'))
    expect(await st().runTool('c1', 'echo', {})).toEqual({ output: { output: 'hi' } })
    const r = await st().runTool('c1', 'echo', {})
    expect('error' in r && r.error.code).toBe('tool_failed')
  })
})
