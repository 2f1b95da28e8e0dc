import type { BulkImportRowError } from '../../events/bulk-import.ts';
import { stableUuid } from '../shared/stable-id.ts';
import type { Column } from './columns.ts';
import type { CsvRecord, Header } from './header.ts';
import { BULK_IMPORT_LIMITS } from './limits.ts';
import { parseCode, parseDate, parseDecimal, parseText, type Parsed } from './values.ts';

/**
 * The rows of one invoice (those sharing an invoice_ref, in file order, wherever they stand) as
 * the body `POST …/invoices` would take, with what it takes to point a refusal back at a row and
 * a column. A group with `errors` is refused as a whole before anything is written.
 */
export interface InvoiceGroup {
  /** position among the groups, by the first row of each: a resumed job goes on from an index */
  index: number;
  /** null for a row without invoice_ref, which is a group of its own and always refused */
  ref: string | null;
  /** the invoice's id: a function of the job and the ref, so a resumed job cannot create it twice */
  invoiceId: string;
  /** data rows, in file order; rows[i] is line i */
  rows: number[];
  /** the invoice request body (validated by the invoice API's own schema later) */
  request: Record<string, unknown>;
  /** the row an invoice-level column's value was taken from */
  origins: Record<string, number>;
  errors: BulkImportRowError[];
}

const parserOf: Record<Column['kind'], (cell: string) => Parsed> = { text: parseText, decimal: parseDecimal, date: parseDate, code: parseCode };

/** The id of the invoice a group makes: the same job and ref give the same id, on every run. */
const groupInvoiceId = (jobId: string, ref: string | null, firstRow: number) =>
  stableUuid('bulk-import', jobId, ref === null ? `row:${firstRow}` : `ref:${ref}`);

const isBlank = (cells: readonly string[]) => cells.every((c) => c.trim() === '');

interface Cells {
  row: number;
  values: Map<string, string>;
  errors: BulkImportRowError[];
}

/** A row's non-empty cells by column name, parsed; cells that do not parse become errors. */
function readRow(header: Header, record: CsvRecord): Cells {
  const values = new Map<string, string>();
  const errors: BulkImportRowError[] = [];
  record.cells.forEach((cell, i) => {
    if (cell.trim() === '') return;
    const column = header[i];
    if (column === undefined) {
      errors.push({ row: record.row, column: null, message: `cell ${i + 1} has no column: the header has ${header.length}` });
      return;
    }
    if (column === null) return;
    const parsed = parserOf[column.kind](cell);
    if (parsed.ok) values.set(column.name, parsed.value);
    else errors.push({ row: record.row, column: column.name, message: parsed.message });
  });
  return { row: record.row, values, errors };
}

/**
 * Collects a file's data rows into invoices, one record at a time (a worker can yield between
 * records), and builds each invoice's request only when asked (when its chunk is decided). Blank
 * rows are skipped and count nowhere.
 */
export class RowGrouper {
  private readonly byRef = new Map<string, Cells[]>();
  private readonly order: { ref: string | null; rows: Cells[] }[] = [];
  /** data rows seen (blank rows not counted) */
  dataRows = 0;

  constructor(
    private readonly jobId: string,
    private readonly header: Header,
  ) {}

  add(record: CsvRecord): void {
    if (isBlank(record.cells)) return;
    this.dataRows++;
    const cells = readRow(this.header, record);
    const ref = cells.values.get('invoice_ref') ?? null;
    if (ref === null) {
      cells.errors.push({ row: cells.row, column: 'invoice_ref', message: 'invoice_ref is empty: every row names the invoice it belongs to' });
      this.order.push({ ref: null, rows: [cells] });
      return;
    }
    const rows = this.byRef.get(ref);
    if (rows) rows.push(cells);
    else {
      const fresh = [cells];
      this.byRef.set(ref, fresh);
      this.order.push({ ref, rows: fresh });
    }
  }

  /** how many invoices (groups) the rows so far make */
  get size(): number {
    return this.order.length;
  }

  /** the index-th invoice, in order of first appearance */
  group(index: number): InvoiceGroup {
    const entry = this.order[index];
    if (!entry) throw new RangeError(`no invoice group ${index}`);
    return toGroup(this.jobId, index, entry.ref, entry.rows);
  }
}

/** Every group of a file's data rows at once (tests, small files). */
export function groupRows(jobId: string, header: Header, records: readonly CsvRecord[]): { groups: InvoiceGroup[]; dataRows: number } {
  const grouper = new RowGrouper(jobId, header);
  for (const record of records) grouper.add(record);
  return { groups: Array.from({ length: grouper.size }, (_, i) => grouper.group(i)), dataRows: grouper.dataRows };
}

