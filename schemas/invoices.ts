import { Type, type Static } from '@sinclair/typebox';
import { MAX_AMOUNT, MAX_QUANTITY, MAX_UNIT_PRICE } from '../commands/invoices/bounds.ts';
import { INVOICE_TYPE_CODES, PAYMENT_MEANS_CODES, VAT_CATEGORY_CODES } from '../commands/invoices/model.ts';
import { Uuid } from './common/index.ts';

const nullable = <T extends ReturnType<typeof Type.String>>(schema: T) => Type.Union([schema, Type.Null()]);
const date = Type.String({ format: 'date', description: 'YYYY-MM-DD' });
/** Money, quantities and rates travel as decimal strings, never as JSON numbers. */
const decimal = (description: string, signed = false) =>
  Type.String({ pattern: signed ? '^-?\\d{1,12}(\\.\\d{1,6})?$' : '^\\d{1,12}(\\.\\d{1,6})?$', description });

export const PartyBlock = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 255, description: 'legal name' }),
    vat_id: Type.String({ maxLength: 20, description: 'IČ DPH: SK + 10 digits; empty for a party that is not VAT-registered (then give ico/dic)' }),
    ico: Type.Optional(nullable(Type.String({ maxLength: 10, description: 'IČO, 8 digits' }))),
    dic: Type.Optional(nullable(Type.String({ maxLength: 20, description: 'DIČ, 10 digits' }))),
    peppol_id: Type.Optional(nullable(Type.String({ maxLength: 100, description: '<scheme>:<identifier>; production 0245:<DIČ>, sandbox 9950:sk<VAT digits>svctest' }))),
    street: Type.Optional(Type.String({ maxLength: 255 })),
    city: Type.Optional(Type.String({ maxLength: 100 })),
    postal_code: Type.Optional(Type.String({ maxLength: 10, description: 'NNN NN or NNNNN' })),
    country_code: Type.Optional(Type.String({ pattern: '^[A-Za-z]{2}$', description: 'ISO 3166-1 alpha-2, default SK' })),
  },
  { additionalProperties: false },
);
export type PartyBlock = Static<typeof PartyBlock>;

export const InvoiceLineRequest = Type.Object(
  {
    line_number: Type.Optional(Type.Integer({ minimum: 1, description: 'default: position in lines, from 1' })),
    item_name: Type.String({ minLength: 1, maxLength: 255 }),
    quantity: decimal(`decimal string; negative for a returned item; within ±${MAX_QUANTITY.toFixed()} (422 beyond)`, true),
    unit_code: Type.Optional(Type.String({ pattern: '^[A-Z0-9]{2,3}$', description: 'UN/ECE Rec. 20, default C62' })),
    unit_price: decimal(`net price per unit; at most ${MAX_UNIT_PRICE.toFixed()} (422 beyond)`),
    vat_rate: Type.String({ pattern: '^\\d{1,2}(\\.\\d{1,2})?$', description: 'percent: 23, 19, 5 or 0' }),
    vat_category_code: Type.Optional(Type.Union(VAT_CATEGORY_CODES.map((c) => Type.Literal(c)), { description: 'UNCL 5305, default S' })),
    vat_exemption_reason_code: Type.Optional(nullable(Type.String({ maxLength: 30, description: 'VATEX code, needed for E, AE, K' }))),
    discount_percentage: Type.Optional(nullable(decimal('percent off quantity × unit_price'))),
    discount_amount: Type.Optional(nullable(decimal('money off the line'))),
  },
  { additionalProperties: false },
);

