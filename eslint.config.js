// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

// One XML parser (issue 21): XML libraries are used in src/platform/xml/ only (parse.ts parses, xsd.ts validates,
// write.ts writes; src/platform/xml/README.md says why). Everywhere else they are forbidden, as imports and as
// the string given to require() or import(). The one other user is the XSLT engine's loader
// (src/platform/validation/schematron/saxon.ts), which only ever reads text src/platform/xml has already accepted.
const XML_LIBRARIES = ['libxml2-wasm', 'xmlbuilder2', 'saxon-js', 'xslt3', 'sax', 'saxes', 'fast-xml-parser', '@xmldom/xmldom', 'xmldom', 'xml2js', 'xml-js', 'xpath', 'libxmljs', 'libxmljs2', 'txml', 'htmlparser2'];
const XML_MESSAGE = 'XML is parsed and written only through src/platform/xml/ (the one safe parser): import from src/platform/xml/index.ts or src/platform/xml/write.ts.';
/** The rules that forbid `libraries` (as import, require() or import()) outside src/platform/xml/. */
function forbidXml(libraries) {
  const names = libraries.map((l) => l.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')).join('|');
  const literal = `Literal[value=/^(${names})(\\/.*)?$/]`;
  return {
    'no-restricted-imports': ['error', { patterns: [{ group: libraries.flatMap((l) => [l, `${l}/*`]), message: XML_MESSAGE }] }],
    'no-restricted-syntax': [
      'error',
      { selector: `CallExpression[callee.name='require'] > ${literal}`, message: XML_MESSAGE },
      { selector: `ImportExpression > ${literal}`, message: XML_MESSAGE },
    ],
  };
}

export default tseslint.config(
  { ignores: ['node_modules/**', 'data/**', '.cache/**', 'coverage/**', 'dist/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-console': 'off',
    },
  },
  { files: ['**/*.ts', '**/*.js', '**/*.mjs', '**/*.cjs'], rules: forbidXml(XML_LIBRARIES) },
  { files: ['src/platform/xml/**'], rules: { 'no-restricted-imports': 'off', 'no-restricted-syntax': 'off' } },
  // SaxonJS is the XSLT engine of the Schematron rule sets: it parses the shipped stylesheets and the
  // text of documents parseUntrusted accepted (ParsedXml.text), nothing else.
  { files: ['src/platform/validation/schematron/saxon.ts'], rules: forbidXml(XML_LIBRARIES.filter((l) => l !== 'saxon-js')) },
  {
    // CommonJS on purpose (mocha loads reporters before any TypeScript hook)
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs', globals: { require: 'readonly', module: 'writable', process: 'readonly' } },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    files: ['test/**/*.ts', '**/*.test.ts'],
    rules: { '@typescript-eslint/no-unused-expressions': 'off' },
  },
);
