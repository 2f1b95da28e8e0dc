// firstAt / allAt compile an expression once per namespace map, with only the prefixes it uses:
// they must find exactly what libxml2's own get / find find with the whole map.
import { expect } from 'chai';
import { allAt, firstAt, parseTrusted } from '../../src/platform/xml/index.ts';

const NS = { inv: 'urn:oasis:names:specification:ubl:schema:xsd:Invoice-2', cac: 'urn:cac', cbc: 'urn:cbc', 'cac.x': 'urn:cac-x' };
const XML = `<Invoice xmlns="${NS.inv}" xmlns:cac="urn:cac" xmlns:cbc="urn:cbc" xmlns:x="urn:cac-x">
  <cbc:ID>F1</cbc:ID>
  <cac:Party><cbc:EndpointID schemeID="0245">2020</cbc:EndpointID><cbc:Name>A</cbc:Name></cac:Party>
  <cac:Party><cbc:EndpointID schemeID="9950">sk1</cbc:EndpointID><cbc:Name>B</cbc:Name></cac:Party>
  <x:Other>cac:Party is text here</x:Other>
</Invoice>`;

describe('XPath compiled once (firstAt, allAt)', () => {
  const doc = parseTrusted(XML);
  after(() => doc.dispose());
  const expressions = [
    'cbc:ID', 'child::cbc:ID', 'cac:Party/cbc:Name', "cac:Party[cbc:EndpointID/@schemeID = '9950']/cbc:Name", 'cac:Party/cbc:EndpointID/@schemeID',
    '/inv:Invoice/cac:Party[2]/cbc:Name', '(cac:Party)[last()]/cbc:Name', "cac:Party[normalize-space(cbc:Name)='A']", 'cac.x:Other', 'cbc:Missing', '*',
  ];

  for (const expression of expressions) {
    it(`finds what get/find find with the whole map: ${expression}`, () => {
      for (let call = 0; call < 2; call++) { // the second call takes the kept compiled expression
        expect(firstAt(doc.root, expression, NS)?.content ?? null).to.equal(doc.root.get(expression, NS)?.content ?? null);
        expect(allAt(doc.root, expression, NS).map((n) => n.content)).to.deep.equal(doc.root.find(expression, NS).map((n) => n.content));
      }
    });
  }

  it('refuses an expression with a prefix the map lacks, as get does', () => {
    expect(() => firstAt(doc.root, 'nope:ID', NS)).to.throw();
    expect(() => doc.root.get('nope:ID', NS)).to.throw();
  });
});
