import { defineConfig } from 'vite'
import react from '@vitejs/plugin-react'
import { fileURLToPath } from 'node:url'

// Preview-only: serves preview/index.html (fake backend + the real app).
//   npx vite --config preview/vite.config.ts
//   npx vite build --config preview/vite.config.ts   (→ /tmp/airlock-preview)
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: './',
  plugins: [react()],
  server: { port: 5180, strictPort: false, fs: { allow: ['..'] } },
  build: { outDir: '/tmp/airlock-preview', emptyOutDir: true, target: 'es2022' },
})
