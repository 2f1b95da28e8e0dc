import { eventually } from '../support/poll.ts';

/** A client of the bulk-import routes for one API key. */
export function importClient(api: string, apiKey: string) {
  const headers = { 'x-api-key': apiKey };
  const read = async (response: Response) => {
    const text = await response.text();
    return { status: response.status, body: (text ? JSON.parse(text) : undefined) as any, headers: response.headers }; // eslint-disable-line @typescript-eslint/no-explicit-any
  };
  const client = {
    /** POST the file as the body (text/csv unless told) */
    async send(companyId: string, file: string | Uint8Array, contentType = 'text/csv') {
      return read(await fetch(`${api}/companies/${companyId}/invoices/bulk-import`, { method: 'POST', headers: { ...headers, 'content-type': contentType }, body: typeof file === 'string' ? file : Buffer.from(file) }));
    },
    /** POST the file as a multipart upload in `field` */
    async upload(companyId: string, file: string, name = 'faktury.csv', field = 'file') {
      const form = new FormData();
      form.append('note', 'ignored');
      form.append(field, new Blob([file], { type: 'text/csv' }), name);
      return read(await fetch(`${api}/companies/${companyId}/invoices/bulk-import`, { method: 'POST', headers, body: form }));
    },
    async status(companyId: string, jobId: string) {
      return read(await fetch(`${api}/companies/${companyId}/bulk-imports/${jobId}`, { headers }));
    },
    /** the job once it left processing */
    async finished(companyId: string, jobId: string, withinMs = 120_000) {
      const done = await eventually(() => client.status(companyId, jobId), (r) => r.status !== 200 || r.body.status !== 'processing', { withinMs, what: `job ${jobId} finished` });
      return done.body as Job;
    },
    /** sends `file` and waits for its job to finish */
    async run(companyId: string, file: string | Uint8Array, contentType?: string) {
      const sent = await client.send(companyId, file, contentType);
      if (sent.status !== 202) throw new Error(`bulk import answered ${sent.status}: ${JSON.stringify(sent.body)}`);
      return client.finished(companyId, sent.body.job_id as string);
    },
  };
  return client;
}

export interface Job {
  job_id: string;
  status: 'processing' | 'completed' | 'failed';
  total_rows: number | null;
  rows_processed: number;
  created: number;
  errors: { row: number; column: string | null; message: string }[];
  errors_total: number;
  invoices: { rows: number[]; invoice_ref: string; invoice_id: string; invoice_number: string }[];
  file_name: string | null;
}

/** A CSV of `rows` (arrays of cells) with `sep`, CRLF, optionally a BOM; cells are quoted when they need it. */
export function csv(rows: readonly (readonly string[])[], sep = ';', bom = false): string {
  const cell = (c: string) => (/["\r\n;,]/.test(c) ? `"${c.replace(/"/g, '""')}"` : c);
  return `${bom ? '\uFEFF' : ''}${rows.map((r) => r.map(cell).join(sep)).join('\r\n')}\r\n`;
}
