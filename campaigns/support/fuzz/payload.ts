import type { Random } from './random.ts';

/**
 * Mutations of a valid UBL payload (a SAPI send's `payload`), each aimed at one of the send's
 * later checks: the parser, the root, metadata against the UBL, XSD, Schematron, the bounds. A
 * body generated from the schema never gets that far: its payload is not XML whose parties and
 * checksum agree, so every send stopped at the first checks. The edits are plain text on a
 * known document (this writes test input, it reads nothing).
 */
const MUTATIONS: Record<string, (xml: string, rnd: Random) => string> = {
  'credit-note-root': (xml) => xml.replace(/<Invoice\b/, '<CreditNote').replace(/<\/Invoice>\s*$/, '</CreditNote>'),
  'other-namespace': (xml) => xml.replace('urn:oasis:names:specification:ubl:schema:xsd:Invoice-2', 'urn:example:not-ubl'),
  'other-seller-endpoint': (xml, rnd) => xml.replace(/(<cbc:EndpointID[^>]*>)[^<]*/, `$1${rnd.pick(['sk0000000000', '2020000004', '', 'x'.repeat(300)])}`),
  'other-scheme': (xml, rnd) => xml.replace(/(<cbc:EndpointID schemeID=")[^"]*/, `$1${rnd.pick(['0088', '9999', '', '0245'])}`),
  'no-issue-date': (xml) => xml.replace(/<cbc:IssueDate>[^<]*<\/cbc:IssueDate>/, ''),
  'no-id': (xml) => xml.replace(/<cbc:ID>[^<]*<\/cbc:ID>/, ''),
  'wrong-payable': (xml) => xml.replace(/(<cbc:PayableAmount[^>]*>)([^<]*)/, (_, open: string, amount: string) => `${open}${(Number(amount) + 1).toFixed(2)}`),
  'wrong-currency': (xml, rnd) => xml.replaceAll('currencyID="EUR"', `currencyID="${rnd.pick(['XXX', 'eur', '', 'EURO'])}"`),
  'bad-date': (xml, rnd) => xml.replace(/(<cbc:IssueDate>)[^<]*/, `$1${rnd.pick(['2024-02-30', '0000-00-00', 'tomorrow', '99999-01-01'])}`),
  'extreme-amount': (xml, rnd) => xml.replace(/(<cbc:PriceAmount[^>]*>)[^<]*/, `$1${rnd.pick(['999999999999.99', '-1', '1e309', 'NaN', '0.000000000000000000001'])}`),
  'unknown-element': (xml) => xml.replace(/(<cbc:IssueDate>)/, '<cbc:Unknown>1</cbc:Unknown>$1'),
  'truncated': (xml, rnd) => xml.slice(0, rnd.int(1, xml.length - 1)),
  'two-roots': (xml) => `${xml}${xml.replace(/^<\?xml[^>]*\?>/, '')}`,
  'doctype': (xml) => xml.replace(/^(<\?xml[^>]*\?>)?/, '$1<!DOCTYPE Invoice [<!ENTITY e "e">]>'),
  'declared-utf16': (xml) => xml.replace(/encoding="UTF-8"/i, 'encoding="UTF-16"'),
  'byte-order-mark': (xml) => `\ufeff${xml}`,
  'comment-and-pi': (xml) => xml.replace(/(<cbc:IssueDate>)/, '<!-- x --><?pi data?>$1'),
  'huge-note': (xml) => xml.replace(/(<cbc:InvoiceTypeCode>)/, `<cbc:Note>${'ž'.repeat(600_000)}</cbc:Note>$1`),
  'cdata-name': (xml) => xml.replace(/(<cac:PartyName>\s*<cbc:Name>)([^<]*)/, '$1<![CDATA[$2 & <co>]]>'),
  'markup-in-text': (xml) => xml.replace(/(<cbc:Name>)([^<]*)/, '$1$2 &amp; &lt;b&gt; &#x1F600;'),
};

/** Characters XML 1.0 cannot carry: a payload holding one is never accepted. */
const BAD_CHARS = ['\u0000', '\u0007', '\ud800', '\uffff'];

export interface PayloadMutation {
  name: string;
  payload: string;
  /** the payload holds a character XML cannot carry: never a 2xx */
  badText: boolean;
}

export function mutatePayload(xml: string, rnd: Random): PayloadMutation {
  if (rnd.chance(0.1)) {
    const at = xml.indexOf('</cbc:Name>');
    return { name: 'bad-char', payload: `${xml.slice(0, at)}${rnd.pick(BAD_CHARS)}${xml.slice(at)}`, badText: true };
  }
  const name = rnd.pick(Object.keys(MUTATIONS));
  return { name, payload: (MUTATIONS[name] as (x: string, r: Random) => string)(xml, rnd), badText: false };
}
