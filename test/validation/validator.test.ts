// The library API: worker pool, missing bundles, refusals as findings.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { SLOVAK_SCHEMATRON } from '../../src/platform/validation/artifacts.ts';
import { createValidator, type Validator } from '../../src/platform/validation/index.ts';
import { XsdStage } from '../../src/platform/validation/xsd.ts';
import { ENTITY_TEXT, encode, goodInvoiceDeclaring, invoiceWithEntity, UTFS } from './support/encodings.ts';
import { invoiceWithNotes } from './support/generate-invoice.ts';
import { artifact, ARTIFACTS, CACHE, needArtifacts } from './support/paths.ts';

const BASE = artifact('examples/peppol-bis-3.0.21/rules/examples/base-example.xml');

describe('validation: createValidator (worker pool)', function () {
  this.timeout(300_000);
  before(needArtifacts);
  let pool: Validator | undefined;
  const validator = {
    validate: (xml: string | Uint8Array) => {
      if (!pool) throw new Error('validator not started');
      return pool.validate(xml);
    },
  };
  before(async () => {
    pool = await createValidator({ artifactsDir: ARTIFACTS, cacheDir: CACHE, workers: 2 });
  });
  after(() => pool?.close());

  it('validates an official example in the pool without blocking the event loop', async () => {
    // off the loop: the loop's next turn comes before any answer (a validation on this thread, even
    // one resolving at once, would answer first), whatever the engine's speed
    const order: string[] = [];
    const xml = fs.readFileSync(BASE);
    const validating = Promise.all([validator.validate(xml), validator.validate(xml.toString('utf8')), validator.validate(xml)]);
    void validating.then(() => order.push('answered'));
    setImmediate(() => order.push('next turn of the loop'));
    const reports = await validating;
    for (const r of reports) {
      expect(r.document_type).to.equal('Invoice');
      expect([r.xsd_valid, r.peppol_valid]).to.deep.equal([true, true]);
      expect(r.errors).to.deep.equal([]);
      expect(r.schemas_available).to.deep.equal({ xsd_invoice: true, schematron_peppol: true, schematron_slovak: true });
    }
    expect(order).to.deep.equal(['next turn of the loop', 'answered']);
  });

  it('answers a billion-laughs document with a refusal finding, not a crash', async () => {
    const r = await validator.validate('<!DOCTYPE a [<!ENTITY a "aaaa"><!ENTITY b "&a;&a;&a;">]><Invoice>&b;</Invoice>');
    expect(r.errors.map((e) => e.rule)).to.deep.equal(['XML-DOCTYPE']);
    expect([r.xsd_valid, r.peppol_valid, r.slovak_valid]).to.deep.equal([false, null, null]);
  });

  it('reports a non-UBL root and a schema-invalid invoice as fatal findings', async () => {
    const other = await validator.validate('<Order xmlns="urn:x"/>');
    expect(other.errors[0]?.rule).to.equal('XML-NOT-UBL');
    const invalid = await validator.validate(fs.readFileSync(BASE, 'utf8').replace('<cbc:IssueDate>', '<cbc:Bogus>x</cbc:Bogus><cbc:IssueDate>'));
    expect(invalid.xsd_valid).to.equal(false);
    expect(invalid.errors.some((e) => e.source === 'xsd')).to.equal(true);
  });
});

describe('validation: missing bundles', () => {
  it('never reports a stage valid that did not run, and says why', async () => {
    const empty = fs.mkdtempSync(path.join(os.tmpdir(), 'no-artifacts-'));
    const v = await createValidator({ artifactsDir: empty, cacheDir: CACHE, workers: 0 });
    try {
      const r = await v.validate(fs.readFileSync(path.join(path.dirname(SLOVAK_SCHEMATRON), 'tests', 'good', 'sk-invoice.xml')));
      expect(r.schemas_available).to.deep.equal({ xsd_invoice: false, schematron_peppol: false, schematron_slovak: true });
      expect([r.xsd_valid, r.peppol_valid]).to.deep.equal([null, null]);
      const unavailable = r.warnings.filter((w) => w.rule === 'VALIDATION-UNAVAILABLE');
      expect(unavailable.map((w) => w.source).sort()).to.deep.equal(['cen', 'peppol', 'xsd'].sort());
      expect(unavailable[0]?.message).to.match(/VALIDATION_ARTIFACTS_DIR/);
    } finally {
      await v.close();
      fs.rmSync(empty, { recursive: true, force: true });
    }
  });
});

