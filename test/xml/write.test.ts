// The XML writer writes the text xmlbuilder2 writes (src/platform/xml/write-text.ts), without building its
// DOM: held to the same bytes on every kind of document the service writes, and on the corners
// of escaping, pretty printing and namespaces; what it does not reproduce goes to xmlbuilder2.
import { expect } from 'chai';
import { computeTotals } from '../../commands/invoices/totals.ts';
import { BILLING_PROCESS_ID, documentTypeFor } from '../../src/modules/delivery/peppol/identifiers.ts';
import { wrapInSbdh } from '../../src/modules/delivery/peppol/sbdh.ts';
import { buildTdd } from '../../src/modules/delivery/fs/tax-data-document/index.ts';
import { buildUbl } from '../../src/modules/invoices/ubl/index.ts';
import { writeText, type RecordedElement } from '../../src/platform/xml/write-text.ts';
import { parseTrusted } from '../../src/platform/xml/index.ts';
import { newXmlDocument, withReferenceWriter, type XmlElementWriter } from '../../src/platform/xml/write.ts';
import { slovakHeader } from '../tax-data-document/support/headers.ts';
import { matrix } from '../ubl/support/matrix.ts';

const A = 'urn:example:a';
const B = 'urn:example:b';

/** The document `write` makes, as the writer writes it and as xmlbuilder2 does; `direct` false when the writer leaves it to xmlbuilder2. */
function both(namespace: string, name: string, attrs: Record<string, string> | undefined, write: (root: XmlElementWriter) => void) {
  const make = () => {
    const doc = newXmlDocument(namespace, name, attrs);
    write(doc.root);
    return doc.end();
  };
  const recorded: RecordedElement = { namespace, name, attrs, children: [] };
  // the same calls on a bare recorded tree, to ask the direct writer alone
  const record = (element: RecordedElement): XmlElementWriter => ({
    ele(ns, n, a) {
      const child: RecordedElement = { namespace: ns, name: n, attrs: a, children: [] };
      element.children.push({ kind: 'element', element: child });
      return record(child);
    },
    txt(text) {
      element.children.push({ kind: 'text', text });
      return record(element);
    },
    com(text) {
      element.children.push({ kind: 'comment', text });
      return record(element);
    },
  });
  write(record(recorded));
  return { written: make(), reference: withReferenceWriter(make), direct: writeText(recorded) !== null };
}

function same(namespace: string, name: string, attrs: Record<string, string> | undefined, write: (root: XmlElementWriter) => void): string {
  const { written, reference, direct } = both(namespace, name, attrs, write);
  expect(direct, 'written directly').to.equal(true);
  expect(written).to.equal(reference);
  return written;
}

