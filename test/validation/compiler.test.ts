// Each Schematron feature the official rule files use, on a small schema compiled by our compiler.
import { expect } from 'chai';
import { allChecks, compileToXslt } from '../../src/platform/validation/schematron/compile.ts';
import { rewriteMod97 } from '../../src/platform/validation/schematron/mod97.ts';
import { parseSchematron } from '../../src/platform/validation/schematron/parse.ts';
import { ruleSetFromSef, type RuleSet } from '../../src/platform/validation/schematron/ruleset.ts';
import { cachedSef, sha256 } from '../../src/platform/validation/schematron/sef.ts';
import type { Finding } from '../../src/platform/validation/types.ts';
import { CACHE } from './support/paths.ts';

const SCH = `<?xml version="1.0" encoding="UTF-8"?>
<schema xmlns="http://purl.oclc.org/dsdl/schematron" xmlns:u="utils" queryBinding="xslt2">
  <ns prefix="t" uri="urn:test"/>
  <ns prefix="xs" uri="http://www.w3.org/2001/XMLSchema"/>
  <let name="currency" value="/*/t:Currency"/>
  <let name="isEUR" value="$currency = 'EUR'"/>
  <function xmlns="http://www.w3.org/1999/XSL/Transform" name="u:twice" as="xs:integer">
    <param name="v" as="xs:integer"/>
    <sequence select="$v * 2"/>
  </function>
  <pattern id="first-wins">
    <let name="lineCount" value="count(//t:Line)"/>
    <rule context="t:Line[@special]">
      <assert id="T-SPECIAL" flag="fatal" test="false()">special line <value-of select="@id"/></assert>
    </rule>
    <rule context="t:Line">
      <let name="q" value="number(t:Qty)"/>
      <let name="double" value="$q * 2"/>
      <assert id="T-QTY" flag="warning" test="$double &lt; 10">line <value-of select="@id"/> doubled is <value-of select="$double"/></assert>
      <report id="T-REPORT" flag="fatal" test="u:twice(xs:integer($q)) = 6">reported <name/></report>
    </rule>
  </pattern>
  <pattern>
    <rule context="(t:Line | t:Note)[$isEUR]">
      <assert id="T-EUR" flag="fatal" test="$lineCount = 3">EUR only with 3 lines</assert>
    </rule>
    <rule context="t:Line">
      <assert id="T-NEVER" flag="fatal" test="false()">a second pattern still sees every line</assert>
    </rule>
    <rule context="t:Iban">
      <assert id="T-IBAN" flag="fatal" test="xs:integer(string-join(for $c in string-to-codepoints(concat(substring(.,5), substring(., 1, 4))) return (if ($c &gt; 64) then string($c - 55) else string($c - 48)), '')) mod 97 = 1">bad IBAN</assert>
      <assert id="T-ERROR" flag="warning" test="xs:integer('not a number') = 1">this rule raises a dynamic error</assert>
    </rule>
  </pattern>
</schema>`;

const DOC = `<Doc xmlns="urn:test"><Currency>EUR</Currency>
  <Line id="1"><Qty>1</Qty></Line>
  <Line id="2"><Qty>3</Qty></Line>
  <Line id="3" special="yes"><Qty>9</Qty></Line>
  <Iban>DE75512108001245126199</Iban><Iban>DE75512108001245126198</Iban>
</Doc>`;

describe('validation: Schematron compiler', () => {
  let rules: RuleSet;
  let findings: Finding[];
  const ids = (): string[] => findings.map((f) => f.rule).sort();

  before(async function () {
    this.timeout(120_000);
    const schema = parseSchematron(SCH);
    const xslt = compileToXslt(schema);
    const { sef } = await cachedSef(CACHE, 'compiler-test', sha256(SCH), xslt);
    rules = ruleSetFromSef(sef, 'inline', 'sk', allChecks(schema));
    findings = rules.run(DOC);
  });

  it('lets the first matching rule of a pattern win, and runs every pattern', () => {
    expect(findings.filter((f) => f.rule === 'T-SPECIAL').map((f) => f.message)).to.deep.equal(['special line 3']);
    // line 3 matched T-SPECIAL first, so the generic Line rule of that pattern skipped it
    expect(findings.filter((f) => f.rule === 'T-REPORT')).to.have.length(1);
    expect(ids()).not.to.include('T-NEVER');
  });

  it('evaluates rule lets in order, in the rule context, and fills value-of and name', () => {
    const qty = findings.filter((f) => f.rule === 'T-QTY');
    expect(qty).to.have.length(0); // lines 1 and 2 double to 2 and 6; line 3 was taken by the first rule
    expect(findings.find((f) => f.rule === 'T-REPORT')?.message).to.equal('reported Line');
    expect(findings.find((f) => f.rule === 'T-REPORT')?.location).to.equal('/Doc[1]/Line[2]');
  });

  it('uses schema- and pattern-level lets in XSLT 3 match patterns like (A|B)[$x]', () => {
    expect(ids()).not.to.include('T-EUR'); // 3 lines: holds
    const other = rules.run(DOC.replace('<Line id="3" special="yes"><Qty>9</Qty></Line>', ''));
    expect(other.filter((f) => f.rule === 'T-EUR')).to.have.length(2);
    const usd = rules.run(DOC.replace('EUR', 'USD').replace('<Line id="3" special="yes"><Qty>9</Qty></Line>', ''));
    expect(usd.filter((f) => f.rule === 'T-EUR')).to.have.length(0);
  });

  it('computes big-integer mod 97 exactly (the SaxonJS IBAN pitfall)', () => {
    const iban = findings.filter((f) => f.rule === 'T-IBAN');
    expect(iban.map((f) => f.location)).to.deep.equal(['/Doc[1]/Iban[2]']);
    expect(rewriteMod97('xs:integer($a) mod 97 = 1')).to.contain('skv:mod97');
    expect(rewriteMod97('3 * xs:integer($a) mod 97')).to.equal('3 * xs:integer($a) mod 97');
  });

  it('turns a dynamic error inside one rule into a fatal finding and keeps running the others', () => {
    const errors = findings.filter((f) => f.rule === 'T-ERROR');
    expect(errors).to.have.length(2);
    expect(errors[0]?.flag).to.equal('fatal');
    expect(errors[0]?.message).to.match(/could not be evaluated/);
  });

  it('reports an unusable document as one engine finding instead of throwing', () => {
    const broken = rules.run('<not-closed>');
    expect(broken).to.have.length(1);
    expect(broken[0]?.rule).to.equal('SK-ENGINE-ERROR');
  });
});
