import { useEffect, useRef, useState } from 'react'

/** The current time, refreshed every `ms` (for relative timestamps). */
export function useNow(ms = 30_000): number {
  const [now, setNow] = useState(() => Date.now())
  useEffect(() => {
    const id = window.setInterval(() => setNow(Date.now()), ms)
    return () => window.clearInterval(id)
  }, [ms])
  return now
}

/** Follows `prefers-color-scheme` live. */
export function usePrefersDark(): boolean {
  const query = '(prefers-color-scheme: dark)'
  const get = () => typeof window !== 'undefined' && !!window.matchMedia?.(query).matches
  const [dark, setDark] = useState(get)
  useEffect(() => {
    const mq = window.matchMedia?.(query)
    if (!mq) return
    const onChange = () => setDark(mq.matches)
    onChange()
    mq.addEventListener?.('change', onChange)
    return () => mq.removeEventListener?.('change', onChange)
  }, [])
  return dark
}

export const isLinux = () => typeof navigator !== 'undefined' && /Linux/.test(navigator.platform || navigator.userAgent) && !/Android/.test(navigator.userAgent)
export const isMac = () => typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform || navigator.userAgent)

/** Ctrl or Cmd held (either works everywhere). */
export const modKey = (e: { ctrlKey: boolean; metaKey: boolean }) => e.ctrlKey || e.metaKey

/** Label of the modifier key for shortcut hints. */
export const modLabel = () => (isMac() ? '⌘' : 'Ctrl')

/** True from the first render where `value` is true on (a view mounted once opened, a splash left once). */
export function useLatch(value: boolean): boolean {
  const latched = useRef(false)
  latched.current ||= value
  return latched.current
}
