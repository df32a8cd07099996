// Shared by the e2e tests that drive the demo model's files script (list,
// write, edit, read — one approved card per turn): workspace and undo.

export const card = (tool, state) => `document.querySelector('[data-testid="tool-card"][data-tool="${tool}"]${state ? `[data-state="${state}"]` : ''}')`
export const lastAssistant = `(() => { const m = [...document.querySelectorAll('[data-testid="message"][data-role="assistant"]')].pop(); return m ? { status: m.dataset.status, text: m.innerText } : null })()`
export const FILE_STEPS = ['list_directory', 'write_file', 'edit_file', 'read_file']
export const EDITED = '- Every call waits on a card, with a diff for file changes.'

export async function ask(app, text, { newChat = true } = {}) {
  if (newChat) await app.click('new-chat')
  await app.type('composer', text)
  await app.click('send')
}

/** Runs the demo's files script: each step waits on a card until Run is clicked. `beforeRun` sees each pending card first. */
export async function approveFileSteps(app, beforeRun = async () => {}) {
  for (const tool of FILE_STEPS) {
    await app.waitFor(`!!${card(tool, 'pending')}`, 20000, `pending ${tool} card`)
    await beforeRun(tool)
    await app.eval(`${card(tool, 'pending')}.querySelector('[data-testid="approve"]').click()`)
    await app.waitFor(`(() => { const c = ${card(tool)}; return !!c && c.dataset.state !== 'pending' })()`, 10000, `${tool} decided`)
  }
  return app.waitFor(
    `(() => { const m = ${lastAssistant}; return m && m.status === 'complete' && /Files/.test(m.text) && m })()`,
    20000,
    'final answer naming the Files panel',
  )
}

/** Opens the files panel (it remembers being open, so only click when it is closed). */
export async function openFiles(app) {
  await app.waitFor(`!!document.querySelector('[data-testid="files-toggle"]')`, 5000, 'files toggle')
  await app.eval(`(() => { const b = document.querySelector('[data-testid="files-toggle"]'); if (b.getAttribute('aria-pressed') !== 'true') b.click() })()`)
  await app.waitFor(`!!document.querySelector('[data-testid="files-panel"]')`, 5000, 'files panel')
}

export async function activeChatId(app) {
  return app.waitFor(`document.querySelector('[data-testid="chat-item"][data-active="true"]')?.dataset.chatId`, 5000, 'the active chat')
}

/** Sets the open chat's workspace to a folder ('folder' or 'overlay') through the Files panel's dialog. */
export async function chooseFolder(app, dir, kind = 'folder') {
  await app.click('workspace-settings')
  await app.waitFor(`!!document.querySelector('[data-testid="workspace-dialog"]')`, 5000, 'workspace dialog')
  await app.click(`[data-testid="workspace-kind-option"][value="${kind}"]`)
  await app.waitFor(`!!document.querySelector('[data-testid="workspace-dir"]')`, 5000, 'folder field')
  await app.type('workspace-dir', dir)
  await app.click('workspace-save')
  await app.waitFor(`!document.querySelector('[data-testid="workspace-dialog"]')`, 5000, 'saved')
}
