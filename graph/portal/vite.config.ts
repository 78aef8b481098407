// The portal's build: one hashed JS and one CSS file under assets/, no
// inline scripts or styles (the server's Content-Security-Policy allows
// none), and no timestamps, so a build from the same sources is the same
// bytes (CI compares the committed dist/ with a fresh build).
import { defineConfig } from 'vite';

export default defineConfig({
  base: '/',
  esbuild: { jsx: 'automatic', jsxImportSource: 'preact', legalComments: 'none' },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    sourcemap: false,
    assetsInlineLimit: 0,
    modulePreload: { polyfill: false },
    cssCodeSplit: false,
    reportCompressedSize: true,
  },
  server: {
    proxy: { '/graphql': { target: 'http://127.0.0.1:8080', ws: true } },
  },
});
