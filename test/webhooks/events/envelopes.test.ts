import type { TObject } from '@sinclair/typebox';
import { expect } from 'chai';
import { NO_INVOICE_ID, WEBHOOK_EVENT_SCHEMAS } from '../../../schemas/webhook-events.ts';
import type { RecordedEvent } from '../../../src/platform/eventstore/port.ts';
import { createResponseAjv } from '../../../src/platform/http/ajv.ts';
import { WEBHOOK_CATALOGUE, WEBHOOK_SOURCE_EVENT_TYPES, type EmittedWebhookEventType } from '../../../src/modules/webhooks/events/catalogue.ts';
import {
  fsVerdictEvent, sapiClientLockedOutEvent, testPingEvent, userLockedOutEvent, webhookEventsOf, type WebhookEventOut,
} from '../../../src/modules/webhooks/events/envelopes.ts';
import type { SignInLockedOut } from '../../../events/identity.ts';
import type { SapiClientLockedOut } from '../../../events/sapi-clients.ts';
import { invoiceFacts } from '../../../src/modules/webhooks/events/invoice-facts.ts';
import { CREDIT_NOTE_ID, RECEIVED_ID, SENT_ID, fixture, last, receivedCopy, record, sentInvoice } from './stories.ts';

const ORGANISATION = '880cfc62-c591-4fc0-b901-6d004d156bda';
const WORKSPACE = 'd73eec6b-6925-4862-89c7-353bb3283b40';
const SENDER = 'fe6e4938-57be-445e-ab32-ae95dfdc75e4';
const RECEIVER = 'f14d103a-995c-494a-8746-36de9a53d5de';

const ajv = createResponseAjv();
const validators = new Map(Object.entries(WEBHOOK_EVENT_SCHEMAS).map(([type, schema]) => [type, ajv.compile(schema)]));

/** What the fan-out does with one source event: fold its invoice as of the event, then build. */
function raise(stream: readonly RecordedEvent[], source: RecordedEvent): WebhookEventOut[] {
  const facts = invoiceFacts(stream, source);
  if (!facts) throw new Error('no invoice');
  return webhookEventsOf(source, facts);
}

const only = (out: WebhookEventOut[]): WebhookEventOut => {
  expect(out).to.have.length(1);
  return out[0]!;
};
const sourceOf = (stream: RecordedEvent[], type: string) => {
  const found = stream.find((e) => e.type === type);
  if (!found) throw new Error(`no ${type}`);
  return found;
};
/** The body as a consumer reads it, checked against its schema, compact, in the documented key order. */
function body(out: WebhookEventOut): Record<string, any> { // eslint-disable-line @typescript-eslint/no-explicit-any
  const parsed = JSON.parse(out.body);
  const validate = validators.get(out.type)!;
  expect(validate(parsed), JSON.stringify(validate.errors)).to.equal(true);
  expect(out.body).to.equal(JSON.stringify(parsed)); // compact: what JSON.stringify writes, no whitespace
  const schema = WEBHOOK_EVENT_SCHEMAS[out.type as EmittedWebhookEventType] as TObject;
  expect(Object.keys(parsed), 'envelope order').to.deep.equal(Object.keys(schema.properties));
  expect(Object.keys(parsed.data), 'data order').to.deep.equal(Object.keys((schema.properties['data'] as TObject).properties));
  expect(out.envelope).to.equal(WEBHOOK_CATALOGUE[out.type as EmittedWebhookEventType].envelope);
  expect(out.id).to.equal(parsed.id);
  expect(parsed.type ?? parsed.event).to.equal(out.type);
  expect(out.occurred_at).to.equal(parsed.occurred_at ?? parsed.created_at);
  return parsed;
}

