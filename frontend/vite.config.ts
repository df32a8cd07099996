import { defineConfig } from 'vite'
import react from '@vitejs/plugin-react'

// Production build for Wails: relative asset paths, output to frontend/dist.
// Only index.html is an input, so preview/ (the fake-backend playground) is
// never part of the bundle.
export default defineConfig({
  base: './',
  plugins: [react()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2020',
    chunkSizeWarningLimit: 1200,
    // Inter's Latin subset (48 KB) goes inline in the CSS: fetched through the
    // app's asset server it arrived 100–350 ms after the first render, and
    // WebKit held the first frame for it. Other subsets load when a page needs them.
    assetsInlineLimit: (file: string) => (file.endsWith('inter-latin-wght-normal.woff2') ? true : undefined),
  },
  server: { strictPort: false },
})
