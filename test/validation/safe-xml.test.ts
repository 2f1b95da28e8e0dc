import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { SLOVAK_SCHEMATRON } from '../../src/validation/artifacts.ts';
import { parseUntrusted } from '../../src/validation/safe-xml.ts';
import { XsdStage } from '../../src/validation/xsd.ts';
import { artifact, ARTIFACTS, needArtifacts } from './support/paths.ts';

const BASE = artifact('examples/peppol-bis-3.0.21/rules/examples/base-example.xml');
const SK_GOOD = path.join(path.dirname(SLOVAK_SCHEMATRON), 'tests', 'good', 'sk-invoice.xml');

function refusalOf(xml: string | Uint8Array): string {
  const r = parseUntrusted(xml);
  if (r.ok) {
    r.parsed.doc.dispose();
    return 'accepted';
  }
  return r.finding.rule;
}

describe('validation: safe parsing of untrusted XML', () => {
  it('refuses a billion-laughs document without expanding it', () => {
    const lol = `<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;"><!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">]><lolz>&lol3;</lolz>`;
    expect(refusalOf(lol)).to.equal('XML-DOCTYPE');
  });

  it('refuses an external entity (XXE), even after a comment', () => {
    const xxe = `<?xml version="1.0"?><!-- hi --><!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]><x>&e;</x>`;
    expect(refusalOf(xxe)).to.equal('XML-DOCTYPE');
  });

  it('refuses undeclared entities, deep nesting, oversize and malformed input cleanly', () => {
    expect(refusalOf('<x>&e;</x>')).to.equal('XML-MALFORMED');
    expect(refusalOf(`${'<a>'.repeat(100)}${'</a>'.repeat(100)}`)).to.equal('XML-TOO-DEEP');
    expect(refusalOf(Buffer.alloc(21 * 1024 * 1024, 0x20))).to.equal('XML-TOO-LARGE');
    const bad = parseUntrusted('<a><b></a>');
    expect(bad.ok).to.equal(false);
    if (!bad.ok) expect(bad.finding.location).to.match(/^\d+:\d+$/);
  });

  it('decodes a declared non-UTF-8 encoding once, not twice', () => {
    const bytes = Buffer.from('<?xml version="1.0" encoding="windows-1250"?><a>\x9e\xe9</a>', 'latin1');
    const r = parseUntrusted(bytes);
    expect(r.ok).to.equal(true);
    if (r.ok) {
      expect(r.parsed.doc.root.content).to.equal('\u017e\u00e9'); // ž é
      expect(r.parsed.text).to.match(/encoding="UTF-8"/);
      r.parsed.doc.dispose();
    }
  });

  it('accepts a UBL invoice given as bytes with a BOM and recognises its type', () => {
    const bytes = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), fs.readFileSync(SK_GOOD)]);
    const r = parseUntrusted(bytes);
    expect(r.ok).to.equal(true);
    if (r.ok) {
      expect(r.parsed.documentType).to.equal('Invoice');
      r.parsed.doc.dispose();
    }
  });
});

describe('validation: XSD stage', () => {
  before(needArtifacts);
  const xsd = new XsdStage(ARTIFACTS);
  after(() => xsd.dispose());

  function check(file: string): string[] {
    const r = parseUntrusted(fs.readFileSync(file));
    if (!r.ok || !r.parsed.documentType) throw new Error(`cannot parse ${file}`);
    try {
      return xsd.validate(r.parsed.doc, r.parsed.documentType).map((f) => f.message);
    } finally {
      r.parsed.doc.dispose();
    }
  }

  it('passes the official invoice and credit-note examples', () => {
    expect(check(BASE)).to.deep.equal([]);
    expect(check(artifact('examples/peppol-bis-3.0.21/rules/examples/base-creditnote-correction.xml'))).to.deep.equal([]);
  });

  it('reports the known element-order error of the Greek national example with a line number', () => {
    const errors = check(artifact('examples/peppol-bis-3.0.19/rules/national-examples/GR/GR-base-example-correct.xml'));
    expect(errors).to.have.length.greaterThan(0);
    expect(errors[0]).to.contain('AdditionalDocumentReference');
  });

  it('validates quickly once the schema is loaded', () => {
    const started = performance.now();
    for (let i = 0; i < 20; i++) check(BASE);
    expect((performance.now() - started) / 20).to.be.lessThan(50);
  });
});
