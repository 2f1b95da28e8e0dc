// The official MLS examples, and single-edit variants of them that break one rule each (or a few),
// to compare our validator with the publisher's XSLT under Java Saxon-HE (mls-reference.test.ts).
import fs from 'node:fs';
import path from 'node:path';
import { artifact } from '../validation/support/paths.ts';

export const MLS_EXAMPLES = artifact('peppol-mls-1.0.1/trn-mls/example');

export function mlsExample(file: string): string {
  return fs.readFileSync(path.join(MLS_EXAMPLES, file), 'utf8');
}

/** The business documents of the examples folder (not the SBDH snippets). */
export function mlsExampleFiles(): string[] {
  return fs.existsSync(MLS_EXAMPLES) ? fs.readdirSync(MLS_EXAMPLES).filter((f) => f.endsWith('.xml') && !f.startsWith('snippet-sbdh')).sort() : [];
}

interface Variant {
  name: string;
  base: string;
  /** each `from` must occur in the base; it is replaced once */
  edits: [from: string, to: string][];
}

const AP = 'MessageLevelStatus_Example_AP.xml';
const RE = 'MessageLevelStatus_Example_RE.xml';
const RE_LINE = /<cac:LineResponse>[\s\S]*<\/cac:LineResponse>/;

const VARIANTS: Variant[] = [
  { name: 'wrong CustomizationID', base: AP, edits: [['urn:peppol:edec:mls:1.0<', 'urn:peppol:edec:mls:2.0<']] },
  { name: 'wrong ProfileID', base: AP, edits: [['<cbc:ProfileID>urn:peppol:edec:mls<', '<cbc:ProfileID>urn:peppol:edec:mlr<']] },
  { name: 'empty ID', base: AP, edits: [['<cbc:ID>MLS-ID123</cbc:ID>', '<cbc:ID> </cbc:ID>']] },
  { name: 'IssueDate with a zone', base: AP, edits: [['<cbc:IssueDate>2025-03-11<', '<cbc:IssueDate>2025-03-11Z<']] },
  { name: 'IssueTime without a zone', base: AP, edits: [['<cbc:IssueTime>12:00:00Z<', '<cbc:IssueTime>12:00:00<']] },
  { name: 'no IssueTime', base: AP, edits: [['<cbc:IssueTime>12:00:00Z</cbc:IssueTime>', '']] },
  { name: 'sender not an SPID', base: AP, edits: [['schemeID="0242">123456<', 'schemeID="0242">12345X<']] },
  { name: 'sender SPID suffix in lower case (1.0.1 is case-insensitive)', base: AP, edits: [['schemeID="0242">123456<', 'schemeID="0242">123456-mls.anything<']] },
  { name: 'sender scheme not 0242', base: AP, edits: [['schemeID="0242">123456<', 'schemeID="9915">123456<']] },
  { name: 'sender without scheme', base: AP, edits: [['schemeID="0242">123456<', '>123456<']] },
  { name: 'empty receiver', base: AP, edits: [['schemeID="0242">234567<', 'schemeID="0242"><']] },
  { name: 'no ReceiverParty', base: AP, edits: [[/<cac:ReceiverParty>[\s\S]*?<\/cac:ReceiverParty>/.exec(fileOr(AP))?.[0] ?? '<cac:ReceiverParty>', '']] },
  { name: 'response code not in the list', base: AP, edits: [['<cbc:ResponseCode>AP<', '<cbc:ResponseCode>OK<']] },
  { name: 'two DocumentResponses', base: AP, edits: [['</cac:DocumentResponse>', '</cac:DocumentResponse><cac:DocumentResponse><cac:Response><cbc:ResponseCode>AP</cbc:ResponseCode></cac:Response><cac:DocumentReference><cbc:ID>x</cbc:ID></cac:DocumentReference></cac:DocumentResponse>']] },
  { name: 'no DocumentReference', base: AP, edits: [[/<cac:DocumentReference>[\s\S]*?<\/cac:DocumentReference>/.exec(fileOr(AP))?.[0] ?? '<cac:DocumentReference>', '']] },
  { name: 'empty DocumentReference ID', base: AP, edits: [['<cbc:ID>90f14eff-3705-4869-ad3c-caae270a234e</cbc:ID>', '<cbc:ID></cbc:ID>']] },
  { name: 'AP with a failure issue', base: RE, edits: [['<cbc:ResponseCode>RE<', '<cbc:ResponseCode>AP<']] },
  { name: 'RE without description', base: RE, edits: [['<cbc:Description>Rejected due to validation errors</cbc:Description>', '']] },
  { name: 'RE with an empty description', base: RE, edits: [['<cbc:Description>Rejected due to validation errors</cbc:Description>', '<cbc:Description> </cbc:Description>']] },
  { name: 'RE without issues', base: RE, edits: [[RE_LINE.exec(fileOr(RE))?.[0] ?? '<cac:LineResponse>', '']] },
  { name: 'RE with only a warning', base: RE, edits: [['<cbc:StatusReasonCode>BV<', '<cbc:StatusReasonCode>BW<']] },
  { name: 'issue without location', base: RE, edits: [[/<cbc:LineID>[^<]*<\/cbc:LineID>/.exec(fileOr(RE))?.[0] ?? '<cbc:LineID>', '<cbc:LineID/>']] },
  { name: 'issue without description', base: RE, edits: [['<cbc:Description>Validation gives error', '<cbc:Note>Validation gives error'], ['code list</cbc:Description>', 'code list</cbc:Note>']] },
  { name: 'issue without status', base: RE, edits: [[/<cac:Status>[\s\S]*?<\/cac:Status>/.exec(fileOr(RE))?.[0] ?? '<cac:Status>', '']] },
  { name: 'status reason not in the list', base: RE, edits: [['<cbc:StatusReasonCode>BV<', '<cbc:StatusReasonCode>XX<']] },
];

function fileOr(file: string): string {
  return fs.existsSync(path.join(MLS_EXAMPLES, file)) ? mlsExample(file) : '';
}

/** The variants as documents; throws if an edit no longer applies (the examples changed). */
export function mlsVariants(): { name: string; xml: string }[] {
  return VARIANTS.map((v) => {
    let xml = mlsExample(v.base);
    for (const [from, to] of v.edits) {
      if (!xml.includes(from)) throw new Error(`variant "${v.name}": "${from}" is not in ${v.base}`);
      xml = xml.replace(from, to);
    }
    return { name: v.name, xml };
  });
}
