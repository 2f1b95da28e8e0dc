// `npx tsx bench/xml-guard.ts [NOTES]`: what one hostile UBL (default 200,000 cbc:Note elements,
// ~4.2 MB) costs each entry point for untrusted XML: the safe parser, the UBL reader (the inbound
// path), and the validator in the calling thread (the CLI). Prints wall time, CPU time and the RSS after each.
import { readUbl } from '../src/modules/invoices/ubl/index.ts';
import { createValidator } from '../src/platform/validation/index.ts';
import { parseUntrusted } from '../src/platform/xml/index.ts';
import { invoiceWithNotes } from '../test/validation/support/generate-invoice.ts';

const notes = Number(process.argv[2] ?? 200_000);
const xml = Buffer.from(invoiceWithNotes(notes));

function measure(name: string, work: () => Promise<string> | string): Promise<void> {
  const cpu = process.cpuUsage();
  const started = performance.now();
  return Promise.resolve(work()).then((outcome) => {
    const used = process.cpuUsage(cpu);
    const ms = performance.now() - started;
    const rss = process.memoryUsage().rss / 1024 / 1024;
    console.log(`${name.padEnd(10)} ${ms.toFixed(0).padStart(7)} ms wall ${((used.user + used.system) / 1000).toFixed(0).padStart(7)} ms CPU  rss ${rss.toFixed(0)} MB  ${outcome}`);
  });
}

console.log(`${notes} notes, ${(xml.byteLength / 1024 / 1024).toFixed(1)} MB (Node ${process.version})`);
const validator = await createValidator({ workers: 0 });
// warm the engine on a one-line invoice first, so the figures below are the document's own cost
for (let i = 0; i < 3; i++) await validator.validate(invoiceWithNotes(0));
await measure('parse', () => {
  const r = parseUntrusted(xml);
  if (r.ok) r.parsed.doc.dispose();
  return r.ok ? 'accepted' : r.finding.rule;
});
await measure('readUbl', () => {
  try {
    return `read, ${readUbl(xml).content.note?.length ?? 0} note chars`;
  } catch (err) {
    return (err as { rule?: string }).rule ?? String(err);
  }
});
await measure('validate', async () => {
  const r = await validator.validate(xml);
  return r.errors.length === 0 ? 'valid' : `${r.errors.length} errors, first ${r.errors[0]?.rule}`;
});
await validator.close();
