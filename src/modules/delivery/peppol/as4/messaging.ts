/**
 * The ebMS 3.0 eb:Messaging header of a Peppol UserMessage (Peppol AS4 profile 2.0.3 section 5):
 * written for what we send, read (from the signed element only) for what we receive.
 */
import type { XmlElement } from '../../../../platform/xml/index.ts';
import type { XmlElementWriter } from '../../../../platform/xml/write.ts';
import { DOCUMENT_TYPE_SCHEME, PARTICIPANT_SCHEME, PROCESS_SCHEME } from '../identifiers.ts';
import { otherError } from './errors.ts';
import { NS, PEPPOL_AS4 } from './names.ts';
import { attribute, children, onlyChild, optionalChild, textOf } from './xml-nodes.ts';

/** A participant identifier with its scheme (the eb:Property type). */
export interface SchemedId {
  scheme: string;
  value: string;
}

/** What the caller decides about a UserMessage; the party ids come from the two certificates. */
export interface UserMessageInput {
  /** eb:MessageId: one per document, the same on every retry of it */
  messageId: string;
  timestamp: Date;
  conversationId: string;
  /** the process id (eb:Service, type cenbii-procid-ubl) */
  processId: string;
  /** the document type id, without its scheme (eb:Action is `busdox-docid-qns::` + this) */
  documentTypeId: string;
  /** C1 and C4 participant ids, `<ICD>:<id>` (scheme iso6523-actorid-upis) */
  originalSender: string;
  finalRecipient: string;
}

export interface UserMessageHeader {
  messageId: string;
  timestamp: string;
  conversationId: string;
  from: { partyId: string; partyIdType: string | null; role: string };
  to: { partyId: string; partyIdType: string | null; role: string };
  agreementRef: string | null;
  service: SchemedId;
  /** eb:Action as sent: `scheme::value` */
  action: string;
  documentTypeId: SchemedId;
  originalSender: SchemedId;
  finalRecipient: SchemedId;
  parts: { href: string; mimeType: string | null; compressionType: string | null }[];
}

const eb = (parent: XmlElementWriter, name: string, attrs?: Record<string, string>, text?: string) => {
  const child = parent.ele(NS.eb, `eb:${name}`, attrs);
  if (text !== undefined) child.txt(text);
  return child;
};

export function writeUserMessage(messaging: XmlElementWriter, input: UserMessageInput, parties: { from: string; to: string }, payloadHref: string): void {
  const user = eb(messaging, 'UserMessage');
  const info = eb(user, 'MessageInfo');
  eb(info, 'Timestamp', undefined, input.timestamp.toISOString());
  eb(info, 'MessageId', undefined, input.messageId);
  const partyInfo = eb(user, 'PartyInfo');
  const from = eb(partyInfo, 'From');
  eb(from, 'PartyId', { type: PEPPOL_AS4.partyIdType }, parties.from);
  eb(from, 'Role', undefined, PEPPOL_AS4.initiatorRole);
  const to = eb(partyInfo, 'To');
  eb(to, 'PartyId', { type: PEPPOL_AS4.partyIdType }, parties.to);
  eb(to, 'Role', undefined, PEPPOL_AS4.responderRole);
  const collaboration = eb(user, 'CollaborationInfo');
  eb(collaboration, 'AgreementRef', undefined, PEPPOL_AS4.agreement);
  eb(collaboration, 'Service', { type: PROCESS_SCHEME }, input.processId);
  eb(collaboration, 'Action', undefined, `${DOCUMENT_TYPE_SCHEME}::${input.documentTypeId}`);
  eb(collaboration, 'ConversationId', undefined, input.conversationId);
  const properties = eb(user, 'MessageProperties');
  eb(properties, 'Property', { name: 'originalSender', type: PARTICIPANT_SCHEME }, input.originalSender);
  eb(properties, 'Property', { name: 'finalRecipient', type: PARTICIPANT_SCHEME }, input.finalRecipient);
  const payload = eb(user, 'PayloadInfo');
  const part = eb(payload, 'PartInfo', { href: payloadHref });
  const partProperties = eb(part, 'PartProperties');
  eb(partProperties, 'Property', { name: 'MimeType' }, PEPPOL_AS4.payloadMimeType);
  eb(partProperties, 'Property', { name: 'CompressionType' }, PEPPOL_AS4.compressionType);
}

