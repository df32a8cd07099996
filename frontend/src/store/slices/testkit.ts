// Shared fixtures for the slice tests (not a test file itself).
import type { Call, Chat } from '../../api'

export const chat = (over: Partial<Chat> = {}): Chat => ({
  id: 'c1',
  title: 'One',
  createdAt: 0,
  updatedAt: 0,
  paradigm: 'json',
  recognizeOthers: true,
  ...over,
})

export const call = (over: Partial<Call> = {}): Call => ({
  id: 'k1',
  modelCallId: 'x',
  chatId: 'c1',
  messageId: 'm1',
  index: 0,
  name: 'read_file',
  arguments: { path: 'a.txt' },
  raw: '',
  format: 'json',
  state: 'pending',
  createdAt: 1,
  updatedAt: 1,
  ...over,
} as Call)

export const flush = () => new Promise((r) => setTimeout(r, 0))
