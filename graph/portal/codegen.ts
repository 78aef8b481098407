// GraphQL Code Generator: types every operation written with graphql() in
// src/ from the server's schema files (graph/*.graphqls), so the build never
// needs a running server or introspection.
import type { CodegenConfig } from '@graphql-codegen/cli';

const config: CodegenConfig = {
  schema: '../*.graphqls',
  documents: ['src/**/*.{ts,tsx}', '!src/gql/**/*'],
  ignoreNoDocuments: false,
  generates: {
    './src/gql/': {
      preset: 'client',
      presetConfig: { fragmentMasking: false },
      config: {
        documentMode: 'string',
        useTypeImports: true,
        enumsAsTypes: true,
        scalars: { Time: 'string', JSON: 'unknown', ID: 'string' },
        strictScalars: true,
        defaultScalarType: 'unknown',
      },
    },
  },
};

export default config;
