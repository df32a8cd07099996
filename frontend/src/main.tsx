import React from 'react'
import ReactDOM from 'react-dom/client'
import './i18n'
// The UI's Latin font, bundled (weights 100–900, upright; latin, latin-ext, greek, cyrillic, vietnamese).
import '@fontsource-variable/inter/wght.css'
import './styles/index.css'
import './styles/cascade'
import { App } from './App'

ReactDOM.createRoot(document.getElementById('root')!).render(
  <React.StrictMode>
    <App />
  </React.StrictMode>,
)
