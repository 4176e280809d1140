import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';

export default defineConfig({
  plugins: [react()],
  resolve: { conditions: ['dev-source', 'browser'] },
  test: {
    name: 'react-sdk',
    root: new URL('.', import.meta.url).pathname,
    environment: 'happy-dom',
    include: ['src/**/*.test.{ts,tsx}'],
  },
});
