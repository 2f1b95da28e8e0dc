// The subset of ISO Schematron the engine compiles, as plain data.

export interface SchLet {
  name: string;
  /** XPath expression. */
  value: string;
}

export type MessagePart = { text: string } | { select: string } | { name: string | null };

export interface SchCheck {
  kind: 'assert' | 'report';
  id: string;
  flag: 'fatal' | 'warning';
  test: string;
  message: MessagePart[];
}

export interface SchRule {
  context: string;
  lets: SchLet[];
  checks: SchCheck[];
}

export interface SchPattern {
  id: string | null;
  /** Pattern-level lets: global, evaluated against the document node. */
  lets: SchLet[];
  rules: SchRule[];
}

export interface SchSchema {
  /** prefix -> namespace URI, from `ns` elements and the root's own declarations. */
  namespaces: Map<string, string>;
  /** Schema-level lets in document order. */
  lets: SchLet[];
  /** XSLT declarations (xsl:function, xsl:key, ...) serialized as they appear. */
  xslDeclarations: string[];
  patterns: SchPattern[];
}
