import { readFileSync } from 'node:fs';
import type { DomainEvent } from '../../commands/shared/decider.ts';
import { inStream, projectorSpec } from '../../test/support/projector-given.ts';
import { peppolReporting } from './projector.ts';

type Fixture = DomainEvent<string, Record<string, unknown>>;
const fixture = (type: string, version = 1): Fixture => {
  const f = JSON.parse(readFileSync(new URL(`../../test/fixtures/events/${type}.v${version}.json`, import.meta.url), 'utf8')) as { type: string; data: Record<string, unknown> };
  return { type: f.type, data: f.data };
};
const created = fixture('InvoiceCreated');
const sentV1 = fixture('PeppolMessageSent', 1);
const sentV2 = fixture('PeppolMessageSent', 2);
const received = fixture('InvoiceReceived');
const accepted = fixture('SapiDocumentAccepted');
const sapiSent = fixture('SapiDocumentSent', 2);
const invoiceStream = `invoice-${String(created.data.invoice_id)}`;
const ROWS = `SELECT direction, peppol_message_id, end_user_id, end_user_country, process_id, c1_country, c4_country, peer_ap, transport_profile,
  to_char(exchanged_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS') AS at FROM peppol_reporting_items ORDER BY direction, peppol_message_id`;
const BILLING = 'urn:fdc:peppol.eu:2017:poacc:billing:01:1.0';

describe('Peppol Reporting projector', function () {
  this.timeout(120_000); // a fresh database per scenario

  const given = projectorSpec(peppolReporting);

  it('a sent invoice: its sender is the end user, C1 country from the invoice, the receiving AP from the AS4 receipt', () =>
    given(inStream(invoiceStream, created, sentV2)).then(ROWS, [
      { direction: 'sent', peppol_message_id: sentV2.data.peppol_message_id, end_user_id: '9950:sk2022131705svctest', end_user_country: 'SK', process_id: BILLING,
        c1_country: 'SK', c4_country: null, peer_ap: 'POP000002', transport_profile: 'peppol-transport-as4-v2_0', at: '2026-11-24T03:27:01' },
    ]));

  it('a send stored as version 1 (no AS4 receipt): no other Access Point named, and a repeated Sent is one document', () =>
    given(inStream(invoiceStream, created, sentV1, sentV1)).then(`SELECT direction, peer_ap FROM peppol_reporting_items`, [{ direction: 'sent', peer_ap: null }]));

  it('a SAPI-SK send: process and COUNTRY_C1 as the client gave them', () =>
    given(inStream(`sapi_document-${String(accepted.data.document_id)}`, accepted, sapiSent)).then(
      `SELECT direction, end_user_id, process_id, c1_country, peer_ap FROM peppol_reporting_items`,
      [{ direction: 'sent', end_user_id: '9950:sk2020273893svctest', process_id: (accepted.data.metadata as { process_id: string }).process_id, c1_country: 'SK', peer_ap: null }],
    ));

  it('a received invoice: its receiver is the end user, process from the UBL ProfileID, C1 and C4 countries from the parties', () =>
    given(inStream(`invoice-${String(received.data.invoice_id)}`, received)).then(ROWS, [
      { direction: 'received', peppol_message_id: received.data.peppol_message_id, end_user_id: '9950:sk2036474836svctest', end_user_country: 'SK', process_id: BILLING,
        c1_country: 'SK', c4_country: 'SK', peer_ap: null, transport_profile: 'peppol-transport-as4-v2_0', at: '2026-11-24T03:27:01' },
    ]));
});
