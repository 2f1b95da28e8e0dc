import { invoiceDecider } from '../../../commands/invoices/decider.ts';
import { inboxHandle, sapiInboxDecider } from '../../../commands/sapi/inbox.ts';
import { stableUuid } from '../../../commands/shared/stable-id.ts';
import type { InvoiceReceived } from '../../../events/delivery.ts';
import { invoiceStream } from '../../../events/invoices.ts';
import { sapiInboxStream, type SapiInboxDocumentReceived } from '../../../events/sapi-inbox.ts';
import { companyHasSapiClient } from '../../../projections/sapi-inbox/queries.ts';
import { findCompanyByParticipant } from '../../../projections/tenancy/queries.ts';
import { appendAll, revisionIn, type Write } from '../../platform/handling/append.ts';
import { toNewEvents } from '../../platform/handling/command-handler.ts';
import { readAndFold } from '../../platform/handling/read-and-fold.ts';
import { retryOnConflict } from '../../platform/handling/retry.ts';
import { PeppolRejectedError, type OutboundPeppolMessage } from './peppol/peppol-network.ts';
import { isOurMlsParticipant, MLS_DOCUMENT_TYPE_ID, SK_TAX_DATA_DOCUMENT_TYPE_ID, sameParticipant, spisParticipantOf } from './peppol/identifiers.ts';
import { readSbdhWith } from './peppol/sbdh.ts';
import { attempt, readWithEnvelope, type ReadWithEnvelope } from './inbound-read.ts';
import type { Core } from '../../platform/core.ts';
import type { ValidatorSource } from '../../platform/validation/index.ts';
import { readUbl, type UblDocument } from '../invoices/index.ts';
import { systemMetadata } from '../invoices/index.ts';
import { mlsVerdict, type CheckFinding, type MlsVerdict } from '../../../commands/mls/answer.ts';
import { answerWrite, issueCommand } from './mls/answer.ts';
import { keepIssuedMls } from './mls/held.ts';
import { checkReceivedDocument } from './mls/check-document.ts';
import { receiveMls, type MlsMatcher } from './mls/receive-mls.ts';
import type { Judged } from './sandbox/corner5.ts';
import { PXS } from './fs/tax-data-document/names.ts';
import type { XmlElement } from '../../platform/xml/index.ts';

/** How often a receipt is decided again after a concurrent receipt of the same message won the append. */
const RECEIPT_RETRIES = 3;

/** A message our Access Point took: what the sender sent, and who sent it. */
export interface InboundPeppolMessage extends OutboundPeppolMessage {
  /** the sending Access Point's seat id (its certificate's CN); null in the sandbox, where it is ourselves */
  sending_ap: string | null;
}

export interface ReceivingDeps extends Pick<Core, 'store' | 'ids' | 'readModels' | 'clock'> {
  validator: ValidatorSource;
  /** our Access Point's SPIS participant (`0242:` + the seat id's digits): the MLS we send come from it, and come to it */
  ourSpis: string;
  /** what else an MLS that reaches us may answer (SAPI-SK documents, reports) */
  mlsMatchers?: MlsMatcher[];
  /** the sandbox: the Peppol Reporting receiver it stands in for (each report it takes is answered MLS AP) */
  reportingStandIn?: string | null;
  /**
   * the sandbox's corner 5, when this Access Point serves the FS participant itself (sandbox/corner5.ts):
   * `judge` reads a TDD as parsed inside its envelope, and `take` takes that judgement, so the TDD is not parsed again
   */
  corner5?: { participant: string; judge(root: XmlElement): Judged; take(submissionId: string, tdd: string, judged?: Judged): Promise<MlsVerdict> } | null;
}

/** What became of a received message: the inbound invoice (null when refused, or an MLS), and our answer. */
export interface Received {
  invoice_id: string | null;
  provider_document_id: string | null;
  response_code: 'AP' | 'RE' | null;
}

/**
 * Our Access Point's receiving side. An MLS addressed to us answers something we sent
 * (mls/receive-mls.ts). A TDD to the FS participant goes to the sandbox's corner 5 when we play it,
 * and a report to the reporting receiver the sandbox stands in for is answered AP. A business
 * document is checked first (XSD, the rules of the release in force at its receipt, the envelope
 * against the document: mls/check-document.ts); one that fails is not given to the company, and its
 * MLS RE tells the sender why. One that passes becomes an inbound invoice of its company, built from
 * the delivered UBL alone (never from the sender's JSON), in the same append as our answer (its MLS
 * AP when the sender asked for every status), so neither exists without the other. The inbound
 * copy's id is derived from the company and the message id, so the same message received twice (a
 * sender retrying after a lost receipt) is one invoice, answered once.
 * When the company has a SAPI-SK client (enabled or not: a disabled connector still collects, so
 * nothing received meanwhile is lost), the SAPI-SK inbox gets its copy in the same append: a
 * document whose handle is derived the same way, named by the invoice's provider_document_id.
 * A message whose envelope we cannot read, or for a participant we do not serve, is refused at the
 * transport (PeppolRejectedError: over AS4 an ebMS error, which the sender records as invoice.rejected).
 */
