/**
 * MessageLevelStatus -> the MLS as a UBL 2.1 ApplicationResponse (xmlbuilder2 through the platform's
 * writer). The model is checked first against what the official Schematron demands of it, so what we
 * write validates: a refusal is an MlsBuildError, a bug of the caller, never a document to send.
 */
import { newXmlDocument, type XmlElementWriter } from '../../../platform/xml/write.ts';
import {
  MLS_CUSTOMIZATION_ID,
  MLS_FAILURE_REASONS,
  MLS_NS,
  MLS_PARTY_SCHEME,
  MLS_PROFILE_ID,
  MLS_RESPONSE_CODES,
  MLS_STATUS_REASONS,
  MlsBuildError,
  type MessageLevelStatus,
  type MlsIssue,
} from './model.ts';

export function buildMls(mls: MessageLevelStatus): string {
  const id = text(mls.id, 'id');
  const issued = new Date(mls.issued_at);
  if (Number.isNaN(issued.getTime())) throw new MlsBuildError(`issued_at "${mls.issued_at}" is not an ISO instant`);
  const sender = partyValue(mls.sender, 'sender');
  const receiver = partyValue(mls.receiver, 'receiver');
  if (!MLS_RESPONSE_CODES.includes(mls.response_code)) throw new MlsBuildError(`response_code "${String(mls.response_code)}" is not ${MLS_RESPONSE_CODES.join(', ')}`);
  const description = mls.description === null ? null : text(mls.description, 'description');
  const referenced = text(mls.referenced_instance_id, 'referenced_instance_id');
  const issues = mls.issues.map((issue, i) => checkedIssue(issue, i));
  const failure = issues.some((issue) => MLS_FAILURE_REASONS.includes(issue.reason));
  if (mls.response_code === 'RE') {
    if (description === null) throw new MlsBuildError('an RE needs a description (SCH-MLS-20)');
    if (!failure) throw new MlsBuildError('an RE needs at least one issue with reason SV, BV or FD (SCH-MLS-23, -24)');
  } else if (failure) {
    throw new MlsBuildError(`an ${mls.response_code} may not carry an issue with reason SV, BV or FD (SCH-MLS-25)`);
  }

  const xml = newXmlDocument(MLS_NS.ubl, 'ApplicationResponse', { 'xmlns:cac': MLS_NS.cac, 'xmlns:cbc': MLS_NS.cbc });
  const root = xml.root;
  cbc(root, 'CustomizationID', MLS_CUSTOMIZATION_ID);
  cbc(root, 'ProfileID', MLS_PROFILE_ID);
  cbc(root, 'ID', id);
  const iso = issued.toISOString();
  cbc(root, 'IssueDate', iso.slice(0, 10));
  // whole seconds unless there is a fraction: the spec allows at most milliseconds
  cbc(root, 'IssueTime', `${iso.slice(11, 19)}${issued.getUTCMilliseconds() === 0 ? '' : iso.slice(19, 23)}Z`);
  cbc(cac(root, 'SenderParty'), 'EndpointID', sender, { schemeID: MLS_PARTY_SCHEME });
  cbc(cac(root, 'ReceiverParty'), 'EndpointID', receiver, { schemeID: MLS_PARTY_SCHEME });
  const documentResponse = cac(root, 'DocumentResponse');
  const response = cac(documentResponse, 'Response');
  cbc(response, 'ResponseCode', mls.response_code);
  if (description !== null) cbc(response, 'Description', description);
  cbc(cac(documentResponse, 'DocumentReference'), 'ID', referenced);
  for (const [location, group] of byLocation(issues)) {
    const line = cac(documentResponse, 'LineResponse');
    cbc(cac(line, 'LineReference'), 'LineID', location);
    for (const issue of group) {
      const issueResponse = cac(line, 'Response');
      cbc(issueResponse, 'Description', issue.description);
      cbc(cac(issueResponse, 'Status'), 'StatusReasonCode', issue.reason);
    }
  }
  return xml.end();
}

/** One cac:LineResponse per location, in the order the locations first appear (spec 8.5). */
function byLocation(issues: MlsIssue[]): Map<string, MlsIssue[]> {
  const groups = new Map<string, MlsIssue[]>();
  for (const issue of issues) {
    const group = groups.get(issue.location);
    if (group) group.push(issue);
    else groups.set(issue.location, [issue]);
  }
  return groups;
}

function checkedIssue(issue: MlsIssue, index: number): MlsIssue {
  if (!MLS_STATUS_REASONS.includes(issue.reason)) throw new MlsBuildError(`issue ${index + 1}: reason "${String(issue.reason)}" is not ${MLS_STATUS_REASONS.join(', ')}`);
  return { location: text(issue.location, `issue ${index + 1} location`), description: text(issue.description, `issue ${index + 1} description`), reason: issue.reason };
}

/** The EndpointID value of a `0242:<value>` participant id: the scheme travels as schemeID. */
function partyValue(id: string, field: string): string {
  const trimmed = id.trim();
  const colon = trimmed.indexOf(':');
  const value = colon < 0 ? '' : trimmed.slice(colon + 1);
  if (trimmed.slice(0, colon) !== MLS_PARTY_SCHEME || !/^[\x21-\x7e]+$/.test(value)) {
    throw new MlsBuildError(`${field} "${id}" is not a participant id of scheme ${MLS_PARTY_SCHEME} (e.g. 0242:123456)`);
  }
  return value;
}

// XML 1.0 Char: xmlbuilder2 writes anything else as is, which no parser reads back.
const NOT_XML_CHAR = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/u;

/** A text value: trimmed, not empty, only characters XML can carry. */
function text(value: string, field: string): string {
  const trimmed = value.trim();
  if (trimmed === '') throw new MlsBuildError(`${field} is empty`);
  if (NOT_XML_CHAR.test(trimmed)) throw new MlsBuildError(`${field} has a character XML cannot carry`);
  return trimmed;
}

function cac(parent: XmlElementWriter, name: string): XmlElementWriter {
  return parent.ele(MLS_NS.cac, `cac:${name}`);
}

function cbc(parent: XmlElementWriter, name: string, value: string, attrs?: Record<string, string>): void {
  parent.ele(MLS_NS.cbc, `cbc:${name}`, attrs).txt(value);
}
