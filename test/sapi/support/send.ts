import { createHash, randomUUID } from 'node:crypto';
import { BILLING_PROCESS_ID, documentTypeFor } from '../../../src/modules/delivery/peppol/identifiers.ts';
import type { TestService } from '../../support/service.ts';


/** A native API call with the company's organisation's key. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Native = (method: string, path: string, body?: unknown) => Promise<{ status: number; body: any }>;

const customers = new Map<string, string>();

/**
 * A valid UBL Invoice (or CreditNote) from `from` to the buyer `to`, written by the service's own
 * builder: a customer and a draft invoice made through the native API, and its /ubl. The draft
 * is only a source of XML; the SAPI send makes no invoice of its own.
 */
export async function ublBetween(
  svc: Pick<TestService, 'api' | 'demo'>, from: { companyId: string; apiKey?: string }, to: { name: string; vat_id: string; ico: string; dic: string; peppol_id: string },
  options: { lines?: number } = {},
): Promise<{ xml: string; invoiceId: string }> {
  const call: Native = async (method, path, body) => {
    const response = await fetch(`${svc.api}${path}`, {
      method, headers: { 'x-api-key': from.apiKey ?? svc.demo.api_key, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : undefined };
  };
  const cacheKey = `${from.companyId} ${to.vat_id}`;
  let customerId = customers.get(cacheKey);
  if (!customerId) {
    const customer = await call('POST', `/companies/${from.companyId}/customers`, { name: to.name, vat_id: to.vat_id, ico: to.ico, dic: to.dic, peppol_id: to.peppol_id });
    if (customer.status !== 201) throw new Error(`no customer: ${JSON.stringify(customer.body)}`);
    customerId = customer.body.id as string;
    customers.set(cacheKey, customerId);
  }
  const created = await call('POST', `/companies/${from.companyId}/invoices`, {
    issue_date: '2026-11-20', due_date: '2026-12-04', customer_id: customerId,
    lines: Array.from({ length: options.lines ?? 1 }, (_, i) => ({ item_name: `Servis ${i + 1}`, quantity: '1', unit_price: '120.00', vat_rate: '23' })),
  });
  if (created.status !== 201) throw new Error(`invoice not created: ${JSON.stringify(created.body)}`);
  const response = await fetch(`${svc.api}/companies/${from.companyId}/invoices/${created.body.id}/ubl`, { headers: { 'x-api-key': from.apiKey ?? svc.demo.api_key } });
  const xml = await response.text();
  if (response.status !== 200) throw new Error(`no UBL: ${response.status} ${xml}`);
  return { xml, invoiceId: created.body.id };
}

export const sha256Hex = (text: string) => createHash('sha256').update(Buffer.from(text, 'utf8')).digest('hex');

/** A send request for `xml` between two participants, as a SAPI client writes it. */
export function sendRequest(xml: string, sender: string, receiver: string, overrides: { root?: 'Invoice' | 'CreditNote'; documentId?: string } = {}) {
  return {
    metadata: {
      documentId: overrides.documentId ?? `FA-${randomUUID().slice(0, 8)}`, documentTypeId: documentTypeFor(overrides.root ?? 'Invoice'), processId: BILLING_PROCESS_ID,
      senderParticipantId: sender, receiverParticipantId: receiver, creationDateTime: '2026-11-20T10:00:00Z',
    },
    payload: xml,
    payloadFormat: 'XML',
  };
}

export const newKey = () => `key-${randomUUID()}`;
