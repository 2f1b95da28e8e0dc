// What the compiled engine cannot translate or be sure of runs in SaxonJS, and the findings stay the
// reference's, in the reference's order: a pattern with an untranslatable rule (between compiled
// ones), and documents that raise a dynamic error or hold values the engine refuses to guess.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { xpathRegex } from '../../src/platform/validation/compiled/regex.ts';
import { Refusal, XPathError } from '../../src/platform/validation/compiled/values.ts';
import { loadRuleSet, type RuleSet } from '../../src/platform/validation/schematron/ruleset.ts';
import type { Finding } from '../../src/platform/validation/types.ts';

const SCH = `<?xml version="1.0" encoding="UTF-8"?>
<schema xmlns="http://purl.oclc.org/dsdl/schematron" queryBinding="xslt2">
  <ns prefix="t" uri="urn:test"/>
  <ns prefix="xs" uri="http://www.w3.org/2001/XMLSchema"/>
  <pattern id="compiled-before">
    <rule context="t:Line">
      <assert id="T-QTY" flag="fatal" test="xs:decimal(t:Qty) &lt; 10">line <value-of select="@n"/> quantity too large</assert>
    </rule>
  </pattern>
  <pattern id="falls-back">
    <rule context="t:Line[@special]">
      <assert id="T-WORD" flag="warning" test="matches(t:Name, '^\\w+$')">special line name is not one word</assert>
    </rule>
    <rule context="t:Line">
      <report id="T-EVERY" flag="warning" test="t:Name = 'x'">a line named x</report>
    </rule>
  </pattern>
  <pattern id="compiled-after">
    <rule context="t:Doc">
      <assert id="T-COUNT" flag="fatal" test="count(t:Line) &lt; 3">more than two lines</assert>
      <assert id="T-BIG" flag="fatal" test="xs:integer(t:Big) &gt; 0">big is not positive</assert>
    </rule>
  </pattern>
</schema>`;

const doc = (lines: string, big = '5'): string =>
  `<t:Doc xmlns:t="urn:test"><t:Big>${big}</t:Big>${lines}</t:Doc>`;

const key = (f: Finding<string>): string => `${f.rule}|${f.flag}|${f.location}|${f.message}`;

describe('validation: compiled engine falls back to SaxonJS exactly', function () {
  this.timeout(300_000);
  let dir: string;
  let compiled: RuleSet<string>;
  let reference: RuleSet<string>;

  before(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'compiled-fallback-'));
    const file = path.join(dir, 'test.sch');
    fs.writeFileSync(file, SCH);
    compiled = await loadRuleSet(file, 'test', dir, { engine: 'compiled' });
    reference = await loadRuleSet(file, 'test', dir, { engine: 'saxonjs' });
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('runs the pattern with an untranslatable rule in SaxonJS, the others compiled, findings in order', () => {
    expect(compiled.stats?.fallbackRules).to.equal(1);
    expect(compiled.stats?.patterns.map((p) => p.compiled)).to.deep.equal([true, false, true]);
    const xml = doc(
      '<t:Line n="1"><t:Qty>12</t:Qty><t:Name>x</t:Name></t:Line><t:Line n="2" special="y"><t:Qty>1</t:Qty><t:Name>two words</t:Name></t:Line><t:Line n="3"><t:Qty>3</t:Qty><t:Name>x</t:Name></t:Line>',
    );
    const expected = reference.run(xml).map(key);
    expect(expected.map((f) => f.split('|')[0])).to.deep.equal(['T-QTY', 'T-EVERY', 'T-WORD', 'T-EVERY', 'T-COUNT']);
    expect(compiled.run(xml).map(key)).to.deep.equal(expected);
  });

  it('hands a document with a dynamic error or a refused value to SaxonJS, which words the finding', () => {
    for (const xml of [
      doc('<t:Line n="1"><t:Qty>lots</t:Qty><t:Name>a</t:Name></t:Line>'), // xs:decimal('lots')
      doc('<t:Line n="1"><t:Qty>1</t:Qty><t:Qty>2</t:Qty><t:Name>a</t:Name></t:Line>'), // two quantities
      doc('', '12345678901234567890'), // an integer beyond 2^52
    ]) {
      const before = compiled.stats?.dynamicFallbacks ?? 0;
      const expected = reference.run(xml).map(key);
      expect(compiled.run(xml).map(key)).to.deep.equal(expected);
      expect(compiled.stats?.dynamicFallbacks).to.equal(before + 1);
    }
    expect(compiled.stats?.internalErrors).to.equal(0);
  });
});

describe('validation: XPath regular expressions', () => {
  it('translates what SaxonJS translates and refuses the rest', () => {
    expect(xpathRegex('^[0-9]{2}\\s\\d$').test('12 ٣')).to.equal(true);
    expect(xpathRegex('[-\\\\/ ]').test('\\')).to.equal(true);
    expect(xpathRegex('^[a-z!#$%&"*+/=?^_`{|}~-]+$').test('a{b}|c')).to.equal(true);
    for (const refused of ['\\w', '\\i', '[a-[b]]', '\\p{IsBasicLatin}', '(a)\\1', '(?=a)']) {
      expect(() => xpathRegex(refused), refused).to.throw(Refusal);
    }
    // the i flag is JavaScript's i beside u, as in SaxonJS; the other flags are refused
    expect(xpathRegex('^[0-9]{6}-[A-Z_]{3,12}$', 'i').test('123456-mls_a')).to.equal(true);
    expect(xpathRegex('^[0-9]{6}-[A-Z_]{3,12}$').test('123456-mls_a')).to.equal(false);
    for (const flags of ['s', 'm', 'x', 'q', 'is']) expect(() => xpathRegex('a', flags), flags).to.throw(Refusal);
    for (const invalid of ['a{,2}', 'a}', '[b-a]', '(a', '\\q']) {
      expect(() => xpathRegex(invalid), invalid).to.throw(XPathError);
    }
  });
});