export const InvoiceRequest = Type.Object(
  {
    invoice_number: Type.Optional(
      Type.String({ minLength: 1, maxLength: 50, pattern: '^[A-Za-z0-9/_.-]+$', description: 'omit to reserve the next number from the workspace series (preview: GET …/invoices/numbering/next)' }),
    ),
    invoice_type: Type.Optional(Type.Union(INVOICE_TYPE_CODES.map((c) => Type.Literal(c)), {
      description: '380 commercial invoice (default), 381 credit note, 325 proforma, 384 corrected invoice (extension: needs preceding_invoice; the rule release in force '
        + 'decides whether the UBL passes: Peppol BIS 3.0.21 refuses 384 outside Germany with PEPPOL-EN16931-P0112, 3.0.22 allows it for Slovakia)',
    })),
    preceding_invoice: Type.Optional(Type.Union([
      Type.Object({ id: Uuid }, { additionalProperties: false, description: 'one of this company\'s invoices (422 with loc ["body","preceding_invoice","id"] otherwise)' }),
      Type.Object({
        number: Type.String({ minLength: 1, maxLength: 50 }),
        issue_date: date,
      }, { additionalProperties: false, description: 'an invoice issued elsewhere' }),
      Type.Null(),
    ], {
      description: 'Extension: the invoice this one corrects (BG-3, written as cac:BillingReference/cac:InvoiceDocumentReference). Required for invoice_type 384 '
        + '(422 with loc ["body","preceding_invoice"] without it); allowed on any type',
    })),
    issue_date: date,
    due_date: Type.Optional(nullable(date)),
    delivery_date: Type.Optional(nullable(Type.String({ format: 'date', description: 'supply date, when it differs from issue_date' }))),
    currency_code: Type.Optional(Type.String({ pattern: '^[A-Z]{3}$', description: 'ISO 4217, default EUR; must match the IBAN currency' })),
    /** default: the company the route names */
    supplier: Type.Optional(PartyBlock),
    /** default: the directory customer named by customer_id */
    buyer: Type.Optional(PartyBlock),
    customer_id: Type.Optional(nullable(Uuid)),
    supplier_iban: Type.Optional(nullable(Type.String({ maxLength: 34, description: 'SK + 22 digits; default: the company IBAN; required for payment means 30 (BR-61)' }))),
    payment_means_code: Type.Optional(Type.Union(PAYMENT_MEANS_CODES.map((c) => Type.Literal(c)), { description: '30 SEPA credit transfer (default), 42 bank account, 48 card' })),
    variable_symbol: Type.Optional(nullable(Type.String({ maxLength: 20, description: 'digits only (else warning SK-BR-04); default: the invoice number when it is all digits' }))),
    note: Type.Optional(nullable(Type.String({ maxLength: 1000 }))),
    buyer_reference: Type.Optional(nullable(Type.String({ maxLength: 100, description: 'Peppol BuyerReference; default: the invoice number' }))),
    order_reference: Type.Optional(nullable(Type.String({ maxLength: 100 }))),
    lines: Type.Array(InvoiceLineRequest, {
      minItems: 1,
      maxItems: 1000,
      description: `soft cap 200 (warning above), hard cap 1000. Every amount the invoice comes to (each line's quantity × unit_price, discount, net, VAT and gross; each VAT breakdown amount; each total) lies within ±${MAX_AMOUNT.toFixed()}: beyond it, 422 with loc ["body","lines",i] for a line, ["body","lines"] for a total`,
    }),
  },
  {
    additionalProperties: false,
    $id: 'InvoiceRequest',
    description: 'supplier defaults to the company of the route, buyer to the directory customer named by customer_id',
  },
);
export type InvoiceRequest = Static<typeof InvoiceRequest>;

const money = Type.String({ pattern: '^-?\\d+\\.\\d{2}$', description: 'decimal string, 2 places' });
const PartyOut = Type.Object({
  name: Type.String(), vat_id: Type.String(), ico: Type.Union([Type.String(), Type.Null()]), dic: Type.Union([Type.String(), Type.Null()]),
  peppol_id: Type.Union([Type.String(), Type.Null()]), street: Type.String(), city: Type.String(), postal_code: Type.String(), country_code: Type.String(),
});
const Finding = Type.Object({ rule: Type.String(), message: Type.String(), severity: Type.String(), field: Type.Optional(Type.String()) });

export const InvoiceLineOut = Type.Object({
  id: Uuid,
  line_number: Type.Integer(),
  item_name: Type.String(),
  quantity: Type.String(),
  unit_code: Type.String(),
  unit_price: Type.String(),
  vat_rate: Type.String(),
  vat_category_code: Type.String(),
  vat_exemption_reason_code: Type.Union([Type.String(), Type.Null()]),
  discount_percentage: Type.Union([Type.String(), Type.Null()]),
  discount_amount: Type.Union([Type.String(), Type.Null()]),
  line_net: money,
  line_vat: money,
  line_gross_amount: money,
});

const stringOrNull = Type.Union([Type.String(), Type.Null()]);

/** The FS filing (corner 5) of the invoice's tax data document. */
export const C5 = Type.Object(
  {
    status: Type.String({ description: 'not_submitted, pending, submitted, acknowledged, rejected, failed' }),
    reporter_role: Type.Union([Type.Literal('C2'), Type.Literal('C3'), Type.Null()], { description: 'C2 for a sent invoice, C3 for a received one' }),
    submission_id: stringOrNull,
    tdd_uuid: stringOrNull,
    mls_response_code: Type.Union([Type.String({ description: 'AP accepted, RE rejected' }), Type.Null()]),
    submitted_at: stringOrNull,
    acknowledged_at: stringOrNull,
    rejected_at: stringOrNull,
    reasons: Type.Union([Type.Object({ description: Type.String(), issues: Type.Array(Type.Object({ rule: Type.String(), message: Type.String(), location: stringOrNull })) }), Type.Null()]),
    attempts: Type.Integer({ description: 'failed transport attempts so far' }),
    error: stringOrNull,
  },
  { $id: 'C5Filing' },
);

