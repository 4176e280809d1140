/**
 * The React host demo (issue 14): a Vite + React app using @gatehouse/react, built to
 * demo/react/dist and served by `npm start` (dev mode) at /react/ beside the plain-HTML demo.
 * The server fills the page's placeholders (loader src and SRI, base URL, client id, CSP nonce).
 */
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

export default defineConfig({
  root: import.meta.dirname,
  base: '/react/',
  plugins: [react()],
  // Source of @gatehouse/react, as the other bundles resolve workspace packages.
  resolve: { conditions: ['dev-source', 'browser', 'module', 'import', 'default'] },
  // The page runs under the demo's CSP (nonce + strict-dynamic): the entry script carries the per-request nonce.
  html: { cspNonce: '%CSP_NONCE%' },
  define: { 'process.env.NODE_ENV': '"production"' },
  build: { outDir: 'dist', emptyOutDir: true, target: 'es2022', modulePreload: false, reportCompressedSize: false },
});
