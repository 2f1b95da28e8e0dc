// Issue 21: all XML goes through src/platform/xml/, and the lint rule in eslint.config.js keeps it so.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { ESLint } from 'eslint';

const REPO = fileURLToPath(new URL('../../', import.meta.url));

async function xmlRuleHits(code: string, file: string): Promise<string[]> {
  const [result] = await new ESLint({ cwd: REPO }).lintText(code, { filePath: path.join(REPO, file) });
  return result!.messages.filter((m) => m.message.includes('src/platform/xml/')).map((m) => m.ruleId ?? '');
}

describe('xml: one parser, enforced by lint', () => {
  it('forbids XML libraries outside src/platform/xml/: imports, subpaths, require() and import()', async () => {
    expect(await xmlRuleHits("import { XmlDocument } from 'libxml2-wasm';\nexport const x = XmlDocument;\n", 'src/modules/invoices/ubl/new-reader.ts')).to.deep.equal(['no-restricted-imports']);
    expect(await xmlRuleHits("import type { XMLBuilder } from 'xmlbuilder2/lib/interfaces.js';\nexport type X = XMLBuilder;\n", 'test/ubl/x.test.ts')).to.deep.equal(['no-restricted-imports']);
    expect(await xmlRuleHits("import { createRequire } from 'node:module';\nconst require = createRequire(import.meta.url);\nexport const s: unknown = require('saxon-js');\n", 'src/modules/delivery/peppol/x.ts')).to.deep.equal(['no-restricted-syntax']);
    expect(await xmlRuleHits("export const s = await import('@xmldom/xmldom');\n", 'campaigns/x.ts')).to.deep.equal(['no-restricted-syntax']);
  });

  it('allows them in src/platform/xml/, and SaxonJS in the XSLT engine loader only', async () => {
    expect(await xmlRuleHits("import { XmlDocument } from 'libxml2-wasm';\nexport const x = XmlDocument;\n", 'src/platform/xml/parse.ts')).to.deep.equal([]);
    const saxon = "import { createRequire } from 'node:module';\nconst require = createRequire(import.meta.url);\nexport const s: unknown = require('saxon-js');\n";
    expect(await xmlRuleHits(saxon, 'src/platform/validation/schematron/saxon.ts')).to.deep.equal([]);
    expect(await xmlRuleHits(saxon.replace('saxon-js', 'libxml2-wasm'), 'src/platform/validation/schematron/saxon.ts')).to.deep.equal(['no-restricted-syntax']);
  });
});