const INVOICE_FIELDS = ['invoice_number', 'invoice_type', 'issue_date', 'due_date', 'delivery_date', 'currency_code', 'customer_id', 'supplier_iban', 'payment_means_code', 'variable_symbol', 'note'];
const BUYER_FIELDS = ['name', 'vat_id', 'ico', 'dic', 'peppol_id', 'street', 'city', 'postal_code', 'country_code'];
const LINE_FIELDS = ['item_name', 'quantity', 'unit_code', 'unit_price', 'vat_rate', 'vat_category_code', 'vat_exemption_reason_code', 'discount_percentage', 'discount_amount'];

function toGroup(jobId: string, index: number, ref: string | null, rows: Cells[]): InvoiceGroup {
  const first = rows[0]!;
  const errors = rows.flatMap((r) => r.errors);
  if (ref !== null && ref.length > BULK_IMPORT_LIMITS.maxRefLength) {
    errors.push({ row: first.row, column: 'invoice_ref', message: `invoice_ref is longer than ${BULK_IMPORT_LIMITS.maxRefLength} characters` });
  }
  if (rows.length > BULK_IMPORT_LIMITS.maxLinesPerInvoice) {
    errors.push({ row: rows[BULK_IMPORT_LIMITS.maxLinesPerInvoice]!.row, column: 'invoice_ref', message: `invoice ${ref} has ${rows.length} lines; at most ${BULK_IMPORT_LIMITS.maxLinesPerInvoice}` });
  }
  // invoice-level values: the first row that gives one; a later row may repeat it, not change it
  const invoice = new Map<string, string>();
  const origins: Record<string, number> = {};
  for (const row of rows) {
    for (const [name, value] of row.values) {
      if (name === 'invoice_ref' || LINE_FIELDS.includes(name)) continue;
      const given = invoice.get(name);
      if (given === undefined) {
        invoice.set(name, value);
        origins[name] = row.row;
      } else if (given !== value) {
        errors.push({ row: row.row, column: name, message: `${name} "${value}" differs from "${given}" given for invoice ${ref} on row ${origins[name]}` });
      }
    }
  }
  const request: Record<string, unknown> = {};
  for (const field of INVOICE_FIELDS) {
    const value = invoice.get(field);
    if (value !== undefined) request[field] = value;
  }
  if (BUYER_FIELDS.some((f) => invoice.has(`buyer_${f}`))) {
    // a buyer that is not VAT-registered has an empty vat_id, as in the party block
    const buyer: Record<string, unknown> = { vat_id: '' };
    for (const field of BUYER_FIELDS) {
      const value = invoice.get(`buyer_${field}`);
      if (value !== undefined) buyer[field] = value;
    }
    request['buyer'] = buyer;
  }
  request['lines'] = rows.map((row) => {
    const line: Record<string, unknown> = {};
    for (const field of LINE_FIELDS) {
      const value = row.values.get(field);
      if (value !== undefined) line[field] = value;
    }
    return line;
  });
  return { index, ref, invoiceId: groupInvoiceId(jobId, ref, first.row), rows: rows.map((r) => r.row), request, origins, errors };
}

/**
 * Where in the file a refusal of the group's request points: a path into the request
 * (`['lines', 2, 'unit_price']`, `['buyer', 'vat_id']`, or a rule's "lines[2].vat_rate") becomes
 * the row and column it came from; anything else is the group's first row, column null.
 */
export function locate(group: InvoiceGroup, path: readonly (string | number)[] | string): { row: number; column: string | null } {
  const parts = typeof path === 'string' ? fieldPath(path) : path[0] === 'body' ? path.slice(1) : path;
  const first = group.rows[0]!;
  const [head, second, third] = parts;
  if (head === 'lines' && typeof second === 'number') {
    const row = group.rows[second] ?? first;
    return { row, column: typeof third === 'string' && LINE_FIELDS.includes(third) ? third : null };
  }
  if (head === 'buyer' && typeof second === 'string' && BUYER_FIELDS.includes(second)) {
    const column = `buyer_${second}`;
    return { row: group.origins[column] ?? first, column };
  }
  // the buyer as a whole: its directory customer when one is named, else the buyer_* columns (buyer_name first)
  if (head === 'buyer') return group.request['customer_id'] !== undefined ? { row: group.origins['customer_id'] ?? first, column: 'customer_id' } : { row: group.origins['buyer_name'] ?? first, column: 'buyer_name' };
  if (typeof head === 'string' && INVOICE_FIELDS.includes(head)) return { row: group.origins[head] ?? first, column: head };
  return { row: first, column: null };
}

/** "lines[2].vat_rate" → ['lines', 2, 'vat_rate'] */
function fieldPath(field: string): (string | number)[] {
  return field.split('.').flatMap((part) => {
    const indexed = /^(\w+)\[(\d+)\]$/.exec(part);
    return indexed ? [indexed[1]!, Number(indexed[2])] : [part];
  });
}
