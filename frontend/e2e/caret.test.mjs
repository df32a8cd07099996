// End-to-end: the composer's caret rests like a GTK field's. With the
// desktop's gtk-cursor-blink-timeout at 1 s (a GTK settings file), the caret
// stops blinking shown, the composer keeps focus, keys typed then land in it,
// and typing brings the blinking back. Read from screen pixels (xdotool, import).
import { test, after } from 'node:test'
import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startApp, ARTIFACTS, hasXdotool } from './harness.mjs'

const running = new Set()
after(async () => { for (const a of running) await a.kill() })
const sleep = (ms) => new Promise((r) => setTimeout(r, ms))

// The composer's first line on screen: the window's origin plus what sits above the page (the menu bar).
async function composerLine(app) {
  const r = await app.eval(`(() => {
    const el = document.querySelector('[data-testid="composer"]'), b = el.getBoundingClientRect(), s = getComputedStyle(el)
    return { x: screenX + b.x + parseFloat(s.paddingLeft), y: screenY + outerHeight - innerHeight + b.y + parseFloat(s.paddingTop), h: parseFloat(s.lineHeight) || 20 }
  })()`)
  return { x: Math.round(r.x) - 2, y: Math.round(r.y), w: 120, h: Math.round(r.h) }
}

// The app's main window (GTK also maps a 10×10 leader window of the same name).
function mainWindow() {
  const ids = execFileSync('xdotool', ['search', '--sync', '--name', '^Airlock$'], { timeout: 15000 }).toString().trim().split('\n')
  const area = (id) => {
    const g = Object.fromEntries(execFileSync('xdotool', ['getwindowgeometry', '--shell', id]).toString().trim().split('\n').map((l) => l.split('=')))
    return Number(g.WIDTH) * Number(g.HEIGHT)
  }
  return ids.sort((a, b) => area(b) - area(a))[0]
}

// Crops of the composer's first line over ~1.5 s.
async function frames(line, tag) {
  const out = []
  for (let i = 0; i < 7; i++) {
    const file = join(ARTIFACTS, `caret-${tag}-${i}.png`)
    execFileSync('import', ['-window', 'root', '-crop', `${line.w}x${line.h}+${line.x}+${line.y}`, file])
    out.push(execFileSync('md5sum', [file]).toString().slice(0, 32))
    await sleep(250)
  }
  return out
}
const darkest = (file) => Number(execFileSync('convert', [file, '-format', '%[fx:minima.intensity]', 'info:']).toString())

test('the caret rests shown after the blink timeout, keeps focus, and blinks again on typing', { skip: !hasXdotool && 'xdotool is not installed' }, async () => {
  mkdirSync(ARTIFACTS, { recursive: true })
  const config = mkdtempSync(join(tmpdir(), 'airlock-gtk-'))
  mkdirSync(join(config, 'gtk-3.0'))
  writeFileSync(join(config, 'gtk-3.0', 'settings.ini'), '[Settings]\ngtk-cursor-blink-timeout=1\n')
  const app = await startApp({ env: { XDG_CONFIG_HOME: config } })
  running.add(app)
  const win = mainWindow()
  await app.waitFor(`document.activeElement?.dataset.testid === 'composer'`, 5000, 'the composer focused')
  const line = await composerLine(app)

  await sleep(2500) // the 1 s timeout, the rest and the refocus
  const rested = await frames(line, 'rested')
  assert.equal(await app.eval(`document.activeElement?.dataset.testid`), 'composer', 'the composer keeps focus')
  assert.equal(new Set(rested).size, 1, 'the caret holds still')
  assert.ok(darkest(join(ARTIFACTS, 'caret-rested-0.png')) < 0.3, 'the caret rests shown (a dark caret beside the light placeholder)')

  try {
    execFileSync('xdotool', ['windowfocus', '--sync', win], { timeout: 5000 })
  } catch {}
  execFileSync('xdotool', ['type', '--window', win, '--delay', '30', 'hello'])
  await app.waitFor(`document.querySelector('[data-testid="composer"]').value === 'hello'`, 5000, 'the typed text in the composer')
  const typed = await frames(line, 'typed')
  assert.ok(new Set(typed).size > 1, 'typing brings the blinking back')
})

// With a screen reader on, the caret never rests: resting refocuses the composer, which it would announce.
const setScreenReader = (on) =>
  execFileSync('dbus-send', ['--session', '--print-reply', '--dest=org.a11y.Bus', '/org/a11y/bus', 'org.freedesktop.DBus.Properties.Set',
    'string:org.a11y.Status', 'string:ScreenReaderEnabled', `variant:boolean:${on}`], { stdio: 'ignore' })
const canSetScreenReader = (() => {
  try {
    setScreenReader(false)
    return true
  } catch {
    return false
  }
})()

test('no resting caret while a screen reader runs', { skip: !canSetScreenReader && 'no accessibility bus' }, async () => {
  const app = await startApp()
  running.add(app)
  assert.equal(await app.eval(`window.go.main.App.CaretRestAfter()`), 10000, "GTK's default blink timeout")
  setScreenReader(true)
  try {
    assert.equal(await app.eval(`window.go.main.App.CaretRestAfter()`), 0)
  } finally {
    setScreenReader(false)
  }
})
