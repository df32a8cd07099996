// Booting the stores: every event subscription, then the first load. main.tsx
// calls it before React's first render (the Go round trips no longer wait
// behind it); App calls it too and owns the cleanup, so tests that render App
// boot the same way. Idempotent while booted.
import { useStore } from './index'
import { followAgents } from './agents'
import { subscribeCaretRest } from './caret'
import { subscribeForming } from './forming'
import { subscribeMcp } from './mcp'
import { subscribeModelMode } from './modelMode'
import { subscribePolicy } from './policy'
import { subscribeUndo } from './undo'

let shutdown: (() => void) | null = null

/** Subscribes and loads once; returns the function that unsubscribes (and lets a later boot start over). */
export function boot(): () => void {
  if (shutdown) return shutdown
  const { subscribe, init } = useStore.getState()
  const offs = [subscribe(), subscribeMcp(), subscribeForming(), subscribeModelMode(), subscribeUndo(), subscribePolicy(), subscribeCaretRest(), followAgents()]
  void init()
  const off = () => {
    if (shutdown !== off) return
    shutdown = null
    for (const o of offs) o()
  }
  shutdown = off
  return off
}
