import type { TSchema } from '@sinclair/typebox';

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => v !== null && typeof v === 'object' && !Array.isArray(v);
// OpenAPI component names allow only these characters
const componentName = (id: string) => id.replace(/^.*[/#]/, '').replace(/\.json$/, '').replace(/[^A-Za-z0-9._-]/g, '_') || 'Schema';

/**
 * The document's `components.schemas`: named shared schemas, plus every sub-schema that has an
 * `$id`, hoisted once and referenced by `$ref` (TypeBox `Type.Ref(x)` refs are rewritten to match).
 */
export class SchemaComponents {
  readonly schemas: Record<string, Json> = {};
  private readonly named = new Map<TSchema, string>();
  private readonly ids = new Map<string, string>();

  constructor(named: ReadonlyMap<TSchema, string>, shared: readonly TSchema[], all: readonly TSchema[]) {
    for (const s of [...shared, ...all]) this.collectIds(s);
    for (const [schema, name] of named) this.named.set(schema, name);
    for (const s of shared) this.use(s);
  }

  /** A schema as the document holds it: a $ref to a component, or plain JSON Schema. */
  use(schema: TSchema): Json {
    const name = this.named.get(schema);
    if (name) {
      // a named schema becomes a component when first used: a door that never uses it does not list it
      if (!(name in this.schemas)) this.schemas[name] = this.convert(JSON.parse(JSON.stringify(schema)) as unknown) as Json;
      return { $ref: `#/components/schemas/${name}` };
    }
    // TypeBox marks schemas with symbol keys; the JSON round trip leaves plain JSON Schema
    return this.convert(JSON.parse(JSON.stringify(schema)) as unknown) as Json;
  }

  private collectIds(node: unknown): void {
    if (Array.isArray(node)) return node.forEach((n) => this.collectIds(n));
    if (!isObject(node)) return;
    const id = node['$id'];
    if (typeof id === 'string' && !this.ids.has(id)) {
      let name = componentName(id);
      while (Object.values(Object.fromEntries(this.ids)).includes(name)) name = `${name}_`;
      this.ids.set(id, name);
    }
    Object.values(node).forEach((v) => this.collectIds(v));
  }

  private convert(node: unknown): unknown {
    if (Array.isArray(node)) return node.map((n) => this.convert(n));
    if (!isObject(node)) return node;
    const id = node['$id'];
    const ref = node['$ref'];
    if (typeof id === 'string') {
      const name = this.ids.get(id) ?? componentName(id);
      if (!(name in this.schemas)) {
        this.schemas[name] = {}; // placeholder first: a recursive schema refers to itself
        const { $id: _id, ...rest } = node;
        this.schemas[name] = this.convert(rest) as Json;
      }
      return { $ref: `#/components/schemas/${name}` };
    }
    const out: Json = {};
    for (const [k, v] of Object.entries(node)) out[k] = this.convert(v);
    if (typeof ref === 'string' && this.ids.has(ref)) out['$ref'] = `#/components/schemas/${this.ids.get(ref) ?? ''}`;
    return out;
  }
}
