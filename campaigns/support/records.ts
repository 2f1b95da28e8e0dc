// The acknowledged-answer log of a campaign: every 2xx the load got, one JSON line each, in a file
// outside the service's data directory, so a crash of the service cannot take it along. The
// checker reads it back and looks for each line in the event store and the read models.
import { createWriteStream, type WriteStream } from 'node:fs';
import { readFile } from 'node:fs/promises';

/** What was acknowledged. */
export type RecordKind =
  | 'customer.create'
  | 'invoice.create'
  | 'invoice.edit'
  | 'invoice.send'
  | 'credit-note.create'
  | 'payment.create'
  | 'webhook.create'
  | 'webhook.delete'
  | 'sapi.send'
  | 'sapi.acknowledge';

/** One acknowledged (2xx) answer. */
export interface AckRecord {
  /** ms since the epoch when the answer arrived */
  at: number;
  client: number;
  kind: RecordKind;
  /** which demo organisation: 'a' (two companies, SAPI) or 'b' (the second organisation) */
  org: 'a' | 'b';
  /** the organisation's id */
  organisation: string;
  company: string;
  /** the resource the answer names: invoice, credit note, payment, webhook, customer, SAPI document */
  id: string;
  status: number;
  /** the stream version the answer states (invoices: `version`; a credit note: the credited invoice's X-Invoice-Version) */
  version?: number;
  /** invoices and credit notes: the number issued */
  number?: string;
  /** credit notes and payments: the invoice they are about */
  invoice?: string;
  /** SAPI sends: the Idempotency-Key */
  key?: string;
}

/** Appends records to a JSONL file. */
export class Records {
  private readonly out: WriteStream;
  private count = 0;

  constructor(readonly file: string) {
    this.out = createWriteStream(file, { flags: 'a' });
  }

  write(record: AckRecord): void {
    this.count++;
    this.out.write(`${JSON.stringify(record)}\n`);
  }

  /** records written through this writer */
  get written(): number {
    return this.count;
  }

  close(): Promise<void> {
    return new Promise((resolve, reject) => this.out.end((error?: Error | null) => (error ? reject(error) : resolve())));
  }
}

/** Every record of a log file (a torn last line, if any, is skipped). */
export async function readRecords(file: string): Promise<AckRecord[]> {
  const text = await readFile(file, 'utf8');
  const records: AckRecord[] = [];
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    try {
      records.push(JSON.parse(line) as AckRecord);
    } catch {
      // only a last line written while the campaign itself died can be torn
    }
  }
  return records;
}
