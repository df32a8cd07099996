import { copyText, openExternal } from '../api'
import { useStore } from '../store'
import { openURL } from '../store/requests'

/**
 * Opens an http(s)/mailto link in the system browser. When none opens (no
 * browser installed) the user is told, and offered to copy the link.
 */
export async function openLink(url: string): Promise<void> {
  const link = url.trim()
  try {
    await openURL(link)
  } catch (err) {
    if ((err as { code?: string })?.code === 'unavailable') {
      openExternal(link) // an older backend: the runtime's way, silent on failure
      return
    }
    const s = useStore.getState()
    s.toast({
      kind: 'error',
      title: 'links.noBrowser',
      message: link,
      action: {
        label: 'links.copy',
        testId: 'copy-link',
        run: () => {
          void copyText(link).then(() => useStore.getState().toast({ kind: 'success', title: 'links.copied' }))
        },
      },
      duration: 15_000,
    })
  }
}