describe('XML writer: xmlbuilder2\'s text without its DOM', function () {
  this.timeout(120_000);

  it('writes every UBL of the generated matrix, its TDD and its SBDH as xmlbuilder2 does', () => {
    const header = slovakHeader('C2', '0088:9482348239847239874');
    const documents = matrix();
    expect(documents.length).to.be.greaterThan(100);
    for (const content of documents) {
      const totals = computeTotals(content);
      const ubl = buildUbl(content, totals);
      expect(ubl, content.invoice_number).to.equal(withReferenceWriter(() => buildUbl(content, totals)));
      expect(buildTdd(ubl, header)).to.equal(withReferenceWriter(() => buildTdd(ubl, header)));
      const input = {
        sender: '0245:1234567890', receiver: '0245:2020273893', documentTypeId: documentTypeFor(content.invoice_type === '381' ? 'CreditNote' : 'Invoice'),
        processId: BILLING_PROCESS_ID, instanceId: 'msg-1', createdAt: new Date('2026-11-22T10:15:30.250Z'), countryC1: 'SK', document: ubl,
      };
      expect(wrapInSbdh(input)).to.equal(withReferenceWriter(() => wrapInSbdh(input)));
    }
  });

  it('escapes text and attribute values alike in both writers, every ampersand included: text is data, never a reference', () => {
    const awkward = ['a & b', 'a &amp; b', '&#123; &#x41; &lt;', '<tag> "quoted" \'single\'', 'tab\tnew\nline\rreturn', 'Žltý kôň – €', '', ' ', ']]>', '&', '&;', '&a1;', 'AT&T;'];
    const written = same(A, 'a:root', { 'xmlns:a': A }, (root) => {
      for (const text of awkward) root.ele(A, 'a:t', { v: text }).txt(text);
    });
    // read back by the one parser, every text and attribute value is what was written (a parser reads a CR in text as a line feed)
    const doc = parseTrusted(written);
    awkward.forEach((text, i) => {
      expect(String(doc.eval(`string((//*[local-name()="t"])[${i + 1}])`)), `text ${JSON.stringify(text)}`).to.equal(text.replace(/\r/g, '\n'));
      expect(String(doc.eval(`string((//*[local-name()="t"])[${i + 1}]/@v)`)), `attribute ${JSON.stringify(text)}`).to.equal(text.replace(/[\t\n\r]/g, ' '));
    });
    expect(written).to.include('<a:t v="AT&amp;T;">AT&amp;T;</a:t>').and.include('>a &amp;amp; b<');
  });

  it('pretty prints as xmlbuilder2: text-only elements on one line, empty ones shut, mixed content and comments on lines of their own', () => {
    const text = same(A, 'root', undefined, (root) => {
      root.ele(A, 'empty');
      root.ele(A, 'emptyText').txt('');
      root.ele(A, 'twoTexts').txt('one').txt('two');
      root.ele(A, 'emptyTexts').txt('').txt('');
      const mixed = root.ele(A, 'mixed');
      mixed.txt('before');
      mixed.ele(A, 'inner').txt('x');
      mixed.txt('after');
      mixed.com(' a comment ');
      root.com('last');
      root.ele(A, 'deep').ele(A, 'deeper').ele(A, 'deepest', { k: 'v' });
    });
    expect(text.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n<root xmlns="urn:example:a">\n  <empty/>\n')).to.equal(true);
    expect(text.endsWith('\n')).to.equal(false);
  });

  it('declares namespaces as xmlbuilder2\'s algorithm does', () => {
    // a prefix used without a declaration is declared where it is first used, before the attributes
    same(A, 'a:root', undefined, (root) => root.ele(B, 'b:child', { x: '1' }).ele(B, 'b:grandchild'));
    // a default namespace switched by an unprefixed element in another namespace, and back
    same(A, 'root', undefined, (root) => root.ele(B, 'child').ele(A, 'back').ele(B, 'again'));
    // a prefixed element in the namespace its parent made the default: the prefix is dropped
    same(A, 'root', undefined, (root) => root.ele(A, 'a:child'));
    // a declaration an ancestor already made is left out; a new one is kept, in attribute order
    same(A, 'a:root', { 'xmlns:a': A, 'xmlns:b': B }, (root) => root.ele(B, 'b:child', { 'xmlns:b': B, y: '2', 'xmlns:c': 'urn:example:c' }).ele('urn:example:c', 'c:x'));
    // the same prefix declared in sibling subtrees for different namespaces
    same(A, 'root', undefined, (root) => {
      root.ele(B, 'p:one');
      root.ele('urn:example:c', 'p:two');
    });
  });

  it('leaves to xmlbuilder2 what it does not reproduce, which then writes it as before', () => {
    const cases: [string, string, Record<string, string> | undefined, (root: XmlElementWriter) => void][] = [
      // a prefix bound again to another namespace below
      [A, 'p:root', undefined, (root) => root.ele(B, 'p:child')],
      // a namespace that already has another prefix
      [A, 'a:root', { 'xmlns:a': A, 'xmlns:b': B }, (root) => root.ele(B, 'x:child')],
      [A, 'a:root', { 'xmlns:b': B }, (root) => root.ele(B, 'child')],
      [A, 'root', { 'xmlns:a': A }, () => undefined],
      // a default namespace declared as an attribute, a prefixed attribute
      [A, 'root', { xmlns: A }, () => undefined],
      [A, 'root', { 'xml:lang': 'sk' }, () => undefined],
    ];
    for (const [namespace, name, attrs, write] of cases) {
      const { written, reference, direct } = both(namespace, name, attrs, write);
      expect(direct, `${name} ${JSON.stringify(attrs)}`).to.equal(false);
      expect(written).to.equal(reference);
    }
  });
});
