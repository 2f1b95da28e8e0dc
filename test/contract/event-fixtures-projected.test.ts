import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { DataSource } from 'typeorm';
import { apiKeys } from '../../projections/api-keys/projector.ts';
import { invoiceApprovals } from '../../projections/approvals/projector.ts';
import { CustomerEntity } from '../../projections/customer-directory/entity.ts';
import { creditNoteAllowance } from '../../projections/credit-note-allowance/projector.ts';
import { customerDirectory } from '../../projections/customer-directory/projector.ts';
import { identity } from '../../projections/identity/projector.ts';
import { invoiceRegister } from '../../projections/invoices/projector.ts';
import { payments } from '../../projections/payments/projector.ts';
import { tenancy } from '../../projections/tenancy/projector.ts';
import type { RecordedEvent } from '../../src/platform/eventstore/port.ts';
import { openReadModels } from '../../src/platform/readmodel/data-source.ts';
import { freshDatabase, type TestDatabase } from '../support/database.ts';

/**
 * The stored fixtures (test/fixtures/events) through the read models: every projector applies the
 * old events it handles without error and makes the rows the API reads. event-fixtures.test.ts
 * folds the same fixtures through the deciders.
 */
const FIXTURES = new URL('../fixtures/events/', import.meta.url).pathname;
const projectors = [tenancy, apiKeys, identity, customerDirectory, invoiceRegister, creditNoteAllowance, payments, invoiceApprovals];

/** The order a service writes them in: tenancy first, an invoice's story from creation on, the inbound copy last. */
const STORY = [
  'OrganisationCreated', 'WorkspaceCreated', 'UserAdded', 'CompanyRegistered', 'CompanyProfileUpdated', 'ApiKeyIssued', 'ApiKeyUpdated', 'ApiKeyRevoked', 'SapiClientIssued', 'SapiClientLockedOut',
  'OAuthClientIssued', 'OAuthClientRevoked', 'RefreshFamilyStarted', 'RefreshTokenRotated', 'RefreshFamilyRevoked', 'PasswordChanged',
  'TotpEnrolmentStarted', 'TotpSecretIssued', 'TotpEnabled', 'TotpCodeUsed', 'TotpDisabled', 'LoginFailed', 'LoginSucceeded', 'CredentialCheckFailed', 'SignInLockedOut',
  'CustomerRegistered', 'CustomerArchived', 'InvoiceCreated', 'InvoiceUpdated', 'InvoiceValidated', 'InvoiceApprovalRequested', 'InvoiceApprovalRejected',
  'InvoiceApproved', 'InvoiceApprovalVoided', 'InvoiceQueued', 'InvoiceAuditEntryRecorded',
  'DeliveryAttemptFailed', 'PeppolMessageSent', 'PeppolDeliveryConfirmed', 'FsCopySubmitted', 'FsCopyRejected', 'CreditNoteReserved',
  'CreditNoteReleased', 'PaymentRecorded', 'PaymentReversed', 'InvoiceReceived',
];

function recorded(): RecordedEvent[] {
  const byType = new Map(readdirSync(FIXTURES).filter((f) => f.endsWith('.v1.json')).map((file) => {
    const fixture = JSON.parse(readFileSync(join(FIXTURES, file), 'utf8')) as { stream_id: string; type: string; data: Record<string, unknown> };
    return [fixture.type, fixture] as const;
  }));
  const revisions = new Map<string, number>();
  return STORY.map((type, i) => {
    const fixture = byType.get(type);
    if (!fixture) throw new Error(`no fixture ${type}.v1.json`);
    const revision = revisions.get(fixture.stream_id) ?? 0;
    revisions.set(fixture.stream_id, revision + 1);
    return {
      id: randomUUID(), streamId: fixture.stream_id, revision, position: String(i + 1).padStart(8, '0'), type, data: fixture.data,
      metadata: {}, recordedAt: new Date(Date.UTC(2026, 10, 24, 3, 0, i)),
    };
  });
}

describe('frozen event contracts: stored fixtures through the read models', function () {
  this.timeout(120_000);
  let database: TestDatabase;
  let db: DataSource;

  before(async () => {
    database = await freshDatabase();
    db = await openReadModels(database.connectionString, projectors, [CustomerEntity], 2);
  });
  after(async () => {
    await db?.destroy();
    await database?.drop();
  });

  it('every projector applies the old events it handles', async () => {
    const events = recorded();
    for (const projector of projectors) {
      const handled = events.filter((e) => projector.handles.includes(e.type));
      await db.transaction((tx) => projector.apply(handled, tx));
    }
    const created = events.find((e) => e.type === 'InvoiceCreated')!.data as { invoice_id: string; content: { invoice_number: string } };
    const [invoice] = await db.query('SELECT invoice_number, status, source FROM invoices WHERE id = $1', [created.invoice_id]);
    expect(invoice).to.deep.equal({ invoice_number: created.content.invoice_number, status: 'rejected', source: 'api' });
    const received = events.find((e) => e.type === 'InvoiceReceived')!.data as { invoice_id: string };
    const [inbound] = await db.query('SELECT status, source FROM invoices WHERE id = $1', [received.invoice_id]);
    expect(inbound).to.deep.equal({ status: 'delivered', source: 'peppol' });
    const customer = events.find((e) => e.type === 'CustomerRegistered')!.data as { customer_id: string };
    expect(await db.query('SELECT id FROM customers WHERE id = $1', [customer.customer_id])).to.have.length(1);
    const [credits] = await db.query('SELECT jsonb_array_length(credit_notes) AS count FROM invoice_credit_notes WHERE invoice_id = $1', [created.invoice_id]);
    expect(credits?.count).to.be.greaterThan(0);
    const paid = events.find((e) => e.type === 'PaymentRecorded')!.data as { payment_id: string };
    expect(await db.query('SELECT status FROM payments WHERE id = $1', [paid.payment_id])).to.deep.equal([{ status: 'reversed' }]);
    // the fixtures' approval names another request than the one asked and rejected: it leaves the record as it was
    const [approval] = await db.query(`SELECT approval->>'status' AS status, approval->>'reason' AS reason FROM invoice_approvals WHERE invoice_id = $1`, [created.invoice_id]);
    expect(approval?.status).to.equal('rejected');
    expect(approval?.reason).to.be.a('string').and.not.equal('');
    // lock-outs in the security log, with the addresses that caused them
    const lockouts = await db.query(`SELECT type, ips, detail, sapi_client_id FROM security_events WHERE ips IS NOT NULL ORDER BY type`);
    expect(lockouts).to.deep.equal([
      { type: 'SapiClientLockedOut', ips: ['203.0.113.7', '198.51.100.23'], detail: null, sapi_client_id: 'sapi_6b5b76c3dce54d42ad186b48f72f1ee1' },
      { type: 'SignInLockedOut', ips: ['127.0.0.1', '198.51.100.23'], detail: 'account', sapi_client_id: null },
    ]);
  });
});
