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
  },
  server: { strictPort: false },
})
