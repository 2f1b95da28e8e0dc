/**
 * The TDD header (README §5.2): who reports what to whom. None of it comes from the invoice; the
 * caller knows the reporter's role, its own SPID and the tax authority's endpoint.
 */
import { cac, cbc, type Node } from '../../../invoices/index.ts';
import { TddBuildError } from './errors.ts';
import { SPID_SCHEME, TDD_CUSTOMIZATION_ID, TDD_PROFILE_ID } from './names.ts';
import { pxs } from './copy.ts';
import { isUuid } from './uuid.ts';

export interface TddHeader {
  /** TaxData/cbc:UUID: a fresh random v4 per TDD instance (caller passes it: deterministic tests, idempotent reactors) */
  uuid: string;
  /** when the TDD was created: IssueDate (no zone) and IssueTime (with zone, e.g. 15:50:00.000Z) */
  issuedAt: Date;
  reporterRole: 'C2' | 'C3';
  /** default 'S' */
  taxDataTypeCode?: 'S' | 'R' | 'D';
  /** default 'D' (domestic) */
  documentScope?: 'D' | 'IC' | 'INTL';
  /** the taxable party who reports: the seller (C2) or the buyer (C3), as `scheme:value` Peppol participant id */
  reportingParty: string;
  /** the tax authority's C5 endpoint, scheme 0242, as `0242:value` */
  receivingParty: string;
  /** the reporting service provider's Peppol SPID (scheme 0242 value) */
  reportersRepresentative: string;
  taxAuthority: { id: string; name: string };
}

function bad(field: string, message: string): TddBuildError {
  return new TddBuildError('TDD-BAD-HEADER', `TDD header ${field}: ${message}`, field);
}

/**
 * `0245:2020273893` → scheme and value. The scheme is written as given: the TDD rules, not the
 * builder, judge it (ibr-tdd-17 wants four digits, ibr-tdd-20 wants 0242 for the receiver).
 */
function participant(field: string, id: string): { scheme: string; value: string } {
  const colon = id.indexOf(':');
  const scheme = id.slice(0, colon).trim();
  const value = id.slice(colon + 1).trim();
  if (colon <= 0 || scheme === '' || value === '') throw bad(field, `${JSON.stringify(id)} is not a scheme:value participant id`);
  return { scheme, value };
}

function text(field: string, value: string): string {
  if (value.trim() === '') throw bad(field, 'must not be empty');
  return value.trim();
}

/** IssueDate without a zone (ibr-tdd-04) and IssueTime in UTC with milliseconds, as phax cuts it. */
function issueDateTime(at: Date): { date: string; time: string } {
  if (Number.isNaN(at.getTime())) throw bad('issuedAt', 'is not a valid date');
  const iso = at.toISOString(); // 2026-11-23T15:50:00.000Z
  return { date: iso.slice(0, 10), time: iso.slice(11) };
}

/** Writes TaxData's children up to ReportersRepresentative, in the XSD's order. */
export function writeHeader(root: Node, header: TddHeader): void {
  if (!isUuid(header.uuid)) throw bad('uuid', `${JSON.stringify(header.uuid)} is not a UUID`);
  const { date, time } = issueDateTime(header.issuedAt);
  const reporting = participant('reportingParty', header.reportingParty);
  const receiving = participant('receivingParty', header.receivingParty);

  cbc(root, 'CustomizationID', TDD_CUSTOMIZATION_ID);
  cbc(root, 'ProfileID', TDD_PROFILE_ID);
  // no cbc:ID: the XSD allows a "TDD number" but ibr-tdd-00 refuses it
  cbc(root, 'UUID', header.uuid.toLowerCase());
  cbc(root, 'IssueDate', date);
  cbc(root, 'IssueTime', time);
  pxs(root, 'TaxDataTypeCode', header.taxDataTypeCode ?? 'S');
  pxs(root, 'DocumentScope', header.documentScope ?? 'D');
  pxs(root, 'ReporterRole', header.reporterRole);

  const authority = pxs(root, 'TaxAuthority');
  cbc(authority, 'ID', text('taxAuthority.id', header.taxAuthority.id));
  cbc(authority, 'Name', header.taxAuthority.name);

  cbc(pxs(root, 'ReportingParty'), 'EndpointID', reporting.value, { schemeID: reporting.scheme });
  cbc(pxs(root, 'ReceivingParty'), 'EndpointID', receiving.value, { schemeID: receiving.scheme });
  const representative = cac(pxs(root, 'ReportersRepresentative'), 'PartyIdentification');
  cbc(representative, 'ID', text('reportersRepresentative', header.reportersRepresentative), { schemeID: SPID_SCHEME });
}
