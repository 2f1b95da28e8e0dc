import { Type } from '@sinclair/typebox';
import { expect } from 'chai';
import { ComponentNameClash, SchemaComponents } from '../../src/platform/http/components.ts';

/** How the OpenAPI generator names bodies: once, meaningfully, and never one name for two schemas. */
describe('OpenAPI component names', () => {
  const components = () => new SchemaComponents(new Map(), [], []);

  it('names an inline body by its title, else by the name its operation derives', () => {
    const c = components();
    expect(c.body(Type.Object({ a: Type.String() }, { title: 'Thing' }), 'GetThingResponse')).to.deep.equal({ $ref: '#/components/schemas/Thing' });
    expect(c.body(Type.Object({ b: Type.String() }), 'CreateThingRequest')).to.deep.equal({ $ref: '#/components/schemas/CreateThingRequest' });
    expect(Object.keys(c.schemas)).to.deep.equal(['Thing', 'CreateThingRequest']);
  });

  it('shares one name between equal schemas and fails on two different schemas under one name', () => {
    const c = components();
    c.body(Type.Object({ a: Type.String() }, { title: 'Thing' }), 'X');
    expect(c.body(Type.Object({ a: Type.String() }, { title: 'Thing' }), 'Y')).to.deep.equal({ $ref: '#/components/schemas/Thing' });
    expect(() => c.body(Type.Object({ other: Type.Integer() }, { title: 'Thing' }), 'Z')).to.throw(ComponentNameClash, /Thing/);
    expect(() => new SchemaComponents(new Map(), [Type.String({ $id: 'a/Same' }), Type.Integer({ $id: 'b/Same' })], [])).to.throw(ComponentNameClash, /Same/);
  });

  it('says a default in the description instead of `default` (generators would make the field required)', () => {
    const c = components();
    const schema = c.use(Type.Object({ country_code: Type.Optional(Type.String({ default: 'SK', description: 'ISO 3166-1 alpha-2' })), default: Type.Optional(Type.Boolean()) }));
    expect(schema).to.deep.equal({
      type: 'object',
      properties: { country_code: { description: 'ISO 3166-1 alpha-2. Default: `SK` when left out.', type: 'string' }, default: { type: 'boolean' } },
    });
  });
});
