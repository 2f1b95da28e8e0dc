/**
 * The request's numbers as the money rules need them, refused field by field in the spec's
 * request-body 422 (`{detail: [{loc, msg, type, input}]}`) otherwise. The route's JSON Schema
 * checks the shape; these are the values a schema states less clearly (a gross of at most two
 * decimals above 0, a positive quantity, at least one entry), checked here so the pure functions
 * never compute on a value they cannot credit.
 */
import type { Decimal } from 'decimal.js';
import { MAX_AMOUNT, MAX_QUANTITY } from '../invoices/bounds.ts';
import { VAT_CATEGORY_CODES, type VatCategoryCode } from '../invoices/model.ts';
import { ZERO, parseDecimal } from '../invoices/money.ts';
import { InvalidFields, type FieldProblem } from '../shared/invalid-fields.ts';
import type { CreditNoteRequest } from './model.ts';

const MAX_MONEY_PLACES = 2;
const MAX_QUANTITY_PLACES = 6;

export function checkCreditNoteRequest(request: CreditNoteRequest): void {
  const problems: FieldProblem[] = [];
  const problem = (loc: (string | number)[], msg: string, input: unknown) => problems.push({ loc: ['body', ...loc], msg, type: 'value_error', input });
  const positive = (loc: (string | number)[], value: string, places: number, max: Decimal): void => {
    const parsed = parseDecimal(value);
    if (parsed === null) problem(loc, 'must be a decimal string', value);
    else if (!parsed.greaterThan(ZERO)) problem(loc, 'must be above 0', value);
    else if (parsed.decimalPlaces() > places) problem(loc, `must have at most ${places} decimal places`, value);
    else if (parsed.greaterThan(max)) problem(loc, `must be at most ${max.toFixed()}`, value);
  };

  if (request.reason === 'partial_credit' || request.reason === 'price_correction') {
    if (request.amounts.length === 0) problem(['amounts'], 'name at least one amount', request.amounts);
    request.amounts.forEach((amount, i) => {
      const rate = parseDecimal(amount.vat_rate);
      if (rate === null || rate.isNegative()) problem(['amounts', i, 'vat_rate'], 'must be a decimal string of at least 0', amount.vat_rate);
      const category = amount.vat_category_code ?? 'S';
      if (!VAT_CATEGORY_CODES.includes(category)) problem(['amounts', i, 'vat_category_code'], `must be one of ${VAT_CATEGORY_CODES.join(', ')}`, category);
      positive(['amounts', i, 'gross'], amount.gross, MAX_MONEY_PLACES, MAX_AMOUNT);
    });
  }
  if (request.reason === 'returned_goods') {
    if (request.lines.length === 0) problem(['lines'], 'name at least one line', request.lines);
    request.lines.forEach((line, i) => positive(['lines', i, 'quantity'], line.quantity, MAX_QUANTITY_PLACES, MAX_QUANTITY));
  }
  if (problems.length > 0) throw new InvalidFields(problems);
}

/** The body as it comes over the wire: every shape's fields optional, `reason` choosing which are read. */
interface CreditNoteWireBody {
  reason: CreditNoteRequest['reason'];
  amounts?: { vat_rate: string; vat_category_code?: string; vat_exemption_reason_code?: string | null; gross: string }[];
  lines?: { source_line_id: string; quantity: string }[];
  note?: string | null;
}

/**
 * The request shape `reason` selects: amounts[] for partial_credit and price_correction, lines[]
 * for returned_goods, neither for full_reversal. A field of another shape is refused, not ignored:
 * a client sending amounts with full_reversal meant something else. Values: checkCreditNoteRequest.
 */
export function creditNoteRequestOf(body: CreditNoteWireBody): CreditNoteRequest {
  const problems: FieldProblem[] = [];
  const missing = (field: string) => problems.push({ loc: ['body', field], msg: `Field required for reason ${body.reason}`, type: 'missing', input: body });
  const extra = (field: 'amounts' | 'lines') =>
    problems.push({ loc: ['body', field], msg: `not read for reason ${body.reason}`, type: 'extra_forbidden', input: body[field] });
  const note = body.note ?? null;
  const wantsAmounts = body.reason === 'partial_credit' || body.reason === 'price_correction';
  if (!wantsAmounts && body.amounts !== undefined) extra('amounts');
  if (body.reason !== 'returned_goods' && body.lines !== undefined) extra('lines');
  if (wantsAmounts && body.amounts === undefined) missing('amounts');
  if (body.reason === 'returned_goods' && body.lines === undefined) missing('lines');
  if (problems.length > 0) throw new InvalidFields(problems);
  if (body.reason === 'full_reversal') return { reason: body.reason, note };
  if (body.reason === 'returned_goods') return { reason: body.reason, lines: body.lines ?? [], note };
  const amounts = (body.amounts ?? []).map((a) => ({
    vat_rate: a.vat_rate, gross: a.gross, vat_exemption_reason_code: a.vat_exemption_reason_code ?? null,
    // an unknown code is refused by checkCreditNoteRequest, field by field
    ...(a.vat_category_code === undefined ? {} : { vat_category_code: a.vat_category_code as VatCategoryCode }),
  }));
  return { reason: body.reason, amounts, note };
}
