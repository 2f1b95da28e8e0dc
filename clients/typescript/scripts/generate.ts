// npm run generate [-- <service root URL>]: rewrites src/generated/ from the service's two OpenAPI
// documents. With a URL it reads a running service; without, it starts one in-process the way the
// tests do (a throwaway embedded database) and reads that.
import { writeFile } from 'node:fs/promises';
import { DOCUMENTS, generatedFile, typesFromService, type DocumentName } from './types.ts';

const url = process.argv[2];
const types = await typesFromService(url);
for (const name of Object.keys(DOCUMENTS) as DocumentName[]) {
  await writeFile(generatedFile(name), types[name]);
  console.log(`wrote ${generatedFile(name)}`);
}