describe('webhook envelopes', () => {
  describe('from an invoice issued here (the sender\'s copy)', () => {
    const stream = sentInvoice();

    it('invoice.created (svc.event.v1) carries the invoice\'s summary', () => {
      const out = only(raise(stream, sourceOf(stream, 'InvoiceCreated')));
      expect(out).to.include({ type: 'invoice.created', envelope: 'svc.event.v1', organisation_id: ORGANISATION, company_id: SENDER, workspace_id: WORKSPACE });
      const b = body(out);
      expect(b).to.include({ schema: 'svc.event.v1', type: 'invoice.created', occurred_at: '2026-11-24T03:26:10.876Z', organisation_id: ORGANISATION, workspace_id: WORKSPACE });
      expect(b['resource']).to.deep.equal({ type: 'invoice', id: SENT_ID });
      expect(b['data']).to.deep.equal({
        invoice_id: SENT_ID, invoice_number: '2026000001', company_id: SENDER, invoice_type: '380', status: 'draft', credited_invoice_id: null,
        issue_date: '2026-11-20', currency_code: 'EUR', buyer_name: 'Demo Odberateľ a.s.', buyer_vat_id: 'SK2036474836',
        total_net: '120.00', total_vat: '27.60', total_gross: '147.60', created_at: '2026-11-24T03:26:10.876Z',
      });
    });

    it('invoice.validated and invoice.queued (svc.event.v1) carry who validated and the send\'s message', () => {
      const validated = body(only(raise(stream, sourceOf(stream, 'InvoiceValidated'))));
      expect(validated['data']).to.deep.equal({
        invoice_id: SENT_ID, invoice_number: '2026000001', company_id: SENDER, status: 'validated',
        validated_by: '6d4456f0-b939-407b-b2b2-61b1df7f7532', validated_at: '2026-11-24T03:29:36.508Z',
      });
      const queued = body(only(raise(stream, sourceOf(stream, 'InvoiceQueued'))));
      expect(queued['data']).to.deep.equal({
        invoice_id: SENT_ID, invoice_number: '2026000001', company_id: SENDER, status: 'queued',
        message_id: 'b94f78d7-77fb-49a8-9256-e6ddb37d754d', receiver_participant_id: '9950:sk2036474836svctest', queued_at: '2026-11-24T03:26:10.903Z',
      });
    });

    it('invoice.delivered (legacy) when the receiving Access Point confirmed delivery', () => {
      const out = only(raise(stream, sourceOf(stream, 'PeppolDeliveryConfirmed')));
      expect(out).to.include({ type: 'invoice.delivered', envelope: 'legacy', company_id: SENDER });
      const b = body(out);
      expect(b).to.include({ event: 'invoice.delivered', created_at: '2026-11-24T03:27:02.300Z' });
      expect(b['id']).to.match(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      expect(b['data']).to.deep.equal({
        invoice_id: SENT_ID, invoice_number: '2026000001', company_id: SENDER, message_id: 'b94f78d7-77fb-49a8-9256-e6ddb37d754d', delivered_at: '2026-11-24T03:27:02.300Z',
      });
    });

    it('invoice.fs_acknowledged for the sender\'s copy: sent, C2, exactly these bytes', () => {
      const source = sourceOf(stream, 'FsCopyAcknowledged');
      const out = only(raise(stream, source));
      body(out);
      expect(out.id).to.match(/^evt_[0-9a-f]{32}$/);
      expect(out.body).to.equal(
        `{"schema":"svc.event.v1","id":"${out.id}","type":"invoice.fs_acknowledged","occurred_at":"2026-11-24T03:26:11.087Z",`
        + `"organisation_id":"${ORGANISATION}","workspace_id":"${WORKSPACE}","resource":{"type":"invoice","id":"${SENT_ID}"},`
        + `"data":{"invoice_id":"${SENT_ID}","invoice_number":"2026000001","direction":"sent","supplier_vat_id":"SK2022131705",`
        + '"provider_document_id":null,"reporter_role":"C2","state":"acknowledged","tdd_uuid":"543c5f84-72f6-8cd7-8a8d-362ed45d32af",'
        + '"mls_response_code":"AP","acknowledged_at":"2026-11-24T03:26:11.087Z","rejected_at":null,"reasons":null}}',
      );
    });

    it('raises nothing for the steps in between (audit entry, FS submission, Peppol message sent)', () => {
      for (const type of ['InvoiceAuditEntryRecorded', 'FsCopySubmitted', 'PeppolMessageSent']) expect(raise(stream, sourceOf(stream, type)), type).to.deep.equal([]);
    });
  });

  describe('from the receiver\'s copy', () => {
    it('invoice.received (legacy) with source, number, supplier VAT id, message id and provider document id', () => {
      const stream = receivedCopy('FsCopyAcknowledged');
      const out = only(raise(stream, stream[0]!));
      expect(out).to.include({ type: 'invoice.received', envelope: 'legacy', company_id: RECEIVER, workspace_id: WORKSPACE });
      expect(body(out)['data']).to.deep.equal({
        invoice_id: RECEIVED_ID, source: 'peppol', invoice_number: '2026000001', supplier_vat_id: 'SK2022131705',
        message_id: 'b94f78d7-77fb-49a8-9256-e6ddb37d754d', provider_document_id: null, company_id: RECEIVER, received_at: '2026-11-24T03:27:01.899Z',
      });
    });

    it('its own invoice.fs_acknowledged: received, C3, its own invoice id, and an id other than the sender\'s', () => {
      const stream = receivedCopy('FsCopyAcknowledged');
      const out = only(raise(stream, last(stream)));
      const b = body(out);
      expect(b['resource']).to.deep.equal({ type: 'invoice', id: RECEIVED_ID });
      expect(b['data']).to.deep.include({ invoice_id: RECEIVED_ID, invoice_number: '2026000001', direction: 'received', supplier_vat_id: 'SK2022131705', reporter_role: 'C3', state: 'acknowledged', rejected_at: null, reasons: null });
      const sent = sentInvoice();
      expect(out.id).not.to.equal(only(raise(sent, sourceOf(sent, 'FsCopyAcknowledged'))).id);
      expect(out.company_id).to.equal(RECEIVER);
    });

    it('invoice.fs_rejected: rejected_at and reasons set, acknowledged_at null', () => {
      const stream = receivedCopy('FsCopyRejected');
      const out = only(raise(stream, last(stream)));
      expect(out.type).to.equal('invoice.fs_rejected');
      const data = body(out)['data'];
      expect(data).to.deep.include({ direction: 'received', reporter_role: 'C3', state: 'rejected', mls_response_code: 'RE', acknowledged_at: null, rejected_at: '2026-11-24T03:27:50.773Z' });
      expect(data.reasons).to.deep.equal(fixture('FsCopyRejected').data['reasons']);
    });
  });

  describe('from a credit note', () => {
    const stream = record('credit-note', ['CreditNoteCreated', { type: 'InvoiceQueued', stream: `invoice-${CREDIT_NOTE_ID}`, data: { invoice_id: CREDIT_NOTE_ID } }]);

    it('invoice.created names it a 381 and the invoice it credits', () => {
      const data = body(only(raise(stream, stream[0]!)))['data'];
      expect(data).to.include({ invoice_id: CREDIT_NOTE_ID, invoice_number: 'DOB-2026-000002', invoice_type: '381', status: 'draft', credited_invoice_id: SENT_ID });
    });

    it('invoice.queued when it is sent', () => {
      expect(body(only(raise(stream, stream[1]!)))['data']).to.include({ invoice_id: CREDIT_NOTE_ID, status: 'queued' });
    });
  });

  describe('invoice.rejected', () => {
    const failed = (data: Record<string, unknown>) => record('failed', ['InvoiceCreated', 'InvoiceQueued', { type: 'PeppolDeliveryFailed', data }]);

    it('is raised when the receiving side returned the rejection', () => {
      const findings = [{ rule: 'SANDBOX-PEPPOL-01', message: 'The receiver rejected the document.' }];
      const stream = failed({ reason: 'the receiver rejected the document (SANDBOX-PEPPOL-01)', findings, attempts: 0, rejected_by_receiver: true });
      const out = only(raise(stream, last(stream)));
      expect(out).to.include({ type: 'invoice.rejected', envelope: 'legacy', company_id: SENDER });
      expect(body(out)['data']).to.deep.equal({
        invoice_id: SENT_ID, invoice_number: '2026000001', company_id: SENDER, message_id: '73b302cd-d6f5-4df2-be83-0f508fe5bdab',
        reason: 'the receiver rejected the document (SANDBOX-PEPPOL-01)', findings, rejected_at: '2026-11-24T03:27:07.129Z',
      });
    });

    it('is not raised when the Peppol leg gave up or our side refused (the stored fixture: a transport give-up)', () => {
      const stream = failed({});
      expect(raise(stream, last(stream))).to.deep.equal([]);
    });
  });

  it('invoice.validation_failed carries the stages, the findings and the status the invoice kept', () => {
    const invoice = record('validation', ['InvoiceCreated']);
    const failure = record('validation-failure', ['InvoiceValidationFailed'], 1)[0]!;
    const out = only(webhookEventsOf(failure, invoiceFacts(invoice, failure)!));
    const b = body(out);
    expect(b['resource']).to.deep.equal({ type: 'invoice', id: SENT_ID });
    const stored = fixture('InvoiceValidationFailed').data;
    expect(b['data']).to.deep.equal({
      invoice_id: SENT_ID, invoice_number: '2026000001', company_id: SENDER, status: 'draft', business_rules_valid: true, xsd_valid: true,
      peppol_valid: false, slovak_valid: true, error_count: 1, errors: stored['errors'], failed_at: '2026-11-24T03:25:58.412Z',
    });
  });

  it('every source type raises at least one event in some story (nothing in the catalogue is dead)', () => {
    const raised = new Set<string>();
    const stories = [
      sentInvoice(), receivedCopy('FsCopyAcknowledged'), receivedCopy('FsCopyRejected'),
      record('credit-note', ['CreditNoteCreated']),
      record('failed', ['InvoiceCreated', 'InvoiceQueued', { type: 'PeppolDeliveryFailed', data: { rejected_by_receiver: true } }]),
    ];
    for (const stream of stories) for (const event of stream) if (raise(stream, event).length > 0) raised.add(event.type);
    raised.add('InvoiceValidationFailed'); // its own stream: tested above
    raised.add('SapiFsAcknowledged').add('SapiFsRejected'); // a SAPI document's stream: c5-submissions.test.ts
    raised.add('SapiClientLockedOut').add('SignInLockedOut'); // lock-outs: below
    expect([...raised].sort()).to.deep.equal([...WEBHOOK_SOURCE_EVENT_TYPES].sort());
  });

  describe('ids and bodies are stable for a logical event', () => {
    it('the same source gives the same id and bytes twice, even once the stream has grown', () => {
      const stream = sentInvoice();
      const created = sourceOf(stream, 'InvoiceCreated');
      const early = raise(stream.slice(0, 1), created);
      const again = raise(stream, created); // the reaction repeated after a crash, the invoice since sent and delivered
      expect(again).to.deep.equal(early);
      expect(raise(stream, created)).to.deep.equal(again);
    });

    it('other source events give other ids, however alike their data', () => {
      const ids = [sentInvoice('one'), sentInvoice('two')].flatMap((stream) => stream.flatMap((e) => raise(stream, e))).map((o) => o.id);
      expect(ids).to.have.length(10); // created, validated, queued, fs_acknowledged, delivered of each
      expect(new Set(ids).size).to.equal(ids.length);
    });
  });

  it('writes times in UTC with their zone whatever form the source had', () => {
    const stream = record('offset', [{ type: 'InvoiceCreated', data: { created_at: '2026-11-24T04:26:10.876+01:00' } }]);
    const b = body(only(raise(stream, stream[0]!)));
    expect(b['occurred_at']).to.equal('2026-11-24T03:26:10.876Z');
    expect(b['data'].created_at).to.equal('2026-11-24T03:26:10.876Z');
  });

  it('keeps non-ASCII text as UTF-8, not escaped', () => {
    const content = { ...(fixture('InvoiceCreated').data['content'] as Record<string, unknown>) };
    content['buyer'] = { ...(content['buyer'] as Record<string, unknown>), name: 'Žltý kôň s.r.o.' };
    const stream = record('utf8', [{ type: 'InvoiceCreated', data: { content } }]);
    const out = only(raise(stream, stream[0]!));
    expect(out.body).to.include('"buyer_name":"Žltý kôň s.r.o."');
    expect(body(out)['data'].buyer_name).to.equal('Žltý kôň s.r.o.');
  });

  it('refuses facts of another invoice than the source\'s', () => {
    const sent = sentInvoice();
    const received = receivedCopy('FsCopyAcknowledged');
    expect(() => webhookEventsOf(last(received), invoiceFacts(sent)!)).to.throw(/concerns invoice/);
  });

  describe('c5_submission: a SAPI-SK document without a mirror invoice', () => {
    const subject = {
      organisation_id: ORGANISATION, company_id: RECEIVER, workspace_id: WORKSPACE, invoice_id: null, invoice_number: 'FA-2026-118',
      direction: 'received' as const, supplier_vat_id: null, provider_document_id: 'sapi-doc-7f3a9c', reporter_role: 'C3' as const,
    };

    it('names the provider document as its resource, with data.invoice_id null', () => {
      const out = fsVerdictEvent('c5-source-1', subject, { state: 'acknowledged', tdd_uuid: 'c5c5c5c5-0000-4000-8000-000000000001', mls_response_code: 'AP', at: '2026-11-25T08:00:00.000Z', reasons: null });
      const b = body(out);
      expect(b['resource']).to.deep.equal({ type: 'c5_submission', id: 'sapi-doc-7f3a9c' });
      expect(b['data']).to.deep.equal({
        invoice_id: null, invoice_number: 'FA-2026-118', direction: 'received', supplier_vat_id: null, provider_document_id: 'sapi-doc-7f3a9c',
        reporter_role: 'C3', state: 'acknowledged', tdd_uuid: 'c5c5c5c5-0000-4000-8000-000000000001', mls_response_code: 'AP',
        acknowledged_at: '2026-11-25T08:00:00.000Z', rejected_at: null, reasons: null,
      });
      expect(fsVerdictEvent('c5-source-1', subject, { state: 'acknowledged', tdd_uuid: 'c5c5c5c5-0000-4000-8000-000000000001', mls_response_code: 'AP', at: '2026-11-25T08:00:00.000Z', reasons: null })).to.deep.equal(out);
    });

    it('a rejection too', () => {
      const reasons = { description: 'The tax data document was rejected.', issues: [{ rule: 'SANDBOX-FS-99', message: 'rejected', location: null }] };
      const b = body(fsVerdictEvent('c5-source-2', subject, { state: 'rejected', tdd_uuid: 'c5c5c5c5-0000-4000-8000-000000000002', mls_response_code: 'RE', at: '2026-11-25T08:00:00Z', reasons }));
      expect(b['data']).to.deep.include({ invoice_id: null, state: 'rejected', acknowledged_at: null, rejected_at: '2026-11-25T08:00:00.000Z', reasons });
    });

    it('needs an invoice or a provider document to name', () => {
      expect(() => fsVerdictEvent('x', { ...subject, provider_document_id: null }, { state: 'acknowledged', tdd_uuid: 't', mls_response_code: 'AP', at: '2026-11-25T08:00:00Z', reasons: null })).to.throw();
    });
  });

  describe('lock-outs (issue 37)', () => {
    it('sapi_client.locked_out names the client, its company and the addresses, for the organisation and the company\'s workspace', () => {
      const lock = fixture('SapiClientLockedOut').data as SapiClientLockedOut['data'];
      const out = sapiClientLockedOutEvent('lock-source-1', lock, WORKSPACE);
      expect(out).to.include({ type: 'sapi_client.locked_out', envelope: 'svc.event.v1', organisation_id: ORGANISATION, company_id: SENDER, workspace_id: WORKSPACE });
      const b = body(out);
      expect(b['resource']).to.deep.equal({ type: 'sapi_client', id: lock.client_id });
      expect(b['data']).to.deep.equal({
        sapi_client_id: lock.client_id, company_id: SENDER, failures: 5, ips: ['203.0.113.7', '198.51.100.23'], locked_at: '2026-11-24T15:06:00.000Z',
        locked_until: '2026-11-24T15:21:00.000Z',
      });
      expect(sapiClientLockedOutEvent('lock-source-1', lock, WORKSPACE)).to.deep.equal(out);
    });

    it('user.locked_out names the user, the budget emptied and the addresses, for the organisation only', () => {
      const lock = fixture('SignInLockedOut').data as SignInLockedOut['data'];
      const out = userLockedOutEvent('lock-source-2', lock);
      expect(out).to.include({ type: 'user.locked_out', organisation_id: lock.organisation_id, company_id: null, workspace_id: null });
      const b = body(out);
      expect(b['resource']).to.deep.equal({ type: 'user', id: lock.user_id });
      expect(b['data']).to.deep.include({ user_id: lock.user_id, email: lock.email, scope: 'account', failures: 10, ips: ['127.0.0.1', '198.51.100.23'] });
    });
  });

  describe('test.ping', () => {
    const ping = { ping_id: '5d0c4b7e-2f1a-4c3b-9a8d-7e6f5a4b3c2d', organisation_id: ORGANISATION, endpoint_id: '9a1b2c3d-4e5f-4a6b-8c7d-0e1f2a3b4c5d', requested_at: '2026-11-25T09:30:00.000Z' };

    it('is a legacy envelope whose data.invoice_id is the nil UUID, naming the endpoint tested', () => {
      const out = testPingEvent(ping);
      expect(out).to.include({ type: 'test.ping', envelope: 'legacy', organisation_id: ORGANISATION, company_id: null, workspace_id: null });
      expect(out.body).to.equal(`{"id":"${out.id}","event":"test.ping","created_at":"2026-11-25T09:30:00.000Z","data":{"invoice_id":"${NO_INVOICE_ID}","webhook_id":"${ping.endpoint_id}","requested_at":"2026-11-25T09:30:00.000Z"}}`);
      body(out);
    });

    it('keeps its id for the same ping and takes a new one for the next', () => {
      expect(testPingEvent(ping)).to.deep.equal(testPingEvent(ping));
      expect(testPingEvent({ ...ping, ping_id: '5d0c4b7e-2f1a-4c3b-9a8d-7e6f5a4b3c2e' }).id).not.to.equal(testPingEvent(ping).id);
    });
  });
});
