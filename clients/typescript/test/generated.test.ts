import { readFile } from 'node:fs/promises';
import { expect } from 'chai';
import { startTestService, type TestService } from '../../../test/support/service.ts';
import { DOCUMENTS, fetchDocuments, generatedFile, typesOf, type DocumentName } from '../scripts/types.ts';

/**
 * The committed types are what the generator makes of the service's documents today: a change to
 * either OpenAPI document without `npm run generate` fails here (and so in CI).
 */
describe('SDK regeneration check: src/generated/ matches the current OpenAPI documents', function () {
  this.timeout(300_000);
  let svc: TestService;
  let documents: Awaited<ReturnType<typeof fetchDocuments>>;
  before(async () => {
    svc = await startTestService();
    documents = await fetchDocuments(svc.root);
  });
  after(async () => svc?.close());

  for (const name of Object.keys(DOCUMENTS) as DocumentName[]) {
    it(`src/generated/${name}.ts is ${DOCUMENTS[name]} as generated now, byte for byte`, async () => {
      const committed = await readFile(generatedFile(name), 'utf8');
      const fresh = await typesOf(documents[name]);
      if (committed !== fresh) {
        const line = firstDifferentLine(committed, fresh);
        expect.fail(`src/generated/${name}.ts differs from ${DOCUMENTS[name]} (first at line ${line}): run npm run generate in clients/typescript`);
      }
    });
  }
});

function firstDifferentLine(a: string, b: string): number {
  const [left, right] = [a.split('\n'), b.split('\n')];
  const index = left.findIndex((line, i) => line !== right[i]);
  return (index < 0 ? left.length : index) + 1;
}
