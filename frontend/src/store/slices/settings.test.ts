import { beforeEach, describe, expect, it, vi } from 'vitest'

vi.mock('../../api', async (orig) => {
  const real = await orig<typeof import('../../api')>()
  return {
    ...real,
    api: {
      getSettings: vi.fn(),
      saveSettings: vi.fn(),
      saveProvider: vi.fn(),
      deleteProvider: vi.fn(),
    },
  }
})

import { api, ENV_PROVIDER_ID, type Provider, type Settings } from '../../api'
import { resetStore, selectActiveProvider, useStore } from '../index'

const mocked = api as unknown as Record<string, ReturnType<typeof vi.fn>>
const st = () => useStore.getState()
const prov = (id: string, name = id) => ({ id, name }) as Provider
const settings = (activeProviderId: string) => ({ activeProviderId }) as Settings

describe('settings slice', () => {
  beforeEach(() => {
    resetStore()
    vi.clearAllMocks()
  })

  it('saveProvider replaces a known provider and appends a new one', async () => {
    useStore.setState({ providers: [prov('a', 'A')] })
    mocked.saveProvider.mockResolvedValueOnce(prov('a', 'A2')).mockResolvedValueOnce(prov('b'))
    await st().saveProvider(prov('a', 'A2'))
    await st().saveProvider(prov('', 'b'))
    expect(st().providers.map((p) => [p.id, p.name])).toEqual([
      ['a', 'A2'],
      ['b', 'b'],
    ])
  })

  it('deleteProvider drops it and reads the settings again (the active one may change)', async () => {
    useStore.setState({ providers: [prov('a'), prov('b')], settings: settings('a') })
    mocked.deleteProvider.mockResolvedValueOnce(undefined)
    mocked.getSettings.mockResolvedValueOnce(settings('b'))
    await st().deleteProvider('a')
    expect(st().providers.map((p) => p.id)).toEqual(['b'])
    expect(st().settings?.activeProviderId).toBe('b')
  })

  it('setActiveProvider saves the settings with the new id', async () => {
    useStore.setState({ settings: settings('a') })
    mocked.saveSettings.mockImplementation(async (s: Settings) => s)
    await st().setActiveProvider('b')
    expect(mocked.saveSettings).toHaveBeenCalledWith({ activeProviderId: 'b' })
    expect(st().settings?.activeProviderId).toBe('b')
  })

  it('selectActiveProvider prefers the environment provider', () => {
    useStore.setState({ providers: [prov('a'), prov(ENV_PROVIDER_ID)], settings: settings('a') })
    expect(selectActiveProvider(st())?.id).toBe(ENV_PROVIDER_ID)
    useStore.setState({ providers: [prov('a'), prov('b')] })
    expect(selectActiveProvider(st())?.id).toBe('a')
  })
})
