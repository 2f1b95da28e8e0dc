// A rule file's own xsl:key and fn:key, compiled: the semantics the Peppol Reporting rules rely on and
// the rest of XSLT 3.0's key(), each against SaxonJS on the same document. Several values per node,
// predicates in the match pattern, a sequence of search values, no match, a node found through two
// of its values listed once, attributes as keyed nodes, and key() inside a predicate; a key value that
// is not a string hands the document to SaxonJS.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { loadRuleSet, type RuleSet } from '../../src/platform/validation/schematron/ruleset.ts';
import type { Finding } from '../../src/platform/validation/types.ts';

const SCH = `<?xml version="1.0" encoding="UTF-8"?>
<schema xmlns="http://purl.oclc.org/dsdl/schematron" xmlns:xsl="http://www.w3.org/1999/XSL/Transform" queryBinding="xslt2">
  <ns prefix="t" uri="urn:test"/>
  <xsl:key name="by-tag" match="/t:Doc/t:Item[normalize-space(@kind) = 'a']" use="t:Tag"/>
  <xsl:key name="by-code" match="t:Item" use="(@code, upper-case(@code))"/>
  <xsl:key name="refs" match="@ref" use="."/>
  <xsl:key name="mixed" match="t:Item" use="if (@kind = 'a') then 1 else 'x'"/>
  <pattern id="lookups">
    <rule context="t:Probe">
      <report id="TAG" test="true()">tag <value-of select="@tag"/>: <value-of select="key('by-tag', @tag)/@n"/>.</report>
      <report id="TAGS" test="true()">tags <value-of select="@tags"/>: <value-of select="key('by-tag', tokenize(@tags, ' '))/@n"/>.</report>
      <report id="CODE" test="exists(@code)">code <value-of select="@code"/>: <value-of select="count(key('by-code', string(@code)))"/> item(s).</report>
      <report id="REF" test="exists(@ref)">ref <value-of select="@ref"/>: <value-of select="key('refs', @ref)/../@n"/>.</report>
    </rule>
  </pattern>
  <pattern id="in-predicate">
    <rule context="t:Item[key('by-tag', 'x') intersect .]">
      <assert id="X-TAGGED" test="false()">item <value-of select="@n"/> is tagged x</assert>
    </rule>
  </pattern>
  <pattern id="refused">
    <rule context="t:Other">
      <report id="MIXED" test="true()">found <value-of select="key('mixed', 'x')/@n"/></report>
    </rule>
  </pattern>
</schema>`;

const DOC = `<t:Doc xmlns:t="urn:test">
  <t:Item n="1" kind="a" code="ab" ref="r1"><t:Tag>x</t:Tag><t:Tag>y</t:Tag></t:Item>
  <t:Item n="2" kind=" a " code="AB"><t:Tag>y</t:Tag><t:Tag>y</t:Tag></t:Item>
  <t:Item n="3" kind="b" code="cd" ref="r1"><t:Tag>x</t:Tag></t:Item>
  <t:Item n="4" kind="a"><t:Tag> x</t:Tag></t:Item>
  <t:Probe tag="x" tags="y x" code="AB" ref="r1"/>
  <t:Probe tag="y" tags="x y z" code="cd"/>
  <t:Probe tag="z" tags="" ref="r2"/>
</t:Doc>`;

const key = (f: Finding<string>): string => `${f.rule}|${f.flag}|${f.location}|${f.message}`;

describe('validation: compiled xsl:key and key()', function () {
  this.timeout(300_000);
  let dir: string;
  let compiled: RuleSet<string>;
  let reference: RuleSet<string>;

  before(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'compiled-keys-'));
    const file = path.join(dir, 'keys.sch');
    fs.writeFileSync(file, SCH);
    compiled = await loadRuleSet(file, 'test', dir, { engine: 'compiled' });
    reference = await loadRuleSet(file, 'test', dir, { engine: 'saxonjs' });
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('compiles every rule that uses a key', () => {
    expect(compiled.stats?.fallbackRules).to.equal(0);
  });

  it('finds what SaxonJS finds: values, predicates, sequences, no match, each node once, in document order', () => {
    const messages = compiled.run(DOC).map((f) => `${f.rule} ${f.message}`);
    expect(messages).to.deep.equal([
      'TAG tag x: 1.', // item 3 is of kind b, item 4's tag is ' x': strings are not normalised
      'TAGS tags y x: 1 2.', // item 1 has both values, item 2 has y twice: each once, in document order
      'CODE code AB: 2 item(s).', // item 1 through upper-case(@code), item 2 through both of its values
      'REF ref r1: 1 3.', // attributes are keyed nodes too
      'TAG tag y: 1 2.',
      'TAGS tags x y z: 1 2.',
      'CODE code cd: 1 item(s).',
      'TAG tag z: .', // no match: the empty sequence
      'TAGS tags : .', // no search value
      'REF ref r2: .',
      'X-TAGGED item 1 is tagged x',
    ]);
    expect(compiled.stats?.dynamicFallbacks).to.equal(0);
    expect(compiled.run(DOC).map(key)).to.deep.equal(reference.run(DOC).map(key));
  });

  it('hands a document to SaxonJS when a key value is not a string', () => {
    const xml = DOC.replace('</t:Doc>', '<t:Other/></t:Doc>');
    expect(compiled.run(xml).map(key)).to.deep.equal(reference.run(xml).map(key));
    expect(compiled.stats?.dynamicFallbacks).to.equal(1);
    expect(compiled.stats?.lastFallbackReason).to.contain('a key value of type xs:integer');
  });
});