/** The Peppol leg: from our Access Point to the buyer's. */
export const PeppolDelivery = Type.Object(
  {
    status: Type.String({ description: 'queued, sent, delivered, rejected (the receiving Access Point\'s MLS said RE), failed, manual (mark-sent), received (inbound copy)' }),
    message_id: stringOrNull,
    receiver_participant_id: stringOrNull,
    attempts: Type.Integer({ description: 'failed transport attempts so far' }),
    error: stringOrNull,
    findings: Type.Array(Type.Object({ rule: Type.String(), message: Type.String() })),
    queued_at: stringOrNull,
    sent_at: stringOrNull,
    delivered_at: stringOrNull,
    failed_at: stringOrNull,
    mls_response_code: Type.Union([Type.Literal('AP'), Type.Literal('AB'), Type.Literal('RE'), Type.Null()], {
      description: "the receiving Access Point's Message Level Status: AP accepted, AB acknowledged (both delivered), RE rejected; null until one came",
    }),
    mls_reasons: Type.Array(
      Type.Object({
        location: Type.String({ description: 'an XPath in the invoice, or NA' }),
        description: Type.String(),
        reason_code: Type.String({ description: 'SV syntax, BV rule (fatal), BW rule (warning), FD delivery failed' }),
      }),
      { description: 'why the MLS rejected the invoice (RE); empty otherwise' },
    ),
    mls_description: stringOrNull,
    mls_received_at: stringOrNull,
  },
  { $id: 'PeppolDelivery' },
);