describe('validation: hostile documents in the calling thread', function () {
  this.timeout(300_000);
  before(needArtifacts);
  let validator: Validator | undefined;
  const validate = (xml: string | Uint8Array) => {
    if (!validator) throw new Error('validator not started');
    return validator.validate(xml);
  };
  before(async () => {
    validator = await createValidator({ artifactsDir: ARTIFACTS, cacheDir: CACHE, workers: 0 });
  });
  after(() => validator?.close());

  it('refuses a DOCTYPE in UTF-16 and UTF-32, with or without BOM, and no entity text reaches the report', async () => {
    for (const utf of UTFS) {
      for (const bom of [false, true]) {
        for (const external of [false, true]) {
          const r = await validate(encode(invoiceWithEntity(utf, external), utf, bom));
          expect(r.errors.map((e) => e.rule), `${utf} bom=${bom} external=${external}`).to.deep.equal([utf.startsWith('UTF-16') ? 'XML-DOCTYPE' : 'XML-ENCODING-UNSUPPORTED']);
          expect(JSON.stringify(r)).to.not.contain(ENTITY_TEXT);
        }
      }
    }
  });

  it('validates a UTF-16 invoice (BOM or not) like its UTF-8 original', async () => {
    for (const utf of ['UTF-16LE', 'UTF-16BE'] as const) {
      for (const bom of [false, true]) {
        const r = await validate(encode(goodInvoiceDeclaring(utf), utf, bom));
        expect([r.document_type, r.xsd_valid, r.peppol_valid, r.slovak_valid, r.errors]).to.deep.equal(['Invoice', true, true, true, []]);
      }
    }
  });

  it('refuses 200,000 notes with XML-TOO-MANY-ELEMENTS instead of spending a minute on them', async () => {
    const r = await validate(Buffer.from(invoiceWithNotes(200_000)));
    expect(r.errors.map((e) => e.rule)).to.deep.equal(['XML-TOO-MANY-ELEMENTS']);
    expect([r.xsd_valid, r.peppol_valid, r.slovak_valid]).to.deep.equal([false, null, null]);
  });

  it('refuses 200,000 attributes with XML-TOO-MANY-ATTRIBUTES (they once overflowed the stack)', async () => {
    const attributes = Array.from({ length: 200_000 }, (_, i) => ` a${i}=""`).join('');
    const r = await validate(goodInvoiceDeclaring('UTF-16LE').replace('UTF-16', 'UTF-8').replace('<cbc:InvoiceTypeCode>', `<cbc:InvoiceTypeCode${attributes}>`));
    expect(r.errors.map((e) => e.rule)).to.deep.equal(['XML-TOO-MANY-ATTRIBUTES']);
  });

  it('turns an exception inside a stage into a VALIDATION-ENGINE-ERROR finding, as the pool does', async () => {
    const original = XsdStage.prototype.validate;
    XsdStage.prototype.validate = () => {
      throw new Error('stage exploded');
    };
    try {
      const r = await validate(goodInvoiceDeclaring('UTF-16LE').replace('UTF-16', 'UTF-8'));
      expect(r.errors.map((e) => [e.rule, e.message])).to.deep.equal([['VALIDATION-ENGINE-ERROR', 'The validation engine failed: stage exploded']]);
    } finally {
      XsdStage.prototype.validate = original;
    }
  });
});