export async function receivePeppolMessage(deps: ReceivingDeps, message: InboundPeppolMessage): Promise<Received> {
  let envelope;
  let withEnvelope: ReadWithEnvelope | { kind: 'tdd'; judged: Judged };
  const corner5 = deps.corner5;
  // a TDD (to corner 5: nobody else here takes one) is judged from the envelope's parse too
  const readPayload = (payload: XmlElement) => readWithEnvelope(payload) ?? (corner5 && isTaxData(payload) ? { kind: 'tdd' as const, judged: corner5.judge(payload) } : null);
  try {
    ({ envelope, read: withEnvelope } = readSbdhWith(message.envelope, readPayload));
  } catch (error) {
    throw new PeppolRejectedError(`the receiving Access Point refused the message: ${(error as Error).message}`);
  }
  if (envelope.documentTypeId === MLS_DOCUMENT_TYPE_ID) {
    if (!isOurMlsParticipant(deps.ourSpis, envelope.receiver)) throw new PeppolRejectedError(`participant ${envelope.receiver} is not this Access Point's MLS address`);
    await receiveMls({ ...deps, matchers: deps.mlsMatchers }, envelope, withEnvelope?.kind === 'mls' ? withEnvelope.mls : undefined);
    return { invoice_id: null, provider_document_id: null, response_code: null };
  }
  const senderSpis = message.sending_ap === null ? deps.ourSpis : spisParticipantOf(message.sending_ap);
  const metadata = systemMetadata('peppol-inbound', envelope.instanceId);
  const now = deps.clock.now();
  const answer = async (verdict: MlsVerdict) => {
    const command = issueCommand(envelope, verdict, { ourSpis: deps.ourSpis, senderSpis }, now);
    // first as a first answer (no read); a repeat's conflict reads the stream on the retry
    await retryOnConflict(async (attempt) => {
      const made = await answerWrite(deps, command, metadata, attempt === 0);
      if (made) keepIssuedMls(deps.store, made.streamId, { state: made.after, revision: revisionIn(await appendAll(deps.store, [made]), made.streamId) });
    }, { retries: RECEIPT_RETRIES });
  };
  if (deps.corner5 && envelope.documentTypeId === SK_TAX_DATA_DOCUMENT_TYPE_ID && sameParticipant(envelope.receiver, deps.corner5.participant)) {
    // the sandbox's corner 5 judges the TDD; its verdict goes back as an MLS, like the real FS's
    await answer(await deps.corner5.take(envelope.instanceId, envelope.document, withEnvelope?.kind === 'tdd' ? withEnvelope.judged : undefined));
    return { invoice_id: null, provider_document_id: null, response_code: null };
  }
  if (deps.reportingStandIn && sameParticipant(envelope.receiver, deps.reportingStandIn)) {
    // the sandbox standing in for OpenPeppol's reporting receiver: it takes the report and says so
    await answer({ response_code: 'AP', description: null, issues: [] });
    return { invoice_id: null, provider_document_id: null, response_code: null };
  }
  const company = await findCompanyByParticipant(deps.readModels, envelope.receiver);
  if (!company) throw new PeppolRejectedError(`participant ${envelope.receiver} is not served by this Access Point`);
  const ublRead = withEnvelope?.kind === 'ubl' ? withEnvelope : null;
  const findings = await checkReceivedDocument(deps.validator, envelope, now, ublRead?.facts);
  // not a UBL Invoice or CreditNote: read from its text as before, which says why it cannot be read
  const ubl = ublRead?.ubl ?? attempt(() => readUbl(envelope.document));
  let document: UblDocument | null = null;
  if ('read' in ubl) document = ubl.read;
  else findings.push({ rule: 'UBL-READ', message: ubl.error.message, location: 'NA', flag: 'fatal', kind: 'syntax' } satisfies CheckFinding);
  const verdict = mlsVerdict(findings);
  if (verdict.response_code === 'RE' || !document) {
    // refused: nothing is given to the company; the MLS says why
    await answer(verdict);
    return { invoice_id: null, provider_document_id: null, response_code: 'RE' };
  }
  const accepted = issueCommand(envelope, verdict, { ourSpis: deps.ourSpis, senderSpis }, now);
  const invoiceId = stableUuid('peppol-inbound', company.id, envelope.instanceId);
  const handle = inboxHandle(company.id, envelope.instanceId);
  const collects = await companyHasSapiClient(deps.readModels, company.id);
  const receivedAt = now.toISOString();
  const received: InvoiceReceived['data'] = {
    invoice_id: invoiceId, organisation_id: company.organisation_id, company_id: company.id,
    workspace_id: company.workspace_id, source: 'peppol', peppol_message_id: envelope.instanceId, sender_participant_id: envelope.sender,
    receiver_participant_id: envelope.receiver, document_type_id: envelope.documentTypeId, provider_document_id: collects ? handle : null,
    invoice_number: document.content.invoice_number, supplier_vat_id: document.content.supplier.vat_id,
    content: document.content, totals: document.totals, ubl: envelope.document, received_at: receivedAt,
    fs_message_id: stableUuid('fs-c3', invoiceId), sending_ap: message.sending_ap, process_id: envelope.processId, country_c1: envelope.countryC1,
  };
  const inboxCopy: SapiInboxDocumentReceived['data'] = {
    document_id: handle, organisation_id: company.organisation_id, company_id: company.id, invoice_id: invoiceId,
    peppol_message_id: envelope.instanceId, document_type_id: envelope.documentTypeId, process_id: envelope.processId,
    sender_participant_id: envelope.sender, receiver_participant_id: envelope.receiver, creation_date_time: envelope.createdAt.toISOString(),
    sender_document_id: document.content.invoice_number, payload: envelope.document, received_at: receivedAt,
  };

  // the same message received at the same time: decided again, it is then a repeat
  return retryOnConflict(async (attempt) => {
    // a first attempt takes this for a first receipt (the invoice's id derives from the message): its
    // stream is not read but written as new, and should it be there (a repeat) all the writes conflict
    // and the next attempt reads it
    const invoice = attempt === 0 ? { state: invoiceDecider.initialState, revision: -1, events: [] } : await readAndFold(deps.store, invoiceStream(invoiceId), invoiceDecider);
    const invoiceEvents = invoiceDecider.decide({ type: 'ReceiveInvoice', ...received }, invoice.state);
    // the inbox copy goes with the invoice that names it: this receipt's, or (a repeat, perhaps
    // after a crash between the two streams on EventStoreDB) the one received before
    const named = invoiceEvents.length > 0 ? received.provider_document_id : providerDocumentIdOf(invoice.events);
    const writes: Write[] = [];
    if (invoiceEvents.length > 0) writes.push({ streamId: invoiceStream(invoiceId), events: toNewEvents(deps, invoiceEvents, metadata), at: { revision: invoice.revision } });
    if (named === handle) {
      // a first receipt (no invoice yet) has no inbox copy yet either, as the copy is written with
      // or after its invoice; should one be there all the same, its no_stream append conflicts and
      // the next attempt reads it
      const inbox = invoice.revision < 0 && attempt === 0 ? { state: sapiInboxDecider.initialState } : await readAndFold(deps.store, sapiInboxStream(handle), sapiInboxDecider);
      const inboxEvents = sapiInboxDecider.decide({ type: 'ReceiveInboxDocument', data: inboxCopy }, inbox.state);
      // the owner first (appendToStreams' rule): the invoice, then its inbox copy
      if (inboxEvents.length > 0) writes.push({ streamId: sapiInboxStream(handle), events: toNewEvents(deps, inboxEvents, metadata), at: { newStream: true } });
    }
    // a first receipt (no invoice yet, first attempt) is a first answer too
    const answered = await answerWrite(deps, accepted, metadata, invoice.revision < 0 && attempt === 0);
    if (answered) writes.push(answered);
    if (writes.length > 0) {
      const appended = await appendAll(deps.store, writes);
      if (answered) keepIssuedMls(deps.store, answered.streamId, { state: answered.after, revision: revisionIn(appended, answered.streamId) });
    }
    return { invoice_id: invoiceId, provider_document_id: named, response_code: 'AP' as const };
  }, { retries: RECEIPT_RETRIES });
}

const isTaxData = (payload: XmlElement) => payload.name === 'TaxData' && payload.namespaceUri === PXS;

function providerDocumentIdOf(events: readonly { type: string; data: Record<string, unknown> }[]): string | null {
  const found = events.find((e) => e.type === 'InvoiceReceived');
  return found ? (found.data as InvoiceReceived['data']).provider_document_id : null;
}