export const Invoice = Type.Object(
  {
    id: Uuid,
    company_id: Uuid,
    status: Type.String(),
    source: Type.String({ description: '`api` for invoices issued here, `peppol` for inbound copies' }),
    invoice_number: Type.String(),
    invoice_type: Type.String(),
    issue_date: Type.String(),
    due_date: Type.Union([Type.String(), Type.Null()]),
    delivery_date: Type.Union([Type.String(), Type.Null()]),
    currency_code: Type.String(),
    supplier: PartyOut,
    buyer: PartyOut,
    customer_id: Type.Union([Uuid, Type.Null()]),
    supplier_iban: Type.Union([Type.String(), Type.Null()]),
    payment_means_code: Type.String(),
    variable_symbol: Type.Union([Type.String(), Type.Null()]),
    note: Type.Union([Type.String(), Type.Null()]),
    buyer_reference: Type.Union([Type.String(), Type.Null()]),
    order_reference: Type.Union([Type.String(), Type.Null()]),
    preceding_invoice: Type.Union([
      Type.Object({ id: Type.Union([Uuid, Type.Null()]), number: Type.String(), issue_date: Type.Union([Type.String(), Type.Null()]) }),
      Type.Null(),
    ], { description: 'Extension: the preceding invoice (BG-3, the UBL BillingReference) a corrected invoice (384) corrects or a credit note credits; id when it is this company\'s own' }),
    lines: Type.Array(InvoiceLineOut),
    total_net: money,
    total_vat: money,
    total_gross: money,
    vat_breakdown: Type.Array(
      Type.Object({
        vat_category_code: Type.String(), vat_rate: Type.String(), vat_exemption_reason_code: Type.Union([Type.String(), Type.Null()]),
        taxable_amount: money, tax_amount: money,
      }),
    ),
    zzz_correction_amount: money,
    allowances_charges: Type.Array(
      Type.Object({ charge: Type.Boolean(), reason_code: Type.String(), reason: Type.String(), amount: money, vat_category_code: Type.String(), vat_rate: Type.String() }, { additionalProperties: true }),
    ),
    payable_rounding_amount: money,
    amount_due: Type.String({
      pattern: '^-?\\d+\\.\\d{2}$',
      description: [
        'What is still owed. Invoice: payable − credited_amount − paid + refunded, where paid is the payments recorded on it (not reversed) and',
        'refunded the refunds recorded on its credit notes; negative when a refund is due. Example, paid then credited: 123.00 paid in full',
        '(0.00), then a 24.60 credit note is issued: −24.60 (refund_due); a 24.60 refund recorded on the credit note brings it back to 0.00 (paid).',
        'Example, credited then paid: 123.00, a 24.60 credit note issued: 98.40 (unpaid); 98.40 paid: 0.00 (paid). A full reversal of an unpaid',
        'invoice: 0.00 (credited). Credit note: minus what is still to be refunded through it (see settlement); 0.00 until it is issued.',
        'Overpaid (paid more than it asks, or paid in full and then credited): minus what is to be paid back, payment_status `refund_due`.',
        'Within ±999999999999.99 like every amount here: payments that once added up beyond it (before that was refused) are shown at the bound.',
      ].join(' '),
    }),
    warnings: Type.Array(Finding, {
      description: 'Extension to the native spec (its create answer lists no warnings): the business-rule warnings the content gets, each {rule, message, severity: '
        + '`warning`, field}, on the 201 of a create and on every read; the invoice is accepted all the same. E.g. SK-R-002 to SK-R-007 (Peppol BIS 3.0.22): a Slovak '
        + 'domestic invoice should give the seller\'s and the buyer\'s street, city and postal_code. validate lists the same in its warnings[]',
    }),
    peppol_message_id: Type.Union([Type.String(), Type.Null()]),
    fs_submission_id: Type.Union([Type.String(), Type.Null()]),
    c5: Type.Union([C5, Type.Null()]),
    peppol_delivery: Type.Union([PeppolDelivery, Type.Null()]),
    created_by: Type.String(),
    created_at: Type.String({ format: 'date-time' }),
    updated_at: Type.String({ format: 'date-time' }),
    version: Type.Integer({ description: 'send back in If-Match' }),
    credited_invoice: Type.Union([
      Type.Object({
        invoice_id: Uuid, invoice_number: Type.String(), issue_date: Type.String(),
        reason: Type.String({ description: 'full_reversal, partial_credit, price_correction or returned_goods' }),
      }),
      Type.Null(),
    ], { description: 'a credit note made through the credit-note route: the invoice it credits (its UBL BillingReference); null otherwise' }),
    credited_amount: Type.String({ pattern: '^-?\\d+\\.\\d{2}$', description: 'invoice: the gross of its issued credit notes (queued ones count against what is left, not here); 0.00 on a credit note' }),
    payment_status: Type.Union([
      Type.Union(['unpaid', 'partially_paid', 'paid', 'refund_due', 'credited'].map((v) => Type.Literal(v))),
      Type.Null(),
    ], {
      description: 'invoice: `unpaid` (nothing paid, amount_due > 0), `partially_paid`, `paid` (amount_due 0.00), `refund_due` (amount_due < 0),'
        + ' `credited` (fully credited and nothing owed either way). null on a credit note (its settlement tells)',
    }),
    credit_notes: Type.Array(Type.Object({
      id: Uuid, credit_note_number: Type.String(), reason: Type.String(), total_gross: money,
      state: Type.String({ description: '`waiting` (a void\'s draft, up for approval: counts against nothing), `queued`, `issued`, `released` (failed, rejected or discarded: credits nothing)' }),
    }), { description: 'invoice: the credit notes made against it through the credit-note route, oldest first' }),
    settlement: Type.Union([
      Type.Object({
        credited_invoice_id: Type.Union([Uuid, Type.Null()]),
        gross: money,
        refunded: Type.String({ description: 'refunds recorded on it (POST /payments with its id), not reversed' }),
        refund_remaining: Type.String({ description: 'still to be paid back to the buyer through it: at most its gross less its refunds, and in all at most what the invoice has overpaid (allotted to its credit notes oldest first); 0.00 until it is issued. The most a refund recorded on it may be (POST /payments: else 422 `refund_exceeds_remaining`)' }),
        amount_due: Type.String({ description: '−refund_remaining' }),
      }),
      Type.Null(),
    ], { description: 'credit note: what it refunds; null on an invoice' }),
  },
  { $id: 'Invoice' },
);
export type Invoice = Static<typeof Invoice>;

export const InvoiceListRow = Type.Object(
  {
    id: Uuid, company_id: Uuid, source: Type.String(), invoice_number: Type.String(), invoice_type: Type.String(), status: Type.String(),
    issue_date: Type.String(), due_date: Type.Union([Type.String(), Type.Null()]), currency_code: Type.String(),
    supplier_name: Type.String(), buyer_name: Type.String(), total_net: money, total_vat: money, total_gross: money,
    created_by: Type.String(), created_at: Type.String({ format: 'date-time' }), updated_at: Type.String({ format: 'date-time' }), version: Type.Integer(),
  },
  { $id: 'InvoiceListRow' },
);
