import { defineConfig } from 'vitest/config'
import react from '@vitejs/plugin-react'

export default defineConfig({
  plugins: [react()],
  test: {
    environment: 'jsdom',
    setupFiles: ['./src/test/setup.ts'],
    include: ['src/**/*.test.{ts,tsx}'],
    css: false,
    // Whole-app tests stream through the fake backend in real time: on a loaded
    // two-core machine 5 s (the default) is not enough for the longest of them.
    testTimeout: 20_000,
  },
})
