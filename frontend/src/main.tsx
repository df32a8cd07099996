import React from 'react'
import ReactDOM from 'react-dom/client'
import { loadLanguage, resolveLanguage } from './i18n'
// The UI's Latin font, bundled (weights 100–900, upright; latin, latin-ext, greek, cyrillic, vietnamese).
import '@fontsource-variable/inter/wght.css'
import './styles/index.css'
import './styles/cascade'
import { App } from './App'
import { boot } from './store/boot'
import { isLinux } from './lib/hooks'

// Ask Go for settings and chats, and fetch the likely language's strings, before
// React's first render: both used to wait behind it (and the splash's paint).
boot()
// Font lists per platform (tokens.css): WebKitGTK pays for each family it cannot find.
if (isLinux()) document.documentElement.dataset.platform = 'linux'
loadLanguage(resolveLanguage('auto')).catch(() => {}) // App retries and shows keys if it fails again

ReactDOM.createRoot(document.getElementById('root')!).render(
  <React.StrictMode>
    <App />
  </React.StrictMode>,
)
