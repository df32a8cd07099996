// Small helpers the main store's slices share.
import type { StateCreator } from 'zustand'
import type { Chat } from '../../api'
import type { Store } from '../types'
export type { ActionOpts } from '../types'

/** A slice of the main store: it sees (and may set) the whole store. */
export type Slice<T> = StateCreator<Store, [], [], T>

export const sortChats = (chats: Chat[]) => [...chats].sort((a, b) => b.updatedAt - a.updatedAt)

export function omit<T>(rec: Record<string, T>, key: string): Record<string, T> {
  if (!(key in rec)) return rec
  const next = { ...rec }
  delete next[key]
  return next
}

export const isPlainObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v)
