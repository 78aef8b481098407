// The portal's build: one hashed JS and one CSS file under assets/, no
// inline scripts or styles (the server's Content-Security-Policy allows
// none), and no timestamps, so a build from the same sources is the same
// bytes (CI compares the committed dist/ with a fresh build). The build
// also copies the published browser builds of Swagger UI and GraphiQL
// into dist/third-party/ (third-party.ts).
import { defineConfig } from 'vite';
import { thirdParty } from './third-party';

export default defineConfig({
  base: '/',
  plugins: [thirdParty()],
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
