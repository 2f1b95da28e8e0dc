// `npm run bench -- pdf [seconds]`: what a PDF costs, rendered as the service renders it (in the
// renderer's worker threads, off the event loop):
//  - latency, one document at a time: p50/p95 at 10 and at 200 lines (targets: ≤ 50 ms and ≤ 300 ms p50);
//  - throughput: PDFs/s of 10-line invoices with the threads kept busy;
//  - the event loop meanwhile: its longest stall while 200-line documents render, against rendering
//    them on the loop itself;
//  - over HTTP on the embedded default: GET …/pdf the first time (render) and again (cached by version).
import { printedDocument, type PrintedDocument } from '../commands/exports/printed-document.ts';
import { createPdfRenderer, type PdfRenderer } from '../src/modules/invoice-pdf/render/index.ts';
import { renderPdf } from '../src/modules/invoice-pdf/render/layout.ts';
import { PANGRAM, printableInvoice } from '../test/pdf/samples.ts';
import { onEmbedded } from './databases.ts';
import { startBenchService } from './http-service.ts';
import { percentile, watchCpu } from './stats.ts';

const ms = (n: number) => `${n.toFixed(1)} ms`;

/** Each render gets its own creation time, as each invoice version would. */
let versions = 0;
const created = () => new Date(Date.UTC(2026, 2, 5) + ++versions * 1000);

async function latency(renderer: PdfRenderer, document: PrintedDocument, runs: number): Promise<number[]> {
  for (let i = 0; i < 5; i++) await renderer.render(document, { created: created() }); // warm: fonts parsed, code optimised
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    await renderer.render(document, { created: created() });
    times.push(performance.now() - started);
  }
  return times.sort((a, b) => a - b);
}

async function throughput(renderer: PdfRenderer, document: PrintedDocument, concurrency: number, seconds: number): Promise<number> {
  const until = performance.now() + seconds * 1000;
  let done = 0;
  const started = performance.now();
  await Promise.all(Array.from({ length: concurrency }, async () => {
    while (performance.now() < until) {
      await renderer.render(document, { created: created() });
      done++;
    }
  }));
  return done / ((performance.now() - started) / 1000);
}

/** The event loop's longest stall (ms) while `work` runs: the largest gap between ticks of a 1 ms timer. */
async function loopStallDuring(work: () => Promise<unknown>): Promise<number> {
  let last = performance.now();
  let worst = 0;
  const probe = setInterval(() => {
    const now = performance.now();
    worst = Math.max(worst, now - last);
    last = now;
  }, 1);
  await work();
  clearInterval(probe);
  return worst;
}

/** Lets timers run (a render that finishes in callbacks alone would never let the probe tick). */
const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

async function overHttp(): Promise<void> {
  await onEmbedded(async (url) => {
    const { api, demo, close } = await startBenchService(url);
    try {
      const company = demo.companies[0]?.id ?? '';
      const headers = { 'x-api-key': demo.api_key, 'content-type': 'application/json' };
      for (const lines of [10, 200]) {
        const { content } = printableInvoice(lines);
        const body = JSON.stringify({
          issue_date: content.issue_date, due_date: content.due_date, note: content.note,
          buyer: { name: PANGRAM, vat_id: 'SK2020000004', city: 'Košice' },
          lines: content.lines.map(({ item_name, quantity, unit_code, unit_price, vat_rate, discount_percentage }) => ({ item_name, quantity, unit_code, unit_price, vat_rate, discount_percentage })),
        });
        const invoice = (await (await fetch(`${api}/companies/${company}/invoices`, { method: 'POST', headers, body })).json()) as { id: string };
        const get = async () => {
          const started = performance.now();
          const res = await fetch(`${api}/companies/${company}/invoices/${invoice.id}/pdf`, { headers });
          await res.arrayBuffer();
          if (res.status !== 200) throw new Error(`GET pdf answered ${res.status}`);
          return performance.now() - started;
        };
        const first = await get();
        const again: number[] = [];
        for (let i = 0; i < 50; i++) again.push(await get());
        again.sort((a, b) => a - b);
        console.log(`  ${String(lines).padStart(3)} lines: first GET (renders; the first of the process also starts the threads) ${ms(first)}   cached p50 ${ms(percentile(again, 50))}`);
      }
    } finally {
      await close();
    }
  });
}

export async function main(args: string[]): Promise<void> {
  const seconds = Number(args[0] ?? 5);
  const renderer = createPdfRenderer();
  const ten = printedDocument(printableInvoice(10));
  const twoHundred = printedDocument(printableInvoice(200));
  try {
    console.log(`PDF rendering in worker threads (min(2, CPUs)), Node ${process.version}`);
    const cpu = watchCpu();
    for (const [label, document, runs, target] of [['10 lines', ten, 100, 50], ['200 lines', twoHundred, 40, 300]] as const) {
      const times = await latency(renderer, document, runs);
      const p50 = percentile(times, 50);
      console.log(`  ${label.padEnd(9)} one at a time: p50 ${ms(p50)}   p95 ${ms(percentile(times, 95))}   (${runs} renders; target p50 ≤ ${target} ms: ${p50 <= target ? 'met' : 'MISSED'})`);
    }
    const rate = await throughput(renderer, ten, 4, seconds);
    console.log(`  throughput: ${rate.toFixed(0)} PDFs/s (10-line invoices, 4 in flight, ${seconds} s)`);
    const offLoop = await loopStallDuring(() => Promise.all(Array.from({ length: 10 }, () => renderer.render(twoHundred, { created: created() }))));
    await renderPdf(twoHundred, { created: created() }); // this thread's fonts and code warmed first, as the workers' are
    const onLoop = await loopStallDuring(async () => {
      for (let i = 0; i < 10; i++) {
        await renderPdf(twoHundred, { created: created() });
        await tick();
      }
    });
    console.log(`  longest event-loop stall while ten 200-line PDFs render: in the threads ${ms(offLoop)}, on the loop itself ${ms(onLoop)}`);
    console.log(`  ${cpu()}`);
  } finally {
    await renderer.close();
  }
  console.log('\nGET …/invoices/{id}/pdf over HTTP (embedded default):');
  await overHttp();
}
