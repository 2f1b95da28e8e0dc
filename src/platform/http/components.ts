import type { TSchema } from '@sinclair/typebox';

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => v !== null && typeof v === 'object' && !Array.isArray(v);
// OpenAPI component names allow only these characters
const componentName = (id: string) => id.replace(/^.*[/#]/, '').replace(/\.json$/, '').replace(/[^A-Za-z0-9._-]/g, '_') || 'Schema';
// keys whose value maps names to schemas: a property called `default` is not a default
const SCHEMA_MAPS = new Set(['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas']);

/** A component name taken twice by different schemas: the document would silently mean one of them. */
export class ComponentNameClash extends Error {
  constructor(name: string, first: string, second: string) {
    super(`OpenAPI component name ${name} is taken by two different schemas (${first}; ${second}): give one a title or $id of its own`);
    this.name = 'ComponentNameClash';
  }
}

/**
 * The document's `components.schemas`: named shared schemas, every sub-schema that has an `$id`
 * (hoisted once and referenced by `$ref`; TypeBox `Type.Ref(x)` refs are rewritten to match), and
 * every request and response body, named by its title or by the name its route derives.
 *
 * `default` is kept out of the document (said in the description instead): common generators
 * (openapi-typescript's defaultNonNullable) make a property with a default required, so a client
 * would have to send what the server fills in itself. Validation still applies the defaults.
 */
export class SchemaComponents {
  readonly schemas: Record<string, Json> = {};
  private readonly named = new Map<TSchema, string>();
  private readonly ids = new Map<string, string>();
  /** who holds each name: an `$id`, a named shared schema or a body's content; a second holder is a clash */
  private readonly holders = new Map<string, string>();

  constructor(named: ReadonlyMap<TSchema, string>, shared: readonly TSchema[], all: readonly TSchema[]) {
    for (const s of [...shared, ...all]) this.collectIds(s);
    for (const [schema, name] of named) {
      this.claim(name, `named ${name}`);
      this.named.set(schema, name);
    }
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

  /**
   * A request or response body: always a `$ref` to a named component. A schema with an `$id` keeps
   * that name, one with a `title` takes it, any other takes `fallback` (derived from the operation).
   * The same content under one name is shared; different content under one name fails the boot.
   */
  body(schema: TSchema, fallback: string): Json {
    const converted = this.use(schema);
    if (typeof converted['$ref'] === 'string' && Object.keys(converted).length === 1) return converted;
    const title = converted['title'];
    const name = typeof title === 'string' ? componentName(title) : componentName(fallback);
    const content = JSON.stringify(converted);
    this.claim(name, `content ${content}`);
    this.schemas[name] = converted;
    return { $ref: `#/components/schemas/${name}` };
  }

  private claim(name: string, holder: string): void {
    const held = this.holders.get(name);
    if (held !== undefined && held !== holder) throw new ComponentNameClash(name, held.slice(0, 120), holder.slice(0, 120));
    this.holders.set(name, holder);
  }

  private collectIds(node: unknown): void {
    if (Array.isArray(node)) return node.forEach((n) => this.collectIds(n));
    if (!isObject(node)) return;
    const id = node['$id'];
    if (typeof id === 'string' && !this.ids.has(id)) {
      const name = componentName(id);
      this.claim(name, `$id ${id}`);
      this.ids.set(id, name);
    }
    Object.values(node).forEach((v) => this.collectIds(v));
  }

  private convert(node: unknown, isSchemaMap = false): unknown {
    if (Array.isArray(node)) return node.map((n) => this.convert(n));
    if (!isObject(node)) return node;
    const id = node['$id'];
    const ref = node['$ref'];
    if (typeof id === 'string' && !isSchemaMap) {
      const name = this.ids.get(id) ?? componentName(id);
      if (!(name in this.schemas)) {
        this.schemas[name] = {}; // placeholder first: a recursive schema refers to itself
        const { $id: _id, ...rest } = node;
        this.schemas[name] = this.convert(rest) as Json;
      }
      return { $ref: `#/components/schemas/${name}` };
    }
    const out: Json = {};
    for (const [k, v] of Object.entries(node)) {
      if (k === 'default' && !isSchemaMap) continue;
      out[k] = this.convert(v, !isSchemaMap && SCHEMA_MAPS.has(k));
    }
    if (!isSchemaMap && 'default' in node) out['description'] = withDefault(out['description'], node['default']);
    if (typeof ref === 'string' && this.ids.has(ref)) out['$ref'] = `#/components/schemas/${this.ids.get(ref) ?? ''}`;
    return out;
  }
}

/** The description with the default the server fills in said in words. */
function withDefault(description: unknown, value: unknown): string {
  const said = `Default: \`${typeof value === 'string' ? value : JSON.stringify(value)}\` when left out.`;
  return typeof description === 'string' && description !== '' ? `${description.replace(/\.?\s*$/, '.')} ${said}` : said;
}
