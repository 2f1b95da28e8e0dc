import { readFileSync } from 'node:fs';
import { formatTable } from '/work/main/campaigns/report.ts';
for (const f of process.argv.slice(2)) { const r = JSON.parse(readFileSync(f, 'utf8')); console.log(`# ${f}`); console.log(formatTable(r)); for (const x of r) for (const n of (x.notes ?? []).slice(0, 6)) console.log('  note:', String(n).slice(0, 200)); console.log(); }
