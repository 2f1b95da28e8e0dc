// TDD headers for tests: the one an official example states, and a Slovak one.
import type { TddHeader } from '../../../src/modules/delivery/fs/tax-data-document/index.ts';
import { valueAt } from './tree.ts';

function must(xml: Buffer, xpath: string): string {
  const value = valueAt(xml, xpath);
  if (value === null) throw new Error(`example has no ${xpath}`);
  return value;
}

function participant(xml: Buffer, xpath: string): string {
  return `${must(xml, `${xpath}/@schemeID`)}:${must(xml, xpath)}`;
}

/** The header an official example TDD carries, so a TDD built from its invoice can be compared whole. */
export function headerOf(example: Buffer): TddHeader {
  const role = must(example, '/pxs:TaxData/pxs:ReporterRole');
  const type = must(example, '/pxs:TaxData/pxs:TaxDataTypeCode');
  const scope = must(example, '/pxs:TaxData/pxs:DocumentScope');
  if (role !== 'C2' && role !== 'C3') throw new Error(`unexpected role ${role}`);
  if (type !== 'S' && type !== 'R' && type !== 'D') throw new Error(`unexpected type ${type}`);
  if (scope !== 'D' && scope !== 'IC' && scope !== 'INTL') throw new Error(`unexpected scope ${scope}`);
  return {
    uuid: must(example, '/pxs:TaxData/cbc:UUID'),
    issuedAt: new Date(`${must(example, '/pxs:TaxData/cbc:IssueDate')}T${must(example, '/pxs:TaxData/cbc:IssueTime')}`),
    reporterRole: role,
    taxDataTypeCode: type,
    documentScope: scope,
    reportingParty: participant(example, '/pxs:TaxData/pxs:ReportingParty/cbc:EndpointID'),
    receivingParty: participant(example, '/pxs:TaxData/pxs:ReceivingParty/cbc:EndpointID'),
    reportersRepresentative: must(example, '/pxs:TaxData/pxs:ReportersRepresentative/cac:PartyIdentification/cbc:ID'),
    taxAuthority: { id: must(example, '/pxs:TaxData/pxs:TaxAuthority/cbc:ID'), name: must(example, '/pxs:TaxData/pxs:TaxAuthority/cbc:Name') },
  };
}

/** Test values: not the tax authority's or any provider's real identifiers. */
export const TEST_AUTHORITY = { id: 'SK', name: 'Finančná správa Slovenskej republiky' };
export const TEST_RECEIVER = '0242:000000';
export const TEST_SPID = 'PSK000000';

export function slovakHeader(role: 'C2' | 'C3', reportingParty: string, overrides: Partial<TddHeader> = {}): TddHeader {
  return {
    uuid: '0b0f1c3e-5d7a-4e2b-9c1d-2f3a4b5c6d7e',
    issuedAt: new Date('2026-11-23T15:50:00.123Z'),
    reporterRole: role,
    reportingParty,
    receivingParty: TEST_RECEIVER,
    reportersRepresentative: TEST_SPID,
    taxAuthority: TEST_AUTHORITY,
    ...overrides,
  };
}
