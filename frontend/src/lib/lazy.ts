// React.lazy for parts of the UI that are not needed at start, with preload:
// once a chunk has loaded, the next render uses it at once (a synchronous
// thenable), so a preloaded view never flashes its fallback.
import { lazy, type ComponentType } from 'react'

type Module<T> = { default: T }
const preloads = new Set<() => Promise<unknown>>()

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function lazyWithPreload<T extends ComponentType<any>>(load: () => Promise<Module<T>>) {
  let loaded: Module<T> | null = null
  let pending: Promise<Module<T>> | null = null
  const preload = () =>
    (pending ??= load().then(
      (m) => (loaded = m),
      (err) => {
        pending = null // a failed chunk may be fetched again on the next try
        throw err
      },
    ))
  preloads.add(preload)
  const Component = lazy(() =>
    loaded ? ({ then: (resolve: (m: Module<T>) => void) => resolve(loaded as Module<T>) } as Promise<Module<T>>) : preload(),
  )
  return Object.assign(Component, { preload })
}

/** Loads every lazy part defined so far (tests render synchronously after this). */
export function preloadAll(): Promise<unknown> {
  return Promise.all([...preloads].map((p) => p()))
}
