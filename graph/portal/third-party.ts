// The browser builds of published npm packages that the einvoice binary
// serves beside the portal: Swagger UI at /docs (swagger-ui-dist) and
// GraphiQL at /graphql (graphiql on react and react-dom). The build copies
// them byte for byte from node_modules, whose versions package-lock.json
// pins, into dist/third-party/<bundle>/, and writes
// dist/third-party/manifest.json: for every file its package, version,
// path in the package and SHA-256. The Go tests check the files the binary
// serves against that manifest and the manifest against the lockfile.
import { readFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import type { Plugin } from 'vite';

type File = { pkg: string; path: string; name: string };

const bundles: Record<string, File[]> = {
  'swagger-ui': [
    { pkg: 'swagger-ui-dist', path: 'swagger-ui-bundle.js', name: 'swagger-ui-bundle.js' },
    { pkg: 'swagger-ui-dist', path: 'swagger-ui-standalone-preset.js', name: 'swagger-ui-standalone-preset.js' },
    { pkg: 'swagger-ui-dist', path: 'swagger-ui.css', name: 'swagger-ui.css' },
    { pkg: 'swagger-ui-dist', path: 'favicon-16x16.png', name: 'favicon-16x16.png' },
    { pkg: 'swagger-ui-dist', path: 'favicon-32x32.png', name: 'favicon-32x32.png' },
    { pkg: 'swagger-ui-dist', path: 'LICENSE', name: 'LICENSE' },
    { pkg: 'swagger-ui-dist', path: 'NOTICE', name: 'NOTICE' },
    { pkg: 'swagger-ui-dist', path: 'swagger-ui-bundle.js.LICENSE.txt', name: 'swagger-ui-bundle.js.LICENSE.txt' },
    {
      pkg: 'swagger-ui-dist',
      path: 'swagger-ui-standalone-preset.js.LICENSE.txt',
      name: 'swagger-ui-standalone-preset.js.LICENSE.txt',
    },
  ],
  graphiql: [
    { pkg: 'graphiql', path: 'graphiql.min.js', name: 'graphiql.min.js' },
    { pkg: 'graphiql', path: 'graphiql.min.css', name: 'graphiql.min.css' },
    { pkg: 'graphiql', path: 'LICENSE', name: 'LICENSE.graphiql' },
    { pkg: 'react', path: 'umd/react.production.min.js', name: 'react.production.min.js' },
    { pkg: 'react', path: 'LICENSE', name: 'LICENSE.react' },
    { pkg: 'react-dom', path: 'umd/react-dom.production.min.js', name: 'react-dom.production.min.js' },
    { pkg: 'react-dom', path: 'LICENSE', name: 'LICENSE.react-dom' },
  ],
};

const modules = fileURLToPath(new URL('./node_modules/', import.meta.url));

export function thirdParty(): Plugin {
  return {
    name: 'einvoice-third-party',
    apply: 'build',
    generateBundle() {
      const manifest: Record<string, { package: string; version: string; path: string; sha256: string }> = {};
      for (const [bundle, files] of Object.entries(bundles)) {
        for (const f of files) {
          const root = modules + f.pkg + '/';
          const { version } = JSON.parse(readFileSync(root + 'package.json', 'utf8')) as { version: string };
          const source = readFileSync(root + f.path);
          const fileName = `third-party/${bundle}/${f.name}`;
          this.emitFile({ type: 'asset', fileName, source });
          manifest[fileName] = {
            package: f.pkg,
            version,
            path: f.path,
            sha256: createHash('sha256').update(source).digest('hex'),
          };
        }
      }
      this.emitFile({
        type: 'asset',
        fileName: 'third-party/manifest.json',
        source: JSON.stringify(manifest, null, 2) + '\n',
      });
    },
  };
}