const one = (parent: XmlElement, name: string) => onlyChild(parent, NS.eb, name);
const required = (element: XmlElement, what: string) => {
  const value = textOf(element);
  if (value === '') throw otherError(`${what} is empty`);
  return value;
};

/** Reads the UserMessage of a (signed) eb:Messaging element. Throws As4Error EBMS:0004. */
export function readUserMessage(messaging: XmlElement): UserMessageHeader {
  if (children(messaging, NS.eb, 'SignalMessage').length > 0) throw otherError('the message carries a signal beside its UserMessage');
  const user = one(messaging, 'UserMessage');
  const info = one(user, 'MessageInfo');
  const messageId = required(one(info, 'MessageId'), 'eb:MessageId');
  const timestamp = required(one(info, 'Timestamp'), 'eb:Timestamp');
  const partyInfo = one(user, 'PartyInfo');
  const party = (name: 'From' | 'To') => {
    const element = one(partyInfo, name);
    const ids = children(element, NS.eb, 'PartyId');
    if (ids.length !== 1) throw otherError(`eb:${name} must have exactly one PartyId; it has ${ids.length}`);
    const id = ids[0] as XmlElement;
    // Peppol AS4 profile 4.5: both parties are Access Points named by their certificate's CN;
    // phase4 refuses another type the same way (EBMS:0004)
    const type = attribute(id, 'type');
    if (type !== PEPPOL_AS4.partyIdType) throw otherError(`eb:${name}/PartyId must be of type ${PEPPOL_AS4.partyIdType}; it is ${type ?? 'untyped'}`);
    const role = optionalChild(element, NS.eb, 'Role');
    return { partyId: required(id, `eb:${name}/PartyId`), partyIdType: attribute(id, 'type'), role: role ? textOf(role) : '' };
  };
  const collaboration = one(user, 'CollaborationInfo');
  const agreement = optionalChild(collaboration, NS.eb, 'AgreementRef');
  const serviceElement = one(collaboration, 'Service');
  const service = { scheme: attribute(serviceElement, 'type') ?? '', value: required(serviceElement, 'eb:Service') };
  const action = required(one(collaboration, 'Action'), 'eb:Action');
  const conversation = optionalChild(collaboration, NS.eb, 'ConversationId');
  const properties = optionalChild(user, NS.eb, 'MessageProperties');
  const property = (name: string): SchemedId => {
    const found = properties ? children(properties, NS.eb, 'Property').filter((p) => attribute(p, 'name') === name) : [];
    if (found.length !== 1) throw otherError(`the message must have exactly one ${name} property; it has ${found.length}`);
    const element = found[0] as XmlElement;
    return { scheme: attribute(element, 'type') ?? '', value: required(element, name) };
  };
  const payloadInfo = optionalChild(user, NS.eb, 'PayloadInfo');
  const parts = (payloadInfo ? children(payloadInfo, NS.eb, 'PartInfo') : []).map((part) => {
    const partProperties = optionalChild(part, NS.eb, 'PartProperties');
    const prop = (name: string) => {
      const found = partProperties ? children(partProperties, NS.eb, 'Property').filter((p) => attribute(p, 'name') === name) : [];
      return found.length === 1 ? textOf(found[0] as XmlElement) : null;
    };
    return { href: attribute(part, 'href') ?? '', mimeType: prop('MimeType'), compressionType: prop('CompressionType') };
  });
  const separator = action.indexOf('::');
  const documentTypeId = separator > 0 ? { scheme: action.slice(0, separator), value: action.slice(separator + 2) } : { scheme: '', value: action };
  return {
    messageId,
    timestamp,
    conversationId: conversation ? textOf(conversation) : '',
    from: party('From'),
    to: party('To'),
    agreementRef: agreement ? textOf(agreement) : null,
    service,
    action,
    documentTypeId,
    originalSender: property('originalSender'),
    finalRecipient: property('finalRecipient'),
    parts,
  };
}
