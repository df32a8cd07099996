// Settings and providers in the main store.
import { ENV_PROVIDER_ID, api } from '../../api'
import type { Store } from '../types'
import type { Slice } from './util'
import type { SettingsState, SettingsSlice } from '../types'

export const settingsInitial = (): SettingsState => ({ settings: null, providers: [] })

export const createSettingsSlice: Slice<SettingsSlice> = (set, get) => ({
  ...settingsInitial(),

  loadSettings: async () => {
    try {
      set({ settings: await api.getSettings() })
    } catch (err) {
      get().toastError('errors.loadSettings', err)
    }
  },

  saveSettings: async (next) => {
    const saved = await api.saveSettings(next)
    set({ settings: saved })
    return saved
  },

  loadProviders: async () => {
    try {
      set({ providers: await api.listProviders() })
    } catch (err) {
      get().toastError('errors.loadProviders', err)
    }
  },

  saveProvider: async (p) => {
    const saved = await api.saveProvider(p)
    set((s) => {
      const i = s.providers.findIndex((x) => x.id === saved.id)
      const providers = i >= 0 ? s.providers.map((x) => (x.id === saved.id ? saved : x)) : [...s.providers, saved]
      return { providers }
    })
    return saved
  },

  deleteProvider: async (id) => {
    await api.deleteProvider(id)
    set((s) => ({ providers: s.providers.filter((p) => p.id !== id) }))
    // the backend may have switched the active provider
    await get().loadSettings()
  },

  setActiveProvider: async (id) => {
    const cur = get().settings
    if (!cur) return
    await get().saveSettings({ ...cur, activeProviderId: id })
  },
})

/** The provider answering: the environment's (AIRLOCK_BASE_URL) when set, as the backend does, else the chosen one. */
export const selectActiveProvider = (s: Store) =>
  s.providers.find((p) => p.id === ENV_PROVIDER_ID) ?? s.providers.find((p) => p.id === s.settings?.activeProviderId) ?? null
